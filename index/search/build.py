"""Building a generation: only what changed is read and indexed again.

A build (`Builder.run`, with the set's build lock held):

1. Each source file whose fingerprint (or, when its stamp moved, its content) is the one the
   previous generation recorded keeps that generation's prepared records (`sources/*.bin`,
   hard-linked). The others are read record by record and prepared
   (`source_records.prepare_source`): in worker processes when there is enough of them
   (`build_workers.py`). A large file (JSON Lines, a text list, BibTeX, a JSON array) is
   read as stretches, each a source (`segments.py`), so that the workers share it. Papers
   flow from the parser to the source's record file and to the engine's part being written
   (`build_workers.PartFeed`), so most of the indexing happens while reading, and nothing
   holds a file's papers: a build holds each record's merge keys and title, and memory
   follows the engine's writer, not the corpus.
2. Duplicates are merged on those keys, in corpus order (`merged.MergedCorpus`): the few
   records a merge changes are read and held; derived titles are made distinct.
3. The engine's index is made of parts, each the papers of a run of consecutive source
   files. A part already written (by the previous generation, or while reading) is kept
   when its run is still consecutive and its papers' documents are the ones it holds (equal
   digests, from each source's digest); the rest of the papers are written in new parts,
   read again from the record files. So adding a source writes that source's part only, a
   paper merged with a record of another source is written again, and an index is the same
   whatever its history (no deleted documents that would still count in the statistics
   scores are made of).
4. The papers and rows files, written from the record files a source at a time (derived
   titles made distinct: a paper's document has the headline its own abstract gave; the
   rows file of a large build by a process of its own meanwhile, `rows_process.py`), the
   vocabulary, meta.json with every file's checksum (a record file's taken by a thread as
   soon as it is written, while the rest is read), and the switch of CURRENT
   (`Store.publish`). With worker processes, the merge and these files are written as soon
   as the workers have read every source, while they write their last parts (`_list`), and
   only the engine's index, meta.json and the switch are left for after them.

While the first build runs, `Listener.papers` gets the papers read so far (the reader lists
them: then the build holds them too) and `Listener.searchable` an index of the parts written
so far (the reader searches it, saying how far the build is); `Listener.progress` and
`Listener.read_bytes` say how far reading is, in papers and in bytes.
"""

from __future__ import annotations

import os
import shutil
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from paperterm.index.problems import Problem
from paperterm.index.search import store as versions
from paperterm.index.search.donor import find_donor
from paperterm.index.search.generation_files import checked_and_synced, files_by_inode
from paperterm.index.search.listener import Listener
from paperterm.index.search.merged import MergedCorpus
from paperterm.index.search.open_index import OpenIndex
from paperterm.index.search.records import (
    PaperList,
    RecordFileError,
    no_collection,
    write_papers,
    write_rows,
)
from paperterm.index.search.rows_process import RowsProcess, rows_apart
from paperterm.index.search.segments import stretches
from paperterm.index.search.source_records import (
    SourceRecords,
    cache_name,
    iter_records,
    prepare_source,
    read_header,
)
from paperterm.index.search.store import (
    ENGINE_FOLDER,
    PAPERS_FILE,
    ROWS_FILE,
    SOURCES_FOLDER,
    VOCABULARY_FILE,
    Fingerprint,
    Meta,
    Part,
    SourceEntry,
    SourceFile,
    Span,
    Store,
)
from paperterm.index.search.whoosh_index import part_digest
from paperterm.index.sources.loader import Prepared
from paperterm.index.sources.stretches import NOTHING

if TYPE_CHECKING:
    from paperterm.index.search.vocabulary import Vocabulary

#: A part is closed at the end of the file that takes its postings past this (about 13,000
#: abstracts: a segment of ~15 MB, built in ~110 MB of memory).
PART_POSTINGS = 1_500_000
#: The least a part holds in a build with a writer that holds its part in memory (Whoosh):
#: a smaller build's parts are smaller, so that its workers hold less.
SMALL_PART_POSTINGS = 750_000
#: A worker's first part is closed sooner, so that a first build is searchable early on.
FIRST_PART_PAPERS = 2_000
#: More parts than this, and the smallest neighbours are written again as one: each part
#: costs every query a look-up per term.
MAX_PARTS = 12
#: A part may hold this many sources whatever their number (`part_sources`).
MIN_PART_SOURCES = 64
#: Source bytes per posting, roughly (text ~10, JSON Lines ~17): a build's estimate of the
#: postings it will write, from the bytes it reads.
BYTES_PER_POSTING = 12
#: Below this many bytes to read, a build does not start worker processes (starting one
#: costs ~0.3 s; preparing 1 MB of abstracts ~0.5 s).
PARALLEL_BYTES = 1_500_000


@dataclass(slots=True)
class _Candidate:
    """A part already written, which the new index may keep."""

    part: object
    sources: list[str]
    digest: str
    base: Path | None  # the generation folder it is in (None: this build's)


@dataclass(slots=True)
class _Written:
    """A part of the new index: the sources it holds (positions), the engine's part, the
    digest of its documents and how many papers it has."""

    spots: list[int]
    part: object
    digest: str
    papers: int


@dataclass(slots=True)
class _Listed:
    """What a build derives from its sources' records alone, once all are read
    (`Builder._list`): their merge, and the papers (`count` of them, in `collections`),
    rows and vocabulary files written from it."""

    corpus: MergedCorpus
    count: int
    collections: list[str]
    vocabulary: Vocabulary


class Builder:
    """One build of one set's index (run it with the set's build lock held)."""

    def __init__(
        self,
        store: Store,
        files: Sequence[SourceFile],
        problems: Sequence[Problem],
        listener: Listener | None = None,
        *,
        reuse: bool = True,
    ) -> None:
        """`reuse`: keep what the live generation has that did not change (False: a rebuild
        reads and indexes everything again; the live generation stays live until then)."""
        self.store = store
        self.reuse = reuse
        self.engine = store.engine
        self.files = list(files)
        self.discovery_problems = [str(problem) for problem in problems]
        self.listener = listener or Listener()
        self.started = time.perf_counter()
        self.tmp: Path | None = None
        self.published_partial = False
        self.bytes_read: dict[str, int] = {}
        self.words: Counter[str] = Counter()
        self.part_postings = PART_POSTINGS
        self.part_sources = part_sources(len(self.files))
        self.total_bytes = 0
        #: The content digest of each file read in stretches (its key's).
        self.file_digests: dict[str, str] = {}
        self._fingerprints: dict[tuple[object, ...], Fingerprint | None] = {}
        #: The checksums of the files this build wrote and will not change (each source's
        #: record file, the papers and rows files), taken (and the file flushed to disk) by
        #: a thread as soon as one is written, while the rest is read or written, not by
        #: `Store.publish` after everything (at 500,000: ~2 GB, seconds the build did alone).
        self._early_checks: dict[str, Future[list[int]]] = {}
        self._checker = ThreadPoolExecutor(1, thread_name_prefix="paperterm-checksums")
        #: The checksums of the engine's parts' files taken as each part was written, by
        #: file (device, inode: tantivy's joined index links them).
        self._part_checks: dict[tuple[int, int], Future[list[int]]] = {}
        #: The generation the build takes from (`_reuse`).
        self._base: tuple[Path, Meta] | None = None
        #: The process writing the rows file of a large build (`_list`).
        self._rows: RowsProcess | None = None

    def run(self) -> OpenIndex:
        base = self.store.read_meta() if self.reuse else None
        donor = None
        if self.reuse and base is None:
            donor = find_donor(
                self.store, {(str(file.path), file.collection) for file in self.files}
            )
            base = None if donor is None else (donor.folder, donor.meta)
        self.tmp = self.store.new_build_folder()
        try:
            with no_collection():
                opened = self._build(base)
        except BaseException:
            shutil.rmtree(self.tmp, ignore_errors=True)
            raise
        finally:
            self._checker.shutdown(cancel_futures=True)
            if donor is not None:
                donor.lock.release()
        return opened

    # --- the steps -----------------------------------------------------------------------

    def _build(self, base: tuple[Path, Meta] | None) -> OpenIndex:
        assert self.tmp is not None
        sources = [SourceRecords(file, cache=cache_name(file)) for file in self._stretched(base)]
        self._base = base
        candidates = self._reuse(sources, base)
        fresh = [source for source in sources if source.fresh]
        listed: list[_Listed] = []

        def read() -> None:
            listed.append(self._list(sources, fresh))

        try:
            candidates += self._prepare(sources, fresh, read)
            if not listed:
                read()
            parts = self._parts(sources, listed[0].corpus, candidates)
            self.listener.check()
            return self._finish(sources, listed[0], parts)
        finally:
            if self._rows is not None:
                self._rows.stop()

    def _list(self, sources: list[SourceRecords], fresh: list[SourceRecords]) -> _Listed:
        """Every source is read: merge their records and write what derives from them
        alone, the papers and rows files and the vocabulary. With worker processes this
        runs as soon as they have read their last file, while they write their last parts
        (at 50,000 abstracts, ~1.3 s the build's process did alone after them, a core
        idle)."""
        from paperterm.index.search.vocabulary import Vocabulary

        assert self.tmp is not None
        _join_problems(sources)
        self.listener.check()
        self._rows = _rows_process(sum(source.count for source in fresh))
        corpus = MergedCorpus(self.tmp / SOURCES_FOLDER, sources)
        self.listener.check()
        self.words.subtract(corpus.absorbed_words)
        count, collections = self._write_papers(sources, corpus)
        vocabulary = Vocabulary(dict(+self.words))
        (self.tmp / VOCABULARY_FILE).write_text(vocabulary.dumps(), encoding="utf-8")
        return _Listed(corpus, count, collections, vocabulary)

    def _stretched(self, base: tuple[Path, Meta] | None) -> list[SourceFile]:
        """The build's sources: the files, a large file as its stretches
        (`segments.py`): those recorded when it is unchanged, else new ones."""
        recorded: dict[tuple[str, str | None], list[SourceEntry]] = {}
        for entry in base[1].sources if base is not None else []:
            recorded.setdefault((entry.path, entry.collection), []).append(entry)
        files: list[SourceFile] = []
        for file in self.files:
            entries = recorded.get((str(file.path), file.collection), [])
            entries = [entry for entry in entries if entry.file_key == entries[0].file_key]
            now = self._unchanged(file.path, entries[0].fingerprint) if entries else None
            if now is not None:
                spans = [entry.span for entry in entries]
                if None not in spans:
                    files += [replace(file, span=_span(span)) for span in spans if span]
                    self.file_digests[file.key] = now.digest
                    continue
                if len(entries) == 1:
                    files.append(file)
                    continue
            found = stretches(file.path, file.read_as)
            if found is None:
                files.append(file)
                continue
            cut, self.file_digests[file.key] = found
            files += [replace(file, span=span) for span in cut]
        return files

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
        assert self.tmp is not None
        name = f"{SOURCES_FOLDER}/{source.cache}"
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
        reader watches (at 500,000 papers, 50 files' counts took 150 MB)."""
        self.words.update(source.words)
        if not self.watched:
            source.words = {}

    @property
    def watched(self) -> bool:
        """Whether a reader watches the build (it lists the papers read so far, and searches
        the parts written so far): then the build holds the papers it read."""
        return self.listener.papers is not None or self.listener.searchable is not None

    def _reuse(
        self, sources: list[SourceRecords], base: tuple[Path, Meta] | None
    ) -> list[_Candidate]:
        """Keep the previous generation's records of every source that did not change; its
        parts are candidates for the new index. The generation may be another set's (a
        first build takes from a set with some of the same files): files are matched by
        path and collection, and its parts' sources named as this set names them."""
        if base is None:
            return []
        folder, meta = base
        entries = {_recorded_place(entry): entry for entry in meta.sources}
        renamed: dict[str, str] = {}  # the base's key of a source -> this set's
        unchanged: list[tuple[SourceRecords, SourceEntry, Fingerprint]] = []
        for source in sources:
            entry = entries.get(_place(source.file))
            if entry is None:
                continue
            renamed[entry.key] = source.file.key
            now = self._unchanged(source.file.path, entry.fingerprint)
            if now is not None:
                unchanged.append((source, entry, now))
        names = [f"{SOURCES_FOLDER}/{entry.cache}" for _, entry, _ in unchanged]
        damaged = self.store.failing(folder, meta, names)  # one pass: verified.json once
        for (source, entry, now), name in zip(unchanged, names, strict=True):
            if name in damaged:
                continue  # damaged: read the source again
            assert self.tmp is not None
            try:
                header, _ = read_header(folder / name, source.file)
                source.take_header(header)
                if self.watched:
                    source.records = list(iter_records(folder / name))
                os.link(folder / name, self.tmp / SOURCES_FOLDER / source.cache)
                # Checked just now, and durable since that generation was published.
                self._early_checks[f"{SOURCES_FOLDER}/{source.cache}"] = _done(meta.files[name])
            except (OSError, RecordFileError, KeyError, TypeError, ValueError):
                source.records, source.keys, source.titles, source.count = [], [], [], 0
                continue
            source.fingerprint = now
            source.problems = list(entry.problems)
            source.fresh = False
            self._hold(source)
        try:
            existing = self.engine.parts(folder / ENGINE_FOLDER)
        except Exception:  # a damaged table of contents: write every part again
            return []
        kept: list[tuple[Part, list[str], list[str]]] = []
        for part in meta.parts:
            prefix = f"{ENGINE_FOLDER}/{part.id}."
            files = [name for name in meta.files if name.startswith(prefix)]
            keys = [renamed.get(key) for key in part.sources]
            if None in keys or part.id not in existing or not files:
                continue
            kept.append((part, files, [key for key in keys if key is not None]))
        damaged = self.store.failing(folder, meta, [name for _, files, _ in kept for name in files])
        return [
            _Candidate(existing[part.id], keys, part.digest, folder)
            for part, files, keys in kept
            if damaged.keys().isdisjoint(files)
        ]

    def _prepare(
        self, sources: list[SourceRecords], fresh: list[SourceRecords], read: Callable[[], None]
    ) -> list[_Candidate]:
        """Read and prepare the new and changed sources, writing parts of them as they are
        read (in worker processes when there is enough to read); the parts written. With
        workers, `read` is called once they have read every source, while they write their
        last parts."""
        assert self.tmp is not None
        sizes = [_size(source.file) for source in fresh]
        self.part_postings = _part_postings(self.engine.bounded_writer, sum(sizes))
        if len(fresh) > 1 and sum(sizes) >= PARALLEL_BYTES:
            return self._prepare_in_workers(sources, fresh, sizes, read)
        from paperterm.index.search.build_workers import PartFeed

        done = 0
        self.total_bytes = sum(sizes)
        sizes_here = (0, self.part_postings, self.part_sources)
        parts = PartFeed(self.engine, self.tmp / ENGINE_FOLDER, sizes_here)
        candidates: list[_Candidate] = []
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
                candidates.append(_Candidate(*written, None))
                self._check_part(written[0])
            done += source.count
            self.report_bytes(source.file.key, prepared.size)
            self.report(sources, done, done)
        written = parts.end()
        if written is not None:
            candidates.append(_Candidate(*written, None))
            self._check_part(written[0])
        return candidates

    def _prepare_in_workers(
        self,
        sources: list[SourceRecords],
        fresh: list[SourceRecords],
        sizes: list[int],
        read_all: Callable[[], None],
    ) -> list[_Candidate]:
        """Worker processes read and index the files. While a reader watches, the first file
        is read and indexed here (its first papers on screen at once, and searched soon
        after), and the workers start once its first papers are shown."""
        from paperterm.index.search.build_workers import PartFeed, WorkerPool

        assert self.tmp is not None
        self.total_bytes = sum(sizes)
        total_bytes = self.total_bytes or 1
        read = {"bytes": 0, "papers": 0}
        candidates: list[_Candidate] = []

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
            candidates.append(_Candidate(part, keys, digest, None))
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
        self, sources: list[SourceRecords], candidates: list[_Candidate], expected: int
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

    def _parts(
        self, sources: list[SourceRecords], corpus: MergedCorpus, candidates: list[_Candidate]
    ) -> list[_Written]:
        """The parts of the new index, in corpus order."""
        assert self.tmp is not None
        position = {source.file.key: index for index, source in enumerate(sources)}
        covered: dict[int, tuple[list[int], _Candidate]] = {}
        taken: set[int] = set()
        for candidate in candidates:
            spots = [position.get(key, -1) for key in candidate.sources]
            if not spots or -1 in spots or spots != list(range(spots[0], spots[0] + len(spots))):
                continue
            if taken.intersection(spots):
                continue
            if not sum(corpus.counts[spot] for spot in spots):
                continue
            if part_digest(corpus.digest(spot) for spot in spots) != candidate.digest:
                continue
            covered[spots[0]] = (spots, candidate)
            taken.update(spots)
        runs: list[tuple[list[int], _Candidate | None]] = []
        index = 0
        while index < len(sources):
            if index in covered:
                spots, kept = covered[index]
                runs.append((spots, kept))
                index = spots[-1] + 1
                continue
            spots = []
            while index < len(sources) and index not in covered:
                spots.append(index)
                index += 1
            cut = _cut(spots, sources, self.part_postings, self.part_sources)
            runs += [(run, None) for run in cut]
        runs = _compact(runs, corpus.counts)
        parts: list[_Written] = []
        engine_folder = self.tmp / ENGINE_FOLDER
        for spots, reused in runs:
            papers = sum(corpus.counts[spot] for spot in spots)
            if not papers:
                continue
            self.listener.check()
            if reused is not None:
                if reused.base is not None:
                    base = reused.base / ENGINE_FOLDER
                    self.engine.keep_part(base, engine_folder, reused.part)
                parts.append(_Written(spots, reused.part, reused.digest, papers))
                continue
            writer = self.engine.part_writer(engine_folder)
            for paper in corpus.spans(spots):
                writer.add(paper)
            digest = part_digest(corpus.digest(spot) for spot in spots)
            parts.append(_Written(spots, writer.finish(), digest, papers))
        return parts

    def _kept_papers(
        self, sources: list[SourceRecords], corpus: MergedCorpus
    ) -> tuple[int, PaperList | None]:
        """(n, the papers of the generation taken from) when they are this build's first
        papers, those of its first n sources; else (0, None). Its papers and rows files
        then begin this build's, copied as they are, not read and written again a record
        at a time (adding a 2,600-paper source to 50,000: ~1 s of the build's process).

        They are when that generation was built of this build's first sources, in the same
        order, and of nothing else (its papers file holds what a build of those sources
        alone writes), each kept here (`_reuse`: its record file is the one that generation
        read, checked against the checksum it recorded), and nothing after them changes how
        their records merge or are listed (`MergedCorpus.alone`). The papers and rows files
        are checked against that generation's checksums before they are copied (a damaged
        one is not copied: the papers are written from the record files)."""
        if self._base is None:
            return 0, None
        folder, meta = self._base
        spots = len(meta.sources)
        if not spots or spots > len(sources):
            return 0, None
        for entry, source in zip(meta.sources, sources[:spots], strict=True):
            same = _recorded_place(entry) == _place(source.file)
            if source.fresh or not same or entry.records != source.count:
                return 0, None
        if not corpus.alone(spots):
            return 0, None
        papers = self.store.open_rows(folder, meta)
        if papers is None:
            return 0, None
        if len(papers) != sum(corpus.counts[:spots]):
            papers.close()
            return 0, None
        return spots, papers

    def _write_papers(
        self, sources: list[SourceRecords], corpus: MergedCorpus
    ) -> tuple[int, list[str]]:
        """The papers and rows files (the rows file by `self._rows` when there is one): how
        many papers, and their collections."""
        assert self.tmp is not None
        tmp = self.tmp
        rows_writer = self._rows
        spots, kept = self._kept_papers(sources, corpus)
        try:
            if rows_writer is not None:
                kept_rows = None if kept is None else kept.rows_file.path
                rows_writer.write(corpus.listing(), spots, tmp / ROWS_FILE, kept_rows)
            count, collections = write_papers(
                tmp,
                corpus.paper_tuples(spots),
                PAPERS_FILE,
                None if rows_writer else ROWS_FILE,
                kept,
            )
            if rows_writer is not None:
                collections = self._rows_written(rows_writer, count, corpus, spots, kept)
        finally:
            if kept is not None:
                kept.close()
        for name in (PAPERS_FILE, ROWS_FILE):  # checksummed while the vocabulary is written
            self._early_checks[name] = self._checker.submit(checked_and_synced, tmp / name)
        return count, collections

    def _finish(
        self, sources: list[SourceRecords], listed: _Listed, parts: list[_Written]
    ) -> OpenIndex:
        """The engine's index of `parts`, meta.json, and the switch to the new generation."""
        assert self.tmp is not None
        tmp = self.tmp
        self.engine.commit(tmp / ENGINE_FOLDER, [written.part for written in parts])
        self._check_engine_files()
        keys = [source.file.key for source in sources]
        reports = listed.corpus.reports()
        meta = Meta(
            schema=versions.SCHEMA_VERSION,
            parser=versions.PARSER_VERSION,
            engine=self.engine.name,
            sources=[
                SourceEntry(
                    key=source.file.key,
                    path=str(source.file.path),
                    collection=source.file.collection,
                    fingerprint=source.fingerprint or Fingerprint(-1, -1, -1, -1),
                    cache=source.cache,
                    records=source.count,
                    problems=source.problems,
                    span=None if source.file.span is None else list(source.file.span),
                    format=source.format,
                    joins=report,
                )
                for source, report in zip(sources, reports, strict=True)
            ],
            parts=[
                Part(
                    id=self.engine.part_id(written.part),
                    sources=[keys[spot] for spot in written.spots],
                    papers=written.papers,
                    digest=written.digest,
                )
                for written in parts
            ],
            papers=listed.count,
            collections=listed.collections,
            built_at=time.time(),
            seconds=round(time.perf_counter() - self.started, 3),
            problems=[*self.discovery_problems, *(p for s in sources for p in s.problems)],
            files=self._early_checksums(),
        )
        final = self.store.publish(tmp, meta, keep_tmp=self.published_partial)
        rows = self.store.open_rows(final, meta)
        ix = None if rows is None else self.store.open_engine(final, meta)
        if rows is None or ix is None:
            raise OSError(f"{final}: the index just built cannot be read back")
        return OpenIndex(ix, rows, meta, str(final), listed.vocabulary)

    def _rows_written(
        self,
        rows: RowsProcess,
        count: int,
        corpus: MergedCorpus,
        spots: int,
        kept: PaperList | None,
    ) -> list[str]:
        """The papers' collections, once the rows file of `count` papers that `rows` writes
        is written; written here when that process failed."""
        assert self.tmp is not None
        done = rows.result()
        if done is not None and done[0] == count:
            return done[1]
        rows.stop()
        kept_rows = None if kept is None else kept.rows_file
        _, collections = write_rows(self.tmp / ROWS_FILE, corpus.paper_tuples(spots), kept_rows)
        return collections


def _done(checksum: list[int]) -> Future[list[int]]:
    """A checksum known already, as the checker's futures give theirs."""
    future: Future[list[int]] = Future()
    future.set_result(list(checksum))
    return future


def _rows_process(papers: int) -> RowsProcess | None:
    """A process to write the rows file of a build that lists many new papers, started now
    (`rows_process.py`)."""
    if not rows_apart(papers):
        return None
    try:
        return RowsProcess()
    except OSError:  # no process to be had: the build writes the file itself
        return None


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


def _span(span: Sequence[int] | None) -> Span | None:
    return None if span is None else (int(span[0]), int(span[1]), int(span[2]))


def _place(file: SourceFile) -> tuple[str, str | None, Span | None]:
    """What a generation's record of a source is matched by with a file of a build: its
    path, collection and stretch."""
    return str(file.path), file.collection, file.span


def _recorded_place(entry: SourceEntry) -> tuple[str, str | None, Span | None]:
    """`_place` of the file a generation's record of a source is of."""
    return entry.path, entry.collection, _span(entry.span)


def _join_problems(sources: list[SourceRecords]) -> None:
    """What a file read in stretches was found to have, as its reading whole says it: Latin-1
    at its first line that is not UTF-8 only (not at each stretch's), and "no papers found"
    only when no stretch has any paper or problem."""
    by_file: dict[str, list[SourceRecords]] = {}
    for source in sources:
        if source.file.span is not None:
            by_file.setdefault(source.file.file_key, []).append(source)
    for parts in by_file.values():
        path = str(parts[0].file.path)
        latin1 = ": not valid UTF-8; read as Latin-1"
        nothing = {str(Problem(path, 0, said)) for said in NOTHING}
        said_nothing = []
        warned = False
        for source in parts:
            kept = []
            for problem in source.problems:
                if problem.endswith(latin1):
                    if warned:
                        continue
                    warned = True
                if problem in nothing:
                    said_nothing.append(problem)
                else:
                    kept.append(problem)
            source.problems = kept
        if not any(source.count or source.problems for source in parts):
            parts[-1].problems = said_nothing[-1:]


def _part_postings(bounded_writer: bool, size: int) -> int:
    """How many postings a part holds before it is closed: with a writer that holds its
    part in memory, enough that the bytes to read make about `MAX_PARTS - 4` parts, from
    `SMALL_PART_POSTINGS` to `PART_POSTINGS` (each worker holds the part it writes); with an
    engine whose writer's memory is bounded, enough that the bytes to read make at most
    `MAX_PARTS` parts with room to spare (at 500,000 arXiv rows, parts of 13,000 papers
    made 40 parts, and joining them again to 12 took the build's process 70 s)."""
    if not bounded_writer:  # a share of the postings, in parts of SMALL_ to PART_POSTINGS
        share = size // BYTES_PER_POSTING // (MAX_PARTS - 4)
        return min(PART_POSTINGS, max(SMALL_PART_POSTINGS, share))
    return max(PART_POSTINGS, size // BYTES_PER_POSTING // (MAX_PARTS // 2))


def part_sources(count: int) -> int:
    """The most sources a part holds, in a build of `count` sources: a change to one source
    writes its part again, so with many small files a part holds a share of them, not all
    the papers `PART_POSTINGS` allows."""
    return max(MIN_PART_SOURCES, -(-count // (MAX_PARTS - 2)))


def _cut(
    spots: list[int], sources: list[SourceRecords], postings: int, most: int
) -> list[list[int]]:
    """Consecutive sources cut into parts of about `postings` postings (estimated from the
    papers' text: a posting per distinct word, ~100 per abstract), and `most` sources at
    most."""
    runs: list[list[int]] = []
    current: list[int] = []
    size = 0
    for spot in spots:
        current.append(spot)
        size += sources[spot].chars // 11
        if size >= postings or len(current) >= most:
            runs.append(current)
            current, size = [], 0
    if current:
        runs.append(current)
    return runs


def _compact(
    runs: list[tuple[list[int], _Candidate | None]], counts: list[int]
) -> list[tuple[list[int], _Candidate | None]]:
    """At most `MAX_PARTS` parts: the two neighbours with the fewest papers together are
    joined (and written again) until there are no more."""
    runs = list(runs)

    def papers(run: tuple[list[int], _Candidate | None]) -> int:
        return sum(counts[spot] for spot in run[0])

    while len(runs) > MAX_PARTS:
        pair = min(range(len(runs) - 1), key=lambda i: papers(runs[i]) + papers(runs[i + 1]))
        runs[pair : pair + 2] = [(runs[pair][0] + runs[pair + 1][0], None)]
    return runs
