"""What a build keeps from the generation it takes from: the record files of the
sources that did not change, their parts as candidates, and its papers and rows files."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from paperterm.index.search.build_parts import Candidate
from paperterm.index.search.build_state import BuildState, checksum_done
from paperterm.index.search.generation_meta import (
    Fingerprint,
    Meta,
    Part,
    SourceEntry,
    SourceFile,
    Span,
)
from paperterm.index.search.merged import MergedCorpus
from paperterm.index.search.records import (
    PaperList,
    RecordFileError,
)
from paperterm.index.search.source_records import (
    SourceRecords,
    iter_records,
    read_header,
)
from paperterm.index.search.store import ENGINE_FOLDER, SOURCES_FOLDER


class Reusing(BuildState):
    """A build's steps that take from the previous generation."""

    def _reuse(
        self, sources: list[SourceRecords], base: tuple[Path, Meta] | None
    ) -> list[Candidate]:
        """Keep the previous generation's records of every source that did not change; its
        parts are candidates for the new index. The generation may be another set's (a
        first build takes from a set with some of the same files): files are matched by
        path and collection, and its parts' sources named as this set names them."""
        if base is None:
            return []
        folder, meta = base
        entries = {recordedplace(entry): entry for entry in meta.sources}
        renamed: dict[str, str] = {}  # the base's key of a source -> this set's
        unchanged: list[tuple[SourceRecords, SourceEntry, Fingerprint]] = []
        for source in sources:
            entry = entries.get(place(source.file))
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
                self._early_checks[f"{SOURCES_FOLDER}/{source.cache}"] = checksum_done(
                    meta.files[name]
                )
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
            Candidate(existing[part.id], keys, part.digest, folder)
            for part, files, keys in kept
            if damaged.keys().isdisjoint(files)
        ]

    def _kept_papers(
        self, sources: list[SourceRecords], corpus: MergedCorpus
    ) -> tuple[int, PaperList | None]:
        """(n, the papers of the generation taken from) when they are this build's first
        papers, those of its first n sources; else (0, None). Its papers and rows files
        then begin this build's, copied as they are, not read and written again a record
        at a time.

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
            same = recordedplace(entry) == place(source.file)
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


def as_span(span: Sequence[int] | None) -> Span | None:
    return None if span is None else (int(span[0]), int(span[1]), int(span[2]))


def place(file: SourceFile) -> tuple[str, str | None, Span | None]:
    """What a generation's record of a source is matched by with a file of a build: its
    path, collection and stretch."""
    return str(file.path), file.collection, file.span


def recordedplace(entry: SourceEntry) -> tuple[str, str | None, Span | None]:
    """`place` of the file a generation's record of a source is of."""
    return entry.path, entry.collection, as_span(entry.span)
