"""A large file read in stretches, each a source of its own, so that a build's workers
share it: JSON Lines here, and the formats of `sources.stretches` (a text list, BibTeX,
a JSON array, a CSV or TSV table, ACL Anthology XML), each cut where its boundary finder
says a record starts (`_cut_at`).

The arXiv snapshot is one file of ~4 GB (2.5 million lines): read as one source, one worker
reads and indexes it all while the others wait. A build cuts such a file into stretches of
about `STRETCH_BYTES` at line starts (`stretches`), and each stretch is a source of its own
(`SourceFile.span`: its bytes and its first line's number): read by whichever worker gets
it, with its own record file and parts. Its papers are those the whole file's reading
gives, with the same lines: JSON Lines records are lines, and nothing of a line depends on
another. Merging duplicates sees the stretches in order, as it would the whole file.

Every stretch of a file has the whole file's fingerprint (its digest too: the pass that
finds the stretches hashes the file), so a build keeps or reads a file whole, as it does any
other: unchanged (or only touched), its stretches are the ones recorded and nothing is
read; changed, it is cut and read again.
"""

from __future__ import annotations

import codecs
import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from paperterm.index.search.generation_meta import Span
from paperterm.index.sources.files import DEFAULT_READ, ReadAs

if TYPE_CHECKING:
    from paperterm.index.sources.stretches import Boundaries

#: About this many bytes a stretch (a file of less than two is read as one source): the size
#: of a month of the arXiv snapshot (10,000 rows), so a build reads one large file as it
#: reads the snapshot split by month.
STRETCH_BYTES = 16 << 20
#: About this many bytes a stretch of a file of another format (`sources.stretches`), or
#: `FORMAT_STRETCH_BYTES_OF` its format's: a build closes a part of the index only at the
#: end of a source, once it holds enough postings, so a part may hold a stretch more than
#: it would of files of a few hundred papers, and the worker writing it the memory of that
#: stretch's papers. (A BibTeX stretch scans the bytes before it for its keys: fewer.)
FORMAT_STRETCH_BYTES = 1 << 20
#: A JSON Lines file of less than `STRETCH_BYTES` times this is cut into about this many
#: stretches (of `JSON_LINES_LEAST` bytes at least): a part closes at the end of a stretch,
#: so stretches larger than a part make parts (and the workers writing them) larger.
JSON_LINES_COUNT = 24
JSON_LINES_LEAST = 4 << 20
FORMAT_STRETCH_BYTES_OF = {"bibtex": 4 << 20}
_BLOCK = 1 << 20


def stretches(path: Path, read_as: ReadAs = DEFAULT_READ) -> tuple[list[Span], str] | None:
    """The stretches to read `path` (read as `read_as` says) in and the digest of its
    content, or None when it is read as one source (small, of a format read whole, not
    readable)."""
    from paperterm.index.sources.stretches import JSON_LINES, stretch_kind

    try:
        size = path.stat().st_size
        if size < 2 * min(STRETCH_BYTES, FORMAT_STRETCH_BYTES):
            return None
        with open(path, "rb") as handle:
            kind = stretch_kind(path, handle, read_as)
            lines_stretch = min(STRETCH_BYTES, max(JSON_LINES_LEAST, size // JSON_LINES_COUNT))
            if kind == JSON_LINES and size >= 2 * lines_stretch:
                return _cut(handle, size, lines_stretch)
            if kind is None or isinstance(kind, str):
                return None
            stretch = FORMAT_STRETCH_BYTES_OF.get(kind.name, FORMAT_STRETCH_BYTES)
            if size < 2 * stretch:
                return None
            return _cut_at(handle, size, kind.boundaries(), stretch)
    except OSError:
        return None


def _cut_at(
    handle: BinaryIO, size: int, finder: Boundaries, stretch: int
) -> tuple[list[Span], str] | None:
    """One pass over the file: the first place the format's finder gives at or after each
    `size / count`-th byte (`count` stretches of about `stretch` bytes), and the digest of
    every byte; then the places' lines. None when the file is not UTF-8 throughout or the
    finder finds it is not to be cut."""
    count = -(-size // stretch)
    targets = [size * number // count for number in range(1, count)]
    digest = hashlib.blake2b(digest_size=16)
    decoder = codecs.getincrementaldecoder("utf-8")()
    cuts: list[int] = []
    position = 0
    try:
        while block := handle.read(_BLOCK):
            digest.update(block)
            decoder.decode(block)
            for place in finder.feed(block, position):
                if targets and place >= targets[0] and 0 < place < size:
                    if not cuts or place > cuts[-1]:
                        cuts.append(place)
                    while targets and targets[0] <= place:
                        targets.pop(0)
            position += len(block)
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return None
    if not cuts or not finder.usable():
        return None
    starts = [0, *cuts]
    lines = _lines_at(handle, starts)
    ends = [*cuts, position]
    return [
        (start, end, line) for start, end, line in zip(starts, ends, lines, strict=True)
    ], digest.hexdigest()


def _lines_at(handle: BinaryIO, places: list[int]) -> list[int]:
    """The line (1-based, by "\\n") of each of `places` (in order)."""
    handle.seek(0)
    lines: list[int] = []
    position = counted = 0
    for place in places:
        while position < place:
            block = handle.read(min(_BLOCK, place - position))
            if not block:
                break
            counted += block.count(b"\n")
            position += len(block)
        lines.append(counted + 1)
    return lines


def _cut(handle: object, size: int, stretch: int) -> tuple[list[Span], str]:
    """One pass over the file: the first line start at or after each `size / count`-th
    byte (`count` stretches of about `stretch` bytes, with the line's number), and the
    digest of every byte."""
    count = -(-size // stretch)
    targets = [size * number // count for number in range(1, count)]
    digest = hashlib.blake2b(digest_size=16)
    spans: list[Span] = []
    start, first_line = 0, 1
    position = lines = 0
    read = handle.read  # type: ignore[attr-defined]
    while block := read(_BLOCK):
        digest.update(block)
        while targets and targets[0] < position + len(block):
            newline = block.find(b"\n", max(targets[0] - position, 0))
            if newline < 0:
                targets[0] = position + len(block)  # the line goes on in the next block
                break
            boundary = position + newline + 1
            line = lines + block.count(b"\n", 0, newline + 1) + 1
            if start < boundary < size:
                spans.append((start, boundary, first_line))
                start, first_line = boundary, line
            while targets and targets[0] < boundary:
                targets.pop(0)
        lines += block.count(b"\n")
        position += len(block)
    spans.append((start, position, first_line))
    return spans, digest.hexdigest()
