"""What the searcher needs of a search engine: the seam a second engine plugs into.

An engine runs `Plan`s (plain data from `plan.py`) over its index and answers the planner's
one question about it (how many papers hold a term). Snippets, highlighting, typo
correction, the any-word fallback and "did you mean" are the planner's and the
searcher's, the same for every engine; an engine only has to honour a plan's semantics:
weights on alternatives and `minimum` groups.
"""

from __future__ import annotations

from typing import Protocol

from paperterm.index.search.plan import Analysis, Plan

#: (paper position, score), best first: a paper's position in the index's order (a Whoosh
#: document's number, a tantivy document's row), which the searcher reads the paper at
#: (an id would have it look the position up again, in a table of every id made on a first
#: query).
Scored = list[tuple[int, float]]
#: BM25's term-frequency saturation, how much a word said again in an abstract still adds
#: (Whoosh's default is 1.2; tantivy's is fixed at 1.2), and how much a long abstract's
#: words are discounted for its length (Whoosh's default and tantivy's fixed one: 0.75):
#: chosen on the tuning set, B kept near tantivy's (ARCHITECTURE.md, "Ranking").
BM25_K1 = 1.5
BM25_B = 0.7


class Engine(Protocol):
    @property
    def analysis(self) -> Analysis:
        """How the engine's fields cut text into terms (the planner cuts queries the same
        way)."""
        ...

    def close(self) -> None: ...

    def paper_count(self) -> int: ...

    def df(self, field: str, term: str) -> int:
        """How many papers hold `term` in `field`: the postings reading it costs."""
        ...

    def warm(self) -> None:
        """Load what the first search would (call it off the UI thread)."""
        ...

    def field_counts(self, field: str) -> dict[str, int] | None:
        """The terms of an unstemmed field (`authors`, `collection`: words as written) with
        how many papers hold each, read from the index's term list; None when the engine
        cannot list a field's terms (the searcher then counts the papers' words)."""
        ...

    def collect(
        self, plan: Plan, limit: int | None, allowed: set[str] | None
    ) -> tuple[Scored, int]:
        """The best `limit` papers `plan` matches (all when None), restricted to the
        `allowed` ids, and how many it matches in all (whatever the limit). Exact: no
        shortcut may drop a better paper or miscount."""
        ...

    def similar(self, paper_id: str, text: str, limit: int) -> Scored:
        """Papers like `paper_id`, whose searchable text is `text` (not itself)."""
        ...
