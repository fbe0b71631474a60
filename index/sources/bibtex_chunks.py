"""A BibTeX text cut into chunks that bibtexparser splits exactly as it splits the whole.

bibtexparser's splitter (bibtexparser 2) starts a new block at every `@type{` (or `@type(`)
that has only white space before it on its line, whatever it was doing: outside a block it
starts one there, and inside one (an unclosed brace, a quote, a comment) it gives the block
up ("Unexpected block start") and starts the new one. Its state is then the same as at the
start of a text, so such a place is a safe cut: the blocks of `text[a:b]` are the whole
text's blocks between `a` and `b`, with two things to put right, which `Chunk` carries:

- line numbers: the splitter counts the newlines it sees as marks, which are those not
  after a backslash (`(?<!\\\\)\\n`); a chunk's lines start at the count before it;
- the last block of a chunk: in the whole text it is given up at the next chunk's `@`, with
  a reason that says what it was still looking for, while a chunk ending there would end it
  at the end of the text ("Unexpectedly reached end of file"). So a chunk also holds the
  next chunk's first line up to its opening brace (`lookahead`): the splitter gives the
  block up there exactly as in the whole text, and the one block it starts at that `@`
  (always a failed one: the text ends right after its brace) is dropped.

Chunks are cut from decoded text as it is read, so a file of any size is held a chunk at a
time (`ENTRIES` blocks, or `CHARS` characters when its entries are long).
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

#: A line-start block start, as bibtexparser's `_BLOCK_START` with its `_is_at_line_start`
#: (str.isspace white space back to a newline; `\s` is the same set).
_CUT = re.compile(r"^[^\S\n]*@\w*[ \t]*[{(]", re.MULTILINE)
_BLOCK = re.compile(r"@\w*[ \t]*[{(]")
#: Blocks (line-start `@`s) a chunk holds at most.
ENTRIES = 500
#: A chunk is cut at the first place it may once it is this long.
CHARS = 1 << 20


@dataclass(frozen=True, slots=True)
class Chunk:
    """`text`: the chunk, then the next chunk's first `@type{` when `lookahead` (its block
    is to be dropped); `line`: the file's line (0-based, as the splitter counts) where the
    chunk starts; `index`: the chunk's position in the file."""

    text: str
    line: int
    lookahead: bool
    index: int


@dataclass(slots=True)
class Window:
    """What `bibtex.stream` reads the papers of: the text `pieces` make, starting on the
    file's line `line` (0-based), then `head`, the next block's `@type{` (its block to be
    dropped; "" at the file's end); `entries` and `strings`: the keys of the blocks before
    it that the library registers, with the line each was first at."""

    pieces: Iterable[str]
    line: int = 0
    head: str = ""
    entries: dict[str, int] = field(default_factory=dict)
    strings: dict[str, int] = field(default_factory=dict)


def counted_lines(text: str) -> int:
    """The newlines of `text` the splitter counts (those not after a backslash)."""
    return text.count("\n") - text.count("\\\n")


_COUNTED = re.compile(r"(?<!\\)\n")


def file_lines(text: str, blocks: Iterable[Any]) -> dict[int, int]:
    """The line in `text` (0-based) where each of `blocks` (bibtexparser's, in order; by
    `id`) starts. The splitter's `start_line` counts no newline after a backslash
    (`counted_lines`), and a LaTeX line break `\\\\` ends many a line: past one, its numbers
    fall behind the file's. A block's `@` is on the splitter's line, found there by its
    text; the blocks are in order, so each is looked for after the end of the one before."""
    lines: dict[int, int] = {}
    if "\\\n" not in text:
        for block in blocks:
            lines[id(block)] = block.start_line or 0
        return lines
    starts = [0, *(match.end() for match in _COUNTED.finditer(text))]
    newlines = [match.start() for match in re.finditer("\n", text)]
    after = 0
    for block in blocks:
        start = starts[min(block.start_line or 0, len(starts) - 1)]
        raw = block.raw or ""
        at = text.find(raw, max(start, after)) if raw else -1
        if at < 0:
            at = start
        else:
            # The next block is looked for after this one's end: a block given up may hold
            # the next one's text (`@x{k, t = {a}) @string{m = {b}}\` then the same
            # `@string{m = {b}}` on the next line, which the splitter counts as this line).
            after = at + len(raw)
        lines[id(block)] = bisect_left(newlines, at)
    return lines


def chunks(
    pieces: Iterable[str], entries: int = ENTRIES, chars: int = CHARS, tail: str = ""
) -> Iterator[Chunk]:
    """The chunks of the text `pieces` make, in order; `tail`: the `@type{` of a block
    after the text, the last chunk's lookahead."""
    buffer = ""
    cuts: list[tuple[int, str]] = []  # (where, the `@type{`) of the cuts after the start
    searched = 0  # where the next search starts: a line start
    line = 0
    index = 0
    for piece in pieces:
        buffer += piece
        end = buffer.rfind("\n")
        if end >= searched:
            cuts += _cuts(buffer, searched, end)
            searched = end + 1
        while cuts and (len(cuts) >= entries or len(buffer) >= chars):
            start, head = cuts[min(entries, len(cuts)) - 1]
            body = buffer[:start]
            yield Chunk(body + head, line, True, index)
            index += 1
            line += counted_lines(body)
            buffer = buffer[start:]
            searched -= start
            cuts = [(where - start, text) for where, text in cuts if where > start]
    if buffer or index == 0:
        yield Chunk(buffer + tail, line, bool(tail), index)


def _cuts(text: str, start: int, end: int) -> list[tuple[int, str]]:
    """The cuts on the whole lines of `text[start:end]` (`start` a line start), but one at 0.
    Found by their `@` (one an entry), then the line checked: scanning for line starts with
    `_CUT` took a tenth of the parse."""
    found = []
    for match in _BLOCK.finditer(text, start, end):
        at = match.start()
        line = text.rfind("\n", 0, at) + 1
        if line and (line == at or text[line:at].isspace()):
            found.append((line, text[line : match.end()]))
    return found


def parts(chunk: Chunk, positions: Iterable[int]) -> Iterator[tuple[int, Chunk]]:
    """The parts of `chunk` (each from one cut to the next, a chunk of its own) that hold
    one of `positions` (of `chunk.text`; in its lookahead: none), with where each starts.
    Reading only those is reading a few blocks of a chunk as the whole text has them."""
    text = chunk.text
    starts = [0, *(start for start, _ in _cuts(text, 0, len(text)))]
    end = starts[-1] if chunk.lookahead else len(text)
    if not chunk.lookahead:
        starts.append(len(text))
    wanted = sorted({position for position in positions if position < end})
    line, counted = chunk.line, 0
    for start, stop in itertools.pairwise(starts):
        if not wanted or wanted[0] >= stop or stop <= start:
            continue
        line += counted_lines(text[counted:start])
        counted = start
        last = stop == len(text) and not chunk.lookahead
        body = text[start:] if last else text[start:stop] + _head(text, stop)
        yield start, Chunk(body, line, not last, chunk.index)
        wanted = [position for position in wanted if position >= stop]


def _head(text: str, start: int) -> str:
    """The `@type{` of the cut at `start`."""
    match = _CUT.match(text, start)
    return match.group() if match else ""
