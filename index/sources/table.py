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
from pathlib import Path
from typing import Any

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


def parse(
    path: Path, text: str, collection: str | None = None, read_as: ReadAs = DEFAULT_READ
) -> tuple[list[Paper], list[Problem]]:
    delimiter = delimiter_of(path, text, read_as)
    rows = _rows(path, text, delimiter)
    problems: list[Problem] = []
    found: list[Paper | Problem] = []
    names: list[str] | None = list(read_as.columns) or None
    header: list[str] = []
    zotero = False
    for index, (number, row) in enumerate(rows):
        if isinstance(row, Problem):
            problems.append(row)
            break
        if index == 0 and names is not None and header_fields(row) is not None:
            header = [cell.strip().lstrip("\ufeff") for cell in row]
            continue  # a header row before the rows `columns` names
        if names is None:
            names = header_fields(row)
            if names is None:
                from paperterm.index.sources.detect import choose

                reason = choose(path, text[:4096], read_as)
                return [], [Problem(str(path), number, reason)]
            header = [cell.strip().lstrip("\ufeff") for cell in row]
            zotero = bool(_ZOTERO & {fold(cell) for cell in row})
            continue
        if not any(cell.strip() for cell in row):
            continue
        ours: dict[str, Any] = {
            name: cell for name, cell in zip(names, row, strict=False) if name and cell
        }
        if zotero and "authors" in ours:
            ours["authors"] = zotero_authors(ours["authors"])
        if read_as.fields:
            theirs = dict(zip(header or [str(i + 1) for i in range(len(row))], row, strict=False))
            ours = with_fields(ours, theirs, read_as.fields)
        paper = build_paper(ours, path, number, collection, separator=read_as.separator)
        found.append(Problem(str(path), number, paper) if isinstance(paper, str) else paper)
    return sorted_out(path, found, problems, "no papers found")


def _rows(path: Path, text: str, delimiter: str) -> list[tuple[int, list[str] | Problem]]:
    """Each row with the line it starts on; a row the csv module cannot read ends them."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows: list[tuple[int, list[str] | Problem]] = []
    start = 1
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return rows
        except csv.Error as error:
            rows.append((start, Problem(str(path), start, f"not a readable table row: {error}")))
            return rows
        rows.append((start, row))
        start = reader.line_num + 1
