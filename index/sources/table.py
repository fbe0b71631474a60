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
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from paperterm.index.papers import Paper
from paperterm.index.problems import Problem, sorted_out
from paperterm.index.sources.files import DEFAULT_READ, ReadAs
from paperterm.index.sources.record_fields import build_paper, with_fields, zotero_authors
from paperterm.index.sources.table_header import (
    ZOTERO_NAMES,
    delimiter_of,
    fold,
    header_fields,
)


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
    return Layout(names, cells, bool(ZOTERO_NAMES & {fold(cell) for cell in row}), True)


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
