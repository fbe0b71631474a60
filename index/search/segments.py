"""A large JSON Lines file read in stretches, each a source of its own, so that a build's
workers share it.

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

import hashlib
from pathlib import Path

from paperterm.index.search.store import Span

#: About this many bytes a stretch (a file of less than two is read as one source): the size
#: of a month of the arXiv snapshot (10,000 rows), so a build reads one large file as it
#: reads the snapshot split by month.
STRETCH_BYTES = 16 << 20
_BLOCK = 1 << 20


def stretches(path: Path) -> tuple[list[Span], str] | None:
    """The stretches to read `path` in and the digest of its content, or None when it is
    read as one source (small, not JSON Lines, not readable)."""
    try:
        size = path.stat().st_size
        if size < 2 * STRETCH_BYTES or not _json_lines(path):
            return None
        with open(path, "rb") as handle:
            return _cut(handle, size)
    except OSError:
        return None


def _json_lines(path: Path) -> bool:
    """Whether a build reads the file line by line (`loader.Reading`)."""
    from paperterm.index.sources.json_records import streams
    from paperterm.index.sources.loader import looks_binary, wide_codec

    with open(path, "rb") as handle:
        first = handle.readline(_BLOCK)
    # A UTF-16 or UTF-32 file is read whole even for a stretch (`Reading._wide`); its first
    # line has zero bytes, unless it is blank (UTF-16's little-endian mark and b"\n").
    if not first.endswith(b"\n") or looks_binary(first) or wide_codec(first) is not None:
        return False
    return streams(path, first.decode("utf-8-sig", "replace"))


def _cut(handle: object, size: int) -> tuple[list[Span], str]:
    """One pass over the file: the first line start at or after each `size / count`-th
    byte (with the line's number), and the digest of every byte."""
    count = -(-size // STRETCH_BYTES)
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
