"""A Whoosh segment's postings again, as plain arrays: what the plan scorer reads a term's
documents, weights and positions from, with no unpickling.

Whoosh keeps a term's postings in pickled, compressed blocks of 128, found through its
term index (a hash file read a few bytes at a time): reading a term anew slowed a query's
first run. The segment builder writes this file beside the segment's
own (`<segment id>.ptp`), from the same postings in the same pass: each term's documents
(uint32), weights (float32, as Whoosh keeps them; one number when all are the same) and
positions (uint32; a phrase's first run unpickled them document by document), found
through a hash table of the field name and term, read from a memory map. The Whoosh
segment stays the index of record (Whoosh reads it: its term list, key terms, stored
fields and lengths, which the scorer reads too); this file is one of its files, so it is
written in the build's folder with them, checksummed with the generation, and kept
(hard-linked) with its part.

Layout (little-endian): the magic; each term's data (documents; its weights unless they
are all one number; in a field of positions, how many each posting has, then them all;
numbers in 1, 2 or 4 bytes as they need); the keys (`field\\0term`, back to back); the
entries (`_ENTRY`: key offset, key length, documents, data offset, the weight of every
posting or NaN, positions, the widths); the
hash table (uint32 each, a power of two of them: 1 + an entry whose key's CRC-32 lands
there or after it, linear probing; 0 free); the trailer (`_TRAILER`).
"""

from __future__ import annotations

import mmap
import struct
import sys
from array import array
from collections.abc import Sequence
from itertools import accumulate, chain
from math import isnan
from typing import Any
from zlib import crc32

#: The file's extension (after the segment's id, as Whoosh names a segment's files).
EXTENSION = ".ptp"
MAGIC = b"PTPOST03"
_ENTRY = struct.Struct("<IIIIfI3s")
_TRAILER = struct.Struct("<QQQII8s")
_SLOT = struct.Struct("<I")
#: The array type code of unsigned 32-bit numbers on this platform.
UINT32 = next(code for code in "IL" if array(code).itemsize == 4)
_SWAP = sys.byteorder != "little"
_ALL_DIFFER = float("nan")
#: How the file keeps unsigned numbers, by width: a term's documents, position counts and
#: positions each in the narrowest that holds them (most fit in a byte or two).
_CODE_OF = {1: "B", 2: "H", 4: "I"}
_ITEM_SIZE = {"B": 1, "H": 2, "I": 4, "f": 4}
#: Terms' data written to the file together.
_WRITE_EVERY = 4096
#: The width of a number below 2**16, by whether it is below 2**8.
_WIDTH = {True: 1, False: 2}
_TYPECODE = {"B": "B", "H": "H", "I": UINT32, "f": "f"}


def _narrow(numbers: Sequence[int], top: int) -> array[int]:
    """`numbers` (none above `top`) in the narrowest unsigned array that holds them."""
    return array("B" if top < 1 << 8 else "H" if top < 1 << 16 else UINT32, numbers)


#: (documents, data offset, weight: the one weight of every posting, or None when each
#: has its own; positions kept: 0 when the field keeps none; the widths of its documents,
#: counts of positions and positions: `_CODE_OF`) of a term in one segment.
Entry = tuple[int, int, float | None, int, str]


class PostingsWriter:
    """Collects a segment's terms as they are written (in any order), then writes the
    file."""

    def __init__(self) -> None:
        self._data: list[bytes] = [MAGIC]
        self._size = len(MAGIC)
        self._keys: list[bytes] = []
        self._entries: list[tuple[int, int, float, int, bytes]] = []

    def add(
        self,
        fieldname: str,
        btext: bytes,
        docs: Sequence[int],
        weights: array[float],
        positions: Sequence[Sequence[int]] | None,
    ) -> None:
        """One term's postings: its documents (ascending), their weights (an array of
        float32, as Whoosh keeps them) and, in a field that keeps them, the term's
        positions in each document."""
        first = weights[0]
        same = weights.count(first) == len(weights)
        found = _narrow(docs, docs[-1])
        codes = _CODE_OF[found.itemsize]
        arrays: list[array[Any]] = [found] if same else [found, weights]
        kept = 0
        if positions is not None:
            counts = list(map(len, positions))
            every = list(chain.from_iterable(positions))
            counted, spread = _narrow(counts, max(counts)), _narrow(every, max(every))
            arrays += (counted, spread)
            codes += _CODE_OF[counted.itemsize] + _CODE_OF[spread.itemsize]
            kept = len(every)
        self._keys.append(fieldname.encode("utf-8") + b"\0" + btext)
        entry = (len(docs), self._size, first if same else _ALL_DIFFER, kept, codes.encode())
        self._entries.append(entry)
        if _SWAP:
            arrays = [array(found.typecode, found) for found in arrays]
            for found in arrays:
                found.byteswap()
        chunk = b"".join(arrays)
        self._data.append(chunk)
        self._size += len(chunk)

    def add_one(
        self, fieldname: str, btext: bytes, doc: int, weight: float, positions: Sequence[int] | None
    ) -> None:
        """`add` of a term with one posting (most terms are): its document, its weight (as
        float32 keeps it) and, in a field that keeps them, the term's positions in it."""
        width = _WIDTH[doc < 1 << 8] if doc < 1 << 16 else 4
        chunk = doc.to_bytes(width, "little")
        codes = _CODE_OF[width]
        kept = 0
        if positions is not None:
            kept = len(positions)
            counted = _narrow((kept,), kept)
            spread = _narrow(positions, max(positions))
            if _SWAP:
                counted.byteswap()
                spread.byteswap()
            chunk += counted.tobytes() + spread.tobytes()
            codes += _CODE_OF[counted.itemsize] + _CODE_OF[spread.itemsize]
        self._keys.append(fieldname.encode("utf-8") + b"\0" + btext)
        self._entries.append((1, self._size, weight, kept, codes.encode()))
        self._data.append(chunk)
        self._size += len(chunk)

    def write(self, file: Any) -> None:
        """The whole file into `file` (a writable binary file, which is then closed)."""
        keys = self._keys
        slots = 1 << max(3, (2 * len(keys)).bit_length())
        mask = slots - 1
        table = array(UINT32, bytes(4 * slots))
        for number, hashed in enumerate(map(crc32, keys), 1):
            slot = hashed & mask
            while table[slot]:
                slot = (slot + 1) & mask
            table[slot] = number
        if _SWAP:
            table.byteswap()
        keys_at = self._size
        lengths = list(map(len, keys))
        at = list(accumulate(lengths, initial=keys_at))
        entries_at = at.pop()
        entries = b"".join(map(_ENTRY.pack, at, lengths, *zip(*self._entries, strict=True)))
        table_at = entries_at + len(entries)
        trailer = _TRAILER.pack(keys_at, entries_at, table_at, len(keys), slots, MAGIC)
        data = self._data
        for start in range(0, len(data), _WRITE_EVERY):  # not all held twice at once
            file.write(b"".join(data[start : start + _WRITE_EVERY]))
        file.write(b"".join((*keys, entries, table.tobytes(), trailer)))
        file.close()


class PostingsFileError(ValueError):
    """The file is not a postings file (nor one this version writes)."""


class PostingsTable:
    """One segment's postings file, open for reading (a memory map, or the bytes of a file
    in memory)."""

    def __init__(self, data: mmap.mmap | bytes) -> None:
        self._data = data
        if len(data) < len(MAGIC) + _TRAILER.size or data[: len(MAGIC)] != MAGIC:
            raise PostingsFileError("not a postings file")
        trailer = _TRAILER.unpack_from(data, len(data) - _TRAILER.size)
        _, self._entries_at, self._table_at, self.terms, slots, magic = trailer
        if magic != MAGIC or slots & (slots - 1):
            raise PostingsFileError("not a postings file")
        self._mask = slots - 1
        if self._table_at + 4 * slots + _TRAILER.size != len(data) or not self._free_slot():
            raise PostingsFileError("damaged hash table")

    def _free_slot(self) -> bool:
        """Whether a slot of the hash table is free (0), where a look-up of a term not
        held stops: at least half of a sound table's are, so one is found in a few slots.
        With none, such a look-up would probe the table for ever (`find` stops after every
        slot). The generation's checksum finds such damage, unless the file kept its size
        and times: this is what the file itself says."""
        data, start = self._data, self._table_at
        end = start + 4 * (self._mask + 1)
        at = data.find(b"\0\0\0\0", start, end)
        while at != -1 and (at - start) % 4:  # four zero bytes across two slots
            at = data.find(b"\0\0\0\0", at + 1, end)
        return at != -1

    @classmethod
    def of_segment(cls, storage: Any, segment: Any) -> PostingsTable:
        """The postings file of a Whoosh segment in `storage` (a folder's files are mapped,
        a `RamStorage`'s read)."""
        handle = segment.open_file(storage, EXTENSION)
        try:
            if handle.is_real:
                data: mmap.mmap | bytes = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
            else:
                data = handle.get(0, storage.file_length(segment.make_filename(EXTENSION)))
        finally:
            handle.close()
        try:
            return cls(data)
        except PostingsFileError:
            if not isinstance(data, bytes):  # a map, not left to the collector: it holds
                data.close()  # the file's disk space
            raise

    def close(self) -> None:
        if isinstance(self._data, mmap.mmap):
            self._data.close()

    def find(self, fieldname: str, btext: bytes) -> Entry | None:
        """The term's entry (None: not in this segment). Raises `PostingsFileError` when
        the table has no free slot any more."""
        key = fieldname.encode("utf-8") + b"\0" + btext
        data = self._data
        mask = self._mask
        slot = crc32(key) & mask
        for _ in range(mask + 1):
            (number,) = _SLOT.unpack_from(data, self._table_at + 4 * slot)
            if not number:
                return None
            at, length, count, offset, weight, kept, codes = _ENTRY.unpack_from(
                data, self._entries_at + _ENTRY.size * (number - 1)
            )
            if length == len(key) and data[at : at + length] == key:
                return count, offset, None if isnan(weight) else weight, kept, codes.decode()
            slot = (slot + 1) & mask
        # Every slot taken: the file was written over in place since it was opened (a
        # file's map shows what it holds now).
        raise PostingsFileError("damaged hash table")

    def postings(self, entry: Entry) -> tuple[array[int], float | array[float]]:
        """A term's documents (ascending) and their weights (one number for all, or one
        each)."""
        count, offset, weight, _, codes = entry
        docs, offset = self._array(codes[0], offset, count)
        if weight is not None:
            return docs, weight
        return docs, self._array("f", offset, count)[0]

    def positions(self, entry: Entry) -> tuple[array[int], array[int]]:
        """A term's positions: where each posting's end (the first posting's start at 0),
        and all of them, posting after posting (none when the field keeps none)."""
        count, offset, weight, kept, codes = entry
        if not kept:
            return array("I"), array("I")
        offset += _ITEM_SIZE[codes[0]] * count
        if weight is None:
            offset += 4 * count
        counts, offset = self._array(codes[1], offset, count)
        return array("I", accumulate(counts)), self._array(codes[2], offset, kept)[0]

    def _array(self, code: str, offset: int, count: int) -> tuple[array[Any], int]:
        """`count` numbers of the file's type `code` from `offset`, as an array of floats
        ("f") or of unsigned ints ("I"); and the offset after them."""
        size = _ITEM_SIZE[code]
        found = array(_TYPECODE[code])
        end = offset + size * count
        found.frombytes(self._data[offset:end])
        if _SWAP and size > 1:
            found.byteswap()
        return (found if found.typecode in "fI" else array("I", found)), end
