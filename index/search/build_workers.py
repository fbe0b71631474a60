"""Reading, preparing and indexing source files in worker processes, one per core.

Whoosh is pure Python, so one process indexes on one core; a 2-core machine builds twice as
fast with two. The new and changed files of a build are split into as many runs of
consecutive files as there are workers, balanced by size, and a worker that finishes its
run takes over the end of a busy worker's (`build_runs.py`); each worker prepares its files
in order, record by record (`source_records.prepare_source`, which keeps each file's
records in the build's `sources/`), and writes the engine's parts of them as it goes
(`PartFeed`), closing a part at the end of a file once it is big enough (its first part
sooner, so that a first build is searchable early on) and at the end of its run. The main
process reads each file's record file header (its merge keys) as it is announced, tells the
listener how far reading is, and publishes an index of the parts written so far. Parts are
written from records as prepared, before duplicates across files are merged: the build
keeps those whose papers did not change in the merge (most of them) and writes the others
again (`build.Builder._parts`).

Workers are new Python processes (a reader's threads make forking unsafe). Each way, on the
worker's stdin and stdout, go frames: a length and a pickle. The main process tells a
worker its task, then its runs, a stop (before a position of its run) and the end; a worker
reads these between files and, so that a hand-over does not wait for the file being
prepared, as it reads a file. A worker ends by itself when the process that started it is
gone (its stdin closes).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import selectors
import struct
import subprocess
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from paperterm.index.papers import Paper
from paperterm.index.search.build_runs import Order, Runs, usable_cores
from paperterm.index.search.generation_meta import SourceFile
from paperterm.index.search.records import no_collection
from paperterm.index.search.source_records import (
    SourceRecords,
    iter_records,
    prepare_source,
    read_header,
)
from paperterm.index.search.store import ENGINE_FOLDER, ENGINES, SOURCES_FOLDER
from paperterm.index.search.whoosh.index import part_digest

#: Seconds between looks at whether the build was cancelled or a worker died.
_POLL = 0.2
_FRAME = struct.Struct("<I")
#: What a worker says: ("read", key, bytes so far), ("source", key, bytes),
#: ("part", keys, part, digest), ("ran",) (its run is over), ("stopped", position),
#: ("done",), ("failed", traceback). What it is told: its task (engine, build folder, part
#: sizes), then ("run", files), ("stop", position), ("end",).
_Message = tuple[Any, ...]


def worker_count(files: int) -> int:
    return max(1, min(usable_cores(), files))


class WorkerPool:
    """Worker processes preparing some sources (their files `sizes` bytes), one run of
    consecutive files each at a time. `part_sizes`: a worker's first part closes after this
    many papers, the others after this many postings."""

    def __init__(
        self,
        engine: str,
        tmp: Path,
        fresh: list[SourceRecords],
        sizes: list[int],
        part_sizes: tuple[int, int, int],
        *,
        keep: bool = False,
    ) -> None:
        """`keep`: each source's records are read back into it (someone lists them)."""
        self.engine, self.tmp, self.fresh, self.keep = engine, tmp, fresh, keep
        self.runs = Runs.split(sizes, worker_count(len(fresh)))
        self.part_sizes = part_sizes
        self.workers: list[_Worker] = []

    def start(self) -> None:
        """Start the workers (once); they take a moment to be at work."""
        if not self.workers:
            task = (self.engine, str(self.tmp), self.part_sizes)
            self.workers = [_Worker(task) for _ in self.runs.runs]
            self._tell(self.runs.start())

    def _tell(self, orders: list[tuple[int, Order]]) -> None:
        """Send each order to its worker (a run's positions as their files)."""
        for worker, order in orders:
            if order[0] == "run":
                order = ("run", [self.fresh[spot].file for spot in order[1]])
            self.workers[worker].send(order)

    def run(
        self,
        on_source: Callable[[SourceRecords, int], None],
        on_part: Callable[[object, list[str], str], None],
        check: Callable[[], None],
        on_bytes: Callable[[str, int], None],
        read_all: Callable[[], None] = lambda: None,
    ) -> None:
        """Until every worker is done: as each source is prepared, its record file's header
        (and, with `keep`, its records) are read into it and `on_source(source, bytes)` is
        called; as each part is written, `on_part(part, source keys, digest)`; as a file is
        read, `on_bytes(source key, bytes read)`; once every source is prepared, while the
        workers still write their last parts, `read_all()`. `check` raises to stop."""
        self.start()
        by_key = {source.file.key: source for source in self.fresh}
        unread = len(by_key)
        while any(not worker.done for worker in self.workers):
            check()
            for index, message in _messages(self.workers):
                kind = message[0]
                if kind == "failed":
                    raise OSError(f"a build worker failed: {message[1]}")
                if kind == "read":
                    on_bytes(message[1], message[2])
                elif kind == "source":
                    _, key, size = message
                    source = by_key[key]
                    path = self.tmp / SOURCES_FOLDER / source.cache
                    header, source.fingerprint = read_header(path, source.file)
                    source.take_header(header)
                    source.size = size
                    if self.keep:
                        source.records = list(iter_records(path))
                    on_source(source, size)
                    unread -= 1
                    if not unread:
                        read_all()
                elif kind == "part":
                    _, keys, part, digest = message
                    on_part(part, keys, digest)
                self._tell(self.runs.heard(index, message))

    def stop(self) -> None:
        for worker in self.workers:
            worker.stop()


def _frames(buffer: bytearray) -> list[_Message]:
    """The messages of the whole frames at the start of `buffer`, taken out of it."""
    messages: list[_Message] = []
    while len(buffer) >= _FRAME.size:
        (size,) = _FRAME.unpack_from(buffer)
        if len(buffer) < _FRAME.size + size:
            break
        messages.append(pickle.loads(buffer[_FRAME.size : _FRAME.size + size]))
        del buffer[: _FRAME.size + size]
    return messages


def _frame(message: _Message) -> bytes:
    data = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
    return _FRAME.pack(len(data)) + data


class _Worker:
    """A worker process (`python -m paperterm.index.search.build_workers`): what it is told
    goes to its stdin, its messages come back on its stdout. `multiprocessing` is not used:
    in the reader, Textual's stand-in for `sys.stderr` has no file descriptor, which makes
    its resource tracker fail to start."""

    def __init__(self, task: tuple[str, str, tuple[int, int, int]]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "paperterm.index.search.build_workers"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdin, self.stdout = self.process.stdin, self.process.stdout
        os.set_blocking(self.stdout.fileno(), False)
        self.buffer = bytearray()
        self.done = False
        self.said_done = False
        self.send(task)

    def send(self, message: _Message) -> None:
        """Tell the worker `message` (one that died does not hear it: its missing "done"
        says so)."""
        try:
            self.stdin.write(_frame(message))
            self.stdin.flush()
        except OSError:
            pass

    def read(self) -> list[_Message]:
        """The messages that arrived (the worker is `done` once it said so or ended)."""
        messages: list[_Message] = []
        try:
            chunk = os.read(self.stdout.fileno(), 1 << 16)
        except BlockingIOError:
            return messages
        if not chunk:
            self.done = True
            if self.process.wait() != 0 and not self.said_done:
                messages.append(("failed", f"it ended with status {self.process.returncode}"))
            return messages
        self.buffer += chunk
        for message in _frames(self.buffer):
            if message[0] == "done":
                # Done: not waiting for it to exit (its exit, freeing its objects, would
                # hold the build up).
                self.said_done = self.done = True
            else:
                messages.append(message)
        return messages

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for pipe in (self.stdin, self.stdout):
            with contextlib.suppress(OSError):  # what it was not told any more
                pipe.close()


def _messages(workers: list[_Worker]) -> list[tuple[int, _Message]]:
    """What the workers said (each worker's position, its message), waiting up to `_POLL`
    seconds for something."""
    with selectors.DefaultSelector() as selector:
        for index, worker in enumerate(workers):
            if not worker.done:
                selector.register(worker.stdout, selectors.EVENT_READ, index)
        ready = selector.select(_POLL)
    messages: list[tuple[int, _Message]] = []
    for key, _ in ready:
        messages += [(key.data, message) for message in workers[key.data].read()]
    return messages


class _Inbox:
    """A worker's side of its stdin: what the main process tells it, as frames."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        os.set_blocking(fd, False)
        self.buffer = bytearray()
        self.pending: list[_Message] = []
        self.closed = False

    def _fill(self, wait: bool) -> None:
        """Read what arrived; with `wait`, until a message did or stdin is closed."""
        while True:
            if wait and not self.closed and not self.pending:
                select.select([self.fd], [], [])
            try:
                chunk = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                chunk = None
            if chunk == b"":
                self.closed = True
            elif chunk:
                self.buffer += chunk
            self.pending += _frames(self.buffer)
            if self.pending or self.closed or not wait:
                return

    def read(self, *, wait: bool = False) -> list[_Message]:
        """The messages that arrived; with `wait`, at least one unless stdin is closed."""
        self._fill(wait)
        messages, self.pending = self.pending, []
        return messages

    def first(self) -> _Message | None:
        """The next message, waiting for it (None: stdin is closed)."""
        self._fill(True)
        return self.pending.pop(0) if self.pending else None


class Orders:
    """A worker's runs: what the main process tells it, read between files and as a file is
    read (`heed`); a stop is answered as soon as it is read, with where the run now ends."""

    def __init__(
        self, inbox: _Inbox | None, say: Callable[[_Message], None], files: list[SourceFile]
    ) -> None:
        """Without `inbox`: the one run `files`."""
        self.inbox, self.say = inbox, say
        self.files = list(files)
        self.started = 0
        self.ended = False
        self.new_run = bool(files)  # a run not yet begun

    def heed(self, *, wait: bool = False) -> None:
        """Take what the main process said (with `wait`, wait for something)."""
        if self.inbox is None:
            return
        for message in self.inbox.read(wait=wait):
            if message[0] == "run":
                self.files, self.started, self.new_run = list(message[1]), 0, True
            elif message[0] == "stop":
                # A file already started is prepared: the run ends after it.
                at = max(message[1], self.started)
                del self.files[at:]
                self.say(("stopped", at))
            else:
                self.ended = True
        if self.inbox.closed:
            self.ended = True  # the build is over or was killed: nobody reads what we write

    def next_run(self) -> bool:
        """Wait for a run to begin: False when told to end instead."""
        while not self.new_run and not self.ended:
            if self.inbox is None:
                self.ended = True  # its one run is over
            self.heed(wait=True)
        self.new_run = False
        return not self.ended

    def next_file(self) -> SourceFile | None:
        """The run's next file, now started (None: the run is over)."""
        self.heed()
        if self.ended or self.started >= len(self.files):
            return None
        self.started += 1
        return self.files[self.started - 1]


def work(
    engine_name: str,
    files: list[SourceFile],
    tmp: str,
    sizes: tuple[int, int, int],
    say: Callable[[_Message], None],
) -> None:
    """Prepare `files` in order, as one run of a worker (`serve`)."""
    serve(engine_name, tmp, sizes, Orders(None, say, files), say)


def serve(
    engine_name: str,
    tmp: str,
    sizes: tuple[int, int, int],
    orders: Orders,
    say: Callable[[_Message], None],
) -> None:
    """A worker's life: prepare each run's files in order and write parts of their papers
    (the first closed after `sizes[0]` papers, the others after `sizes[1]` postings), the
    last part of a run closed at its end."""
    engine = ENGINES[engine_name]()
    folder = Path(tmp)
    parts = PartFeed(engine, folder / ENGINE_FOLDER, sizes)
    with no_collection():
        while orders.next_run():
            while (file := orders.next_file()) is not None:

                def reading(records: int, size: int, key: str = file.key) -> None:
                    say(("read", key, size))
                    orders.heed()

                source = prepare_source(
                    file, folder / SOURCES_FOLDER, on_record=parts.add, on_bytes=reading
                )
                say(("source", file.key, source.size))
                written = parts.end_source(file.key, source.digest)
                if written is not None:
                    say(("part", written[1], written[0], written[2]))
            if orders.ended:
                return
            written = parts.end()
            if written is not None:
                say(("part", written[1], written[0], written[2]))
            say(("ran",))


#: Papers given to a part's writer together: giving each as it is prepared cost more CPU
#: (tantivy's indexing thread and the preparing interleaved); a batch is held for a moment
#: only.
BATCH = 2000


class PartFeed:
    """Parts written as papers are prepared: a part is closed at the end of a source, once
    it holds `sizes[0]` papers (the first part; 0: no such limit), `sizes[1]` postings or
    `sizes[2]` sources (`build.part_sources`). A part's writer starts with its first
    paper."""

    def __init__(self, engine: Any, folder: Path, sizes: tuple[int, int, int]) -> None:
        self.engine, self.folder = engine, folder
        self.first_papers, self.postings, self.sources = sizes
        self.writer: Any = None
        self.batch: list[tuple[Paper, list[str]]] = []
        self.keys: list[str] = []
        self.digests: list[str] = []

    def add(self, paper: Paper, words: list[str]) -> None:
        """The next paper, and the words the vocabulary counts of it (`paper_words`)."""
        self.batch.append((paper, words))
        if len(self.batch) >= BATCH:
            self._flush()

    def _flush(self) -> None:
        if self.batch and self.writer is None:
            self.writer = self.engine.part_writer(self.folder)
        for paper, words in self.batch:
            self.writer.add(paper, words)
        self.batch.clear()

    def end_source(self, key: str, digest: str) -> tuple[object, list[str], str] | None:
        """Source `key` (its `documents_digest`) is read: the part written, if it closes."""
        self.keys.append(key)
        self.digests.append(digest)
        self._flush()
        writer = self.writer
        if writer is None:
            return None
        full = len(writer) >= self.first_papers if self.first_papers else False
        if full or writer.postings >= self.postings or len(self.keys) >= self.sources:
            self.first_papers = 0
            return self.end()
        return None

    def end(self) -> tuple[object, list[str], str] | None:
        """The last part (None without papers): (part, its sources' keys, its digest). The
        next run's parts are all full-sized: the first closes sooner only to be searched
        early on."""
        self.first_papers = 0
        written = None
        self._flush()
        if self.writer is not None and len(self.writer):
            written = (self.writer.finish(), self.keys, part_digest(self.digests))
        self.writer, self.keys, self.digests = None, [], []
        return written


def main() -> None:
    """The worker process: what it is told from stdin, its messages to stdout (the real
    one; what else writes to stdout goes nowhere)."""
    out = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)

    def say(message: _Message) -> None:
        out.write(_frame(message))
        out.flush()

    try:
        inbox = _Inbox(0)
        task = inbox.first()
        if task is None:
            return  # the build was over before we started
        engine, tmp, sizes = task
        serve(engine, tmp, sizes, Orders(inbox, say, []), say)
        say(("done",))
    except BaseException:
        say(("failed", traceback.format_exc(limit=3)))
        return
    os._exit(0)  # everything is written and said: no freeing of what it held


if __name__ == "__main__":
    main()
