"""What a build holds while it runs (`BuildState`: the attributes `Builder` sets, and
the checksums, word counts and progress shared by its steps)."""

from __future__ import annotations

from collections import Counter
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

from paperterm.index.search.engine_files import EngineFiles
from paperterm.index.search.generation_files import checked_and_synced, files_by_inode
from paperterm.index.search.generation_meta import Fingerprint, Meta, SourceFile
from paperterm.index.search.listener import Listener
from paperterm.index.search.rows_process import RowsProcess
from paperterm.index.search.source_records import SourceRecords
from paperterm.index.search.store import ENGINE_FOLDER, SOURCES_FOLDER, Store


class BuildState:
    """The state of one build, shared by its steps (`Builder` sets it)."""

    store: Store
    reuse: bool
    engine: EngineFiles
    files: list[SourceFile]
    discovery_problems: list[str]
    listener: Listener
    started: float
    tmp: Path | None
    published_partial: bool
    bytes_read: dict[str, int]
    words: Counter[str]
    part_postings: int
    part_sources: int
    total_bytes: int
    #: The content digest of each file read in stretches (its key's).
    file_digests: dict[str, str]
    _fingerprints: dict[tuple[object, ...], Fingerprint | None]
    #: The checksums of the files this build wrote and will not change (each source's
    #: record file, the papers and rows files), taken (and the file flushed to disk) by
    #: a thread as soon as one is written, while the rest is read or written, not by
    #: `Store.publish` after everything.
    _early_checks: dict[str, Future[list[int]]]
    _checker: ThreadPoolExecutor
    #: The checksums of the engine's parts' files taken as each part was written, by
    #: file (device, inode: tantivy's joined index links them).
    _part_checks: dict[tuple[int, int], Future[list[int]]]
    #: The generation the build takes from (`_reuse`).
    _base: tuple[Path, Meta] | None
    #: The process writing the rows file of a large build (`_list`).
    _rows: RowsProcess | None

    def _unchanged(self, path: Path, recorded: Fingerprint) -> Fingerprint | None:
        """`Fingerprint.unchanged`, once a file (its stretches share its fingerprint, and a
        touched file's digest reads it whole)."""
        key = (str(path), recorded.size, recorded.mtime_ns, recorded.ctime_ns, recorded.digest)
        if key not in self._fingerprints:
            self._fingerprints[key] = Fingerprint.unchanged(path, recorded)
        now = self._fingerprints[key]
        return None if now is None else replace(now)

    def _file_digest(self, source: SourceRecords) -> None:
        """A stretch read now has the digest of its whole file (`segments.stretches`)."""
        if source.file.span is not None and source.fingerprint is not None:
            source.fingerprint.digest = self.file_digests.get(source.file.file_key, "")

    def _check_early(self, source: SourceRecords) -> None:
        """Source `source`'s record file is written: its checksum is taken now."""
        self._check_written(f"{SOURCES_FOLDER}/{source.cache}")

    def _check_written(self, name: str) -> None:
        """File `name` of the generation is written and will not change: its checksum is
        taken now."""
        assert self.tmp is not None
        self._early_checks[name] = self._checker.submit(checked_and_synced, self.tmp / name)

    def _check_part(self, part: object) -> None:
        """A part's files are written (they do not change after): their checksums are
        taken now, not once the index is committed at the end of the build."""
        assert self.tmp is not None
        engine = self.tmp / ENGINE_FOLDER
        for name in self.engine.part_files(engine, part):
            info = (engine / name).stat()
            if (info.st_dev, info.st_ino) not in self._part_checks:
                future = self._checker.submit(checked_and_synced, engine / name)
                self._part_checks[(info.st_dev, info.st_ino)] = future

    def _check_engine_files(self) -> None:
        """The engine's files are written (committed): the checksums of those not taken as
        their part was written (`_check_part`) are taken now (a file hard-linked twice,
        read once)."""
        assert self.tmp is not None
        engine = self.tmp / ENGINE_FOLDER
        for inode, names in files_by_inode(engine).items():
            future = self._part_checks.get(inode)
            if future is None:
                future = self._checker.submit(checked_and_synced, engine / names[0])
            for name in names:
                self._early_checks[f"{ENGINE_FOLDER}/{name}"] = future

    def _early_checksums(self) -> dict[str, list[int]]:
        """The checksums taken early (one that failed is taken again by `Store.publish`)."""
        found = {}
        for name, future in self._early_checks.items():
            try:
                found[name] = future.result()
            except OSError:
                continue
        return found

    def _hold(self, source: SourceRecords) -> None:
        """Count a source's words in the vocabulary; its own counts are dropped unless a
        reader watches (a large corpus's counts, file by file, take much memory)."""
        self.words.update(source.words)
        if not self.watched:
            source.words = {}

    @property
    def watched(self) -> bool:
        """Whether a reader watches the build (it lists the papers read so far, and searches
        the parts written so far): then the build holds the papers it read."""
        return self.listener.papers is not None or self.listener.searchable is not None

    def report(self, sources: list[SourceRecords], done: int, expected: int) -> None:
        """Tell the listener how far reading is."""
        if self.listener.progress is not None:
            self.listener.progress(done, max(done, expected))
        if self.listener.papers is not None:
            self.listener.papers([r.paper for s in sources for r in s.records])

    def report_bytes(self, key: str, read: int) -> None:
        """Source `key` has been read up to byte `read`: tell the listener the total."""
        self.bytes_read[key] = read
        if self.listener.read_bytes is not None:
            done = sum(self.bytes_read.values())
            self.listener.read_bytes(done, max(done, self.total_bytes))


def checksum_done(checksum: list[int]) -> Future[list[int]]:
    """A checksum known already, as the checker's futures give theirs."""
    future: Future[list[int]] = Future()
    future.set_result(list(checksum))
    return future
