"""A large text list (`text_list`) read in stretches (`stretches.py`).

A stretch starts at a line after a blank one: no paragraph, so no abstract, crosses it,
and a paragraph's lines number as in the whole file. The list's name (its first
paragraph, when that is one short line) is read from the file's start by every stretch.
A file with a carriage return that ends no line (text_list reads it as a line break) is
read whole: its lines would not number as its "\\n" bytes do.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from paperterm.index.papers import Paper, content_id
from paperterm.index.problems import Problem
from paperterm.index.sources.files import DEFAULT_READ, ReadAs
from paperterm.index.sources.stretching import Span, StretchFormat, lines, texts
from paperterm.index.sources.text_list import looks_like_header

#: A blank line (ASCII white space only), from its start: a stretch may start after it.
_BLANK = re.compile(rb"(?<=\n)[ \t\f\v\r]*\n")
_LONE_CR = re.compile(rb"\r(?!\n)")


class TextBoundaries:
    """The line starts after a blank line (`stretches.Boundaries`)."""

    def __init__(self) -> None:
        self._carry = b""  # the file's last line so far, from the "\n" before it
        self._lone_cr = False

    def feed(self, block: bytes, position: int) -> list[int]:
        data = self._carry + block
        base = position - len(self._carry)
        if b"\r" in data:
            last = len(data) - 1  # a "\r" last may be followed by "\n" in the next block
            self._lone_cr = self._lone_cr or any(
                match.start() < last for match in _LONE_CR.finditer(data)
            )
        places = [base + match.end() for match in _BLANK.finditer(data)]
        newline = data.rfind(b"\n")
        self._carry = data[newline:] if newline >= 0 else data
        return places

    def usable(self) -> bool:
        return not self._lone_cr


def header(handle: BinaryIO) -> tuple[int, str]:
    """The line and text of the list's name, as `text_list.parse` takes it (its first
    paragraph when that is one short line); (0, "") when it has none."""
    size = os.fstat(handle.fileno()).st_size
    found: tuple[int, str] | None = None
    for number, raw in enumerate(lines(texts(handle, 0, size)), start=1):
        line = raw.strip()
        if found is None:
            if line:
                found = (number, line)
            continue
        if line:
            return 0, ""  # a paragraph of more lines than one
        break
    if found is None or not looks_like_header([found[1]]):
        return 0, ""
    return found


def read(
    path: Path,
    handle: BinaryIO,
    span: Span,
    collection: str | None,
    read_as: ReadAs = DEFAULT_READ,
) -> Iterator[Paper | Problem]:
    """The papers of a stretch, as `text_list.parse` gives them of the whole file."""
    start, end, first = span
    header_line, name = header(handle)
    name = collection or name or path.stem
    found = False
    current: list[str] = []
    at = 0
    for number, raw in enumerate(lines(texts(handle, start, end)), start=first):
        line = raw.strip()
        if line:
            if not current:
                at = number
            current.append(line)
        elif current:
            if at != header_line:
                found = True
                yield _paper(path, name, at, current)
            current = []
    if current and at != header_line:
        found = True
        yield _paper(path, name, at, current)
    if not found:
        yield Problem(str(path), 0, FORMAT.nothing)


def _paper(path: Path, name: str, line: int, paragraph: list[str]) -> Paper:
    abstract = " ".join(paragraph)
    return Paper(
        id=content_id(abstract), collection=name, abstract=abstract, source=str(path), line=line
    )


FORMAT = StretchFormat("text", TextBoundaries, read, "no abstracts found")
