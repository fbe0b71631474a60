"""A Whoosh segment's term index (`<segment>.trm`) written a field at a time: the bytes
Whoosh's `OrderedHashWriter` writes key by key, for a fraction of its work.

The file (Whoosh's `HashWriter` format, MD5 hashes): a header; each key and value with
their lengths, in key order; 256 hash tables of (hash, position) slots, a key in the table
its hash's low byte picks, at its hash's other bits modulo the table's size or the first
free slot after; their directory; a pickle of the extras (the field map, and the type and
length of the key positions array); the key positions; the length of those two. Whoosh's
writer packs and writes each key, value and slot with a method call of its own (a third of
a segment's writing); here they are packed and written in bulk.
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Sequence
from hashlib import md5
from itertools import accumulate, chain, repeat
from typing import Any

_LENGTHS = struct.Struct("!ii")
_HEADER = b"HSH3" + struct.pack("!Bii", 0, 0, 0)  # magic, hash type (0: MD5), two unused
_DIRECTORY_ENTRY = struct.Struct("!qi")
_BUCKETS = 256


def _key_hash(key: bytes) -> int:
    """Whoosh's `md5_hash`: the low 32 bits of the key's MD5."""
    return int.from_bytes(md5(key, usedforsecurity=False).digest()[12:], "big")


#: How far each array type code Whoosh's `GrowableArray` uses holds numbers (below this).
_TYPE_ENDS = {"B": 1 << 8, "H": 1 << 16, "i": 1 << 31, "I": 1 << 32}


def growable_type(top: int, start: str) -> str:
    """The type code Whoosh's `GrowableArray(start)` ends with, `top` its largest number:
    `start` while it holds them, else the first of "H", "i", "I" that does, else "q"."""
    if top < _TYPE_ENDS[start]:
        return start
    return next((code for code in "HiI" if top < _TYPE_ENDS[code]), "q")


class TermsFile:
    """Writes a term index into `dbfile` (a Whoosh `StructFile`, at its start): keys added
    in increasing order, a field's at a time; `close()` writes the hash tables and the
    rest."""

    def __init__(self, dbfile: Any) -> None:
        self._file = dbfile
        dbfile.write(_HEADER)
        self._size = dbfile.tell()
        #: field name -> number, in the order fields were added (Whoosh's "fieldmap")
        self.fieldmap: dict[str, int] = {}
        self._positions: list[int] = []
        self._hashes: list[int] = []
        self._last = b""

    def add_all(self, keys: Sequence[bytes], values: Sequence[bytes]) -> None:
        """Keys (increasing, each above those added before) and their values."""
        if not keys:
            return
        if keys[0] <= self._last or not all(map(bytes.__lt__, keys, keys[1:])):
            raise ValueError("keys must increase")
        self._last = keys[-1]
        key_sizes = list(map(len, keys))
        value_sizes = list(map(len, values))
        heads = map(_LENGTHS.pack, key_sizes, value_sizes)
        records = b"".join(chain.from_iterable(zip(heads, keys, values, strict=True)))
        sizes = map(sum, zip(key_sizes, value_sizes, repeat(_LENGTHS.size)))
        positions = list(accumulate(sizes, initial=self._size))
        self._size = positions.pop()
        self._positions += positions
        self._hashes += map(_key_hash, keys)
        self._file.write(records)

    def close(self) -> None:
        dbfile = self._file
        buckets: list[list[tuple[int, int]]] = [[] for _ in range(_BUCKETS)]
        for entry in zip(self._hashes, self._positions, strict=True):
            buckets[entry[0] & 255].append(entry)
        directory = []
        at = self._size
        for entries in buckets:
            slots = 2 * len(entries)
            directory.append((at, slots))
            table = [0] * (2 * slots)  # hash, position, ... (0, 0: a free slot)
            for hashed, position in entries:
                slot = (hashed >> 8) % slots
                while table[2 * slot + 1]:  # no key is at position 0 (the header is)
                    slot = (slot + 1) % slots
                table[2 * slot] = hashed
                table[2 * slot + 1] = position
            if slots:
                dbfile.write(struct.pack("!" + "Iq" * slots, *table))
            at += 12 * slots
        dbfile.write(b"".join(_DIRECTORY_ENTRY.pack(*entry) for entry in directory))
        positions = array(growable_type(max(self._positions, default=0), "H"), self._positions)
        extras: dict[str, object] = {"fieldmap": self.fieldmap}
        extras.update(indextype=positions.typecode, indexlen=len(positions))
        start = dbfile.tell()
        dbfile.write_pickle(extras)
        dbfile.write_array(positions)
        dbfile.write_int(dbfile.tell() - start)
        dbfile.close()
