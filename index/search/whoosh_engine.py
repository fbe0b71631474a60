"""Plans run on Whoosh: compiled to Whoosh query objects in code (never through Whoosh's query
parser, which can raise, nor its prefix, wildcard or fuzzy queries, which expand without
limit), collected exactly, and counted as SQLite FTS5 counts them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

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
    lock). `ids` are the papers' ids by document number: the store keeps a document's
    number its paper's row, so a hit's id is read from the rows, not its stored fields
    (~10 µs a hit, and 0.5 s for the id -> document table of 50,000 papers)."""

    def __init__(self, ix: Index, ids: Sequence[str] | None = None) -> None:
        self._searcher: WhooshSearcher = ix.searcher()
        self.analysis = FieldAnalysis()
        self._ids = ids
        self._docnums: dict[str, int] | None = None

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
            self._docnums = {paper_id: docnum for docnum, paper_id in enumerate(self.ids)}
        return self._docnums

    @property
    def ids(self) -> Sequence[str]:
        """Document number -> paper id."""
        if self._ids is None:
            self._ids = [fields["id"] for _, fields in self._searcher.iter_docs()]
        return self._ids

    def warm(self) -> None:
        self.docnums  # noqa: B018 - read the id -> document table now

    def collect(
        self, plan: Plan, limit: int | None, allowed: set[str] | None
    ) -> tuple[Scored, int]:
        allow = None if allowed is None else {self.docnums[i] for i in allowed if i in self.docnums}
        if not plan.requires_all and (plan.minimum or 0) > 1:
            enough = self._matching_at_least(plan)
            allow = enough if allow is None else allow & enough
        # Whoosh's shortcuts (block-quality skipping, pruning sub-queries that cannot reach
        # the top N) drop better-scoring papers from multi-word results and undercount the
        # matches; scoring every match is exact and counts in the same pass.
        collector: Collector = (
            UnlimitedCollector()
            if limit is None
            else TopCollector(limit, usequality=False, replace=0)
        )
        if allow is not None:
            collector = FilterCollector(collector, allow=allow)
        self._searcher.search_with_collector(compile_plan(plan), collector)
        hits = collector.results()
        ids = self.ids
        return [(ids[hit.docnum], float(hit.score or 0.0)) for hit in hits], len(hits)

    def _matching_at_least(self, plan: Plan) -> set[int]:
        """The documents that match `plan.minimum` of its required groups at least."""
        matched: Counter[int] = Counter()
        for group in plan.required:
            matched.update(self._searcher.docs_for_query(compile_group(group)))
        return {docnum for docnum, count in matched.items() if count >= (plan.minimum or 0)}

    def similar(self, paper_id: str, text: str, limit: int) -> Scored:
        """More-like-this over the key terms of `text`."""
        docnum = self.docnums.get(paper_id)
        if docnum is None:
            return []
        hits = self._searcher.more_like(docnum, "all", text=text, top=limit, numterms=12)
        ids = self.ids
        return [(ids[hit.docnum], float(hit.score or 0.0)) for hit in hits]
