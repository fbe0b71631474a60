"""What a format gives to be read in stretches (`StretchFormat`: a boundary finder and a
stretch reader) and the helpers stretch readers share; `stretches.py` picks a file's format
(see its docstring for the contract)."""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Protocol

from paperterm.index.papers import Paper
from paperterm.index.problems import Problem
from paperterm.index.sources.files import DEFAULT_READ, ReadAs

#: Bytes read at a time.
BLOCK = 1 << 20
#: The first byte of a stretch, the byte after its last, its first line's number.
Span = tuple[int, int, int]


class Boundaries(Protocol):
    """A format's boundary finder, fed the whole file from its start."""

    def feed(self, block: bytes, position: int) -> list[int]:
        """The places (file offsets) where a stretch may start, found once `block` (the
        file's bytes from `position`) is read; each place is given once, in order."""

    def usable(self) -> bool:
        """Asked after the last block: whether the file may be cut at the places given
        (False: it is read whole)."""


class StretchReader(Protocol):
    """A format's stretch reader."""

    def __call__(
        self,
        path: Path,
        handle: BinaryIO,
        span: Span,
        collection: str | None,
        read_as: ReadAs = DEFAULT_READ,
    ) -> Iterator[Paper | Problem]:
        """The papers and problems of the stretch `span` of the open file, in order."""


@dataclass(frozen=True, slots=True)
class StretchFormat:
    """A format that a build may read in stretches."""

    name: str
    boundaries: Callable[[], Boundaries]
    read: StretchReader
    #: The problem a reading of the whole file gives when it finds nothing.
    nothing: str


#: Every format's "nothing found" problem (`StretchFormat.nothing`, and JSON Lines').
NOTHING = frozenset({"no papers found", "no abstracts found", "no paper entries found"})


def texts(handle: BinaryIO, start: int, end: int) -> Iterator[str]:
    """The text of the file's bytes `start:end`, a block at a time (UTF-8: a build cuts
    only a file that is UTF-8 throughout; the file's byte order mark dropped)."""
    handle.seek(start)
    decoder = codecs.getincrementaldecoder("utf-8-sig" if start == 0 else "utf-8")("replace")
    left = end - start
    while left > 0:
        block = handle.read(min(BLOCK, left))
        if not block:
            break
        left -= len(block)
        yield decoder.decode(block)
    yield decoder.decode(b"", final=True)


def lines(pieces: Iterator[str]) -> Iterator[str]:
    """The lines of the text `pieces` make, cut at "\\n" only, without it."""
    pending = ""
    for piece in pieces:
        if "\n" not in piece:
            pending += piece
            continue
        first, *rest = piece.split("\n")
        yield pending + first
        yield from rest[:-1]
        pending = rest[-1]
    if pending:
        yield pending
