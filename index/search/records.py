"""Files of records any one of which can be read alone: the papers, the list's rows, each
source's prepared records.

A record file is the records, each `marshal`'d on its own, a header and an offset table:

    b"PTREC3\\n" + kind (8 bytes)   what the file holds
    u64                            where the header starts
    records
    [a marshal'd value]            a blob apart from the records (a rows file: every id)
    u32 n, then n bytes            the header: a marshal'd dict (counts, names, ...)
    u64 * (count + 1)              where each record starts, from the first one's start
    u64                            where the header starts (again: the file's last bytes)

The header comes after the records because it says what only the whole file knows (a
source's word counts, its records' merge keys), and the records are written as they come.

It is written as the records come (a build never holds a whole papers file in memory: 120
MB at 50,000 papers), only ever into a build's temporary folder, which is made live as a
whole. Opening one reads the header and the table (mapped, not read: 400 KB at 50,000
records); a record is read when asked for. `marshal` is used because it loads a paper about
five times faster than JSON; the files are written and read by paperterm only, and every one
is checked against the checksum the build recorded before it is trusted (`store.py`).

`PaperList` is the papers of a generation as a sequence: the reader's list and the searcher
ask for the papers they show, so a start reads tens of records, not 50,000.
"""

from __future__ import annotations

import gc
import marshal
import mmap
import queue
import struct
import threading
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO, Protocol, overload

from paperterm.index.papers import PAPER_FIELDS, Paper

_MAGIC = b"PTREC3\n"
_TABLE = struct.Struct("<Q")
_SIZE = struct.Struct("<I")
#: Bytes of records copied at a time (`RecordWriter.add_from`), and handed at a time to a
#: writer's thread (`RecordWriter(..., thread=True)`).
_COPY_PIECE = 1 << 20
#: Pieces a writer's thread may have waiting (memory held: this many `_COPY_PIECE`s).
_PIECES_WAITING = 8
PAPERS = b"papers\0\0"
ROWS = b"rows\0\0\0\0"
SOURCE = b"source\0\0"

#: What the list shows of a paper, in the order a rows file keeps it.
ROW_FIELDS = ("id", "name", "title", "collections", "year", "authors", "arxiv_id")
#: Authors a row keeps (the list shows a few; the paper has them all).
ROW_AUTHORS = 3


def _name(kind: bytes) -> str:
    return kind.rstrip(b"\0").decode()


class RecordFileError(ValueError):
    """The file is not a record file of the expected kind, or is damaged."""


@contextmanager
def no_collection() -> Iterator[None]:
    """The cyclic garbage collector paused: creating many objects that live on (50,000
    papers, a segment's postings) makes it walk them all again and again, which took most
    of the time of loading a papers file."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class _Sink(Protocol):
    """Where records' bytes go: a file, or a thread writing one."""

    def write(self, data: bytes, /) -> object: ...


class _WriterThread:
    """Writes the pieces it is given to a file, in order, in a thread of its own: the
    system call (copying into the page cache, allocating its pages) runs without the GIL, beside the
    Python code making the next records. A write that fails is raised by the next `write` or by
    `close`."""

    def __init__(self, handle: BinaryIO) -> None:
        self._handle = handle
        self._pieces: queue.Queue[bytes | None] = queue.Queue(_PIECES_WAITING)
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="paperterm-records", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while (piece := self._pieces.get()) is not None:
            if self._error is None:
                try:
                    self._handle.write(piece)
                except BaseException as error:  # raised in the writing thread
                    self._error = error

    def write(self, piece: bytes) -> None:
        if self._error is not None:
            raise self._error
        self._pieces.put(piece)

    def close(self) -> None:
        """Wait until every piece is written (raises what a write raised)."""
        self._pieces.put(None)
        self._thread.join()
        if self._error is not None:
            raise self._error


class RecordWriter:
    """A record file written as its records come (append, then `finish`), so that a build
    never holds a whole file's records: the header is written last, after the records, and
    the file starts with where to find it.

    `thread`: the records are written by a thread of their own, a `_COPY_PIECE` at a time
    (the papers file of a large index, whose writing was a large part of the build's
    tail)."""

    def __init__(self, path: Path, kind: bytes, *, thread: bool = False) -> None:
        self.path = path
        self.kind = kind
        self._handle = open(path, "wb")  # noqa: SIM115 (closed by finish/close)
        self._handle.write(_MAGIC + kind + _TABLE.pack(0))
        self._offsets = array("Q", [0])
        self._thread = _WriterThread(self._handle) if thread else None
        self._pending: list[bytes] = []
        self._pending_bytes = 0

    def __len__(self) -> int:
        return len(self._offsets) - 1

    def add(self, record: Any) -> None:
        blob = marshal.dumps(record)
        if self._thread is None:
            self._handle.write(blob)
        else:
            self._pending.append(blob)
            self._pending_bytes += len(blob)
            if self._pending_bytes >= _COPY_PIECE:
                self._hand_over()
        self._offsets.append(self._offsets[-1] + len(blob))

    def _hand_over(self) -> None:
        """The records waiting, to the writing thread."""
        if self._thread is not None and self._pending:
            self._thread.write(b"".join(self._pending))
            self._pending.clear()
            self._pending_bytes = 0

    def _written(self) -> None:
        """Every record added is in the file (the thread, if any, is done)."""
        if self._thread is not None:
            self._hand_over()
            thread, self._thread = self._thread, None
            thread.close()

    def add_from(self, source: RecordFile, count: int) -> None:
        """`source`'s first `count` records, their bytes as it stores them (not loaded and
        dumped again)."""
        self._hand_over()
        source.copy_records(count, self._handle if self._thread is None else self._thread)
        base = self._offsets[-1]
        self._offsets.extend(base + offset for offset in source.offsets(count)[1:])

    def finish(self, header: dict[str, Any], blob: Any = None) -> int:
        """Write the header and the offset table; how many records the file has. `blob`:
        one more value, apart from the records, that `RecordFile.blob` reads whole."""
        try:
            self._written()
        except BaseException:
            self._handle.close()
            raise
        handle = self._handle
        if blob is not None:
            start = handle.tell()
            handle.write(marshal.dumps(blob))
            header = {**header, "blob": [start, handle.tell()]}
        head = marshal.dumps(header)
        header_at = handle.tell()
        handle.write(_SIZE.pack(len(head)) + head)
        handle.write(self._offsets.tobytes())
        handle.write(_TABLE.pack(header_at))
        handle.seek(len(_MAGIC) + len(self.kind))
        handle.write(_TABLE.pack(header_at))
        handle.close()
        return len(self)

    def close(self) -> None:
        """Stop without finishing (the file is left incomplete: a build's temporary one)."""
        try:
            if self._thread is not None:
                self._pending.clear()
                thread, self._thread = self._thread, None
                thread.close()
        except Exception:  # a write that failed: the file is given up anyway
            pass
        finally:
            self._handle.close()


class RecordFile:
    """A record file opened for reading (raises `RecordFileError` or `OSError`).

    `header=False`: its records only, its header not read (`header` is empty), for a file
    with no blob: a source's header is its words, keys and titles, which the build holds
    already, and reading them again slowed its tail."""

    def __init__(self, path: Path, kind: bytes, *, header: bool = True) -> None:
        self.path = path
        self._read_header = header
        with open(path, "rb") as handle:
            try:
                self._map = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
            except ValueError:  # an empty file cannot be mapped
                raise RecordFileError(f"{path}: empty") from None
        try:
            self._check(path, kind)
        except BaseException:
            if hasattr(self, "_offsets"):
                self._offsets.release()  # a map with a view of it open cannot be closed
            self._map.close()
            raise

    def _check(self, path: Path, kind: bytes) -> None:
        """Read the header and the offset table (`RecordFileError` when they are wrong)."""
        data = self._map
        start = len(_MAGIC) + len(kind)
        if data[: len(_MAGIC)] != _MAGIC or data[len(_MAGIC) : start] != kind:
            raise RecordFileError(f"{path}: not a {_name(kind)} file")
        try:
            (header_at,) = _TABLE.unpack_from(data, start)
            (last,) = _TABLE.unpack_from(data, len(data) - _TABLE.size)
            (size,) = _SIZE.unpack_from(data, header_at)
            table = header_at + _SIZE.size + size
            self.header: dict[str, Any] = (
                marshal.loads(data[header_at + _SIZE.size : table]) if self._read_header else {}
            )
        except (ValueError, EOFError, TypeError, struct.error) as error:
            raise RecordFileError(f"{path}: damaged header ({error})") from None
        self._base = start + _TABLE.size
        end = len(data) - _TABLE.size
        if not isinstance(self.header, dict) or last != header_at or not table <= end - 8:
            raise RecordFileError(f"{path}: damaged header")
        if (end - table) % 8:
            raise RecordFileError(f"{path}: damaged offset table")
        # Read in place, not copied: the table of a large index's two files is megabytes,
        # and the reader's start reads a screenful of rows.
        self._offsets = memoryview(data)[table:end].cast("Q")
        end_of_records = self._base + self._offsets[-1]
        blob = self.header.get("blob")
        if blob is not None and not (
            isinstance(blob, list) and end_of_records == blob[0] <= blob[1] == header_at
        ):
            raise RecordFileError(f"{path}: damaged header")
        if self._offsets[0] != 0 or (blob is None and end_of_records != header_at):
            raise RecordFileError(f"{path}: damaged offset table")
        self.count = len(self._offsets) - 1

    def __len__(self) -> int:
        return self.count

    def get(self, index: int) -> Any:
        begin = self._base + self._offsets[index]
        end = self._base + self._offsets[index + 1]
        try:
            return marshal.loads(self._map[begin:end])
        except (ValueError, EOFError, TypeError) as error:
            raise RecordFileError(f"{self.path}: record {index} is damaged ({error})") from None

    def offsets(self, count: int) -> list[int]:
        """Where each of the first `count` records starts, and the last one ends (from the
        first one's start)."""
        return self._offsets[: count + 1].tolist()

    def copy_records(self, count: int, handle: _Sink) -> None:
        """Write the bytes of the first `count` records to `handle`, a piece at a time,
        read from the file (not the map: the pages of a map read count in the process's
        memory)."""
        left = self._offsets[count]
        with open(self.path, "rb") as source:
            source.seek(self._base)
            while left:
                piece = source.read(min(left, _COPY_PIECE))
                if not piece:
                    raise RecordFileError(f"{self.path}: shorter than its offset table")
                handle.write(piece)
                left -= len(piece)

    def blob(self) -> Any:
        """The value written apart from the records (`RecordWriter.finish`), or None."""
        span = self.header.get("blob")
        if span is None:
            return None
        try:
            return marshal.loads(self._map[span[0] : span[1]])
        except (ValueError, EOFError, TypeError) as error:
            raise RecordFileError(f"{self.path}: damaged ({error})") from None

    def all(self) -> list[Any]:
        """Every record, in order (the collector paused: see `no_collection`)."""
        with no_collection():
            return [self.get(index) for index in range(self.count)]

    def close(self) -> None:
        self._offsets.release()  # a map with a view of it open cannot be closed
        self._map.close()


_ID, _NAME, _TITLE, _COLLECTION, _COLLECTIONS, _YEAR, _AUTHORS, _ARXIV_ID = (
    PAPER_FIELDS.index(name)
    for name in ("id", "name", "title", "collection", "collections", "year", "authors", "arxiv_id")
)


def paper_row(paper: tuple[Any, ...]) -> tuple[Any, ...]:
    """What the rows file keeps of a paper (given as its `paper_tuple`)."""
    return (
        paper[_ID],
        paper[_NAME],
        paper[_TITLE],
        tuple(paper[_COLLECTIONS]),
        paper[_YEAR],
        tuple(paper[_AUTHORS][:ROW_AUTHORS]),
        paper[_ARXIV_ID],
    )


class _Rows:
    """The rows file as the papers come (their rows, ids and collections).

    Each paper is `note`d before it is marshalled into the papers file, and its row written
    after (`write`): `marshal` marks an object referenced more than once (its refcount) to
    be shared, so the papers file's bytes depend on the ids and collections noted holding
    their strings then. `path` None: the papers noted only (another process writes the
    rows file), so that the papers file is the same bytes."""

    def __init__(self, path: Path | None) -> None:
        self.file = None if path is None else RecordWriter(path, ROWS, thread=True)
        self.ids: list[str] = []
        self.collections: dict[str, None] = {}
        self.firsts: dict[str, None] = {}

    def take(self, kept: RecordFile) -> None:
        """The rows of a rows file first, as it holds them."""
        if self.file is not None:
            self.file.add_from(kept, len(kept))
            self.ids += kept_ids(kept)
        self.collections = dict.fromkeys(kept.header.get("collections", []))
        self.firsts = dict.fromkeys(kept.header.get("firsts", []))

    def note(self, paper: tuple[Any, ...]) -> None:
        self.ids.append(paper[_ID])
        self.firsts.setdefault(paper[_COLLECTION], None)
        for name in paper[_COLLECTIONS]:
            self.collections.setdefault(name, None)

    def write(self, paper: tuple[Any, ...]) -> None:
        assert self.file is not None
        self.file.add(paper_row(paper))

    def finish(self) -> tuple[int, list[str]]:
        """How many rows the file has, and the papers' collections."""
        assert self.file is not None
        count = self.file.finish(
            {
                "fields": ROW_FIELDS,
                "collections": list(self.collections),
                "firsts": list(self.firsts),
            },
            blob=self.ids,  # `PaperList.ids` without reading every row
        )
        return count, list(self.collections)

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


def write_papers(
    folder: Path,
    papers: Iterable[tuple[Any, ...]],
    papers_name: str,
    rows_name: str | None,
    kept: PaperList | None = None,
) -> tuple[int, list[str]]:
    """The papers file (every field of every paper) and the rows file (what the list shows,
    and the ids, which map search hits to papers), in corpus order, as the papers come (as
    `paper_tuple`s: a source's record holds its paper's, and making a `Paper` of it and a
    tuple of that again was a third of this at 500,000); how many there are and their
    collections. `kept`: papers that come first, their records copied as their files hold
    them (`Builder._kept_papers`). `rows_name` None: the papers file only (another process
    writes the rows file, `write_rows`: no collections are given)."""
    papers_file = RecordWriter(folder / papers_name, PAPERS, thread=True)
    rows = None
    try:
        rows = _Rows(None if rows_name is None else folder / rows_name)
        if kept is not None:
            kept.copy_into(papers_file)
            rows.take(kept.rows_file)
        add, note = papers_file.add, rows.note
        if rows.file is None:
            for paper in papers:
                note(paper)
                add(paper)
        else:
            write_row = rows.write
            for paper in papers:
                note(paper)
                add(paper)
                write_row(paper)
        count = papers_file.finish({"fields": PAPER_FIELDS})
    except BaseException:
        papers_file.close()
        if rows is not None:
            rows.close()
        raise
    return (count, []) if rows.file is None else rows.finish()


def write_rows(
    path: Path, papers: Iterable[tuple[Any, ...]], kept: RecordFile | None = None
) -> tuple[int, list[str]]:
    """The rows file of `write_papers` alone: how many rows, and the papers' collections.
    `kept`: a rows file whose rows come first, copied as it holds them."""
    rows = _Rows(path)
    try:
        if kept is not None:
            rows.take(kept)
        for paper in papers:
            rows.note(paper)
            rows.write(paper)
    except BaseException:
        rows.close()
        raise
    return rows.finish()


def kept_ids(rows: RecordFile) -> list[str]:
    """Each row's id, from a rows file: its blob (every id: `write_papers`), or its rows."""
    ids = rows.blob()
    if not isinstance(ids, list) or len(ids) != len(rows):
        ids = [row[0] for row in rows.all()]
    return ids


class PaperList(Sequence[Paper]):
    """A generation's papers, read as they are asked for (each once). `ids` and `by_id`
    read the rows file's ids (a few ms at 50,000), the first time they are needed."""

    def __init__(self, papers: RecordFile, rows: RecordFile) -> None:
        if tuple(papers.header.get("fields", ())) != PAPER_FIELDS:
            raise RecordFileError(f"{papers.path}: written by another version")
        if tuple(rows.header.get("fields", ())) != ROW_FIELDS:
            raise RecordFileError(f"{rows.path}: written by another version")
        if len(papers) != len(rows):
            raise RecordFileError(f"{papers.path}: {len(papers)} papers but {len(rows)} rows")
        self._file = papers
        self._rows = rows
        #: The papers read so far, by position: a dict, where a list of a `None` per paper
        #: was walked by the garbage collector's first collections, in a first query.
        self._loaded: dict[int, Paper] = {}
        self._ids: tuple[str, ...] | None = None
        self._index: dict[str, int] | None = None

    @property
    def collections(self) -> list[str]:
        return list(self._rows.header.get("collections", []))

    def copy_into(self, papers: RecordWriter) -> None:
        """Append every paper to this papers file, as this list's papers file holds them."""
        papers.add_from(self._file, len(self))

    @property
    def rows_file(self) -> RecordFile:
        return self._rows

    def close(self) -> None:
        self._file.close()
        self._rows.close()

    @property
    def first_collections(self) -> list[str]:
        """The collections papers are listed under (each paper's first), in order."""
        return list(self._rows.header.get("firsts", []))

    def __len__(self) -> int:
        return self._file.count

    @overload
    def __getitem__(self, index: int) -> Paper: ...

    @overload
    def __getitem__(self, index: slice) -> list[Paper]: ...

    def __getitem__(self, index: int | slice) -> Paper | list[Paper]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        paper = self._loaded.get(index)
        if paper is None:
            count = self._file.count
            if index < 0:  # as a list counts from its end
                index += count
            if not 0 <= index < count:
                raise IndexError("paper index out of range")
            paper = self._loaded.get(index)
            if paper is None:
                paper = self._loaded[index] = Paper(*self._file.get(index))
        return paper

    def __iter__(self) -> Iterator[Paper]:
        with no_collection():
            for index in range(len(self)):
                yield self[index]

    def fields(self, index: int) -> tuple[Any, ...]:
        """Paper `index`'s fields (`PAPER_FIELDS`), read from the file, no `Paper` made or
        kept: for a pass over every paper."""
        fields: tuple[Any, ...] = self._file.get(index)
        return fields

    def row(self, index: int) -> tuple[Any, ...]:
        """What the list shows of paper `index` (`ROW_FIELDS`), without reading the paper."""
        row: tuple[Any, ...] = self._rows.get(index)
        return row

    def rows(self) -> list[tuple[Any, ...]]:
        """Every paper's row (`ROW_FIELDS`), in order: what sorts and counts need, without
        reading a paper."""
        with no_collection():
            rows: list[tuple[Any, ...]] = self._rows.all()
        return rows

    @property
    def ids(self) -> tuple[str, ...]:
        """Each paper's id, in order: a tuple, which the garbage collector stops walking
        once it has seen it hold only strings (a list was walked by each of its first
        collections, in the first queries)."""
        if self._ids is None:
            self._ids = tuple(kept_ids(self._rows))
        return self._ids

    def index_of(self, paper_id: str) -> int | None:
        index = self._index if self._index is not None else self._id_table()
        return index.get(paper_id)

    @property
    def positions(self) -> dict[str, int]:
        """Paper id -> position (a later paper of the same id wins), made on first use: the
        engines' id -> document tables are this one (each was another table to make, with
        the reader's search lock held)."""
        return self._index if self._index is not None else self._id_table()

    def warm(self) -> None:
        """Make the id -> position table now, not at the first look-up."""
        if self._index is None:
            self._id_table()

    def _id_table(self) -> dict[str, int]:
        self._index = {paper_id: index for index, paper_id in enumerate(self.ids)}
        return self._index

    @property
    def by_id(self) -> Mapping[str, Paper]:
        return _ById(self)


class _ById(Mapping[str, Paper]):
    def __init__(self, papers: PaperList) -> None:
        self._papers = papers

    def __getitem__(self, paper_id: str) -> Paper:
        index = self._papers.index_of(paper_id)
        if index is None:
            raise KeyError(paper_id)
        return self._papers[index]

    def __contains__(self, paper_id: object) -> bool:
        return isinstance(paper_id, str) and self._papers.index_of(paper_id) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self._papers.ids)

    def __len__(self) -> int:
        return len(self._papers)
