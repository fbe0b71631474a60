"""Plans run on Whoosh: compiled to Whoosh query objects in code (never through Whoosh's query
parser, which can raise, nor its prefix, wildcard or fuzzy queries, which expand without
limit), collected exactly, and counted as SQLite FTS5 counts them."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from whoosh import query as Q
from whoosh.index import Index
from whoosh.scoring import BM25F
from whoosh.searching import Searcher as WhooshSearcher

from paperterm.index.search.analysis import FieldAnalysis
from paperterm.index.search.engine import BM25_B, BM25_K1, Scored
from paperterm.index.search.plan import Alternative, AnyOf, Plan, Term
from paperterm.index.search.whoosh.scorer import PlanScorer


def compile_plan(plan: Plan) -> Q.Query:
    """The Whoosh query that matches and scores what `plan` says: the reference the plan
    scorer (`scorer.PlanScorer`) is tested against, score for score."""
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
    (slow a hit, and a table of every paper's to make)."""

    def __init__(
        self,
        ix: Index,
        ids: Callable[[], Sequence[str]] | None = None,
        positions: Callable[[], dict[str, int]] | None = None,
    ) -> None:
        self._searcher: WhooshSearcher = ix.searcher(weighting=BM25F(B=BM25_B, K1=BM25_K1))
        self.analysis = FieldAnalysis()
        self._read_ids = ids
        self._ids: Sequence[str] | None = None
        self._docnums: dict[str, int] | None = None
        self._positions = positions
        self._scorer = PlanScorer(self._searcher)

    def close(self) -> None:
        self._scorer.close()
        self._searcher.close()

    def paper_count(self) -> int:
        return int(self._searcher.doc_count_all())

    def df(self, field: str, term: str) -> int:
        """From the scorer's term infos, which reading the term's postings then reuses."""
        return self._scorer.doc_frequency(field, term)

    def field_counts(self, field: str) -> dict[str, int] | None:
        """The field's term list with each term's document frequency, merged over the
        segments, where counting the papers' words would read every paper."""
        return {
            term.decode("utf-8"): int(info.doc_frequency())
            for term, info in self._searcher.reader().iter_field(field)
        }

    @property
    def docnums(self) -> dict[str, int]:
        """Paper id -> Whoosh document number (read once, on first use)."""
        if self._docnums is None:
            if self._positions is not None:
                self._docnums = self._positions()
            else:
                self._docnums = {paper_id: docnum for docnum, paper_id in enumerate(self.ids)}
        return self._docnums

    @property
    def ids(self) -> Sequence[str]:
        """Document number -> paper id."""
        if self._ids is None:
            if self._read_ids is not None:
                self._ids = self._read_ids()
            else:
                self._ids = [fields["id"] for _, fields in self._searcher.iter_docs()]
        return self._ids

    def warm(self) -> None:
        self.docnums  # noqa: B018 - read the id -> document table now

    def collect(
        self, plan: Plan, limit: int | None, allowed: set[str] | None
    ) -> tuple[Scored, int]:
        allow = None if allowed is None else {self.docnums[i] for i in allowed if i in self.docnums}
        # Whoosh's own matchers are slow a match, and their shortcuts (block-quality
        # skipping, pruning sub-queries that cannot reach the top N) dropped better-scoring
        # papers from multi-word results and undercounted the matches; the plan scorer
        # scores every match, exactly, term at a time (whoosh/scorer.py).
        return self._scorer.collect(plan, limit, allow)

    def similar(self, paper_id: str, text: str, limit: int) -> Scored:
        """More-like-this over the key terms of `text`: Whoosh's `more_like` (its Bo1 key
        terms, an `Or` of them weighted), scored by the plan scorer, not Whoosh's slower
        matchers (the search lock is held)."""
        docnum = self.docnums.get(paper_id)
        if docnum is None:
            return []
        terms = self._searcher.key_terms_from_text("all", text, numterms=12)
        group = AnyOf(tuple(Term("all", word, weight) for word, weight in terms), 0)
        found, _ = self._scorer.collect(Plan(required=(group,)), limit + 1, None)
        return [(d, score) for d, score in found if d != docnum][:limit]
