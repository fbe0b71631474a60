"""The watches saved from the reader: `watch.toml` in the data dir::

    version = 1

    [[watch]]
    kind = "author"        # "author", "author_id" or "word"
    value = "Yann LeCun"
    added = 2025-11-01T09:00:00+00:00

kept with the bookmarks' guarantees (`OpLogStore`: merged across processes, atomic, a
damaged file never overwritten). One entry per watched thing: an author name once however
it is spelled (`watch.name_key`), a word once in any case. The config's `[watch]` lists are
the user's own and are merged in by the caller (`WatchStore.watch_list`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

from paperterm.index.library.bookmarks import added_time, utc_now
from paperterm.index.library.op_store import (
    Document,
    FileFormat,
    LibraryFileError,
    OpLogStore,
    array_of_tables,
    one_line,
    tables_text,
)
from paperterm.index.planning.watch import WatchList, fold, name_key

WATCH_FILENAME = "watch.toml"
KINDS = ("author", "author_id", "word")
_HEADER = (
    "# paperterm watch list (saved from the reader; the config's [watch] lists are apart).\n"
    "# You may edit this file by hand (comments are not kept when paperterm saves it).\n\n"
)


class Watch(NamedTuple):
    kind: str
    value: str
    added: datetime | None = None


def watch_key(kind: str, value: str) -> str:
    """One key per watched thing: "author:yannlecun", "word:diffusion model"."""
    if kind == "author":
        return f"author:{name_key(value)}"
    if kind == "word":
        return f"word:{' '.join(fold(value).split())}"
    return f"{kind}:{value.strip()}"


@dataclass(frozen=True, slots=True)
class AddWatch:
    """Watch `value` (kept as first written when it is watched already)."""

    kind: str
    value: str
    added: datetime

    def apply(self, entries: dict[str, Watch]) -> None:
        watch = Watch(self.kind, self.value, self.added)
        entries.setdefault(watch_key(self.kind, self.value), watch)


@dataclass(frozen=True, slots=True)
class RemoveWatch:
    kind: str
    value: str

    def apply(self, entries: dict[str, Watch]) -> None:
        entries.pop(watch_key(self.kind, self.value), None)


class WatchFormat(FileFormat[Watch]):
    noun = "watch list"
    what = "watch file"
    read_only_text = "the watch list is read-only until the file is fixed"
    max_bytes = 1 << 20

    def parse(self, raw: dict[str, Any], text: str, path: Path) -> Document[Watch]:
        document: Document[Watch] = Document(extra=raw)
        for index, (table, line) in enumerate(array_of_tables(raw, "watch", text, path)):
            kind, value = table.get("kind"), table.get("value")
            if kind not in KINDS:
                raise LibraryFileError(
                    path, f"watch {index + 1}: 'kind' must be one of {', '.join(KINDS)}", line
                )
            if not isinstance(value, str) or not one_line(value):
                raise LibraryFileError(path, f"watch {index + 1}: 'value' must be text", line)
            key = watch_key(kind, value)
            if key in document.entries:
                raise LibraryFileError(path, f"watch {index + 1}: {value!r} is watched twice", line)
            added = added_time(table, path, f"watch {index + 1}", line)
            document.entries[key] = Watch(kind, one_line(value), added)
        return document

    def render(self, document: Document[Watch]) -> str:
        tables: list[dict[str, object]] = []
        for watch in document.entries.values():
            table: dict[str, object] = {"kind": watch.kind, "value": watch.value}
            if watch.added is not None:
                table["added"] = watch.added
            tables.append(table)
        return tables_text(_HEADER, "watch", document.extra, tables)


class WatchStore(OpLogStore[Watch]):
    """The watches saved from the reader (see `OpLogStore`)."""

    format = WatchFormat()

    @classmethod
    def in_dir(cls, data_dir: Path) -> WatchStore:
        return cls(Path(data_dir) / WATCH_FILENAME)

    def watch(self, kind: str, value: str) -> None:
        """Watch `value`; ValueError for an unknown kind or a value with nothing to match
        (an author's name with no letter or digit, blank words or ids)."""
        if kind not in KINDS:
            raise ValueError(f"unknown watch kind {kind!r}")
        if watch_key(kind, value).endswith(":"):
            raise ValueError(f"nothing to watch in {value!r}")
        self.apply(AddWatch(kind, one_line(value), utc_now()))

    def unwatch(self, kind: str, value: str) -> None:
        self.apply(RemoveWatch(kind, value))

    def watch_list(self, configured: WatchList | None = None) -> WatchList:
        """The config's watch list, then the watches saved here."""
        values: dict[str, list[str]] = {kind: [] for kind in KINDS}
        for watch in self.entries.values():
            values[watch.kind].append(watch.value)
        saved = WatchList(
            tuple(values["author"]), tuple(values["word"]), tuple(values["author_id"])
        )
        return (configured or WatchList()).merged(saved)
