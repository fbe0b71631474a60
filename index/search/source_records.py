"""One source file's prepared records, as a build keeps them: read, prepared and saved once,
then reused by every build until the file changes.

A build keeps each source file's records (`preparing.prepare`: rendered, enriched on their own,
with their merge keys) in its `sources/` folder, one record file each (records.py), written
as the file is read (`loader.Reading`: JSON Lines line by line), with the file's
fingerprint, the problems found in it, the words of its papers (what the vocabulary counts),
the digest of their documents and every record's merge keys and title. A build holds only
those (`SourceRecords`): merging duplicates needs the keys, making derived titles distinct
the titles, and the papers are read again from the file, a source at a time, when the
papers and rows files are written. A later build that finds the file unchanged reads the
same instead of the file; the worker processes of a build write them, and the build reads
their headers.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from paperterm.index.papers import Paper
from paperterm.index.search import generation_meta as versions
from paperterm.index.search.generation_meta import Fingerprint, SourceFile, path_key
from paperterm.index.search.records import (
    SOURCE,
    RecordFile,
    RecordFileError,
    RecordWriter,
    no_collection,
)
from paperterm.index.search.whoosh.index import add_document
from paperterm.index.sources.joining import given_fields
from paperterm.index.sources.loader import Reading
from paperterm.index.sources.prepared import MergeKey, Prepared
from paperterm.index.sources.preparing import prepare
from paperterm.index.text.words import paper_words

#: A first launch shows the first papers of its first file when this many are prepared,
#: not when the whole file is.
EARLY_RECORDS = 100
#: A build hears how far a file's reading is after this many records (its byte count).
PROGRESS_RECORDS = 500
#: Records are read, then prepared, then kept and counted this many at a time (the first
#: `EARLY_RECORDS`), not each in turn through every step: each step's code and tables then
#: stay in the processor's caches (record by record took more CPU a record).
PREPARE_BATCH = 500

#: A record's title, whether it was derived, and the other headlines kept for it.
TitleKey = tuple[str, bool, list[str]]


@dataclass(slots=True)
class SourceRecords:
    """One source file during a build: what the build holds of it (`records` only when
    someone watches the build: the reader lists the papers read so far)."""

    file: SourceFile
    fingerprint: Fingerprint | None = None
    cache: str = ""
    count: int = 0
    keys: list[MergeKey] = field(default_factory=list)
    titles: list[TitleKey] = field(default_factory=list)
    digest: str = ""
    chars: int = 0
    records: list[Prepared] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    words: dict[str, int] = field(default_factory=dict)
    fresh: bool = True
    size: int = 0
    #: The format the file was read as; how many of its records give each field
    #: (`joining.given_fields`).
    format: str = ""
    fields: dict[str, int] = field(default_factory=dict)

    def take_header(self, header: dict[str, Any]) -> None:
        """What the build holds, from the source's record file header."""
        self.count = int(header["count"])
        self.keys = [tuple(key) for key in header["keys"]]
        self.titles = [tuple(title) for title in header["titles"]]
        self.digest = str(header["digest"])
        self.chars = int(header["chars"])
        self.problems = list(header.get("problems", []))
        self.words = dict(header.get("words", {}))
        self.format = str(header.get("format", ""))
        self.fields = dict(header.get("fields", {}))


def cache_name(file: SourceFile) -> str:
    from paperterm.index.search.generation_meta import content_digest

    return f"{content_digest(file.key.encode('utf-8', 'surrogateescape'))}.bin"


def read_header(path: Path, file: SourceFile) -> tuple[dict[str, Any], Fingerprint]:
    """A source's cache header and fingerprint (another set of sources with the same file
    may have written it: a file is known by its path and collection, not by its place in a
    set)."""
    cache = RecordFile(path, SOURCE)
    try:
        header = cache.header
        if (
            header.get("path") != path_key(file.path)
            or header.get("collection") != file.collection
            or header.get("span") != (None if file.span is None else list(file.span))
            or header.get("read_as", "") != file.read_as.key()
            or header.get("parser") != versions.PARSER_VERSION
            or header.get("count") != len(cache)
        ):
            raise RecordFileError(f"{path}: another source's records")
        return header, Fingerprint(**header["fingerprint"])
    finally:
        cache.close()


def iter_records(path: Path) -> Iterator[Prepared]:
    """A source's prepared records from its cache file, in order, one at a time."""
    cache = RecordFile(path, SOURCE, header=False)
    try:
        with no_collection():
            for index in range(len(cache)):
                yield Prepared.from_tuple(cache.get(index))
    finally:
        cache.close()


def prepare_source(
    file: SourceFile,
    folder: Path,
    early: Callable[[list[Prepared]], None] | None = None,
    *,
    on_record: Callable[[Paper, list[str]], None] | None = None,
    on_bytes: Callable[[int, int], None] | None = None,
    keep: bool = False,
) -> SourceRecords:
    """Read and prepare one source file, a batch of records at a time (`PREPARE_BATCH`),
    and keep its records in `folder` (its cache), written as they come. `early` gets the
    first `EARLY_RECORDS` records as soon as they are prepared (once); `on_record` each
    paper as prepared, with the words the vocabulary counts of it (`paper_words`: an engine
    takes its text's words from them, so that they are cut once); `on_bytes` (records,
    bytes read) now and then; `keep`: the records stay in `records` too."""
    source = SourceRecords(file, cache=cache_name(file))
    source.fingerprint = Fingerprint.of(file.path)  # before reading: a later write shows
    reading = Reading(file.path, file.collection, file.span, file.read_as)
    writer = RecordWriter(folder / source.cache, SOURCE)
    words: Counter[str] = Counter()
    given: Counter[str] = Counter()
    digest = hashlib.blake2b(digest_size=16)
    firsts: list[Prepared] = []
    try:
        for batch in _batches(reading.papers()):
            records = [prepare(paper) for paper in batch]
            for paper, record in zip(batch, records, strict=True):
                writer.add(record.to_tuple())
                source.keys.append(record.key())
                source.titles.append((paper.title, paper.title_derived, record.alternatives))
                said = paper_words(paper)
                words.update(said)
                given.update(given_fields(record))
                add_document(digest, paper)
                source.chars += len(paper.text)
                if keep:
                    source.records.append(record)
                if on_record is not None:
                    on_record(paper, said)
                if early is not None:
                    firsts.append(record)
                    if len(firsts) == EARLY_RECORDS:
                        early(firsts)
                        early = None
                if on_bytes is not None and len(source.keys) % PROGRESS_RECORDS == 0:
                    on_bytes(len(source.keys), reading.size)
    except BaseException:
        writer.close()
        raise
    if early is not None:
        early(firsts)
    if source.fingerprint is not None and reading.complete and file.span is None:
        source.fingerprint.digest = reading.digest  # a stretch's: the build gives it the file's
    source.size = reading.size
    source.count = len(source.keys)
    source.digest = digest.hexdigest()
    source.problems = [str(problem) for problem in reading.problems]
    source.words = dict(words)
    source.format = reading.format
    source.fields = dict(given)
    writer.finish(
        {
            "path": path_key(file.path),
            "collection": file.collection,
            "span": None if file.span is None else list(file.span),
            "read_as": file.read_as.key(),
            "parser": versions.PARSER_VERSION,
            "fingerprint": _fingerprint_dict(source.fingerprint),
            "problems": source.problems,
            "words": source.words,
            "count": source.count,
            "keys": source.keys,
            "titles": source.titles,
            "digest": source.digest,
            "chars": source.chars,
            "format": source.format,
            "fields": source.fields,
        }
    )
    return source


def _batches(papers: Iterator[Paper]) -> Iterator[list[Paper]]:
    """`papers` in lists of `PREPARE_BATCH` (the first of `EARLY_RECORDS`)."""
    size = EARLY_RECORDS
    while batch := list(islice(papers, size)):
        yield batch
        size = PREPARE_BATCH


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


def count_words(papers: Iterator[Paper] | list[Paper]) -> Counter[str]:
    """The vocabulary's counts of some papers (`Vocabulary.of_papers` counts the same)."""
    from paperterm.index.search.vocabulary import Vocabulary

    return Vocabulary.count_papers(papers)
