"""CSV and TSV paper tables.

A table is read by its header row when it has one we know (generic names such as `title`,
`abstract`, `authors`, `url`; Zotero's CSV export: `Title, Author, Abstract Note, Url, DOI,
Publication Year, Publication Title`), else by the source's `columns` (our field per
column, "" skips one). A table with neither is refused (`detect.py`). The delimiter is the
source's format ("csv", "tsv"), else the extension (.tsv, .tab: tabs), else a tab when the
first line has one. Zotero's `Author` ("Last, First; Last, First") is turned around.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from paperterm.index.papers import Paper
from paperterm.index.problems import Problem, sorted_out
from paperterm.index.sources.files import DEFAULT_READ, OUR_FIELDS, ReadAs
from paperterm.index.sources.record_fields import build_paper, with_fields, zotero_authors

#: Header names (folded: lower case, "_", "-" and spaces as one space) to our fields.
HEADER_NAMES: dict[str, str] = {
    **{name.replace("_", " "): name for name in OUR_FIELDS},
    "paper title": "title", "name": "title", "abstract note": "abstract",
    "summary": "abstract", "author": "authors", "speakers/authors": "authors",
    "author names": "authors", "aff": "affiliations", "affiliation": "affiliations",
    "institution": "affiliations", "institutions": "affiliations", "authorids": "author_ids",
    "publication year": "year", "date": "year", "publication title": "venue",
    "conference": "venue", "booktitle": "venue", "journal": "venue", "decision": "status",
    "eventtype": "type", "event type": "type", "primary area": "topic", "area": "topic",
    "keyword": "keywords", "manual tags": "keywords", "tl;dr": "tldr", "room name": "room",
    "starttime": "start", "start time": "start", "endtime": "end", "end time": "end",
    "poster position": "poster", "link": "url", "virtualsite url": "url",
    "paper url": "url", "pdf url": "pdf", "arxiv id": "arxiv", "eprint": "arxiv",
    "forum": "openreview", "github": "code", "code url": "code", "key": "id",
}  # fmt: skip
_ZOTERO = {"abstract note", "publication title", "item type", "publication year"}


def fold(name: str) -> str:
    return " ".join(re.sub(r"[_\-\s]+", " ", name.strip().lstrip("\ufeff")).lower().split())


def header_fields(cells: list[str]) -> list[str] | None:
    """Our field for each cell of a first row that is a header we know ("" for a column we
    do not read), else None (no title or abstract column among them)."""
    mapped = [HEADER_NAMES.get(fold(cell), "") for cell in cells]
    return mapped if {"title", "abstract"} & set(mapped) else None


def delimiter_of(path: Path, head: str, read_as: ReadAs = DEFAULT_READ) -> str:
    if read_as.format in ("csv", "tsv"):
        return "\t" if read_as.format == "tsv" else ","
    if path.suffix.lower() in (".tsv", ".tab"):
        return "\t"
    if path.suffix.lower() == ".csv":
        return ","
    return "\t" if "\t" in head.split("\n", 1)[0] else ","


def split_row(line: str, delimiter: str) -> list[str]:
    try:
        return next(csv.reader([line], delimiter=delimiter), [])
    except csv.Error:
        return line.split(delimiter)


class Layout(NamedTuple):
    """How a table's rows are read: our field per column, the header row's cells ([] for
    none), whether authors are Zotero's, whether the first row is a header row."""

    names: list[str]
    header: list[str]
    zotero: bool
    header_row: bool


def layout_of(row: list[str], read_as: ReadAs) -> Layout | None:
    """The layout a table's first row gives (with the source's `columns`, if any); None
    when it is no header we know and there are no `columns`."""
    cells = [cell.strip().lstrip("\ufeff") for cell in row]
    if read_as.columns:
        known = header_fields(row) is not None
        return Layout(list(read_as.columns), cells if known else [], False, known)
    names = header_fields(row)
    if names is None:
        return None
    return Layout(names, cells, bool(_ZOTERO & {fold(cell) for cell in row}), True)


def parse(
    path: Path, text: str, collection: str | None = None, read_as: ReadAs = DEFAULT_READ
) -> tuple[list[Paper], list[Problem]]:
    delimiter = delimiter_of(path, text, read_as)
    rows = table_rows(path, io.StringIO(text, newline=""), delimiter)

    refused: list[str] = []

    def refusal() -> str:
        from paperterm.index.sources.detect import choose

        refused.append(choose(path, text[:4096], read_as))
        return refused[0]

    found = list(items(path, rows, collection, read_as, None, refusal))
    if refused:
        return [], [item for item in found if isinstance(item, Problem)][-1:]
    return sorted_out(path, found, [], "no papers found")


def items(
    path: Path,
    rows: Iterator[tuple[int, list[str] | Problem]],
    collection: str | None,
    read_as: ReadAs,
    layout: Layout | None,
    refusal: Callable[[], str],
) -> Iterator[Paper | Problem]:
    """The papers and problems of a table's rows (`layout` None: the first row gives it,
    else it is `refusal()`'s problem); a row the csv module cannot read ends them."""
    first = layout is None
    for number, row in rows:
        if isinstance(row, Problem):
            yield row
            return
        if first:
            first = False
            layout = layout_of(row, read_as)
            if layout is None:
                yield Problem(str(path), number, refusal())
                return
            if layout.header_row:
                continue
        assert layout is not None
        if not any(cell.strip() for cell in row):
            continue
        ours: dict[str, Any] = {
            name: cell for name, cell in zip(layout.names, row, strict=False) if name and cell
        }
        if layout.zotero and "authors" in ours:
            ours["authors"] = zotero_authors(ours["authors"])
        if read_as.fields:
            keys = layout.header or [str(i + 1) for i in range(len(row))]
            ours = with_fields(ours, dict(zip(keys, row, strict=False)), read_as.fields)
        paper = build_paper(ours, path, number, collection, separator=read_as.separator)
        yield Problem(str(path), number, paper) if isinstance(paper, str) else paper


def table_rows(
    path: Path, lines: Iterable[str], delimiter: str, first: int = 1
) -> Iterator[tuple[int, list[str] | Problem]]:
    """Each row of `lines` (each with its line end; the first is line `first`) with the
    line it starts on; a row the csv module cannot read is a problem and ends them."""
    reader = csv.reader(lines, delimiter=delimiter)
    start = first
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            yield start, Problem(str(path), start, f"not a readable table row: {error}")
            return
        yield start, row
        start = first + reader.line_num
