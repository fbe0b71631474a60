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

`Builder` runs the steps; what it takes from the previous generation is in
`build_reuse.py`, the reading and preparing in `build_prepare.py`, the cut into parts in
`build_parts.py`, and the state they share in `build_state.py`.
"""

from __future__ import annotations

import shutil
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from paperterm.index.problems import Problem
from paperterm.index.search import generation_meta as versions
from paperterm.index.search.build_parts import (
    PART_POSTINGS,
    Candidate,
    Written,
    compact_runs,
    cut_runs,
    part_sources,
)
from paperterm.index.search.build_prepare import Preparing
from paperterm.index.search.build_reuse import Reusing, as_span
from paperterm.index.search.donor import find_donor
from paperterm.index.search.generation_meta import Fingerprint, Meta, Part, SourceEntry, SourceFile
from paperterm.index.search.listener import Listener
from paperterm.index.search.merged import MergedCorpus
from paperterm.index.search.open_index import OpenIndex
from paperterm.index.search.records import (
    PaperList,
    no_collection,
    write_papers,
    write_rows,
)
from paperterm.index.search.rows_process import RowsProcess, rows_apart
from paperterm.index.search.segments import stretches
from paperterm.index.search.source_records import (
    SourceRecords,
    cache_name,
)
from paperterm.index.search.store import (
    ENGINE_FOLDER,
    PAPERS_FILE,
    ROWS_FILE,
    SOURCES_FOLDER,
    VOCABULARY_FILE,
    Store,
)
from paperterm.index.search.whoosh.index import part_digest
from paperterm.index.sources.stretches import NOTHING

if TYPE_CHECKING:
    from paperterm.index.search.vocabulary import Vocabulary


@dataclass(slots=True)
class _Listed:
    """What a build derives from its sources' records alone, once all are read
    (`Builder._list`): their merge, and the papers (`count` of them, in `collections`),
    rows and vocabulary files written from it."""

    corpus: MergedCorpus
    count: int
    collections: list[str]
    vocabulary: Vocabulary


class Builder(Reusing, Preparing):
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
        self.tmp = None
        self.published_partial = False
        self.bytes_read = {}
        self.words = Counter()
        self.part_postings = PART_POSTINGS
        self.part_sources = part_sources(len(self.files))
        self.total_bytes = 0
        self.file_digests = {}
        self._fingerprints = {}
        self._early_checks = {}
        self._checker = ThreadPoolExecutor(1, thread_name_prefix="paperterm-checksums")
        self._part_checks = {}
        self._base = None
        self._rows = None

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
        (not after them, by the build's process alone, a core idle)."""
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
                    files += [replace(file, span=as_span(span)) for span in spans if span]
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

    def _parts(
        self, sources: list[SourceRecords], corpus: MergedCorpus, candidates: list[Candidate]
    ) -> list[Written]:
        """The parts of the new index, in corpus order."""
        assert self.tmp is not None
        position = {source.file.key: index for index, source in enumerate(sources)}
        covered: dict[int, tuple[list[int], Candidate]] = {}
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
        runs: list[tuple[list[int], Candidate | None]] = []
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
            cut = cut_runs(spots, sources, self.part_postings, self.part_sources)
            runs += [(run, None) for run in cut]
        runs = compact_runs(runs, corpus.counts)
        parts: list[Written] = []
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
                parts.append(Written(spots, reused.part, reused.digest, papers))
                continue
            writer = self.engine.part_writer(engine_folder)
            for paper in corpus.spans(spots):
                writer.add(paper)
            digest = part_digest(corpus.digest(spot) for spot in spots)
            parts.append(Written(spots, writer.finish(), digest, papers))
        return parts

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
            self._check_written(name)
        return count, collections

    def _finish(
        self, sources: list[SourceRecords], listed: _Listed, parts: list[Written]
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


def _rows_process(papers: int) -> RowsProcess | None:
    """A process to write the rows file of a build that lists many new papers, started now
    (`rows_process.py`)."""
    if not rows_apart(papers):
        return None
    try:
        return RowsProcess()
    except OSError:  # no process to be had: the build writes the file itself
        return None


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
