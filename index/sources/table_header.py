"""A table's first row and its delimiter: which of our fields each header cell names, and
how a line is split (shared by the table parser, its stretches and the detection)."""

from __future__ import annotations

import csv
import re
from pathlib import Path

from paperterm.index.sources.files import DEFAULT_READ, OUR_FIELDS, ReadAs

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
ZOTERO_NAMES = {"abstract note", "publication title", "item type", "publication year"}


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
