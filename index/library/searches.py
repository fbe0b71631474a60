"""Saved searches: a query under a name, shown as a view in the reader's sidebar and usable
as `paperterm list --view NAME`.

They come from two places. The config's `[[searches]]` tables are the user's own (the
reader never writes the config: rewriting it would drop its comments and layout). Searches
saved from the reader go to `searches.toml` in the data dir::

    version = 1

    [[searches]]
    name = "protein design"
    query = "protein design -review"
    added = 2024-05-01T12:00:00+00:00

kept with the bookmarks' guarantees (`OpLogStore`: merged across processes, atomic, a damaged
file never overwritten). A name the config uses cannot be saved again from the reader.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

from paperterm.index.library.bookmarks import DateOutOfRange, as_utc, utc_now
from paperterm.index.library.op_store import (
    FORMAT_VERSION,
    Document,
    FileFormat,
    LibraryFileError,
    OpLogStore,
    one_line,
)
from paperterm.index.text.lazy_pattern import compile_later


class SavedSearch(NamedTuple):
    """A named query; `added` is None for one from the config."""

    name: str
    query: str
    added: datetime | None = None


SEARCHES_FILENAME = "searches.toml"
_HEADER = (
    "# paperterm saved searches (saved from the reader; the config's [[searches]] are apart).\n"
    "# You may edit this file by hand (comments are not kept when paperterm saves it).\n\n"
)
_TABLE_HEADER = compile_later(r"^[ \t]*\[\[[ \t]*searches[ \t]*\]\]", re.M)


# The changes (`SaveSearch`, `DeleteSearch`) are in search_ops.py, imported where one is made.


class SearchesFormat(FileFormat[SavedSearch]):
    noun = "saved searches"
    what = "saved searches file"
    read_only_text = "saved searches are read-only until the file is fixed"
    max_bytes = 1 << 20

    def parse(self, raw: dict[str, Any], text: str, path: Path) -> Document[SavedSearch]:
        tables = raw.pop("searches", [])
        if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
            raise LibraryFileError(path, "'searches' must be an array of tables ([[searches]])")
        lines = [text.count("\n", 0, m.start()) + 1 for m in _TABLE_HEADER.finditer(text)]
        document: Document[SavedSearch] = Document(extra=raw)
        for index, table in enumerate(tables):
            line = lines[index] if len(lines) == len(tables) else None
            name, query = table.get("name"), table.get("query")
            try:
                added = as_utc(table.get("added"))
            except DateOutOfRange as error:
                raise LibraryFileError(path, f"search {index + 1}: 'added' {error}", line) from None
            if not isinstance(name, str) or not one_line(name):
                raise LibraryFileError(path, f"search {index + 1}: 'name' must be text", line)
            if not isinstance(query, str):
                raise LibraryFileError(path, f"search {index + 1}: 'query' must be text", line)
            if name in document.entries:
                raise LibraryFileError(path, f"search {index + 1}: {name!r} is saved twice", line)
            document.entries[name] = SavedSearch(name, query, added)
        return document

    def render(self, document: Document[SavedSearch]) -> str:
        tables: list[dict[str, object]] = []
        for search in document.entries.values():
            table: dict[str, object] = {"name": search.name, "query": search.query}
            if search.added is not None:
                table["added"] = search.added
            tables.append(table)
        import tomli_w  # written on a save only: the reader's start writes nothing

        body = {"version": FORMAT_VERSION, **document.extra, "searches": tables}
        return _HEADER + tomli_w.dumps(body)


class SearchesStore(OpLogStore[SavedSearch]):
    """The searches saved from the reader (see `OpLogStore`)."""

    format = SearchesFormat()

    @classmethod
    def in_dir(cls, data_dir: Path) -> SearchesStore:
        return cls(Path(data_dir) / SEARCHES_FILENAME)

    def save_search(self, name: str, query: str) -> None:

        self.apply(SaveSearch(one_line(name), query.strip(), utc_now()))

    def delete(self, name: str) -> None:

        self.apply(DeleteSearch(name))


def all_searches(configured: list[SavedSearch], store: SearchesStore) -> list[SavedSearch]:
    """The config's searches, then those saved from the reader (a name the config also
    uses is the config's)."""
    names = {search.name for search in configured}
    return [*configured, *(s for s in store.entries.values() if s.name not in names)]


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
