"""Reading, preparing and indexing source files in worker processes, one per core.

Whoosh is pure Python, so one process indexes on one core; a 2-core machine builds twice as
fast with two. The new and changed files of a build are split into as many runs of
consecutive files as there are workers, balanced by size; each worker prepares its files in
order, record by record (`source_records.prepare_source`, which keeps each file's records in
the build's `sources/`), and writes the engine's parts of them as it goes (`PartFeed`),
closing a part at the end of a file once it is big enough (its first part sooner, so that a
first build is searchable early on). The main process reads each file's record file header
(its merge keys) as it is announced, tells the listener how far reading is, and publishes an
index of the parts written so far. Parts are written from records as prepared, before
duplicates across files are merged: the build keeps those whose papers did not change in
the merge (most of them) and writes the others again (`build.Builder._parts`).

Workers are new Python processes (a reader's threads make forking unsafe) and end by
themselves when the process that started them is gone.
"""

from __future__ import annotations

import os
import pickle
import selectors
import struct
import subprocess
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from paperterm.index.papers import Paper
from paperterm.index.search.records import no_collection
from paperterm.index.search.source_records import (
    SourceRecords,
    iter_records,
    prepare_source,
    read_header,
)
from paperterm.index.search.store import ENGINE_FOLDER, ENGINES, SOURCES_FOLDER, SourceFile
from paperterm.index.search.whoosh_index import part_digest

#: Seconds between looks at whether the build was cancelled or a worker died.
_POLL = 0.2
_FRAME = struct.Struct("<I")
#: What a worker says: ("read", key, bytes so far), ("source", key, bytes),
#: ("part", keys, part, digest), ("done",), ("failed", traceback).
_Message = tuple[Any, ...]


def worker_count(files: int) -> int:
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, files))


def split_runs(sizes: Sequence[int], count: int) -> list[range]:
    """Consecutive runs of items, `count` of them at most, of about equal total size."""
    total = sum(sizes) or 1
    runs: list[range] = []
    start = 0
    done = 0
    for index, size in enumerate(sizes):
        done += size
        if done * count >= total * (len(runs) + 1) and len(runs) < count - 1:
            runs.append(range(start, index + 1))
            start = index + 1
    if start < len(sizes):
        runs.append(range(start, len(sizes)))
    return runs


class WorkerPool:
    """Worker processes preparing some sources (their files `sizes` bytes), one run of
    consecutive files each. `part_sizes`: a worker's first part closes after this many
    papers, the others after this many postings."""

    def __init__(
        self,
        engine: str,
        tmp: Path,
        fresh: list[SourceRecords],
        sizes: list[int],
        part_sizes: tuple[int, int],
        *,
        keep: bool = False,
    ) -> None:
        """`keep`: each source's records are read back into it (someone lists them)."""
        self.engine, self.tmp, self.fresh, self.keep = engine, tmp, fresh, keep
        self.runs = split_runs(sizes, worker_count(len(fresh)))
        self.part_sizes = part_sizes
        self.workers: list[_Worker] = []

    def start(self) -> None:
        """Start the workers (once); they take ~0.3 s to be at work."""
        if not self.workers:
            self.workers = [
                _Worker(self.engine, [self.fresh[i].file for i in run], self.tmp, self.part_sizes)
                for run in self.runs
            ]

    def run(
        self,
        on_source: Callable[[SourceRecords, int], None],
        on_part: Callable[[object, list[str], str], None],
        check: Callable[[], None],
        on_bytes: Callable[[str, int], None],
    ) -> None:
        """Until every worker is done: as each source is prepared, its record file's header
        (and, with `keep`, its records) are read into it and `on_source(source, bytes)` is
        called; as each part is written, `on_part(part, source keys, digest)`; as a file is
        read, `on_bytes(source key, bytes read)`. `check` raises to stop."""
        self.start()
        by_key = {source.file.key: source for source in self.fresh}
        while any(not worker.done for worker in self.workers):
            check()
            for message in _messages(self.workers):
                kind = message[0]
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
                elif kind == "part":
                    _, keys, part, digest = message
                    on_part(part, keys, digest)
                else:
                    raise OSError(f"a build worker failed: {message[1]}")

    def stop(self) -> None:
        for worker in self.workers:
            worker.stop()


class _Worker:
    """A worker process (`python -m paperterm.index.search.build_workers`): its task goes
    to its stdin, its messages come back on its stdout, each a length and a pickle.
    `multiprocessing` is not used: in the reader, Textual's stand-in for `sys.stderr` has
    no file descriptor, which makes its resource tracker fail to start."""

    def __init__(
        self, engine: str, files: list[SourceFile], tmp: Path, sizes: tuple[int, int]
    ) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "paperterm.index.search.build_workers"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdout = self.process.stdout
        os.set_blocking(self.stdout.fileno(), False)
        self.buffer = bytearray()
        self.done = False
        self.said_done = False
        task = pickle.dumps((engine, files, str(tmp), os.getpid(), sizes))
        try:
            self.process.stdin.write(task)
            self.process.stdin.close()
        except OSError:  # it died at once: its missing "done" says so
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
        while len(self.buffer) >= _FRAME.size:
            (size,) = _FRAME.unpack_from(self.buffer)
            if len(self.buffer) < _FRAME.size + size:
                break
            message = pickle.loads(self.buffer[_FRAME.size : _FRAME.size + size])
            del self.buffer[: _FRAME.size + size]
            if message[0] == "done":
                self.said_done = True
            else:
                messages.append(message)
        return messages

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self.stdout.close()


def _messages(workers: list[_Worker]) -> list[_Message]:
    """What the workers said, waiting up to `_POLL` seconds for something."""
    with selectors.DefaultSelector() as selector:
        for worker in workers:
            if not worker.done:
                selector.register(worker.stdout, selectors.EVENT_READ, worker)
        ready = selector.select(_POLL)
    messages: list[_Message] = []
    for key, _ in ready:
        messages += key.data.read()
    return messages


def work(
    engine_name: str,
    files: list[SourceFile],
    tmp: str,
    parent: int,
    sizes: tuple[int, int],
    say: Callable[[_Message], None],
) -> None:
    """A worker's life: prepare `files` in order and write parts of their papers (the first
    closed after `sizes[0]` papers, the others after `sizes[1]` postings)."""
    engine = ENGINES[engine_name]()
    folder = Path(tmp)
    parts = PartFeed(engine, folder / ENGINE_FOLDER, sizes)
    with no_collection():
        for file in files:
            if os.getppid() != parent:
                return  # the build was killed: nobody will read what we write

            def reading(records: int, size: int, key: str = file.key) -> None:
                say(("read", key, size))

            source = prepare_source(
                file, folder / SOURCES_FOLDER, on_record=parts.add, on_bytes=reading
            )
            say(("source", file.key, source.size))
            written = parts.end_source(file.key, source.digest)
            if written is not None:
                say(("part", written[1], written[0], written[2]))
        written = parts.end()
        if written is not None:
            say(("part", written[1], written[0], written[2]))


#: Papers given to a part's writer together. Giving each as it is prepared cost 15% more
#: CPU (tantivy's indexing thread and the preparing interleaved: 7.2 s against 6.1 for
#: 10,000 arXiv rows); a batch is held for a moment only.
BATCH = 2000


class PartFeed:
    """Parts written as papers are prepared: a part is closed at the end of a source, once
    it holds `sizes[0]` papers (the first part; 0: no such limit) or `sizes[1]` postings.
    A part's writer starts with its first paper."""

    def __init__(self, engine: Any, folder: Path, sizes: tuple[int, int]) -> None:
        self.engine, self.folder = engine, folder
        self.first_papers, self.postings = sizes
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
        if full or writer.postings >= self.postings:
            self.first_papers = 0
            return self.end()
        return None

    def end(self) -> tuple[object, list[str], str] | None:
        """The last part (None without papers): (part, its sources' keys, its digest)."""
        written = None
        self._flush()
        if self.writer is not None and len(self.writer):
            written = (self.writer.finish(), self.keys, part_digest(self.digests))
        self.writer, self.keys, self.digests = None, [], []
        return written


def main() -> None:
    """The worker process: its task from stdin, its messages to stdout (the real one; what
    else writes to stdout goes nowhere)."""
    out = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)

    def say(message: _Message) -> None:
        data = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
        out.write(_FRAME.pack(len(data)) + data)
        out.flush()

    try:
        engine, files, tmp, parent, sizes = pickle.load(sys.stdin.buffer)
        work(engine, files, tmp, parent, sizes, say=say)
        say(("done",))
    except BaseException:
        say(("failed", traceback.format_exc(limit=3)))


if __name__ == "__main__":
    main()
