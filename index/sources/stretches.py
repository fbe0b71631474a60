"""One large source file read in stretches: what a format gives to be read so.

A build cuts a large file into stretches (`search.segments`), each read by whichever
worker gets it, and the papers of all its stretches, in order, must be those of reading
the file whole: the same records, ids, lines and problems. A format plugs in with two
things (`StretchFormat`):

- a boundary finder (`Boundaries`): fed the file's bytes a block at a time, from its
  start, it gives the places a stretch may begin, each a record's first byte, with no
  record (nor anything a record's reading depends on) across it. Each format keeps what
  state it needs (a JSON array's depth, a text list's last line); a place it is not sure
  of is one it does not give;
- a stretch reader (`StretchReader`): the papers and problems of the file's bytes
  `span[0]:span[1]`, whose first line is line `span[2]`, read a block at a time (a stretch
  is held a record at a time, never whole), as the source says to read it (`ReadAs`).
  What a stretch needs of the rest of the file (a text list's name, BibTeX's strings and
  volumes, a table's header row, an XML volume's meta) it reads there itself.

A stretch that finds nothing says so with its format's "nothing" problem (line 0), which
the build keeps only when no stretch of the file found anything (`NOTHING`).
"""

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


def stretch_format(
    module: str, path: Path | None = None, head: str = "", read_as: ReadAs = DEFAULT_READ
) -> StretchFormat | None:
    """The stretch format of the parser module a file is read by (`detect.choose`), None
    for one that is read whole (`path`, `head`, `read_as`: what a table's finder needs to
    know its delimiter)."""
    if module == "text_list":
        from paperterm.index.sources import text_stretches

        return text_stretches.FORMAT
    if module == "json_records":
        from paperterm.index.sources import json_stretches

        return json_stretches.FORMAT
    if module == "bibtex":
        from paperterm.index.sources import bibtex_stretches

        return bibtex_stretches.FORMAT
    if module == "table":
        from paperterm.index.sources import table_stretches

        return table_stretches.format_of(path, head, read_as)
    if module == "acl_xml":
        from paperterm.index.sources import acl_stretches

        return acl_stretches.FORMAT
    return None


#: The parser module each stretch format reads as (`StretchFormat.name` to `detect.choose`'s).
_MODULES = {
    "text": "text_list",
    "json": "json_records",
    "bibtex": "bibtex",
    "table": "table",
    "acl-xml": "acl_xml",
}


def stretch_module(form: StretchFormat) -> str:
    """The parser module whose reading of a whole file `form` reads in stretches."""
    return _MODULES[form.name]


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


#: `stretch_kind` of a JSON Lines file (read line by line: `loader.Reading`).
JSON_LINES = "jsonl"


def stretch_kind(
    path: Path, handle: BinaryIO, read_as: ReadAs = DEFAULT_READ
) -> StretchFormat | str | None:
    """How a build reads a stretch of the file read as `read_as` says: `JSON_LINES`, a
    format's reader, or None when the file is not one to cut (binary, UTF-16 or UTF-32, of
    a format read whole)."""
    from paperterm.index.sources.decoding import looks_binary, wide_codec
    from paperterm.index.sources.detect import choose
    from paperterm.index.sources.json_records import streams

    handle.seek(0)
    head = handle.read(BLOCK)
    handle.seek(0)
    newline = head.find(b"\n")
    first = head[: newline + 1] if newline >= 0 else b""
    if wide_codec(head) is not None:
        return None
    lines_read = read_as.format in ("auto", "jsonl") and not read_as.fields
    text = first.decode("utf-8-sig", "replace")
    if lines_read and first and not looks_binary(first) and streams(path, text):
        return JSON_LINES
    if looks_binary(head):
        return None
    text = head.decode("utf-8-sig", "replace")
    return stretch_format(choose(path, text, read_as), path, text, read_as)
