"""Bookmarks: the papers a user saved, with tags and a note, in `bookmarks.toml`.

The file (in the data dir) is plain TOML a person can edit::

    version = 1

    [[bookmarks]]
    id = "3f2a9c01b7de"
    added = 2024-05-01 12:00:00+00:00    # a TOML date-time, UTC
    title = "Scaling laws for ..."      # optional: shown when the paper left the corpus
    tags = ["read", "ssl"]              # optional (paperterm writes one tag a line)
    note = "compare with table 2"       # optional

Every change is an operation (`Add`, `Remove`, `ChangeTags`, ..., at the end of this module)
applied, under a lock, to the file as it is on disk, and saved at once: the
guarantees (merging across processes, atomic saves, a damaged file never overwritten, failed
saves kept pending and retried) are `OpLogStore`'s (op_store.py), which the reading state
shares. Bookmarks whose paper left the corpus are kept; `missing()` finds them and their
stored `title` names them.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timezone
from pathlib import Path
from typing import Any

from paperterm.index.library.op_store import (
    FORMAT_VERSION,
    Document,
    FileFormat,
    LibraryError,
    LibraryFileError,
    LibraryReadOnlyError,
    LibrarySaveError,
    OpLogStore,
    Restore,
    one_line,
)

# --- a bookmark as held in memory ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Bookmark:
    """One saved paper. `added` is timezone-aware UTC; `extra` keeps keys this version
    does not know, so that saving never drops what a person or a newer paperterm wrote."""

    id: str
    added: datetime
    title: str = ""
    tags: tuple[str, ...] = ()
    note: str = ""
    extra: Mapping[str, object] = field(default_factory=dict, hash=False)


def normalize_tags(tags: Iterable[str]) -> tuple[str, ...]:
    """Tags on one line (white space runs as one space: a line end inside a tag would come
    back from the TOML file as another line end, `\r\n` as `\n`), without empty ones or
    repeats, in first-seen order."""
    seen: dict[str, None] = {}
    for tag in tags:
        tag = one_line(tag)
        if tag:
            seen.setdefault(tag, None)
    return tuple(seen)


BOOKMARKS_FILENAME = "bookmarks.toml"
#: 16 MiB holds far more bookmarks than a person keeps, and tomllib still reads it soon
#: enough; anything larger is not ours.
BOOKMARKS_MAX_BYTES = 16 << 20

_HEADER = (
    "# paperterm bookmarks: one [[bookmarks]] table per saved paper.\n"
    "# You may edit this file by hand (comments are not kept when paperterm saves it).\n\n"
)
_KNOWN_KEYS = ("id", "added", "title", "tags", "note")
_TABLE_HEADER = re.compile(r"^[ \t]*\[\[[ \t]*bookmarks[ \t]*\]\]", re.M)
_NEWLINES = re.compile(r"\r\n?")  # notes keep line breaks, always as "\n" (as TOML writes them)


#: The store's errors under the names the bookmark code has always used.
BookmarksError = LibraryError
BookmarksFileError = LibraryFileError
BookmarksReadOnlyError = LibraryReadOnlyError
BookmarksSaveError = LibrarySaveError


def utc_now() -> datetime:
    """Now, as bookmarks store it: UTC, whole seconds."""
    return datetime.now(timezone.utc).replace(microsecond=0)


def clean_note(note: str) -> str:
    """A note as stored: line breaks as "\n", no blank lines around it."""
    return _NEWLINES.sub("\n", note).strip()


# --- the file ---------------------------------------------------------------------------------


class BookmarksFormat(FileFormat[Bookmark]):
    noun = "bookmarks"
    what = "bookmarks file"
    read_only_text = "bookmarks are read-only until the file is fixed"
    max_bytes = BOOKMARKS_MAX_BYTES

    def parse(self, raw: dict[str, Any], text: str, path: Path) -> Document[Bookmark]:
        entries = raw.pop("bookmarks", [])
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            raise BookmarksFileError(
                path, "'bookmarks' must be an array of tables ([[bookmarks]] sections)"
            )
        header_lines = [text.count("\n", 0, m.start()) + 1 for m in _TABLE_HEADER.finditer(text)]
        if len(header_lines) != len(entries):
            header_lines = []  # a header inside a multi-line string: do not guess lines
        document: Document[Bookmark] = Document(extra=raw)
        for index, entry in enumerate(entries):
            line = header_lines[index] if header_lines else None
            mark = _parse_entry(entry, index, path, line)
            if mark.id in document.entries:
                first = list(document.entries).index(mark.id) + 1
                raise BookmarksFileError(
                    path, f"bookmark {index + 1}: id {mark.id!r} repeats bookmark {first}", line
                )
            document.entries[mark.id] = mark
        return document

    def render(self, document: Document[Bookmark]) -> str:
        """The file's text: bookmarks oldest first; empty title, tags and note left out."""
        entries = []
        for mark in sorted_bookmarks(document.entries.values()):
            entry: dict[str, object] = {"id": mark.id, "added": mark.added}
            if mark.title:
                entry["title"] = mark.title
            if mark.tags:
                entry["tags"] = list(mark.tags)
            if mark.note:
                entry["note"] = mark.note
            entry.update(mark.extra)
            entries.append(entry)
        import tomli_w  # written on a save only: the reader's start writes nothing

        body = {"version": FORMAT_VERSION, **document.extra, "bookmarks": entries}
        # Notes read best as multi-line strings, but tomli_w writes a CR LF inside one as a
        # bare LF: an id `0\r\n` (or a kept unknown key's value) would come back changed.
        readable = not _has_carriage_return(body)
        return _HEADER + tomli_w.dumps(body, multiline_strings=readable)


def _has_carriage_return(value: object) -> bool:
    if isinstance(value, str):
        return "\r" in value
    if isinstance(value, dict):
        return any(_has_carriage_return(item) for item in value.values())
    if isinstance(value, list):
        return any(_has_carriage_return(item) for item in value)
    return False


def _parse_entry(entry: dict[str, object], index: int, path: Path, line: int | None) -> Bookmark:
    def fail(key: str, why: str) -> BookmarksFileError:
        return BookmarksFileError(path, f"bookmark {index + 1}: {key!r} {why}", line)

    mark_id = entry.get("id")
    if not isinstance(mark_id, str) or not mark_id.strip():
        raise fail("id", "is missing or not a non-empty string")
    try:
        added = as_utc(entry.get("added"))
    except DateOutOfRange as error:
        raise fail("added", str(error)) from None
    if added is None:
        raise fail("added", "is missing or not a TOML date-time (like 2024-05-01T12:00:00Z)")
    title, note = entry.get("title", ""), entry.get("note", "")
    if not isinstance(title, str):
        raise fail("title", "must be a string")
    if not isinstance(note, str):
        raise fail("note", "must be a string")
    tags = entry.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(tag, str) for tag in tags):
        raise fail("tags", "must be a list of strings")
    return Bookmark(
        id=mark_id,
        added=added,
        title=title,
        tags=normalize_tags(tags),
        note=note,
        extra={key: value for key, value in entry.items() if key not in _KNOWN_KEYS},
    )


class DateOutOfRange(ValueError):
    """A TOML date-time whose UTC time is outside the years 1 to 9999 (such as
    9999-12-31T23:59:59-23:59): `str()` says which, to follow "key: "."""


def added_time(table: dict[str, Any], path: Path, where: str, line: int | None) -> datetime | None:
    """A table's `added` as `as_utc` reads it; a date out of range is the file's problem,
    named by `where` and `line` (`LibraryFileError`)."""
    try:
        return as_utc(table.get("added"))
    except DateOutOfRange as error:
        raise LibraryFileError(path, f"{where}: 'added' {error}", line) from None


def as_utc(value: object) -> datetime | None:
    """A TOML date-time as an aware UTC datetime (a local one is taken as UTC, a date as its
    midnight); None for anything else. Raises `DateOutOfRange` for one whose UTC time is
    outside the years Python's datetime holds."""
    if isinstance(value, datetime):
        if value.tzinfo is None:
            return value.replace(tzinfo=timezone.utc)
        try:
            return value.astimezone(timezone.utc)
        except OverflowError:
            raise DateOutOfRange(
                f"{value.isoformat()} is out of range (in UTC it falls outside the years 1 to 9999)"
            ) from None
    if isinstance(value, date):
        return datetime.combine(value, time(), tzinfo=timezone.utc)
    return None


def sorted_bookmarks(marks: Iterable[Bookmark]) -> list[Bookmark]:
    """In the order they were added (ties keep file order)."""
    return sorted(marks, key=lambda mark: mark.added)


# --- the store --------------------------------------------------------------------------------


class BookmarkStore(OpLogStore[Bookmark]):
    """The bookmarks in one file, shared safely with other processes (see `OpLogStore`).
    Every change here saves at once."""

    format = BookmarksFormat()

    @classmethod
    def in_dir(cls, data_dir: Path) -> BookmarkStore:
        """The store of `bookmarks.toml` in the data dir."""
        return cls(Path(data_dir) / BOOKMARKS_FILENAME)

    # reading

    @property
    def bookmarks(self) -> list[Bookmark]:
        return sorted_bookmarks(self.entries.values())

    def get(self, paper_id: str) -> Bookmark | None:
        """The bookmark of `paper_id`, or None when it is not bookmarked."""
        return self.entries.get(paper_id)

    def is_bookmarked(self, paper_id: str) -> bool:
        return paper_id in self.entries

    def missing(self, known_ids: Container[str]) -> list[Bookmark]:
        """Bookmarks whose paper is not among `known_ids` (e.g. left the corpus)."""
        return [mark for mark in self.bookmarks if mark.id not in known_ids]

    # changing

    def add(self, paper_id: str, title: str = "") -> None:
        """Bookmark a paper; `title` is stored to name it should it leave the corpus."""

        self.apply(Add(paper_id, one_line(title), utc_now()))

    def remove(self, paper_id: str) -> None:

        self.apply(Remove(paper_id))

    def toggle(self, paper_id: str, title: str = "") -> bool:
        """Add or remove as the user sees it now; returns whether it is bookmarked after."""
        if self.is_bookmarked(paper_id):
            self.remove(paper_id)
            return False
        self.add(paper_id, title)
        return True

    def add_tags(self, paper_id: str, tags: Iterable[str]) -> None:

        self._require(paper_id)
        self.apply(ChangeTags(paper_id, add=normalize_tags(tags)))

    def remove_tags(self, paper_id: str, tags: Iterable[str]) -> None:

        self._require(paper_id)
        self.apply(ChangeTags(paper_id, remove=normalize_tags(tags)))

    def set_note(self, paper_id: str, note: str) -> None:
        """Set the note; an empty (or blank) note clears it."""

        self._require(paper_id)
        self.apply(SetNote(paper_id, clean_note(note)))

    def edit(self, paper_id: str, *ops: Operation) -> tuple[Bookmark | None, Bookmark | None]:
        """`apply`, returning `paper_id`'s bookmark as the file held it just before `ops`
        and just after: what an editing dialog needs to say truthfully what happened
        (another process may have changed or removed the bookmark while it was open)."""
        seen = self._sync(list(ops))
        return seen.get(paper_id), self.entries.get(paper_id)

    def _require(self, paper_id: str) -> None:
        if not self.is_bookmarked(paper_id):
            raise BookmarksError(f"{one_line(paper_id)} is not bookmarked")


# --- the changes to bookmarks, each applied under the store's lock to the file on disk -----


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
