"""A large JSON document (`json_records`: an array of records, or an object holding it
under `papers`, `items` or `records`) read in stretches (`stretches.py`), streamed: a
stretch decodes one element at a time, and no process decodes the whole array.

A stretch starts at an element of the records array. The boundary finder follows the
document's nesting over its brackets, skipping strings whole (a regular expression steps
from one bracket outside a string to the next), and gives the first bracket of each
element. An object whose records array is not plainly the one `json_records` would take
(another list under one of those keys, in it or before it; another value after it) is
read whole.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from paperterm.index.papers import Paper
from paperterm.index.problems import Problem
from paperterm.index.sources.files import DEFAULT_READ, ReadAs
from paperterm.index.sources.json_records import _LIST_START, _from_record
from paperterm.index.sources.stretching import Span, StretchFormat, texts

#: From a place outside a string: past any text and whole strings, to the next bracket
#: (group 1), a string that does not end in the data (group 1 is '"'), or the data's end.
#: (No backtracking: everything after the loop is optional, so the match never fails.)
_NEXT = re.compile(rb'(?:[^\[\]{}"]+|"[^"\\]*(?:\\.[^"\\]*)*")*([\[\]{}"])?')
#: A key `json_records` takes the records from, just before an array's bracket.
_LIST_KEY = re.compile(rb'"(?:papers|items|records)"\s*:\s*$')
_SPACE = " \t\n\r"
_SCALAR_END = re.compile(r"[\s,\]}]")
_LOOK_BACK = 64


class JsonBoundaries:
    """The first bracket of each element of the records array (`stretches.Boundaries`)."""

    def __init__(self) -> None:
        self._carry = b""  # an unfinished string, read again with the next block
        self._before = b""  # the last bytes read before the carry (a key's look-back)
        self._depth = 0
        self._top = b""  # "[" or "{": the document's first bracket
        self._records: int | None = None  # the depth inside the records array
        self._open = False  # whether the records array is open
        self._bad = False

    def feed(self, block: bytes, position: int) -> list[int]:
        data = self._carry + block
        base = position - len(self._carry)
        places: list[int] = []
        at = 0
        while not self._bad:
            match = _NEXT.match(data, at)
            assert match is not None  # (everything in the pattern may match nothing)
            bracket = match.group(1)
            if bracket is None:
                at = len(data)
                break
            if bracket == b'"':
                at = match.start(1)
                break
            at = match.end()
            if bracket in b"[{":
                if self._open and self._depth == self._records:
                    places.append(base + at - 1)
                elif not self._open:
                    self._outside(bracket, data, at - 1)
                self._depth += 1
            else:
                self._depth -= 1
                self._bad = self._depth < 0
                if self._open and self._records == self._depth + 1:
                    self._open = False
        self._before = (self._before + data[:at])[-_LOOK_BACK:]
        self._carry = data[at:]
        return places

    def _outside(self, bracket: bytes, data: bytes, spot: int) -> None:
        """An opening bracket at `spot`, outside the records array: the document's, or the
        object's records array, or one that makes the file one to read whole (a second
        document; another array under a records key, before the records or at the top)."""
        if self._depth == 0:
            before = self._before[-_LOOK_BACK:] + data[max(0, spot - _LOOK_BACK) : spot]
            self._bad = bool(self._top) or not _blank(before)
            self._top = bracket
            if bracket == b"[":
                self._records, self._open = 1, True
            return
        if bracket != b"[" or self._top != b"{":
            return
        before = self._before[-_LOOK_BACK:] + data[max(0, spot - _LOOK_BACK) : spot]
        if _LIST_KEY.search(before) is not None:
            if self._depth == 1 and self._records is None:
                self._records, self._open = 2, True
            elif self._depth == 1 or self._records is None:
                self._bad = True

    def usable(self) -> bool:
        return not self._bad and self._records is not None and not self._open and not self._depth


def _blank(data: bytes) -> bool:
    """Only the file's byte order mark and white space before the document."""
    return not data.removeprefix(b"\xef\xbb\xbf").strip(b" \t\n\r")


class _Text:
    """A stretch's text, held from the element being read on, with line numbers."""

    def __init__(self, pieces: Iterator[str], line: int) -> None:
        self.pieces = pieces
        self.text = ""
        self.at = 0
        self._counted = 0  # `self._line` is the line at `self._counted`
        self._line = line
        self.ended = False

    def more(self) -> bool:
        """Read the next piece; False at the stretch's end."""
        for piece in self.pieces:
            if self.at > len(self.text) // 2:  # drop what was read
                self.line(self.at)
                self.text, self._counted, self.at = self.text[self.at :], 0, 0
            self.text += piece
            if piece:
                return True
        self.ended = True
        return False

    def skip_space(self) -> str:
        """The first character at or after `at` that is not white space ("" at the end)."""
        while True:
            text, at = self.text, self.at
            while at < len(text) and text[at] in _SPACE:
                at += 1
            self.at = at
            if at < len(text):
                return text[at]
            if not self.more():
                return ""

    def line(self, position: int) -> int:
        """The line of `position` (of `text`)."""
        if position >= self._counted:
            self._line += self.text.count("\n", self._counted, position)
        else:
            self._line -= self.text.count("\n", position, self._counted)
        self._counted = position
        return self._line


def read(
    path: Path,
    handle: BinaryIO,
    span: Span,
    collection: str | None,
    read_as: ReadAs = DEFAULT_READ,
) -> Iterator[Paper | Problem]:
    """The papers of a stretch, as `json_records.parse` gives them of the whole file."""
    text = _Text(texts(handle, span[0], span[1]), span[2])
    found = False
    for item in _elements(path, text, span[0] == 0):
        found = True
        if isinstance(item, Problem):
            yield item
        else:
            yield _from_record(path, item[0], item[1], collection)
    if not found:
        yield Problem(str(path), 0, FORMAT.nothing)


def _elements(path: Path, text: _Text, first: bool) -> Iterator[tuple[int, Any] | Problem]:
    """(line, value) of each element of the stretch, then the problem that ended it."""
    decoder = json.JSONDecoder()
    if first and not _open(text):
        return
    while True:
        char = text.skip_space()
        if char in ("", "]"):
            return  # the stretch's end (or the array's)
        if char not in '{["':  # a number or a literal: ended by what follows it
            while _SCALAR_END.search(text.text, text.at) is None and text.more():
                pass
        try:
            value, end = decoder.raw_decode(text.text, text.at)
        except json.JSONDecodeError as error:
            if text.more():
                continue
            yield _failure(path, text.line(error.pos), error.msg)
            return
        except RecursionError:
            yield _failure(path, text.line(text.at), "nested too deeply")
            return
        if end == len(text.text) and text.more():
            continue  # a number may go on in the next piece
        yield text.line(text.at), value
        text.at = end
        char = text.skip_space()
        if char == ",":
            text.at += 1
        elif char == "]":
            return
        else:
            yield _failure(path, text.line(text.at), "Expecting ',' delimiter")
            return


def _open(text: _Text) -> bool:
    """Step past the records array's `[` (the first stretch starts at the document)."""
    if text.skip_space() == "[":
        text.at += 1
        return True
    while True:
        match = _LIST_START.search(text.text)
        if match is not None:
            text.at = match.end()
            return True
        if not text.more():
            return False


def _failure(path: Path, line: int, why: str) -> Problem:
    return Problem(str(path), line, f"not valid JSON: {why}; rest skipped")


FORMAT = StretchFormat("json", JsonBoundaries, read, "no papers found")
