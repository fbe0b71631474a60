"""A large CSV or TSV table (`table`) read in stretches (`stretches.py`).

A stretch starts at a row: a line start outside any quoted field. The boundary finder
follows the csv module's reading of quotes (a quote opens a field only at its start; `""`
inside one is a quote) a row at a time, so a newline inside a quoted field is never a
place. Every stretch reads the file's first row (its header row, or the source's
`columns`) and its delimiter from the file's start. A file the csv module might read
otherwise than its lines say is read whole: a carriage return that ends no line (the csv
module's lines would not number as the "\\n" bytes do), a NUL byte, a row longer than the
csv module's field limit, a row unfinished for long.
"""

from __future__ import annotations

import csv
import os
import re
from collections.abc import Iterator
from dataclasses import replace
from functools import partial
from itertools import chain
from pathlib import Path
from typing import BinaryIO

from paperterm.index.papers import Paper
from paperterm.index.problems import Problem
from paperterm.index.sources.files import DEFAULT_READ, ReadAs
from paperterm.index.sources.stretching import Span, StretchFormat, texts
from paperterm.index.sources.table import items, layout_of, table_rows
from paperterm.index.sources.table_header import delimiter_of

_LONE_CR = re.compile(rb"\r(?!\n)")
#: A row held unfinished longer than this makes the file one to read whole.
_LONGEST_ROW = 1 << 22


def _row_pattern(delimiter: bytes) -> re.Pattern[bytes]:
    """One row, to its line end: fields between delimiters, each quoted (then anything up
    to the next delimiter, as the csv module reads it) or not starting with a quote."""
    cut = re.escape(delimiter)
    plain = rb"[^" + cut + rb"\r\n]*"
    field = rb'(?:"[^"]*(?:""[^"]*)*"(?!")' + plain + rb"|(?!\")" + plain + rb")"
    return re.compile(field + rb"(?:" + cut + field + rb")*(?:\r\n|\n)")


class TableBoundaries:
    """The row starts of a table read with `delimiter` (`stretches.Boundaries`)."""

    def __init__(self, delimiter: str = ",") -> None:
        self._row = _row_pattern(delimiter.encode())
        self._limit = csv.field_size_limit()
        self._carry = b""  # the unfinished row
        self._bad = False
        self._started = False

    def feed(self, block: bytes, position: int) -> list[int]:
        if self._bad:
            return []
        data = self._carry + block
        base = position - len(self._carry)
        at = 0
        if not self._started:
            if len(data) < 3 and b"\xef\xbb\xbf".startswith(data):
                self._carry = data
                return []
            self._started = True
            at = 3 if data.startswith(b"\xef\xbb\xbf") else 0
        if b"\x00" in block or any(m.start() < len(data) - 1 for m in _LONE_CR.finditer(data)):
            self._bad = True
            return []
        places: list[int] = []
        row = self._row.match
        while (match := row(data, at)) is not None:
            if match.end() - at > self._limit:
                self._bad = True
                return []
            at = match.end()
            places.append(base + at)
        self._carry = data[at:]
        self._bad = len(self._carry) > _LONGEST_ROW
        return places

    def usable(self) -> bool:
        return not self._bad


def read(
    path: Path,
    handle: BinaryIO,
    span: Span,
    collection: str | None,
    read_as: ReadAs = DEFAULT_READ,
) -> Iterator[Paper | Problem]:
    """The papers of a stretch, as `table.parse` gives them of the whole file."""
    start, end, first = span
    size = os.fstat(handle.fileno()).st_size
    top = _lines(texts(handle, 0, size))
    first_line = next(top, "")
    delimiter = delimiter_of(path, first_line, read_as)
    layout = None
    if start > 0:
        header = next(table_rows(path, chain([first_line], top), delimiter), None)
        if header is None or isinstance(header[1], Problem):
            return  # the first stretch says what is wrong
        layout = layout_of(header[1], read_as)
        if layout is None:
            return

    def refusal() -> str:
        from paperterm.index.sources.detect import choose

        head = "".join(texts(handle, 0, min(size, 4 << 12)))[:4096]
        return choose(path, head, read_as)

    rows = table_rows(path, _lines(texts(handle, start, end)), delimiter, first)
    found = False
    for item in items(path, rows, collection, read_as, layout, refusal):
        found = True
        yield item
    if not found:
        yield Problem(str(path), 0, FORMAT.nothing)


def _lines(pieces: Iterator[str]) -> Iterator[str]:
    """The lines of the text `pieces` make, each with its "\\n"."""
    pending = ""
    for piece in pieces:
        if "\n" not in piece:
            pending += piece
            continue
        first, *rest = piece.split("\n")
        yield pending + first + "\n"
        for line in rest[:-1]:
            yield line + "\n"
        pending = rest[-1]
    if pending:
        yield pending


FORMAT = StretchFormat("table", TableBoundaries, read, "no papers found")


def format_of(path: Path | None, head: str, read_as: ReadAs = DEFAULT_READ) -> StretchFormat:
    """The table format whose finder cuts at rows of the delimiter `path` is read with."""
    delimiter = delimiter_of(path or Path("table"), head, read_as)
    return replace(FORMAT, boundaries=partial(TableBoundaries, delimiter))
