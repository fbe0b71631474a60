"""Plans run on tantivy: compiled to tantivy query objects in code (never through its query
parser, which can raise), over the index's joined segments (`tantivy/index.py`).

Scores are made to follow Whoosh's (`whoosh/scorer.py`), so that both engines rank alike:
tantivy's statistics are the whole corpus's (the joined index), but its BM25's K1 and B
are its own (1.2 and 0.75, which cannot be set; Whoosh's are `engine.BM25_K1` and
`BM25_B`), and so is its idf: each term's boost puts Whoosh's in its place
(`log(papers / (df + 1)) + 1`), and a field's boost stands for Whoosh's `field_boost` (which
multiplies a word's weight in the name or title, not its score: the boost is what it makes
of one occurrence in a field of average length).

A plan that needs only some of its groups (the any-word fallback) is run group by group
and combined here, exactly as the plan says, its boosts added to the papers it lists.
Its groups fit the postings budget, so reading every match of each is bounded.
"""

from __future__ import annotations

import bisect
import heapq
import math
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from paperterm.index.search.analysis import FieldAnalysis
from paperterm.index.search.boost_share import shared_boosts
from paperterm.index.search.engine import BM25_K1, Scored
from paperterm.index.search.plan import Alternative, AnyOf, Plan, Term
from paperterm.index.search.tantivy import load_tantivy
from paperterm.index.search.tantivy.index import TantivyIndex

#: The field boosts of Whoosh's schema (`whoosh.index.make_schema`).
FIELD_BOOSTS = {"name": 4.0, "title": 2.5, "given_title": 2.5}
#: Key terms of a paper that find related papers (as Whoosh's `more_like`).
SIMILAR_TERMS = 12

Rows = list[tuple[int, float]]


def field_boost(field: str) -> float:
    """What Whoosh's `field_boost` makes of one occurrence in a field of average length:
    bm25 of weight `boost` over bm25 of weight 1."""
    boost = FIELD_BOOSTS.get(field, 1.0)
    return boost * (1 + BM25_K1) / (boost + BM25_K1)


class TantivyEngine:
    """An `Engine` over an open tantivy index. `ids` gives the papers' ids by row. Tantivy's
    searcher is thread-safe; this keeps no state between queries but the id -> row table."""

    def __init__(
        self,
        ix: TantivyIndex,
        ids: Callable[[], Sequence[str]],
        positions: Callable[[], dict[str, int]] | None = None,
    ) -> None:
        self._tantivy = load_tantivy()
        self._schema = ix.schema
        self._searcher = ix.searcher
        self._offsets = ix.offsets
        self._count = int(ix.searcher.num_docs)
        self._ids = ids
        self._rows: dict[str, int] | None = None
        self._positions = positions
        self.analysis = FieldAnalysis()

    def close(self) -> None:
        self._searcher = None

    def paper_count(self) -> int:
        return self._count

    def df(self, field: str, term: str) -> int:
        return int(self._searcher.doc_freq(field, term))

    def field_counts(self, field: str) -> dict[str, int] | None:
        return None  # tantivy's Python binding lists no term dictionary

    @property
    def rows(self) -> dict[str, int]:
        """Paper id -> row (read once, on first use)."""
        if self._rows is None:
            if self._positions is not None:
                self._rows = self._positions()
            else:
                self._rows = {paper_id: row for row, paper_id in enumerate(self._ids())}
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
        found: Rows
        if plan.requires_all and not plan.share_boosts:  # shared boosts: paper by paper
            query = self._plan_query(plan, allow)
            if query is None:
                found, total = [], 0
            elif allow is None:
                found, total = self._run(query, limit)
            else:  # the filter lets a few more papers through (`_rows_query`): drop them
                hits = [hit for hit in self._run(query, None)[0] if hit[0] in allow]
                found, total = hits if limit is None else hits[:limit], len(hits)
        else:
            found, total = self._most(plan, limit, allow)
        return found, total

    def _most(self, plan: Plan, limit: int | None, allow: set[int] | None) -> tuple[Rows, int]:
        """Papers matching at least `plan.minimum` of the required groups and no excluded
        one, by score (their groups' and the boosts' they match, shared as the plan says)."""
        groups: Counter[int] = Counter()
        scores: dict[int, float] = {}
        Occur = self._tantivy.Occur
        filters = self._filters(plan, allow)
        for group in plan.required:
            query = self._group(group)
            if query is None:
                continue
            if filters:
                query = self._tantivy.Query.boolean_query([(Occur.Must, query), *filters])
            for row, score in self._run(query, None)[0]:
                if allow is not None and row not in allow:
                    continue
                groups[row] += 1
                scores[row] = scores.get(row, 0.0) + score
        minimum = plan.minimum or len(plan.required)
        matching = [row for row, count in groups.items() if count >= minimum]
        boosts, found = [], []
        for boost in plan.boosts:
            query = self._alternative(boost)
            if query is not None and matching:
                rows = self._run(query, None)[0]
                boosts.append(boost)
                found.append({row: score for row, score in rows if groups[row] >= minimum})
        if plan.share_boosts:
            found = shared_boosts(boosts, found, len(plan.required))
        for each in found:
            for row, score in each.items():
                scores[row] += score
        ranked = sorted(matching, key=lambda row: (-scores[row], row))
        kept = ranked if limit is None else ranked[:limit]
        return [(row, scores[row]) for row in kept], len(matching)

    def _run(self, query: Any, limit: int | None) -> tuple[Rows, int]:
        """The best `limit` rows (all when None) `query` matches, best first (the earlier
        row first among equals), and how many it matches."""
        wanted = self._count if limit is None else min(limit, self._count)
        result = self._searcher.search(query, max(wanted, 1), count=True)
        addresses = [address for _, address in result.hits]
        rows = self._searcher.fast_field_values("row", addresses) if addresses else []
        offsets = self._offsets
        hits = [
            ((offsets[address.segment_ord] if offsets else 0) + int(row), float(score))
            for (score, address), row in zip(result.hits, rows, strict=True)
        ]
        hits.sort(key=lambda hit: (-hit[1], hit[0]))
        return hits, int(result.count)

    # --- compiling -----------------------------------------------------------------------

    def _plan_query(self, plan: Plan, allow: set[int] | None) -> Any | None:
        """The query of a plan that needs all its groups (None: it matches nothing)."""
        Query, Occur = self._tantivy.Query, self._tantivy.Occur
        clauses: list[tuple[Any, Any]] = []
        for group in plan.required:
            query = self._group(group)
            if query is None:
                return None
            clauses.append((Occur.Must, query))
        if not clauses:
            clauses.append((Occur.Must, Query.const_score_query(Query.all_query(), 1.0)))
        for boost in plan.boosts:
            query = self._alternative(boost)
            if query is not None:
                clauses.append((Occur.Should, query))
        clauses += self._filters(plan, allow)
        return Query.boolean_query(clauses)

    def _filters(self, plan: Plan, allow: set[int] | None) -> list[tuple[Any, Any]]:
        """The clauses that leave papers out: the plan's excluded groups, and the papers
        not allowed (a filter that adds nothing to the score)."""
        Query, Occur = self._tantivy.Query, self._tantivy.Occur
        clauses = []
        for group in plan.excluded:
            query = self._group(group)
            if query is not None:
                clauses.append((Occur.MustNot, query))
        if allow is not None:
            clauses.append((Occur.Must, Query.const_score_query(self._rows_query(allow), 0.0)))
        return clauses

    def _rows_query(self, allow: set[int]) -> Any:
        """The papers of these rows, and a few more: a document holds its row in its part,
        so the query asks for each allowed paper's row in its part, which other parts'
        papers have too (`collect` drops them). The papers allowed (bookmarks, for `tag:`)
        are few, so the few more are."""
        starts = sorted(set(self._offsets or [0]))
        local = {row - starts[bisect.bisect_right(starts, row) - 1] for row in allow}
        return self._tantivy.Query.term_set_query(self._schema, "row", sorted(local))

    def _group(self, group: AnyOf) -> Any | None:
        """Any of the group's alternatives (None: none of them is in the index)."""
        queries = [q for q in (self._alternative(a) for a in group.alternatives) if q]
        if not queries:
            return None
        if len(queries) == 1:
            return queries[0]
        Occur = self._tantivy.Occur
        return self._tantivy.Query.boolean_query([(Occur.Should, query) for query in queries])

    def _alternative(self, alternative: Alternative) -> Any | None:
        """A term or phrase query, boosted to score as Whoosh scores it (None: one of its
        terms is in no paper)."""
        Query = self._tantivy.Query
        terms = (alternative.text,) if isinstance(alternative, Term) else alternative.words
        ours = 0.0
        theirs = 0.0
        for term in terms:
            df = self.df(alternative.field, term)
            if not df:
                return None
            ours += math.log(self._count / (df + 1)) + 1
            theirs += math.log(1 + (self._count - df + 0.5) / (df + 0.5))
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
        query = self._group(AnyOf(tuple(key), 0))
        if query is None:
            return []
        found, _ = self._run(query, limit + 1)
        return [(r, score) for r, score in found if r != row][:limit]
