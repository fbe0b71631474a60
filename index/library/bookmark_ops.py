"""The changes to bookmarks (`Add`, `Remove`, `ChangeTags`, ...): each is applied, under the
store's lock, to the bookmarks as they are on disk (bookmarks.py, op_store.py).

Apart from bookmarks.py so that the reader's start does without them: nothing is changed
before the first frame, and each of these frozen dataclasses costs ~0.3 ms to create
(issue 14). `BookmarkStore`'s methods import them when they make one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from paperterm.index.library.bookmark_record import Bookmark, normalize_tags
from paperterm.index.library.op_store import Restore

Marks = dict[str, Bookmark]


@dataclass(frozen=True, slots=True)
class Add:
    """Bookmark `id` (kept as it is when already there, except a missing title is filled)."""

    id: str
    title: str
    added: datetime

    def apply(self, marks: Marks) -> None:
        old = marks.get(self.id)
        if old is None:
            marks[self.id] = Bookmark(self.id, self.added, self.title)
        elif self.title and not old.title:
            marks[self.id] = replace(old, title=self.title)


@dataclass(frozen=True, slots=True)
class Remove:
    id: str

    def apply(self, marks: Marks) -> None:
        marks.pop(self.id, None)


@dataclass(frozen=True, slots=True)
class ChangeTags:
    """Add and remove tags relative to what is on disk, so concurrent taggers merge."""

    id: str
    add: tuple[str, ...] = ()
    remove: tuple[str, ...] = ()

    def apply(self, marks: Marks) -> None:
        if self.id in marks:
            old = marks[self.id]
            kept = [tag for tag in old.tags if tag not in self.remove]
            marks[self.id] = replace(old, tags=normalize_tags([*kept, *self.add]))


@dataclass(frozen=True, slots=True)
class SetNote:
    id: str
    note: str

    def apply(self, marks: Marks) -> None:
        if self.id in marks:
            marks[self.id] = replace(marks[self.id], note=self.note)


#: Between a note saved elsewhere and the one saved over it when both are kept.
NOTE_SEPARATOR = "\n\n---\n\n"


@dataclass(frozen=True, slots=True)
class EditNote:
    """An editor's result: `note` replaces the note only if it is still `shown` (what the
    editor opened with). If another process changed it meanwhile, both are kept, theirs
    first, joined by `NOTE_SEPARATOR`; an editor that cleared the note then keeps theirs.
    A bookmark removed meanwhile (or never there) is added with the note: the user just
    wrote it, and dropping it would lose their text."""

    id: str
    shown: str
    note: str
    title: str
    added: datetime

    def apply(self, marks: Marks) -> None:
        old = marks.get(self.id)
        if old is None:
            if self.note:
                marks[self.id] = Bookmark(self.id, self.added, self.title, note=self.note)
            return
        if self.note == self.shown or old.note == self.note:
            return  # nothing edited, or the same text saved elsewhere
        if old.note == self.shown or not old.note:
            merged = self.note
        elif not self.note:
            merged = old.note
        else:
            merged = f"{old.note}{NOTE_SEPARATOR}{self.note}"
        marks[self.id] = replace(old, note=merged)


Operation = Add | Remove | ChangeTags | SetNote | EditNote | Restore[Bookmark]
