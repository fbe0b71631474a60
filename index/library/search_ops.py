"""The changes to the saved searches (`SaveSearch`, `DeleteSearch`), applied under the
store's lock to the searches as they are on disk (searches.py, op_store.py).

Apart from searches.py so that the reader's start does without them: nothing is saved
before the first frame, and each frozen dataclass costs ~0.3 ms to create (issue 14).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from paperterm.index.library.saved_search import SavedSearch


@dataclass(frozen=True, slots=True)
class SaveSearch:
    """Save (or replace) the search `name`."""

    name: str
    query: str
    added: datetime

    def apply(self, entries: dict[str, SavedSearch]) -> None:
        entries[self.name] = SavedSearch(self.name, self.query, self.added)


@dataclass(frozen=True, slots=True)
class DeleteSearch:
    name: str

    def apply(self, entries: dict[str, SavedSearch]) -> None:
        entries.pop(self.name, None)
