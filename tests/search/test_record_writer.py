"""Record files written by a thread of their own (`RecordWriter(..., thread=True)`, the papers
and rows files): the same bytes as written in place, and a failed write is not lost; the
papers file the same bytes as before, with its rows file or without."""

from __future__ import annotations

import io
import marshal

import pytest

from paperterm.index.papers import PAPER_FIELDS, Paper, paper_tuple
from paperterm.index.search import records as records_module
from paperterm.index.search.records import PAPERS, RecordFile, RecordWriter, write_papers


def _records(count: int) -> list[tuple[object, ...]]:
    return [(f"id-{i}", "x" * (i % 700), [f"c{i % 3}"], i) for i in range(count)]


def _write(path, records, *, thread: bool, kept: RecordFile | None = None) -> bytes:
    writer = RecordWriter(path, PAPERS, thread=thread)
    for record in records[:10]:
        writer.add(record)
    if kept is not None:
        writer.add_from(kept, len(kept))
    for record in records[10:]:
        writer.add(record)
    writer.finish({"fields": "f"}, blob=["a", "b"])
    return path.read_bytes()


def test_a_file_written_by_a_thread_is_the_one_written_in_place(tmp_path, monkeypatch):
    monkeypatch.setattr(records_module, "_COPY_PIECE", 4096)  # many pieces, and a full queue
    records = _records(3000)
    first = tmp_path / "first"
    _write(first, records[:500], thread=False)
    kept = RecordFile(first, PAPERS)
    try:
        in_place = _write(tmp_path / "a", records, thread=False, kept=kept)
        threaded = _write(tmp_path / "b", records, thread=True, kept=kept)
    finally:
        kept.close()
    assert threaded == in_place
    written = RecordFile(tmp_path / "b", PAPERS)
    try:
        assert written.all() == [*records[:10], *records[:500], *records[10:]]
    finally:
        written.close()


class _FailingFile(io.BytesIO):
    def __init__(self, after: int) -> None:
        super().__init__()
        self.after = after

    def write(self, data) -> int:  # type: ignore[no-untyped-def, override]
        if self.tell() + len(data) > self.after:
            raise OSError(28, "No space left on device")
        return super().write(data)


def test_a_write_that_fails_in_the_thread_is_raised(tmp_path, monkeypatch):
    monkeypatch.setattr(records_module, "_COPY_PIECE", 4096)
    writer = RecordWriter(tmp_path / "papers", PAPERS, thread=True)
    failing = _FailingFile(after=20_000)
    writer._handle.close()
    writer._handle = failing  # what the thread writes to, from now on
    assert writer._thread is not None
    writer._thread._handle = failing
    with pytest.raises(OSError, match="No space"):
        for record in _records(3000):
            writer.add(record)
        writer.finish({})
    writer.close()  # after the failure: closes without raising again


def test_records_are_read_alike_without_the_header(tmp_path):
    records = _records(50)
    writer = RecordWriter(tmp_path / "source", PAPERS)
    for record in records:
        writer.add(record)
    writer.finish({"words": {"x": 1}})
    whole = RecordFile(tmp_path / "source", PAPERS)
    bare = RecordFile(tmp_path / "source", PAPERS, header=False)
    try:
        assert whole.header == {"words": {"x": 1}} and bare.header == {}
        assert bare.all() == whole.all() == records
    finally:
        whole.close()
        bare.close()


def _fresh(papers: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
    """Each tuple as a build reads it from a record file: its strings its own (referenced by
    it alone), so that how `marshal` writes them depends on what else holds them."""
    return [marshal.loads(marshal.dumps(paper)) for paper in papers]


def _papers_written_before(papers: list[tuple[object, ...]]) -> bytes:
    """The papers file's records as `write_papers` wrote them before the rows file could be
    written apart: each paper's id and collections noted (held), then the paper marshalled."""
    ids: list[object] = []
    firsts: dict[object, None] = {}
    collections: dict[object, None] = {}
    blobs = []
    for paper in papers:
        ids.append(paper[PAPER_FIELDS.index("id")])
        firsts.setdefault(paper[PAPER_FIELDS.index("collection")], None)
        for name in paper[PAPER_FIELDS.index("collections")]:
            collections.setdefault(name, None)
        blobs.append(marshal.dumps(paper))
    return b"".join(blobs)


@pytest.mark.parametrize("rows_apart", [False, True])
def test_the_papers_file_is_the_bytes_it_was(tmp_path, rows_apart):
    """`marshal` marks a string referenced elsewhere as shared: the papers file holds the same
    bytes whether the rows file is written with it or apart (its ids noted all the same)."""
    papers = [
        paper_tuple(Paper(id=f"p{i}", collection=f"C{i % 4}", abstract="A", text="A"))
        for i in range(300)
    ]
    rows_name = None if rows_apart else "rows"
    write_papers(tmp_path, iter(_fresh(papers)), "papers", rows_name)
    written = RecordFile(tmp_path / "papers", PAPERS)
    try:
        out = io.BytesIO()
        written.copy_records(len(written), out)
    finally:
        written.close()
    assert out.getvalue() == _papers_written_before(_fresh(papers))
