"""The postings file of a segment (whoosh/postings.py) at its edges: the widths its numbers
are kept in, an empty file, terms whose keys share a slot of the hash table, terms it does
not hold, terms not in ASCII, and files that are not (or no longer) postings files."""

from __future__ import annotations

import io
import mmap
import threading
from array import array
from itertools import accumulate, chain
from zlib import crc32

import pytest
from damaged_postings import fill_hash_table
from hypothesis import given
from hypothesis import strategies as st

from paperterm.index.search.whoosh.postings import PostingsFileError, PostingsTable, PostingsWriter

Postings = tuple[str, bytes, list[int], list[float], list[tuple[int, ...]] | None]


class _Kept(io.BytesIO):
    """A file whose bytes are kept when the writer closes it."""

    written = b""

    def close(self) -> None:
        self.written = self.getvalue()
        super().close()


def _written(terms: list[Postings]) -> bytes:
    writer = PostingsWriter()
    for fieldname, btext, docs, weights, positions in terms:
        writer.add(fieldname, btext, docs, array("f", weights), positions)
    file = _Kept()
    writer.write(file)
    return file.written


def _read(table: PostingsTable, fieldname: str, btext: bytes) -> tuple[list[int], list[float]]:
    entry = table.find(fieldname, btext)
    assert entry is not None
    docs, weights = table.postings(entry)
    return list(docs), [weights] * len(docs) if isinstance(weights, float) else list(weights)


@pytest.mark.parametrize(
    "top", [0, 1, 254, 255, 256, 65535, 65536, (1 << 24) - 1, 1 << 24, (1 << 32) - 1]
)
def test_documents_and_positions_up_to_the_largest_of_their_width(top):
    """Each number is read back as written whatever the width its term's largest needs
    (1, 2 or 4 bytes: 255 is the last of a byte, 65535 of two)."""
    docs = sorted({0, top})
    positions = [(top,), (0, 1, top)][: len(docs)]
    same = [2.0] * len(docs)
    each = [1.0, 3.5][: len(docs)]
    table = PostingsTable(
        _written([("all", b"same", docs, same, positions), ("all", b"each", docs, each, positions)])
    )
    for btext, weights in ((b"same", same), (b"each", each)):
        assert _read(table, "all", btext) == (docs, weights)
        entry = table.find("all", btext)
        assert entry is not None
        ends, found = table.positions(entry)
        assert list(ends) == list(accumulate(map(len, positions)))
        assert list(found) == list(chain.from_iterable(positions))


def test_a_field_of_no_positions_and_an_empty_file():
    table = PostingsTable(_written([("id", b"p1", [7], [1.0], None)]))
    entry = table.find("id", b"p1")
    assert entry is not None and _read(table, "id", b"p1") == ([7], [1.0])
    assert [list(numbers) for numbers in table.positions(entry)] == [[], []]
    empty = PostingsTable(_written([]))
    assert empty.terms == 0 and empty.find("all", b"p1") is None


def test_keys_of_one_slot_and_terms_not_held():
    """Terms whose keys' CRC-32 land in the same slot are each found with their own
    postings; a term not held gives None, never another's postings (even one whose key
    shares a slot with held ones, or the key of another field's term)."""
    keys = [f"w{number}".encode() for number in range(3000)]
    held = keys[::2]
    slots = 1 << (2 * len(held)).bit_length()  # as the writer sizes its table

    def slot(key: bytes) -> int:
        return crc32(b"all\0" + key) & (slots - 1)

    by_slot: dict[int, list[bytes]] = {}
    for key in held:
        by_slot.setdefault(slot(key), []).append(key)
    assert max(map(len, by_slot.values())) >= 2
    assert any(slot(key) in by_slot for key in keys[1::2])
    table = PostingsTable(
        _written([("all", key, [number], [1.0], [(number,)]) for number, key in enumerate(held)])
    )
    for number, key in enumerate(held):
        assert _read(table, "all", key) == ([number], [1.0])
    for key in keys[1::2]:
        assert table.find("all", key) is None
        assert table.find("title", key) is None
    assert table.find("al", b"l\0w0") is None and table.find("all", b"") is None


def test_terms_not_in_ascii():
    terms = ["论文", "café", "straße", "i\u0307", "ß"]
    table = PostingsTable(
        _written([("all", term.encode(), [n], [1.0], [(n,)]) for n, term in enumerate(terms, 1)])
    )
    for number, term in enumerate(terms, 1):
        assert _read(table, "all", term.encode()) == ([number], [1.0])
    assert table.find("all", b"ss") is None


@pytest.mark.parametrize("cut", [0, 1, 8, 20, 40, -1, -8])
def test_a_cut_file_is_no_postings_file(cut):
    """What a killed writer or a damaged disk leaves: the trailer is gone (the checksum of
    the generation finds it first; this is what the file itself says)."""
    data = _written([("all", b"w", [1, 2], [1.0, 2.0], [(1,), (2, 3)])])
    with pytest.raises(PostingsFileError):
        PostingsTable(data[:cut])


class _Segment:
    """As much of a Whoosh segment as `PostingsTable.of_segment` asks of one."""

    def open_file(self, storage, extension: str):
        return storage.open_file(self.make_filename(extension))

    def make_filename(self, extension: str) -> str:
        return f"segment{extension}"


def test_a_file_that_is_not_a_postings_file_is_unmapped(tmp_path, monkeypatch):
    """A rejected file's memory map is closed at once (as a record file's is), not left to
    the collector: a map keeps a removed generation's disk space while it is open."""
    from whoosh.filedb.filestore import FileStorage

    from paperterm.index.search.whoosh import postings as whoosh_postings

    maps: list[mmap.mmap] = []
    real = mmap.mmap

    def spy(*args, **kwargs) -> mmap.mmap:
        maps.append(real(*args, **kwargs))
        return maps[-1]

    monkeypatch.setattr(whoosh_postings.mmap, "mmap", spy)
    (tmp_path / "segment.ptp").write_bytes(b"not a postings file" * 10)
    with pytest.raises(PostingsFileError):
        PostingsTable.of_segment(FileStorage(str(tmp_path)), _Segment())
    assert len(maps) == 1 and maps[0].closed


def test_a_hash_table_with_no_free_slot_is_no_postings_file():
    """A look-up of a term the file does not hold would probe such a table for ever. The
    generation's checksum finds such damage, unless the file kept its size and times (its
    stamps are trusted then): the file itself says it is damaged, so the index is rebuilt
    (test_store.py)."""
    data = _written([("all", b"w", [1], [1.0], [(1,)]), ("all", b"v", [2], [1.0], [(2,)])])
    assert PostingsTable(data).find("all", b"absent") is None
    with pytest.raises(PostingsFileError, match="hash table"):
        PostingsTable(fill_hash_table(data))


def test_a_look_up_in_a_table_filled_under_its_map_ends(tmp_path):
    """The file written over in place after it was mapped (the map shows what the file
    holds now): a look-up probes each slot once at most, then says the file is damaged."""
    data = _written([("all", b"w", [1], [1.0], [(1,)]), ("all", b"v", [2], [1.0], [(2,)])])
    path = tmp_path / "segment.ptp"
    path.write_bytes(data)
    outcome: list[object] = []
    with path.open("r+b") as file:
        table = PostingsTable(mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ))
        file.write(fill_hash_table(data))
        file.flush()

        def look_up() -> None:
            try:
                outcome.append(table.find("all", b"absent"))
            except PostingsFileError as error:
                outcome.append(error)

        thread = threading.Thread(target=look_up, daemon=True)  # a hang fails, not blocks
        thread.start()
        thread.join(timeout=60)
        table.close()
    assert len(outcome) == 1, "the look-up never ended"
    assert isinstance(outcome[0], PostingsFileError)


@given(
    st.integers(0, (1 << 32) - 1),
    st.sampled_from([1.0, 2.5, 4.0, 0.1]),
    st.none() | st.lists(st.integers(0, (1 << 32) - 1), min_size=1, max_size=4).map(sorted),
)
def test_a_term_of_one_posting_is_written_as_any_other(doc, weight, positions):
    """`add_one` writes what `add` writes of the same single posting."""
    weights = array("f", [weight])
    one = PostingsWriter()
    one.add_one("all", b"term", doc, weights[0], positions)
    file = _Kept()
    one.write(file)
    assert file.written == _written([("all", b"term", [doc], [weight], positions and [positions])])
