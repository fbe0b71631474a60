"""Reading state: which papers the user has read, and when, in `reading.toml`.

The file (in the data dir) is plain TOML a person can edit::

    version = 2

    [decision]                                  # triage decisions (decisions.py)
    3f2a9c01b7de = "keep"                       # "keep", "maybe" or "skip"

    [read]
    3f2a9c01b7de = 2024-05-01T12:00:00+00:00   # paper id = when it was first read (UTC)
    "an id with spaces" = 2024-05-02T09:30:00+00:00

Every paper not in `[read]` is unread, every paper not in `[decision]` undecided; a
version 1 file (no `[decision]`) is read as it is and written as version 2 on its first
save. It is kept with the same guarantees as bookmarks (`OpLogStore`: changes are operations
merged into the file as it is on disk under a lock, saved atomically, a damaged file never
overwritten, failed saves retried); entries whose paper left the corpus are kept. The
reader stages its changes (they show at once) and saves them from a worker thread, so a
keystroke never waits for the disk.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from paperterm.index.library.bookmarks import DateOutOfRange, as_utc, utc_now
from paperterm.index.library.op_store import (
    Document,
    FileFormat,
    LibraryFileError,
    OpLogStore,
)

READING_FILENAME = "reading.toml"
#: Version 2 adds `[decision]`; a version 1 file is read as it is and written as 2.
READING_VERSION = 2
#: The triage decisions, in the order they are offered.
DECISIONS = ("keep", "maybe", "skip")
#: One line a paper read: 16 MiB holds far more papers than any corpus here.
READING_MAX_BYTES = 16 << 20
_HEADER = (
    "# paperterm reading state: [decision] paper id = keep, maybe or skip (unlisted =\n"
    "# undecided); [read] paper id = when you first read it (UTC) (unlisted = unread).\n"
    "# You may edit this file by hand (comments are not kept when paperterm saves it).\n\n"
)
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


class ReadingFormat(FileFormat[datetime]):
    noun = "reading state"
    what = "reading state file"
    read_only_text = "the reading state is read-only until the file is fixed"
    max_bytes = READING_MAX_BYTES
    versions = (1, READING_VERSION)

    def parse(self, raw: dict[str, Any], text: str, path: Path) -> Document[datetime]:
        reads, decisions = parse_reading_tables(raw, text, path)
        return Document(reads, {**raw, "decision": decisions})

    def render(self, document: Document[datetime]) -> str:
        extra = dict(document.extra)
        decisions = extra.pop("decision", {})
        assert isinstance(decisions, dict)
        return render_reading_file(document.entries, decisions, extra)


def parse_reading_tables(
    raw: dict[str, Any], text: str, path: Path
) -> tuple[dict[str, datetime], dict[str, str]]:
    """The `[read]` and `[decision]` tables, checked and removed from `raw`."""
    table = raw.pop("read", {})
    if not isinstance(table, dict):
        raise LibraryFileError(path, "'read' must be a table ([read] section)")
    entries: dict[str, datetime] = {}
    for paper_id, value in table.items():
        try:
            when = as_utc(value)
        except DateOutOfRange as error:
            raise LibraryFileError(
                path, f"read.{paper_id!r}: {error}", _line_of_key(text, paper_id, "read")
            ) from None
        if when is None or not paper_id.strip():
            why = (
                "an empty paper id"
                if not paper_id.strip()
                else f"read.{paper_id!r} must be a TOML date-time (like 2024-05-01T12:00:00Z)"
            )
            raise LibraryFileError(path, why, _line_of_key(text, paper_id, "read"))
        entries[paper_id] = when
    table = raw.pop("decision", {})
    if not isinstance(table, dict):
        raise LibraryFileError(path, "'decision' must be a table ([decision] section)")
    decisions: dict[str, str] = {}
    for paper_id, value in table.items():
        if value not in DECISIONS or not paper_id.strip():
            why = (
                "an empty paper id"
                if not paper_id.strip()
                else f"decision.{paper_id!r} must be one of {', '.join(map(repr, DECISIONS))}"
            )
            raise LibraryFileError(path, why, _line_of_key(text, paper_id, "decision"))
        decisions[paper_id] = value
    return entries, decisions


def render_reading_file(
    reads: dict[str, datetime], decisions: dict[str, str], extra: dict[str, object]
) -> str:
    """The whole file, always at the newest version. Written by hand, not by tomli_w,
    which is several times slower on a large `[read]` table."""
    import tomli_w  # written on a save only: the reader's start writes nothing

    head = {"version": READING_VERSION, **extra}
    lines = [_HEADER + tomli_w.dumps(head)]
    if decisions:
        lines.append("[decision]")
        for paper_id, decision in sorted(decisions.items()):
            lines.append(f'{_key(paper_id)} = "{decision}"')
        lines.append("")
    lines.append("[read]")
    for paper_id, when in sorted(reads.items(), key=lambda item: item[1]):
        lines.append(f"{_key(paper_id)} = {when.isoformat()}")
    return "\n".join(lines) + "\n"


def _key(paper_id: str) -> str:
    return paper_id if _BARE_KEY.fullmatch(paper_id) else _quoted(paper_id)


def _quoted(key: str) -> str:
    """A TOML key for any string (tomli_w knows every escape TOML needs)."""
    import tomli_w

    return tomli_w.dumps({key: 0}).rsplit(" = ", 1)[0].strip()


def _line_of_key(text: str, key: str, table: str) -> int | None:
    """The line of `key` in `[table]` (the first after the table's header)."""
    pattern = re.compile(rf"^[ \t]*(?:{re.escape(key)}|\"{re.escape(key)}\"|'{re.escape(key)}')")
    header = re.compile(rf"^[ \t]*\[[ \t]*{table}[ \t]*\]")
    inside = False
    for number, line in enumerate(text.split("\n"), start=1):
        if line.lstrip().startswith("["):
            inside = bool(header.match(line))
        elif inside and pattern.match(line):
            return number
    return None


class ReadingStore(OpLogStore[datetime]):
    """Which papers are read, shared safely with other processes (see `OpLogStore`)."""

    format = ReadingFormat()

    @classmethod
    def in_dir(cls, data_dir: Path) -> ReadingStore:
        """The store of `reading.toml` in the data dir."""
        return cls(Path(data_dir) / READING_FILENAME)

    def is_read(self, paper_id: str) -> bool:
        return paper_id in self.entries

    def is_unread(self, paper_id: str) -> bool:
        return paper_id not in self.entries

    def read_at(self, paper_id: str) -> datetime | None:
        return self.entries.get(paper_id)

    def unread(self, ids: Iterable[str]) -> list[str]:
        """Those of `ids` not read, in their order."""
        read = self.entries
        return [paper_id for paper_id in ids if paper_id not in read]


def mark_read(ids: Iterable[str]) -> MarkRead:

    return MarkRead(tuple(dict.fromkeys(ids)), utc_now())


def mark_unread(ids: Iterable[str]) -> MarkUnread:

    return MarkUnread(tuple(dict.fromkeys(ids)))


# --- the changes to the reading state -------------------------------------------------------


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
