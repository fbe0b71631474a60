"""What the reader tells from a query's text without parsing it: the parser
(index/search/query.py) is imported after the first frame, and the start's search box is
empty."""

from __future__ import annotations

#: Longer queries (a pasted page) are cut: parsing stays cheap whatever is pasted.
MAX_QUERY_CHARS = 4000


def blank_query(text: str) -> bool:
    """Whether `text` parses to no clauses, tags or notes: only whitespace, and not so much
    of it that the parser notes the cut."""
    return len(text) <= MAX_QUERY_CHARS and not text.strip()
