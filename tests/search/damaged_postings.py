"""A postings file damaged as no checksum of its own finds: its hash table with no free
slot (tests/search/test_whoosh_postings.py, test_store.py)."""

from __future__ import annotations

import struct

_TRAILER = struct.Struct("<QQQII8s")  # as whoosh/postings.py writes it


def fill_hash_table(data: bytes) -> bytes:
    """`data` with every slot of its hash table taken (each the first term's number): a
    look-up of a term the file does not hold finds no free slot to stop at."""
    _, _, table_at, _, slots, _ = _TRAILER.unpack_from(data, len(data) - _TRAILER.size)
    return data[:table_at] + struct.pack("<I", 1) * slots + data[table_at + 4 * slots :]
