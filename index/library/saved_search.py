"""A saved search: a query under a name (searches.py keeps them, and names this as its own).

Apart from searches.py so that the changes to saved searches (search_ops.py), which make
these, can be imported where a change is made rather than with the store: the reader's
start makes none (issue 14).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class SavedSearch:
    """A named query; `added` is None for one from the config."""

    name: str
    query: str
    added: datetime | None = None
