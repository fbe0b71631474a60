"""Reading and preparing a build's new and changed sources, here or in worker
processes, and showing what is read so far to a reader that watches."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from paperterm.index.search.build_parts import (
    FIRST_PART_PAPERS,
    Candidate,
    postings_per_part,
)
from paperterm.index.search.build_state import BuildState
from paperterm.index.search.generation_meta import Meta, SourceFile
from paperterm.index.search.open_index import OpenIndex
from paperterm.index.search.source_records import (
    SourceRecords,
    prepare_source,
)
from paperterm.index.search.store import ENGINE_FOLDER, SOURCES_FOLDER
from paperterm.index.sources.prepared import Prepared

#: Below this many bytes to read, a build does not start worker processes (starting one
#: costs about as much as preparing that many bytes of abstracts).
PARALLEL_BYTES = 1_500_000


class Preparing(BuildState):
    """A build's steps that read and prepare the new and changed sources."""

    def _prepare(
        self, sources: list[SourceRecords], fresh: list[SourceRecords], read: Callable[[], None]
    ) -> list[Candidate]:
        """Read and prepare the new and changed sources, writing parts of them as they are
        read (in worker processes when there is enough to read); the parts written. With
        workers, `read` is called once they have read every source, while they write their
        last parts."""
        assert self.tmp is not None
        sizes = [_size(source.file) for source in fresh]
        self.part_postings = postings_per_part(self.engine.bounded_writer, sum(sizes))
        if len(fresh) > 1 and sum(sizes) >= PARALLEL_BYTES:
            return self._prepare_in_workers(sources, fresh, sizes, read)
        from paperterm.index.search.build_workers import PartFeed

        done = 0
        self.total_bytes = sum(sizes)
        sizes_here = (0, self.part_postings, self.part_sources)
        parts = PartFeed(self.engine, self.tmp / ENGINE_FOLDER, sizes_here)
        candidates: list[Candidate] = []
        for number, source in enumerate(fresh):
            self.listener.check()

            def reading(records: int, read: int, key: str = source.file.key) -> None:
                self.listener.check()
                self.report_bytes(key, read)

            prepared = prepare_source(
                source.file,
                self.tmp / SOURCES_FOLDER,
                self._list_early if number == 0 and self.watched else None,
                on_record=parts.add,
                on_bytes=reading,
                keep=self.watched,
            )
            _adopt(source, prepared)
            self._file_digest(source)
            self._hold(source)
            self._check_early(source)
            written = parts.end_source(source.file.key, source.digest)
            if written is not None:
                candidates.append(Candidate(*written, None))
                self._check_part(written[0])
            done += source.count
            self.report_bytes(source.file.key, prepared.size)
            self.report(sources, done, done)
        written = parts.end()
        if written is not None:
            candidates.append(Candidate(*written, None))
            self._check_part(written[0])
        return candidates

    def _prepare_in_workers(
        self,
        sources: list[SourceRecords],
        fresh: list[SourceRecords],
        sizes: list[int],
        read_all: Callable[[], None],
    ) -> list[Candidate]:
        """Worker processes read and index the files. While a reader watches, the first file
        is read and indexed here (its first papers on screen at once, and searched soon
        after), and the workers start once its first papers are shown."""
        from paperterm.index.search.build_workers import PartFeed, WorkerPool

        assert self.tmp is not None
        self.total_bytes = sum(sizes)
        total_bytes = self.total_bytes or 1
        read = {"bytes": 0, "papers": 0}
        candidates: list[Candidate] = []

        def expected() -> int:
            return max(read["papers"], read["papers"] * total_bytes // max(1, read["bytes"]))

        def on_source(source: SourceRecords, size: int) -> None:
            self._check_early(source)
            self._file_digest(source)
            read["bytes"] += size
            read["papers"] += source.count
            self._hold(source)
            self.report_bytes(source.file.key, size)
            self.report(sources, read["papers"], expected())

        def on_part(part: object, keys: list[str], digest: str) -> None:
            candidates.append(Candidate(part, keys, digest, None))
            self._check_part(part)
            self._publish_partial(sources, candidates, expected())

        def early(records: list[Prepared]) -> None:
            self._list_early(records)
            pool.start()

        part_sizes = (FIRST_PART_PAPERS, self.part_postings, self.part_sources)
        here = fresh[:1] if self.watched else []  # nobody watching (`paperterm index`): all there
        pool = WorkerPool(
            self.engine.name,
            self.tmp,
            fresh[len(here) :],
            sizes[len(here) :],
            part_sizes,
            keep=self.watched,
        )
        try:
            for first in here:
                sizes_here = (0, self.part_postings, self.part_sources)
                parts = PartFeed(self.engine, self.tmp / ENGINE_FOLDER, sizes_here)

                def reading(records: int, size: int, key: str = first.file.key) -> None:
                    self.report_bytes(key, size)

                prepared = prepare_source(
                    first.file,
                    self.tmp / SOURCES_FOLDER,
                    early,
                    on_record=parts.add,
                    on_bytes=reading,
                    keep=True,
                )
                _adopt(first, prepared)
                on_source(first, sizes[0])
                # its part too, so that it is searched from the start
                written = parts.end_source(first.file.key, first.digest) or parts.end()
                if written is not None:
                    on_part(*written)
            pool.run(on_source, on_part, self.listener.check, self.report_bytes, read_all)
        finally:
            pool.stop()
        return candidates

    def _list_early(self, records: list[Prepared]) -> None:
        """Show the first papers of the first file read while a reader watches."""
        if self.listener.papers is not None:
            self.listener.papers([record.paper for record in records])

    def _publish_partial(
        self, sources: list[SourceRecords], candidates: list[Candidate], expected: int
    ) -> None:
        """Give the listener an index of the parts written so far, in corpus order."""
        if self.listener.searchable is None:
            return
        from paperterm.index.search.vocabulary import Vocabulary

        assert self.tmp is not None
        position = {source.file.key: index for index, source in enumerate(sources)}
        ordered = sorted(candidates, key=lambda c: position[c.sources[0]])
        engine_folder = self.tmp / ENGINE_FOLDER
        self.engine.commit(engine_folder, [candidate.part for candidate in ordered])
        covered = [sources[position[key]] for c in ordered for key in c.sources]
        papers = [record.paper for source in covered for record in source.records]
        words: Counter[str] = Counter()
        for source in covered:
            words.update(source.words)
        meta = Meta.transient(self.engine.name, papers)
        ix = self.engine.open(engine_folder)
        self.published_partial = True
        opened = OpenIndex(ix, papers, meta, str(self.tmp), Vocabulary(dict(words)), expected)
        self.listener.searchable(opened)


def _adopt(source: SourceRecords, prepared: SourceRecords) -> None:
    """What `prepare_source` found of a source, into the build's record of it."""
    source.fingerprint, source.size = prepared.fingerprint, prepared.size
    source.count, source.keys, source.titles = prepared.count, prepared.keys, prepared.titles
    source.digest, source.chars = prepared.digest, prepared.chars
    source.records, source.problems = prepared.records, prepared.problems
    source.words = prepared.words
    source.format, source.fields = prepared.format, prepared.fields


def _size(file: SourceFile) -> int:
    if file.span is not None:
        return file.span[1] - file.span[0]
    try:
        return file.path.stat().st_size
    except OSError:
        return 0
