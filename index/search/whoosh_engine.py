"""Plans run on Whoosh: compiled to Whoosh query objects in code (never through Whoosh's query
parser, which can raise, nor its prefix, wildcard or fuzzy queries, which expand without
limit), collected exactly, and counted as SQLite FTS5 counts them."""

from __future__ import annotations

from collections import Counter

from whoosh import query as Q
from whoosh.collectors import Collector, FilterCollector, TopCollector, UnlimitedCollector
from whoosh.index import Index
from whoosh.searching import Searcher as WhooshSearcher

from paperterm.index.search.analysis import FieldAnalysis
from paperterm.index.search.engine import Scored
from paperterm.index.search.plan import Alternative, AnyOf, Plan, Term


def compile_plan(plan: Plan) -> Q.Query:
    """The Whoosh query that matches and scores what `plan` says."""
    groups = [compile_group(group) for group in plan.required]
    query: Q.Query
    if not groups:
        query = Q.Every()
    elif plan.requires_all:
        query = Q.And(groups)
    else:  # at least `minimum` of them: `WhooshEngine.collect` filters for more than one
        query = Q.Or(groups)
    if plan.boosts:
        query = Q.AndMaybe(query, Q.Or([compile_alternative(boost) for boost in plan.boosts]))
    if plan.excluded:
        query = Q.AndNot(query, Q.Or([compile_group(group) for group in plan.excluded]))
    return query


def compile_group(group: AnyOf) -> Q.Query:
    """One alternative as itself, several as an `Or`. Weights go on each alternative: Whoosh
    ignores the boost of an `Or` that has a single child."""
    if not group.alternatives:
        return Q.NullQuery
    queries = [compile_alternative(alternative) for alternative in group.alternatives]
    return queries[0] if len(queries) == 1 else Q.Or(queries)


def compile_alternative(alternative: Alternative) -> Q.Query:
    if isinstance(alternative, Term):
        return Q.Term(alternative.field, alternative.text, boost=alternative.weight)
    return Q.Phrase(alternative.field, list(alternative.words), boost=alternative.weight)


class WhooshEngine:
    """An `Engine` over one open Whoosh index. Not thread-safe: use one per thread (or a
    lock)."""

    def __init__(self, ix: Index) -> None:
        self._searcher: WhooshSearcher = ix.searcher()
        self.analysis = FieldAnalysis()
        self._docnums: dict[str, int] | None = None
        self._ids: dict[int, str] = {}

    def close(self) -> None:
        self._searcher.close()

    def paper_count(self) -> int:
        return int(self._searcher.doc_count_all())

    def df(self, field: str, term: str) -> int:
        return int(self._searcher.doc_frequency(field, term))

    @property
    def docnums(self) -> dict[str, int]:
        """Paper id -> Whoosh document number (read once, on first use)."""
        if self._docnums is None:
            self._docnums = {fields["id"]: docnum for docnum, fields in self._searcher.iter_docs()}
            self._ids = {docnum: paper_id for paper_id, docnum in self._docnums.items()}
        return self._docnums

    @property
    def ids(self) -> dict[int, str]:
        """Whoosh document number -> paper id: reading a hit's stored fields for its id costs
        ~10 µs, and a "most of your words" answer sorts a few thousand hits."""
        self.docnums  # noqa: B018 - read with the id -> document table
        return self._ids

    def warm(self) -> None:
        self.docnums  # noqa: B018 - read the id -> document table now

    def collect(
        self, plan: Plan, limit: int | None, allowed: set[str] | None
    ) -> tuple[Scored, int]:
        allow = None if allowed is None else {self.docnums[i] for i in allowed if i in self.docnums}
        matched: Counter[int] | None = None
        if plan.coordination or (not plan.requires_all and (plan.minimum or 0) > 1):
            matched = self._matched_groups(plan)
            least = len(plan.required) if plan.minimum is None else plan.minimum
            enough = {docnum for docnum, count in matched.items() if count >= least}
            allow = enough if allow is None else allow & enough
        # Whoosh's shortcuts (block-quality skipping, pruning sub-queries that cannot reach
        # the top N) drop better-scoring papers from multi-word results and undercount the
        # matches; scoring every match is exact and counts in the same pass.
        collector: Collector = (
            UnlimitedCollector()
            if limit is None or plan.coordination
            else TopCollector(limit, usequality=False, replace=0)
        )
        if allow is not None:
            collector = FilterCollector(collector, allow=allow)
        self._searcher.search_with_collector(compile_plan(plan), collector)
        hits = collector.results()
        found = [(docnum, float(score or 0.0)) for docnum, score in hits.items()]
        if plan.coordination and matched is not None:
            # More of the words first, then the score (then the corpus order, as Whoosh's).
            found.sort(key=lambda hit: (-matched[hit[0]], -hit[1], hit[0]))
            found = found[:limit]
        ids = self.ids
        return [(ids[docnum], score) for docnum, score in found], len(hits)

    def _matched_groups(self, plan: Plan) -> Counter[int]:
        """Document -> how many of the plan's required groups it matches."""
        matched: Counter[int] = Counter()
        for group in plan.required:
            matched.update(self._searcher.docs_for_query(compile_group(group)))
        return matched

    def similar(self, paper_id: str, text: str, limit: int) -> Scored:
        """More-like-this over the key terms of `text`."""
        docnum = self.docnums.get(paper_id)
        if docnum is None:
            return []
        hits = self._searcher.more_like(docnum, "all", text=text, top=limit, numterms=12)
        return [(hit["id"], float(hit.score or 0.0)) for hit in hits]
