"""Bookmarks: the papers a user saved, with tags and a note, in `bookmarks.toml`.

The file (in the data dir) is plain TOML a person can edit::

    version = 1

    [[bookmarks]]
    id = "3f2a9c01b7de"
    added = 2024-05-01 12:00:00+00:00    # a TOML date-time, UTC
    title = "Scaling laws for ..."      # optional: shown when the paper left the corpus
    tags = ["read", "ssl"]              # optional (paperterm writes one tag a line)
    note = "compare with table 2"       # optional

Several processes may use it at once (two TUIs, a TUI and the CLI). Every change is an
operation (`Add`, `Remove`, `ChangeTags`, ...) applied, under an advisory lock, to the file as
it is on disk at that moment and written back atomically, so no process overwrites what
another saved. Operations are idempotent: replaying one after an uncertain failure is safe.

Each mutation saves at once; when it returns, the change is on disk. If saving fails (disk
full, permission denied) the mutation raises `BookmarksSaveError`, the file stays as it was,
and the change is kept in memory (`pending`) and retried by the next mutation or `save()`.

A damaged file (not TOML, wrong shape, unknown version) is never overwritten: `load()` raises
`BookmarksFileError` naming file, line and column, and the store turns read-only until the
file is fixed and reloaded. Bookmarks whose paper left the corpus are kept; `missing()` finds
them and their stored `title` names them.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timezone
from pathlib import Path

import tomli_w

from paperterm.index.atomic import (
    FileLock,
    FileStamp,
    file_stamp,
    remove_stale_temp_files,
    stamp_of,
)
from paperterm.index.toml_text import TomlSyntaxError, parse_toml
from paperterm.index.user_files import read_regular_file, write_user_file

BOOKMARKS_FILENAME = "bookmarks.toml"
FORMAT_VERSION = 1
#: tomllib reads about 5.5 MB/s (20,000 bookmarks with tags and notes are 4.4 MB and take
#: 0.8 s): 16 MiB, some 70,000 bookmarks, is a 3 s read; anything larger is not ours.
BOOKMARKS_MAX_BYTES = 16 << 20

_HEADER = (
    "# paperterm bookmarks: one [[bookmarks]] table per saved paper.\n"
    "# You may edit this file by hand (comments are not kept when paperterm saves it).\n\n"
)
_KNOWN_KEYS = ("id", "added", "title", "tags", "note")
_TABLE_HEADER = re.compile(r"^[ \t]*\[\[[ \t]*bookmarks[ \t]*\]\]", re.M)
_VERSION_LINE = re.compile(r"^[ \t]*version[ \t]*=", re.M)
_NEWLINES = re.compile(r"\r\n?")  # notes keep line breaks, always as "\n" (as TOML writes them)


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


class BookmarksError(Exception):
    """Any bookmarks problem; `str()` is one line fit to show a user."""


class BookmarksFileError(BookmarksError):
    """The file is damaged: it is left untouched and the store is read-only."""

    def __init__(self, path: Path, why: str, line: int | None = None, column: int | None = None):
        self.path = path
        self.why = why
        self.line = line
        self.column = column
        where = str(path)
        if line is not None:
            where += f":{line}"
            if column is not None:
                where += f":{column}"
        super().__init__(f"{where}: {why}")


class BookmarksReadOnlyError(BookmarksError):
    """A change was refused because the file is damaged."""


class BookmarksSaveError(BookmarksError):
    """Saving failed; the file is unchanged and the change waits in `pending`. `str()`
    promises nothing about later: a one-shot command exits with the change unsaved, the
    reader retries it (and says so in its own words)."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: cannot save bookmarks: {reason}")


# --- operations -------------------------------------------------------------------------------

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


Operation = Add | Remove | ChangeTags | SetNote | EditNote


def normalize_tags(tags: Iterable[str]) -> tuple[str, ...]:
    """Tags on one line (white space runs as one space: a line end inside a tag would come
    back from the TOML file as another line end, `\r\n` as `\n`), without empty ones or
    repeats, in first-seen order."""
    seen: dict[str, None] = {}
    for tag in tags:
        tag = _one_line(tag)
        if tag:
            seen.setdefault(tag, None)
    return tuple(seen)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def utc_now() -> datetime:
    """Now, as bookmarks store it: UTC, whole seconds."""
    return datetime.now(timezone.utc).replace(microsecond=0)


def clean_note(note: str) -> str:
    """A note as stored: line breaks as "\n", no blank lines around it."""
    return _NEWLINES.sub("\n", note).strip()


# --- the file ---------------------------------------------------------------------------------


@dataclass
class _Document:
    marks: Marks = field(default_factory=dict)
    extra: dict[str, object] = field(default_factory=dict)


def _parse_document(data: bytes, path: Path) -> _Document:
    """Read a bookmarks file's bytes; raise `BookmarksFileError` for anything damaged."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line_start = data.rfind(b"\n", 0, error.start) + 1
        line = data.count(b"\n", 0, error.start) + 1
        raise BookmarksFileError(
            path, "not UTF-8 text", line, error.start - line_start + 1
        ) from None
    try:
        raw = parse_toml(text)
    except TomlSyntaxError as error:
        raise BookmarksFileError(path, error.why, error.line, error.column) from None
    if not raw:
        return _Document()  # an empty file holds no bookmarks

    if "version" not in raw:
        raise BookmarksFileError(path, f"missing 'version = {FORMAT_VERSION}'", 1)
    version = raw.pop("version")
    if type(version) is not int or version != FORMAT_VERSION:
        raise BookmarksFileError(
            path,
            f"version {version!r} is not supported (this paperterm reads version "
            f"{FORMAT_VERSION}); the file is left untouched",
            _line_of(_VERSION_LINE, text, 0),
        )
    entries = raw.pop("bookmarks", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise BookmarksFileError(
            path, "'bookmarks' must be an array of tables ([[bookmarks]] sections)"
        )
    header_lines = [text.count("\n", 0, m.start()) + 1 for m in _TABLE_HEADER.finditer(text)]
    if len(header_lines) != len(entries):
        header_lines = []  # a header inside a multi-line string: do not guess lines
    document = _Document(extra=raw)
    for number, entry in enumerate(entries):
        entry_line = header_lines[number] if header_lines else None
        mark = _parse_entry(entry, number, path, entry_line)
        if mark.id in document.marks:
            first = list(document.marks).index(mark.id) + 1
            raise BookmarksFileError(
                path, f"bookmark {number + 1}: id {mark.id!r} repeats bookmark {first}", entry_line
            )
        document.marks[mark.id] = mark
    return document


def _parse_entry(entry: dict[str, object], index: int, path: Path, line: int | None) -> Bookmark:
    def fail(key: str, why: str) -> BookmarksFileError:
        return BookmarksFileError(path, f"bookmark {index + 1}: {key!r} {why}", line)

    mark_id = entry.get("id")
    if not isinstance(mark_id, str) or not mark_id.strip():
        raise fail("id", "is missing or not a non-empty string")
    added = entry.get("added")
    if isinstance(added, datetime):
        # A local date-time (no offset) is taken as UTC.
        added = (
            added.astimezone(timezone.utc) if added.tzinfo else added.replace(tzinfo=timezone.utc)
        )
    elif isinstance(added, date):
        added = datetime.combine(added, time(), tzinfo=timezone.utc)
    else:
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


def _line_of(pattern: re.Pattern[str], text: str, default: int | None) -> int | None:
    match = pattern.search(text)
    return text.count("\n", 0, match.start()) + 1 if match else default


def _render_document(document: _Document) -> str:
    """The file's text: bookmarks oldest first; empty title, tags and note left out."""
    entries = []
    for mark in sorted_bookmarks(document.marks.values()):
        entry: dict[str, object] = {"id": mark.id, "added": mark.added}
        if mark.title:
            entry["title"] = mark.title
        if mark.tags:
            entry["tags"] = list(mark.tags)
        if mark.note:
            entry["note"] = mark.note
        entry.update(mark.extra)
        entries.append(entry)
    body = {"version": FORMAT_VERSION, **document.extra, "bookmarks": entries}
    return _HEADER + tomli_w.dumps(body, multiline_strings=True)


def sorted_bookmarks(marks: Iterable[Bookmark]) -> list[Bookmark]:
    """In the order they were added (ties keep file order)."""
    return sorted(marks, key=lambda mark: mark.added)


# --- the store --------------------------------------------------------------------------------


class BookmarkStore:
    """The bookmarks in one file, shared safely with other processes.

    Call `load()` first. Reads (`bookmarks`, `get`, `is_bookmarked`) use the in-memory copy:
    what was on disk at the last load or save, plus `pending` changes. Poll
    `reload_if_changed()` to pick up what other processes saved. Thread-safe.
    """

    def __init__(self, path: Path, *, lock_timeout: float = 10.0) -> None:
        self.path = Path(path)
        self.backup_path = self.path.with_name(self.path.name + ".bak")
        self.lock_path = self.path.with_name(self.path.name + ".lock")
        self.lock_timeout = lock_timeout
        self._marks: Marks = {}
        self._pending: list[Operation] = []
        self._stamp: FileStamp | None = None
        self._error: BookmarksFileError | None = None
        self._mutex = threading.RLock()

    @classmethod
    def in_dir(cls, data_dir: Path) -> BookmarkStore:
        """The store of `bookmarks.toml` in the data dir."""
        return cls(Path(data_dir) / BOOKMARKS_FILENAME)

    # reading

    @property
    def bookmarks(self) -> list[Bookmark]:
        with self._mutex:
            return sorted_bookmarks(self._marks.values())

    def get(self, paper_id: str) -> Bookmark | None:
        """The bookmark of `paper_id`, or None when it is not bookmarked."""
        return self._marks.get(paper_id)

    def is_bookmarked(self, paper_id: str) -> bool:
        return paper_id in self._marks

    def missing(self, known_ids: Container[str]) -> list[Bookmark]:
        """Bookmarks whose paper is not among `known_ids` (e.g. left the corpus)."""
        return [mark for mark in self.bookmarks if mark.id not in known_ids]

    @property
    def read_only(self) -> bool:
        return self._error is not None

    @property
    def error(self) -> BookmarksFileError | None:
        """Why the store is read-only: the damage found at the last read, or None."""
        return self._error

    @property
    def pending(self) -> tuple[Operation, ...]:
        """Changes made in memory but not yet saved (after a failed save)."""
        return tuple(self._pending)

    def load(self) -> None:
        """Read the file (a missing file is an empty store).

        Raises `BookmarksFileError` for a damaged file (the store turns read-only and keeps
        the bookmarks it last read) and `BookmarksError` when the file cannot be read.
        """
        with self._mutex:
            try:
                document, stamp = self._read()
            except OSError as error:
                reason = error.strerror or _one_line(str(error))
                raise BookmarksError(f"{self.path}: cannot read bookmarks: {reason}") from error
            marks = dict(document.marks)
            for op in self._pending:
                op.apply(marks)
            self._marks, self._stamp, self._error = marks, stamp, None

    def changed_on_disk(self) -> bool:
        """Whether the file differs from what this store last read or wrote (one stat)."""
        return file_stamp(self.path) != self._stamp

    def reload_if_changed(self) -> bool:
        """Reload when another process changed the file; True when it did. Raises as `load`;
        a damaged file raises once, then is quiet until it changes again."""
        with self._mutex:
            if not self.changed_on_disk():
                return False
            self.load()
            return True

    # changing

    def add(self, paper_id: str, title: str = "") -> None:
        """Bookmark a paper; `title` is stored to name it should it leave the corpus."""
        self.apply(Add(paper_id, _one_line(title), utc_now()))

    def remove(self, paper_id: str) -> None:
        self.apply(Remove(paper_id))

    def toggle(self, paper_id: str, title: str = "") -> bool:
        """Add or remove as the user sees it now; returns whether it is bookmarked after."""
        with self._mutex:
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

    def apply(self, *ops: Operation) -> None:
        """Apply operations to the file as it is on disk now, and save (one write for all)."""
        self._apply(list(ops))

    def edit(self, paper_id: str, *ops: Operation) -> tuple[Bookmark | None, Bookmark | None]:
        """`apply`, returning `paper_id`'s bookmark as the file held it just before `ops`
        and just after: what an editing dialog needs to say truthfully what happened
        (another process may have changed or removed the bookmark while it was open)."""
        with self._mutex:
            seen = self._apply(list(ops))
            return seen.get(paper_id), self._marks.get(paper_id)

    def _apply(self, ops: list[Operation]) -> Marks:
        with self._mutex:
            if self._error is not None:
                raise BookmarksReadOnlyError(
                    f"{self._error} (not saved: bookmarks are read-only until the file is fixed)"
                )
            return self._sync(ops)

    def save(self) -> None:
        """Retry the pending changes, if any (mutations save by themselves)."""
        with self._mutex:
            if self._pending:
                self.apply()

    def _require(self, paper_id: str) -> None:
        if not self.is_bookmarked(paper_id):
            raise BookmarksError(f"{_one_line(paper_id)} is not bookmarked")

    def _sync(self, new_ops: list[Operation]) -> Marks:
        """Apply the pending and the new operations to the file and save; the bookmarks as
        they were just before the new operations (after the pending ones)."""
        ops = [*self._pending, *new_ops]
        document: _Document | None = None
        stamp = self._stamp
        try:
            with FileLock(self.lock_path, self.lock_timeout):
                try:
                    document, stamp = self._read()
                except BookmarksFileError as error:
                    raise BookmarksReadOnlyError(
                        f"{error} (not saved: bookmarks are read-only until the file is fixed)"
                    ) from error
                before = dict(document.marks)
                for op in self._pending:
                    op.apply(document.marks)
                seen = dict(document.marks)
                for op in new_ops:
                    op.apply(document.marks)
                if document.marks != before:
                    target = Path(os.path.realpath(self.path))  # a symlink's target is saved
                    remove_stale_temp_files(target)
                    write_user_file(
                        self.path,
                        _render_document(document).encode("utf-8"),
                        backup=self.backup_path,
                        make_parents=True,
                    )
                    stamp = file_stamp(self.path)
        except OSError as error:
            self._pending = ops
            if document is None:  # the file could not be read: build on what we had
                document = _Document(dict(self._marks))
                for op in new_ops:
                    op.apply(document.marks)
            self._marks, self._stamp = document.marks, stamp
            reason = error.strerror or _one_line(str(error))
            raise BookmarksSaveError(self.path, reason) from error
        self._pending, self._marks, self._stamp = [], document.marks, stamp
        return seen

    def _read(self) -> tuple[_Document, FileStamp | None]:
        """The file's bookmarks and its stamp (taken from the same open file).

        Raises OSError when it cannot be read, `BookmarksFileError` (and turns read-only)
        when it is damaged.
        """
        try:
            data, info = read_regular_file(self.path, BOOKMARKS_MAX_BYTES, "bookmarks file")
        except FileNotFoundError:
            return _Document(), None
        stamp = stamp_of(info)
        try:
            return _parse_document(data, self.path), stamp
        except BookmarksFileError as error:
            self._error, self._stamp = error, stamp
            raise
