"""A file of the user's own data (bookmarks, reading state, saved searches): entries by id,
changed only by operations applied, under a lock, to the file as it is on disk.

Several processes may use one file at once (two readers, a reader and the CLI). A change is
an operation with an `apply(entries)` method; saving reads the file under an advisory lock
(`FileLock`), applies the operations not saved yet, and writes the result back atomically
(`write_user_file`: a crash leaves the old or the new file, the previous one stays as
`NAME.bak`), so no process overwrites what another saved. Operations are idempotent:
replaying one after an uncertain failure is safe.

A change is either saved at once (`apply`: when it returns, the change is on disk) or staged
(`stage`: in memory at once, written by a later `save()`, e.g. from a worker thread so that
no keystroke waits for the disk). A save that fails (disk full, permission denied, lock held
too long) raises `LibrarySaveError`, the file stays as it was, and the change waits in
`pending` to be retried by the next save.

A damaged file (not UTF-8, not TOML, wrong shape, unknown version, a value out of range or
nested too deep), and one another user owns or can write (private_files.py), is never
overwritten: `load()` raises `LibraryFileError` naming file, line and column, and the store
turns read-only until the file is fixed and reloaded; changes staged before a save found it
so stay pending and count as unsaved. A file that is a symbolic link leading out of its
folder is read but never written through: saving fails as a full disk would. Entries whose
paper left the corpus are kept: nothing here knows the corpus.

Threads: in-memory state is published by replacing whole dicts under a short lock (a reader
on another thread never sees one half-changed); file I/O holds a second lock, so a save in a
worker never makes the UI thread wait for the disk unless it asks for I/O itself.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from paperterm.index.atomic import (
    FileLock,
    FileStamp,
    file_stamp,
    remove_stale_temp_files,
    stamp_of,
)
from paperterm.index.private_files import NotPrivateError, check_private, write_target_inside
from paperterm.index.toml_text import TomlSyntaxError, parse_toml
from paperterm.index.user_files import read_regular_file, write_user_file

FORMAT_VERSION = 1
_VERSION_LINE = re.compile(r"^[ \t]*version[ \t]*=", re.M)

E = TypeVar("E")


class LibraryError(Exception):
    """Any problem with one of the user's files; `str()` is one line fit to show a user."""


class LibraryFileError(LibraryError):
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


class LibraryReadOnlyError(LibraryError):
    """A change was refused because the file is damaged."""


class LibrarySaveError(LibraryError):
    """Saving failed; the file is unchanged and the change waits in `pending`. `str()`
    promises nothing about later: a one-shot command exits with the change unsaved, the
    reader retries it (and says so in its own words)."""

    def __init__(self, path: Path, reason: str, noun: str = "changes") -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: cannot save {noun}: {reason}")


class Operation(Protocol[E]):
    """A change: applied to the entries as the file holds them when it is saved."""

    def apply(self, entries: dict[str, E]) -> None: ...


@dataclass(frozen=True, slots=True)
class Restore(Generic[E]):
    """Put entries back as they were (None: not there): what undo applies. It overwrites
    what others changed in those entries meanwhile, as an undo should."""

    entries: tuple[tuple[str, E | None], ...]

    def apply(self, entries: dict[str, E]) -> None:
        for key, value in self.entries:
            if value is None:
                entries.pop(key, None)
            else:
                entries[key] = value


@dataclass
class Document(Generic[E]):
    """A file's content: its entries by id, and top-level keys this version does not know
    (kept, so that saving never drops what a person or a newer paperterm wrote)."""

    entries: dict[str, E] = field(default_factory=dict)
    extra: dict[str, object] = field(default_factory=dict)


class FileFormat(Generic[E]):
    """How one kind of file reads and writes. `parse` gets the TOML document with its
    `version` checked and removed; both raise or return nothing else."""

    #: What the file holds, as messages say it: "cannot save {noun}".
    noun: ClassVar[str] = "changes"
    #: The file in messages: "the {what} is too large".
    what: ClassVar[str] = "file"
    #: Appended to a refused change: "(not saved: {read_only_text})".
    read_only_text: ClassVar[str] = "the file is read-only until it is fixed"
    max_bytes: ClassVar[int] = 16 << 20
    #: The versions `parse` reads; a save writes the last one (older ones migrate then).
    versions: ClassVar[tuple[int, ...]] = (FORMAT_VERSION,)

    def parse(self, raw: dict[str, Any], text: str, path: Path) -> Document[E]:
        raise NotImplementedError

    def render(self, document: Document[E]) -> str:
        raise NotImplementedError


def parse_file(data: bytes, path: Path, fmt: FileFormat[E]) -> Document[E]:
    """A file's bytes as a document; `LibraryFileError` for anything damaged."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line_start = data.rfind(b"\n", 0, error.start) + 1
        line = data.count(b"\n", 0, error.start) + 1
        raise LibraryFileError(path, "not UTF-8 text", line, error.start - line_start + 1) from None
    try:
        raw = parse_toml(text)
    except TomlSyntaxError as error:
        raise LibraryFileError(path, error.why, error.line, error.column) from None
    if not raw:
        return Document()  # an empty file holds nothing
    newest = fmt.versions[-1]
    if "version" not in raw:
        raise LibraryFileError(path, f"missing 'version = {newest}'", 1)
    version = raw.pop("version")
    if type(version) is not int or version not in fmt.versions:
        readable = " or ".join(str(v) for v in fmt.versions)
        raise LibraryFileError(
            path,
            f"version {version!r} is not supported (this paperterm reads version "
            f"{readable}); the file is left untouched",
            line_of(_VERSION_LINE, text, 0),
        )
    return fmt.parse(raw, text, path)


def line_of(pattern: re.Pattern[str], text: str, default: int | None) -> int | None:
    """The line of `pattern`'s first match in `text` (1-based), else `default`."""
    match = pattern.search(text)
    return text.count("\n", 0, match.start()) + 1 if match else default


def array_of_tables(
    raw: dict[str, Any], key: str, text: str, path: Path
) -> list[tuple[dict[str, Any], int | None]]:
    """The `[[key]]` tables of a parsed file (taken out of `raw`), each with the line its
    header is on (None when the headers found in `text` do not match the tables one to
    one); `LibraryFileError` when `key` is not an array of tables."""
    tables = raw.pop(key, [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise LibraryFileError(path, f"'{key}' must be an array of tables ([[{key}]])")
    header = re.compile(rf"^[ \t]*\[\[[ \t]*{re.escape(key)}[ \t]*\]\]", re.M)
    lines = [text.count("\n", 0, m.start()) + 1 for m in header.finditer(text)]
    if len(lines) != len(tables):
        return [(table, None) for table in tables]
    return list(zip(tables, lines, strict=True))


def tables_text(
    header: str, key: str, extra: dict[str, Any], tables: list[dict[str, object]]
) -> str:
    """A file of `[[key]]` tables as it is saved: `header` (comments), the version, the keys
    this version does not know (`extra`), the tables."""
    import tomli_w  # written on a save only: the reader's start writes nothing

    return header + tomli_w.dumps({"version": FORMAT_VERSION, **extra, key: tables})


def one_line(text: str) -> str:
    return " ".join(text.split())


class OpLogStore(Generic[E]):
    """The entries of one file, shared safely with other processes and threads.

    Call `load()` first. Reads use the in-memory copy: what was on disk at the last load or
    save, plus `pending` changes. Poll `reload_if_changed()` to pick up what other processes
    saved. Subclasses set `format` and add the operations their callers need.
    """

    format: ClassVar[FileFormat[Any]]

    def __init__(self, path: Path, *, lock_timeout: float = 10.0) -> None:
        self.path = Path(path)
        self.backup_path = self.path.with_name(self.path.name + ".bak")
        self.lock_path = self.path.with_name(self.path.name + ".lock")
        self.lock_timeout = lock_timeout
        self._entries: dict[str, E] = {}
        self._pending: list[Operation[E]] = []
        self._stamp: FileStamp | None = None
        self._error: LibraryFileError | None = None
        self._failing = False
        self._state = threading.Lock()  # held briefly: the in-memory state
        self._io = threading.RLock()  # held for file I/O: one load or save at a time

    # reading

    @property
    def entries(self) -> dict[str, E]:
        """The entries by id. Never changed in place: a change publishes a new dict (and
        only a change: `_publish`), so a caller may keep and iterate this one on any
        thread."""
        return self._entries

    @property
    def read_only(self) -> bool:
        return self._error is not None

    @property
    def error(self) -> LibraryFileError | None:
        """Why the store is read-only: the damage found at the last read, or None."""
        return self._error

    @property
    def pending(self) -> tuple[Operation[E], ...]:
        """Changes made in memory but not yet saved (staged, or after a failed save)."""
        return tuple(self._pending)

    @property
    def unsaved(self) -> int:
        """How many changes wait because the last save failed (0 while saves succeed:
        changes staged for a save under way are not "unsaved")."""
        return len(self._pending) if self._failing else 0

    def load(self) -> None:
        """Read the file (a missing file is an empty store).

        Raises `LibraryFileError` for a damaged file (the store turns read-only and keeps
        the entries it last read) and `LibraryError` when the file cannot be read.
        """
        with self._io:
            try:
                document, stamp = self._read()
            except OSError as error:
                reason = error.strerror or one_line(str(error))
                raise LibraryError(
                    f"{self.path}: cannot read {self.format.noun}: {reason}"
                ) from error
            with self._state:
                self._publish(self._with_pending(document.entries))
                self._stamp, self._error = stamp, None

    def changed_on_disk(self) -> bool:
        """Whether the file differs from what this store last read or wrote (one stat)."""
        return file_stamp(self.path) != self._stamp

    def reload_if_changed(self) -> bool:
        """Reload when another process changed the file; True when it did. Raises as `load`;
        a damaged file raises once, then is quiet until it changes again."""
        with self._io:
            if not self.changed_on_disk():
                return False
            self.load()
            return True

    # changing

    def apply(self, *ops: Operation[E]) -> None:
        """Apply operations to the file as it is on disk now, and save (one write for all,
        with the pending ones); `LibrarySaveError` leaves them pending."""
        self._sync(list(ops))

    def stage(self, *ops: Operation[E]) -> None:
        """Make the change in memory now; a later `save()` writes it. Never touches the
        disk, so it is safe on a thread that must not wait (the reader's UI)."""
        with self._state:
            self._refuse_if_read_only()
            entries = dict(self._entries)
            for op in ops:
                op.apply(entries)
            self._entries = entries
            self._pending.extend(ops)

    def save(self) -> None:
        """Write the pending changes, if any (`apply` saves by itself)."""
        if self._pending:
            self._sync([])

    def _publish(self, entries: dict[str, E]) -> None:
        """Show `entries` read, saved or applied (`_state` held), unless they equal those
        shown: a save, a reload or an operation that changed nothing keeps the same dict,
        so what a caller keeps for it (the reader's unread and like orders) stays valid.
        It runs in the saving thread: comparing the entries costs less than recomputing
        those orders, which a changed dict would make the reader do."""
        if entries != self._entries:
            self._entries = entries

    def _refuse_if_read_only(self) -> None:
        if self._error is not None:
            raise LibraryReadOnlyError(f"{self._error} (not saved: {self.format.read_only_text})")

    def _with_pending(self, entries: dict[str, E]) -> dict[str, E]:
        for op in self._pending:
            op.apply(entries)
        return entries

    def _sync(self, new_ops: list[Operation[E]]) -> dict[str, E]:
        """Apply the pending and the new operations to the file and save; the entries as
        they were just before the new operations (after the pending ones)."""
        with self._io:
            with self._state:
                self._refuse_if_read_only()
                shown = self._entries
                if new_ops:
                    entries = dict(self._entries)
                    for op in new_ops:
                        op.apply(entries)
                    self._publish(entries)
                    self._pending.extend(new_ops)
                ops = list(self._pending)
            first_new = len(ops) - len(new_ops)
            on_disk: dict[str, E] | None = None  # what the file held, once read
            try:
                with FileLock(self.lock_path, self.lock_timeout):
                    try:
                        document, stamp = self._read()
                    except LibraryFileError as error:
                        with self._state:  # refused: the new changes are not kept
                            del self._pending[first_new : len(ops)]
                            entries = dict(shown)
                            for op in self._pending[first_new:]:  # staged meanwhile
                                op.apply(entries)
                            self._entries = entries
                            # Those staged before wait, counted, until the file is fixed.
                            self._failing = bool(self._pending)
                        raise LibraryReadOnlyError(
                            f"{error} (not saved: {self.format.read_only_text})"
                        ) from error
                    on_disk = dict(document.entries)
                    for op in ops[:first_new]:
                        op.apply(document.entries)
                    seen = dict(document.entries)
                    for op in ops[first_new:]:
                        op.apply(document.entries)
                    if document.entries != on_disk:
                        write_target_inside(self.path, self.path.parent)
                        target = Path(os.path.realpath(self.path))  # a symlink's target
                        remove_stale_temp_files(target)
                        write_user_file(
                            self.path,
                            self.format.render(document).encode("utf-8"),
                            backup=self.backup_path,
                            make_parents=True,
                        )
                        stamp = file_stamp(self.path)
            except OSError as error:
                with self._state:
                    self._failing = True
                    if on_disk is not None:  # read, not written: show what the file holds
                        self._entries = self._with_pending(on_disk)
                reason = error.strerror or one_line(str(error))
                raise LibrarySaveError(self.path, reason, self.format.noun) from error
            with self._state:
                del self._pending[: len(ops)]  # changes staged meanwhile stay pending
                self._publish(self._with_pending(document.entries))
                self._stamp, self._failing = stamp, False
            return seen

    def _read(self) -> tuple[Document[E], FileStamp | None]:
        """The file's document and its stamp (taken from the same open file).

        Raises OSError when it cannot be read, `LibraryFileError` (and turns read-only)
        when it is damaged.
        """
        try:
            data, info = read_regular_file(self.path, self.format.max_bytes, self.format.what)
        except FileNotFoundError:
            return Document(), None
        stamp = stamp_of(info)
        try:
            try:
                check_private(self.path, self.format.what, info)
            except NotPrivateError as error:
                raise LibraryFileError(self.path, error.strerror or str(error)) from None
            return parse_file(data, self.path, self.format), stamp
        except LibraryFileError as error:
            with self._state:
                self._error, self._stamp = error, stamp
            raise


def restore_of(store: OpLogStore[E], keys: Iterable[str]) -> Restore[E]:
    """The operation that puts `keys`' entries back as they are now (for undo)."""
    entries = store.entries
    return Restore(tuple((key, entries.get(key)) for key in dict.fromkeys(keys)))
