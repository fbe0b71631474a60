"""A large BibTeX file read in stretches (`stretches.py`).

A stretch starts at a line that starts a block (`@type{`): bibtexparser's splitter starts
a block at each such line whatever it was doing (`bibtex_chunks`), so the blocks of a
stretch are the whole file's, read by `bibtex.stream` with three things from the rest of
the file (`bibtex_chunks.Window`):

- the strings and volumes every entry may use, from the file's declaring blocks (the text
  is read up to the block after the last `@string` or `@proceedings`, which the file's
  chunks that do not declare one add nothing to);
- the keys registered before the stretch that its blocks repeat (a repeated key is an
  entry skipped): the blocks before it whose key may be one of the stretch's are split;
- the next stretch's `@type{`, at which the splitter gives up the stretch's last block
  when it is unfinished, as in the whole file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from bibtexparser.model import DuplicateBlockKeyBlock, Entry, String

from paperterm.index.papers import Paper
from paperterm.index.problems import Problem
from paperterm.index.sources import bibtex_chunks
from paperterm.index.sources.bibtex import (
    _blocks_or_none,
    _is_string,
    _keyed,
    _Lines,
    stream,
)
from paperterm.index.sources.bibtex_chunks import Window, chunks, parts
from paperterm.index.sources.files import DEFAULT_READ, ReadAs
from paperterm.index.sources.stretching import BLOCK, Span, StretchFormat, texts

#: A line that starts a block (white space before its `@`: ASCII only, which finds fewer
#: places than the splitter has, never one it has not).
_LINE_BLOCK = re.compile(rb"\n[ \t\f\v\r]*@\w*[ \t]*[{(]")
#: What may declare a string or a volume (as `bibtex._DECLARES`).
_DECLARES = re.compile(rb"@(?:string|(?:mv)?proceedings)", re.I)
_HEAD = re.compile(r"[^\S\n]*@\w*[ \t]*[{(]")
#: `bibtex._KEYS` over bytes (a byte beyond ASCII may be part of a word).
_BYTE_KEYS = re.compile(rb"@([\w\x80-\xff]*)[ \t]*(?:\{([^{}\",=]*)|\(([^{}\",=)]*))")


class BibtexBoundaries:
    """The starts of lines that start a block (`stretches.Boundaries`)."""

    def __init__(self) -> None:
        self._carry = b""
        self._last = 0  # the last place given (the carry may hold it)

    def feed(self, block: bytes, position: int) -> list[int]:
        data = self._carry + block
        base = position - len(self._carry)
        places = [base + match.start() + 1 for match in _LINE_BLOCK.finditer(data)]
        places = [place for place in places if place > self._last]
        self._last = places[-1] if places else self._last
        newline = data.rfind(b"\n")
        self._carry = data[newline:] if newline >= 0 else data
        return places

    def usable(self) -> bool:
        return True


def read(
    path: Path,
    handle: BinaryIO,
    span: Span,
    collection: str | None,
    read_as: ReadAs = DEFAULT_READ,
) -> Iterator[Paper | Problem]:
    """The papers and problems of a stretch, as `bibtex.stream` gives them of the file."""
    start, end, first = span
    size = os.fstat(handle.fileno()).st_size
    declared = _declared_until(handle, size)
    head = _head(handle, end) if end < size else ""
    entries: dict[str, int] = {}
    strings: dict[str, int] = {}
    if start > 0:
        keys = _keys(handle, start, end, head)
        if _may_repeat(handle, start, keys):
            entries, strings = _earlier(handle, start, keys)
    window = Window(texts(handle, start, end), first - 1, head, entries, strings)

    def read(final: bool) -> Iterator[str]:
        return texts(handle, 0, declared)

    yield from stream(path, read, collection, window=window)


def _declared_until(handle: BinaryIO, size: int) -> int:
    """Where the file's text may end for its strings and volumes to be read: at the line
    start of the block after the last that may declare one (0: none does)."""
    handle.seek(0)
    last = -1
    position = 0
    carry = b""
    while block := handle.read(BLOCK):
        data = carry + block
        for match in _DECLARES.finditer(data):
            last = position - len(carry) + match.start()
        carry = data[-32:]
        position += len(block)
    if last < 0:
        return 0
    handle.seek(last)
    position = last
    carry = b""
    while block := handle.read(BLOCK):
        data = carry + block
        after = _LINE_BLOCK.search(data)
        if after is not None:
            return position - len(carry) + after.start() + 1
        carry = data[-64:]
        position += len(block)
    return size


def _head(handle: BinaryIO, at: int) -> str:
    """The `@type{` of the block starting on the line at byte `at`."""
    handle.seek(at)
    line = handle.readline(4096).decode("utf-8", "replace")
    match = _HEAD.match(line)
    return match.group() if match else ""


def _keys(handle: BinaryIO, start: int, end: int, head: str) -> set[str]:
    """The keys of the stretch's blocks (a key the pattern is not sure of: split)."""
    keys: set[str] = set()
    for chunk in chunks(texts(handle, start, end), tail=head):
        unsure = []
        for position, key in _keyed(chunk.text):
            if key is None:
                unsure.append(position)
            else:
                keys.add(key)
        for _, part in parts(chunk, unsure):
            keys.update(str(getattr(block, "key", "")) for block in _blocks_or_none(part))
    return keys


def _may_repeat(handle: BinaryIO, start: int, keys: set[str]) -> bool:
    """Whether a block before byte `start` may have one of `keys` (`_earlier` finds which):
    `bibtex._KEYS` over the bytes, a byte beyond ASCII taken for a word character; a key
    with a backslash, or a type beyond ASCII, may be any."""
    handle.seek(0)
    position = 0
    carry = b""
    while position < start:
        block = handle.read(min(BLOCK, start - position))
        if not block:
            break
        position += len(block)
        data = carry + block
        # A match may go on in the next block: from the last `@` on, read again with it.
        last = data.rfind(b"@") if position < start else len(data)
        for match in _BYTE_KEYS.finditer(data, 0, max(last, 0)):
            kind, raw = match.group(1), match.group(2) or match.group(3) or b""
            if b"\\" in match.group(0) or not kind.isascii():
                return True  # (the text's pattern may match elsewhere than at this `@`)
            if raw.decode("utf-8", "replace").strip() in keys:
                return True
        carry = data[max(last, 0) :]
    return False


def _earlier(handle: BinaryIO, start: int, keys: set[str]) -> tuple[dict[str, int], dict[str, int]]:
    """The keys among `keys` that blocks before byte `start` register (entries', strings'),
    with the line (0-based) each was first at."""
    entries: dict[str, int] = {}
    strings: dict[str, int] = {}
    line = 0  # the chunk's first line
    for chunk in chunks(texts(handle, 0, start), tail=_head(handle, start)):
        wanted = [at for at, key in _keyed(chunk.text) if key is None or key in keys]
        for at, part in parts(chunk, wanted):
            blocks = _blocks_or_none(part)
            line_of = _Lines(part.text, blocks, line + chunk.text.count("\n", 0, at))
            for block in blocks:
                if isinstance(block, (Entry, String, DuplicateBlockKeyBlock)):
                    seen = strings if _is_string(block) else entries
                    key = str(block.key)
                    if (
                        key in keys
                        and key not in seen
                        and not isinstance(block, DuplicateBlockKeyBlock)
                    ):
                        seen[key] = line_of(block)
        line += chunk.text.count("\n")
    return entries, strings


FORMAT = StretchFormat("bibtex", BibtexBoundaries, read, "no paper entries found")

__all__ = ["FORMAT", "bibtex_chunks"]
