"""Triage without widgets: which paper of the view is shown, where a decision moves on to,
what the progress says.

The view is the main list's ids when triage began, kept in that order: a decision never
moves a paper, so `j` / `k` walk the same list the user left. The decisions are read
from a mapping the caller passes (the decision store's entries, which other processes may
change between two keys), so nothing here knows the store or the disk.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from paperterm.index.library.reading import DECISIONS


class Progress(NamedTuple):
    """How far triage is over the view: papers decided, of how many, and each decision's
    count."""

    decided: int
    total: int
    counts: dict[str, int]

    def text(self) -> str:
        """`412 of 2,610 triaged · 38 keep · 71 maybe` (skip is the rest of the decided)."""
        counts = self.counts
        return (
            f"{self.decided:,} of {self.total:,} triaged · "
            f"{counts.get('keep', 0):,} keep · {counts.get('maybe', 0):,} maybe"
        )


def progress(ids: Sequence[str], decisions: Mapping[str, str]) -> Progress:
    counts = dict.fromkeys(DECISIONS, 0)
    for paper_id in ids:
        decision = decisions.get(paper_id)
        if decision is not None:
            counts[decision] = counts.get(decision, 0) + 1
    return Progress(sum(counts.values()), len(ids), counts)


def first_undecided(ids: Sequence[str], decisions: Mapping[str, str], start: int = 0) -> int | None:
    """The first index from `start` on whose paper has no decision, wrapping around to the
    top of the view; None when every paper is decided."""
    count = len(ids)
    for offset in range(count):
        index = (start + offset) % count
        if ids[index] not in decisions:
            return index
    return None


class TriageControl:
    """The paper shown among `ids` (the view), and where the keys move it. `decisions()`
    gives the decisions as they are now."""

    def __init__(self, ids: Sequence[str], decisions: Callable[[], Mapping[str, str]]) -> None:
        self.ids = list(ids)
        self._decisions = decisions
        self._index: dict[str, int] | None = None
        self.cursor = 0
        self._progress: Progress | None = None

    @property
    def current(self) -> str | None:
        """The id shown (None for an empty view)."""
        return self.ids[self.cursor] if self.ids else None

    def resume(self, fallback: str | None = None) -> bool:
        """Start at the view's first undecided paper; when every paper is decided, at
        `fallback` (the list's cursor) if it is in the view, else the first. Whether an
        undecided paper was found."""
        found = first_undecided(self.ids, self._decisions())
        if found is not None:
            self.cursor = found
            return True
        place = self.index_of(fallback) if fallback is not None else None
        self.cursor = place or 0
        return False

    def index_of(self, paper_id: str) -> int | None:
        if self._index is None:  # the first row of an id, as the list finds it
            ids = self.ids
            self._index = dict(zip(reversed(ids), range(len(ids) - 1, -1, -1), strict=True))
        return self._index.get(paper_id)

    def go_to(self, paper_id: str) -> bool:
        """Show `paper_id` (an undone decision's paper); False when it is not in the view."""
        index = self.index_of(paper_id)
        if index is None:
            return False
        self.cursor = index
        return True

    def step(self, step: int) -> bool:
        """`j` / `k`: the paper `step` rows away, decided or not; False past either end."""
        index = self.cursor + step
        if not 0 <= index < len(self.ids):
            return False
        self.cursor = index
        return True

    def next_undecided(self) -> bool:
        """After a decision: the next undecided paper after this one (from the top of the
        view once the end is passed); False, staying put, when every paper is decided."""
        if not self.ids:
            return False
        found = first_undecided(self.ids, self._decisions(), self.cursor + 1)
        if found is None:
            return False
        self.cursor = found
        return True

    @property
    def progress(self) -> Progress:
        """The counts over the view, computed again after `decisions_changed`."""
        if self._progress is None:
            self._progress = progress(self.ids, self._decisions())
        return self._progress

    def decisions_changed(self) -> None:
        """A decision was made, undone, or read from another process's save."""
        self._progress = None
