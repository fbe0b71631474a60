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


class SearchesFormat(FileFormat[SavedSearch]):
    noun = "saved searches"
    what = "saved searches file"
    read_only_text = "saved searches are read-only until the file is fixed"
    max_bytes = 1 << 20

    def parse(self, raw: dict[str, Any], text: str, path: Path) -> Document[SavedSearch]:
        document: Document[SavedSearch] = Document(extra=raw)
        for index, (table, line) in enumerate(array_of_tables(raw, "searches", text, path)):
            name, query = table.get("name"), table.get("query")
            added = added_time(table, path, f"search {index + 1}", line)
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
        return tables_text(_HEADER, "searches", document.extra, tables)


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
