"""Plans run on tantivy: compiled to tantivy query objects in code (never through its query
parser, which can raise), over each part of the index, the parts' best merged.

Scores are made to follow Whoosh's (`whoosh_scorer.py`), so that both engines rank alike:
tantivy's BM25 has Whoosh's K1 and B, but its own idf, counted in each part (a tantivy index
of its own); each term's boost puts Whoosh's idf over the whole index in its place
(`log(papers / (df + 1)) + 1`), and a field's boost stands for Whoosh's `field_boost` (which
multiplies a word's weight in the name or title, not its score: the boost is what it makes
of one occurrence in a field of average length).

A plan that needs only most of its groups (the "most of your words" fallback) is run group
by group and combined here, exactly as the plan says: papers matching more groups first.
Its groups fit the postings budget, so reading every match of each is bounded.
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from paperterm.index.search.analysis import FieldAnalysis
from paperterm.index.search.engine import Scored
from paperterm.index.search.plan import Alternative, AnyOf, Plan, Term
from paperterm.index.search.tantivy_index import TantivyIndex, load_tantivy

#: Whoosh's BM25F constant (`whoosh.scoring.BM25F.K1`), and the field boosts of its schema
#: (`whoosh_index.make_schema`).
K1 = 1.2
FIELD_BOOSTS = {"name": 4.0, "title": 2.5}
#: Key terms of a paper that find related papers (as Whoosh's `more_like`).
SIMILAR_TERMS = 12


def field_boost(field: str) -> float:
    """What Whoosh's `field_boost` makes of one occurrence in a field of average length:
    bm25 of weight `boost` over bm25 of weight 1."""
    boost = FIELD_BOOSTS.get(field, 1.0)
    return boost * (1 + K1) / (boost + K1)


class _Part:
    """One part of the index: its searcher, its first paper's row, its statistics."""

    def __init__(self, searcher: Any, offset: int) -> None:
        self.searcher = searcher
        self.offset = offset
        self.count = int(searcher.num_docs)

    def idf(self, field: str, term: str) -> float:
        """Tantivy's idf of a term in this part."""
        df = int(self.searcher.doc_freq(field, term))
        return math.log(1 + (self.count - df + 0.5) / (df + 0.5))


class TantivyEngine:
    """An `Engine` over an open tantivy index. `ids` are the papers' ids by row."""

    def __init__(self, ix: TantivyIndex, ids: Sequence[str]) -> None:
        self._tantivy = load_tantivy()
        self._schema = ix.schema
        self._parts = [_Part(searcher, offset) for _, searcher, offset in ix.parts]
        self._count = sum(part.count for part in self._parts)
        self._ids = ids
        self._rows: dict[str, int] | None = None
        self.analysis = FieldAnalysis()

    def close(self) -> None:
        self._parts = []

    def paper_count(self) -> int:
        return self._count

    def df(self, field: str, term: str) -> int:
        return sum(int(part.searcher.doc_freq(field, term)) for part in self._parts)

    @property
    def rows(self) -> dict[str, int]:
        """Paper id -> row (read once, on first use)."""
        if self._rows is None:
            self._rows = {paper_id: row for row, paper_id in enumerate(self._ids)}
        return self._rows

    def warm(self) -> None:
        self.rows  # noqa: B018 - read the id -> row table now

    # --- running plans -------------------------------------------------------------------

    def collect(
        self, plan: Plan, limit: int | None, allowed: set[str] | None
    ) -> tuple[Scored, int]:
        allow = None if allowed is None else {self.rows[i] for i in allowed if i in self.rows}
        if allow is not None and not allow:
            return [], 0
        if plan.requires_all:
            found, total = self._search(plan, limit, allow)
        else:
            found, total = self._most(plan, limit, allow)
        return [(self._ids[row], score) for row, score in found], total

    def _search(
        self, plan: Plan, limit: int | None, allow: set[int] | None
    ) -> tuple[list[tuple[int, float]], int]:
        """Papers matching every required group and no excluded one, best first."""
        found: list[tuple[int, float]] = []
        total = 0
        for part in self._parts:
            query = self._plan_query(part, plan, allow)
            if query is None:
                continue
            hits, count = self._run(part, query, limit)
            found += hits
            total += count
        return _best(found, limit), total

    def _most(
        self, plan: Plan, limit: int | None, allow: set[int] | None
    ) -> tuple[list[tuple[int, float]], int]:
        """Papers matching at least `plan.minimum` of the required groups and no excluded
        one: those matching more groups first, then by score."""
        groups: Counter[int] = Counter()
        scores: dict[int, float] = {}
        Occur = self._tantivy.Occur
        for part in self._parts:
            filters = self._filters(part, plan, allow)
            for group in plan.required:
                query = self._group(part, group)
                if query is None:
                    continue
                if filters:
                    query = self._tantivy.Query.boolean_query([(Occur.Must, query), *filters])
                hits, _ = self._run(part, query, None)
                for row, score in hits:
                    groups[row] += 1
                    scores[row] = scores.get(row, 0.0) + score
        minimum = plan.minimum or len(plan.required)
        matching = [row for row, count in groups.items() if count >= minimum]
        ranked = sorted(matching, key=lambda row: (-groups[row], -scores[row], row))
        kept = ranked if limit is None else ranked[:limit]
        return [(row, scores[row]) for row in kept], len(matching)

    def _run(
        self, part: _Part, query: Any, limit: int | None
    ) -> tuple[list[tuple[int, float]], int]:
        """The best `limit` rows (all when None) `query` matches in a part, and how many
        it matches."""
        wanted = part.count if limit is None else min(limit, part.count)
        result = part.searcher.search(query, max(wanted, 1), count=True)
        addresses = [address for _, address in result.hits]
        rows = part.searcher.fast_field_values("row", addresses) if addresses else []
        hits = [
            (part.offset + int(row), float(score))
            for (score, _), row in zip(result.hits, rows, strict=True)
        ]
        return hits, int(result.count)

    # --- compiling -----------------------------------------------------------------------

    def _plan_query(self, part: _Part, plan: Plan, allow: set[int] | None) -> Any | None:
        """The query of a plan that needs all its groups, in a part (None: it matches
        nothing there)."""
        Query, Occur = self._tantivy.Query, self._tantivy.Occur
        clauses: list[tuple[Any, Any]] = []
        for group in plan.required:
            query = self._group(part, group)
            if query is None:
                return None
            clauses.append((Occur.Must, query))
        if not clauses:
            clauses.append((Occur.Must, Query.const_score_query(Query.all_query(), 1.0)))
        for boost in plan.boosts:
            query = self._alternative(part, boost)
            if query is not None:
                clauses.append((Occur.Should, query))
        clauses += self._filters(part, plan, allow)
        return Query.boolean_query(clauses)

    def _filters(self, part: _Part, plan: Plan, allow: set[int] | None) -> list[tuple[Any, Any]]:
        """The clauses that exclude papers: the plan's excluded groups, the rows not allowed
        (scoring nothing)."""
        Query, Occur = self._tantivy.Query, self._tantivy.Occur
        clauses = []
        for group in plan.excluded:
            query = self._group(part, group)
            if query is not None:
                clauses.append((Occur.MustNot, query))
        if allow is not None:
            local = [row - part.offset for row in allow if 0 <= row - part.offset < part.count]
            rows = Query.term_set_query(self._schema, "row", local)
            clauses.append((Occur.Must, Query.const_score_query(rows, 0.0)))
        return clauses

    def _group(self, part: _Part, group: AnyOf) -> Any | None:
        """Any of the group's alternatives (None: none of them is in this part)."""
        queries = [q for q in (self._alternative(part, a) for a in group.alternatives) if q]
        if not queries:
            return None
        if len(queries) == 1:
            return queries[0]
        Occur = self._tantivy.Occur
        return self._tantivy.Query.boolean_query([(Occur.Should, query) for query in queries])

    def _alternative(self, part: _Part, alternative: Alternative) -> Any | None:
        """A term or phrase query, boosted to score as Whoosh scores it (None: one of its
        terms is in no paper of this part)."""
        Query = self._tantivy.Query
        terms = (alternative.text,) if isinstance(alternative, Term) else alternative.words
        ours = 0.0
        theirs = 0.0
        for term in terms:
            df = self.df(alternative.field, term)
            local = int(part.searcher.doc_freq(alternative.field, term))
            if not local:
                return None
            ours += math.log(self._count / (df + 1)) + 1
            theirs += part.idf(alternative.field, term)
        if isinstance(alternative, Term):
            query = Query.term_query(self._schema, alternative.field, alternative.text)
        else:
            query = Query.phrase_query(self._schema, alternative.field, list(alternative.words))
        boost = alternative.weight * field_boost(alternative.field) * ours / theirs
        return Query.boost_query(query, boost)

    # --- related papers ------------------------------------------------------------------

    def similar(self, paper_id: str, text: str, limit: int) -> Scored:
        """Papers sharing the key terms of `text` (by tf-idf), not the paper itself."""
        row = self.rows.get(paper_id)
        if row is None:
            return []
        counts = Counter(self.analysis.terms("all", text))
        weighted = []
        for term, count in counts.items():
            df = self.df("all", term)
            if df > 1:
                weighted.append((count * (math.log(self._count / (df + 1)) + 1), term))
        key = [Term("all", term) for _, term in heapq.nlargest(SIMILAR_TERMS, weighted)]
        if not key:
            return []
        plan = Plan(required=(AnyOf(tuple(key), 0),))
        found, _ = self._search(plan, limit + 1, None)
        return [(self._ids[r], score) for r, score in found if r != row][:limit]


def _best(found: list[tuple[int, float]], limit: int | None) -> list[tuple[int, float]]:
    """Rows by score, best first (the earlier row first among equals)."""
    ranked = sorted(found, key=lambda hit: (-hit[1], hit[0]))
    return ranked if limit is None else ranked[:limit]
