"""The changes to the reading state (`MarkRead`, `MarkUnread`), applied under the store's
lock to the state as it is on disk (reading.py, op_store.py).

Apart from reading.py so that the reader's start does without them: nothing is marked before
the first frame, and each frozen dataclass costs ~0.3 ms to create (issue 14).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class MarkRead:
    """Mark papers read at `at`; one read already keeps its first time."""

    ids: tuple[str, ...]
    at: datetime

    def apply(self, entries: dict[str, datetime]) -> None:
        for paper_id in self.ids:
            entries.setdefault(paper_id, self.at)


@dataclass(frozen=True, slots=True)
class MarkUnread:
    ids: tuple[str, ...]

    def apply(self, entries: dict[str, datetime]) -> None:
        for paper_id in self.ids:
            entries.pop(paper_id, None)
