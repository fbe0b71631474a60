"""One source file's prepared records, as a build keeps them: read, prepared and saved once,
then reused by every build until the file changes.

A build keeps each source file's records (`loader.prepare_file`: rendered, enriched on their
own, with their merge keys) in its `sources/` folder, one record file each (records.py),
with the file's fingerprint, the problems found in it and the words of its papers (what the
vocabulary counts). A later build that finds the file unchanged reads these instead of the
file; the worker processes of a build write them, and the build reads them back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paperterm.index.papers import Paper
from paperterm.index.search import store as versions
from paperterm.index.search.records import (
    SOURCE,
    RecordFile,
    RecordFileError,
    no_collection,
    write_records,
)
from paperterm.index.search.store import Fingerprint, SourceFile, content_digest, path_key
from paperterm.index.sources.loader import Prepared, load_data, prepare, read_source

#: A first launch shows the first papers of its first file when this many are prepared
#: (~60 ms), not when the whole file is (500 papers: ~0.4 s, more on a busy machine).
EARLY_RECORDS = 100


@dataclass(slots=True)
class SourceRecords:
    """One source file during a build."""

    file: SourceFile
    fingerprint: Fingerprint | None = None
    cache: str = ""
    records: list[Prepared] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    words: dict[str, int] = field(default_factory=dict)
    fresh: bool = True
    size: int = 0


def cache_name(file: SourceFile) -> str:
    return f"{content_digest(file.key.encode('utf-8', 'surrogateescape'))}.bin"


def read_prepared(
    path: Path, file: SourceFile
) -> tuple[list[Prepared], dict[str, Any], Fingerprint]:
    """A source's prepared records, word counts and fingerprint from its cache file (which
    another set of sources with the same file may have written: a file is known by its path
    and collection, not by its place in a set)."""
    cache = RecordFile(path, SOURCE)
    try:
        header = cache.header
        if (
            header.get("path") != path_key(file.path)
            or header.get("collection") != file.collection
            or header.get("parser") != versions.PARSER_VERSION
        ):
            raise RecordFileError(f"{path}: another source's records")
        with no_collection():
            records = [Prepared.from_tuple(row) for row in cache.all()]
        return records, header, Fingerprint(**header["fingerprint"])
    finally:
        cache.close()


def prepare_source(
    file: SourceFile, folder: Path, early: Callable[[list[Prepared]], None] | None = None
) -> SourceRecords:
    """Read and prepare one source file, and keep its records in `folder` (its cache).
    `early` gets the first `EARLY_RECORDS` records as soon as they are prepared (once)."""
    source = SourceRecords(file, cache=cache_name(file))
    source.fingerprint = Fingerprint.of(file.path)  # before reading: a later write shows
    data, problems = read_source(file.path)
    if data is not None and source.fingerprint is not None:
        source.fingerprint.digest = content_digest(data)
        source.size = len(data)
        papers, more = load_data(file.path, data, file.collection)
        problems += more
        for paper in papers:
            source.records.append(prepare(paper))
            if early is not None and len(source.records) == EARLY_RECORDS:
                early(source.records)
                early = None
    if early is not None:
        early(source.records)
    source.problems = [str(problem) for problem in problems]
    source.words = dict(count_words(record.paper for record in source.records))
    write_records(
        folder / source.cache,
        SOURCE,
        {
            "path": path_key(file.path),
            "collection": file.collection,
            "parser": versions.PARSER_VERSION,
            "fingerprint": _fingerprint_dict(source.fingerprint),
            "problems": source.problems,
            "words": source.words,
        },
        (record.to_tuple() for record in source.records),
    )
    return source


def _fingerprint_dict(fingerprint: Fingerprint | None) -> dict[str, Any]:
    if fingerprint is None:
        return {"size": -1, "mtime_ns": -1, "ino": -1, "ctime_ns": -1, "digest": ""}
    return {
        "size": fingerprint.size,
        "mtime_ns": fingerprint.mtime_ns,
        "ino": fingerprint.ino,
        "ctime_ns": fingerprint.ctime_ns,
        "digest": fingerprint.digest,
    }


def count_words(papers: Iterable[Paper]) -> Counter[str]:
    """The vocabulary's counts of some papers (`Vocabulary.of_papers` counts the same)."""
    from paperterm.index.search.vocabulary import Vocabulary

    return Vocabulary.count_papers(papers)
