"""The term index written in bulk (whoosh/terms_file.py) is byte for byte the file Whoosh's
`OrderedHashWriter` writes of the same keys and values, field map included: few keys or
none, keys sharing a hash table, and positions past 65,535 (kept in a wider array)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from whoosh.filedb.filestore import RamStorage
from whoosh.filedb.filetables import OrderedHashReader, OrderedHashWriter

from paperterm.index.search.whoosh.terms_file import TermsFile

#: (field name, [(key, value)] in key order) for each field, in the order written.
Fields = list[tuple[str, list[tuple[bytes, bytes]]]]


def _keyed(fields: Fields) -> list[tuple[int, list[tuple[bytes, bytes]]]]:
    """Each field's number and its entries, keys prefixed with the number as Whoosh does."""
    return [
        (number, [(number.to_bytes(2, "big") + key, value) for key, value in entries])
        for number, (_, entries) in enumerate(fields)
    ]


def _by_whoosh(fields: Fields) -> bytes:
    storage = RamStorage()
    writer = OrderedHashWriter(storage.create_file("t"))
    fieldmap = writer.extras["fieldmap"] = {}
    for (name, _), (number, entries) in zip(fields, _keyed(fields), strict=True):
        fieldmap[name] = number
        for key, value in entries:
            writer.add(key, value)
    writer.close()
    return bytes(storage.files["t"])


def _in_bulk(fields: Fields) -> bytes:
    storage = RamStorage()
    writer = TermsFile(storage.create_file("t"))
    for (name, _), (number, entries) in zip(fields, _keyed(fields), strict=True):
        writer.fieldmap[name] = number
        writer.add_all([key for key, _ in entries], [value for _, value in entries])
    writer.close()
    return bytes(storage.files["t"])


_entries = st.dictionaries(st.binary(max_size=6), st.binary(max_size=20), max_size=40).map(
    lambda found: sorted(found.items())
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.text(min_size=1, max_size=5), _entries), max_size=4))
def test_the_file_is_the_one_whoosh_writes(fields):
    assert _in_bulk(fields) == _by_whoosh(fields)


@pytest.mark.parametrize("value_size", [30_000, 1 << 16])
def test_positions_past_a_short_are_kept_as_whoosh_keeps_them(value_size):
    keys = [b"%04d" % number for number in range(6)]
    fields = [("all", [(key, bytes([len(key)]) * value_size) for key in keys])]
    written = _in_bulk(fields)
    assert written == _by_whoosh(fields)
    storage = RamStorage()
    storage.files["t"] = written
    reader = OrderedHashReader.open(storage, "t")
    assert reader.extras["indextype"] == "i"
    assert [key[2:] for key in reader.keys()] == keys  # noqa: SIM118 (iterating gives pairs)


def test_keys_must_increase():
    writer = TermsFile(RamStorage().create_file("t"))
    writer.add_all([b"b"], [b""])
    with pytest.raises(ValueError, match="increase"):
        writer.add_all([b"a"], [b""])
    with pytest.raises(ValueError, match="increase"):
        writer.add_all([b"c", b"c"], [b"", b""])
