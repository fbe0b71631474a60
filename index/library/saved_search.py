"""A saved search: a query under a name (searches.py keeps them, and names this as its own).

Apart from searches.py so that the changes to saved searches (search_ops.py), which make
these, can be imported where a change is made rather than with the store: the reader's
start makes none (issue 14).
"""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple


class SavedSearch(NamedTuple):
    """A named query; `added` is None for one from the config. A named tuple, not a frozen
    dataclass: less to define as the reader starts (issue 14)."""

    name: str
    query: str
    added: datetime | None = None
