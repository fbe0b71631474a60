"""Finding corpus files and turning them into `Paper` records.

Each format has a parser module (`text_list`, ...) exposing
`parse(path, text, collection) -> tuple[list[Paper], list[Problem]]`; this module picks the
parser (by extension, or by sniffing the content when the extension says nothing useful),
reads the file (`Reading`; bytes decoded by `decoding.py`), walks folders, and never lets
one bad file stop the others. Parsers give the
record as the source has it; every record is then bounded (`bounds.bound`: a value over its
size limit is cut, with a warning), rendered (`enrich.render`) and prepared on
its own (`preparing.prepare`: enriched as if it were the only record of its paper, with the
keys that find its duplicates), and duplicates are merged (`preparing.merge_prepared`). Preparing is
most of the work and needs nothing from other files: an index build prepares files in parallel and
keeps each file's records for the next build.
"""

from __future__ import annotations

import codecs
import hashlib
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from paperterm.index.papers import (
    Paper,
)
from paperterm.index.problems import Problem
from paperterm.index.sources.bounds import rendered
from paperterm.index.sources.decoding import (
    SNIFF_BYTES,
    decode,
    line_text,
    looks_binary,
    wide_codec,
)
from paperterm.index.sources.detect import choose, format_name, parser_for
from paperterm.index.sources.files import DEFAULT_READ, FORMATS, ReadAs, SourceSpec, discover
from paperterm.index.sources.prepared import Prepared
from paperterm.index.sources.preparing import merge_prepared, prepare

#: A BibTeX file this large is read a chunk of entries at a time (`bibtex.stream`); a
#: smaller one is parsed whole (a PMLR volume of 1,000 papers is ~1.5 MB).
BIBTEX_STREAM_BYTES = 4 << 20
#: The most of a file's first line read to tell its format (a JSON Lines record over it is
#: over `bounds.ABSTRACT_LIMIT` too: the file is then read whole, which reads JSON Lines too).
_FIRST_LINE_BYTES = 4 << 20
#: Bytes read at a time from a file read in chunks.
_READ_BLOCK = 1 << 20


@dataclass(slots=True)
class Corpus:
    papers: list[Paper] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)

    @property
    def collections(self) -> list[str]:
        seen: dict[str, None] = {}
        for paper in self.papers:
            for name in paper.collections:
                seen.setdefault(name, None)
        return list(seen)


def load_file(
    path: Path, collection: str | None = None, read_as: ReadAs = DEFAULT_READ
) -> tuple[list[Paper], list[Problem]]:
    """The records of one file, rendered (display text and title) but not yet enriched."""
    data, problems = read_source(path)
    if data is None:
        return [], problems
    return load_data(path, data, collection, read_as)


def read_source(path: Path) -> tuple[bytes | None, list[Problem]]:
    """A source file's bytes (None, with the reason, when it cannot be read)."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            # A pipe would block the start for ever, /dev/zero would never end.
            return None, [Problem(str(path), 0, "not a regular file (a pipe or device); skipped")]
        return path.read_bytes(), []
    except OSError as error:
        return None, [Problem(str(path), 0, f"cannot read: {error.strerror or error}")]


class Reading:
    """One source file read record by record, for a build: JSON Lines line by line (a file
    of any size, in memory one line at a time), a large BibTeX file a chunk of entries at a
    time, other formats whole; or one stretch of a file a build cut (`sources.stretches`).
    As the papers (rendered) come, `size` says how many bytes were read and `digest` hashes
    them (the file's content digest once every paper was taken); `problems` gathers what
    was wrong."""

    def __init__(
        self,
        path: Path,
        collection: str | None = None,
        span: tuple[int, int, int] | None = None,
        read_as: ReadAs = DEFAULT_READ,
    ) -> None:
        """`span`: read only this stretch of the file (its first byte, the byte after its
        last, its first line's number; `search.segments`); `read_as`: how the source says
        to read it."""
        self.path = path
        self.collection = collection
        self.span = span
        self.read_as = read_as
        #: Whether its records come line by line (JSON Lines read by `json_records`).
        self.by_lines = read_as.format in ("auto", "jsonl") and not read_as.fields
        self.size = 0
        #: Whether the file was read to its end (its `digest` is then its content's).
        self.complete = False
        self.problems: list[Problem] = []
        #: The format the file was read as (`detect.format_name`; "" until read).
        self.format = ""
        self._digest = hashlib.blake2b(digest_size=16)

    @property
    def digest(self) -> str:
        return self._digest.hexdigest()

    def papers(self) -> Iterator[Paper]:
        try:
            if not stat.S_ISREG(self.path.stat().st_mode):
                # A pipe would block the start for ever, /dev/zero would never end.
                reason = "not a regular file (a pipe or device); skipped"
                self.problems.append(Problem(str(self.path), 0, reason))
                return
            with open(self.path, "rb") as handle:
                # Its first line, or as much of it as could be one record: a file of one
                # huge line is not held while it is read.
                first = handle.readline(_FIRST_LINE_BYTES)
                handle.seek(0)
                from paperterm.index.sources import json_records

                wide = wide_codec(first)
                binary = wide is None and looks_binary(first[:SNIFF_BYTES])
                streams = not (wide or binary or self.span) and json_records.streams(
                    self.path, first.decode("utf-8-sig", "replace")
                )
                del first
                if wide is not None:
                    yield from self._wide(handle, wide)
                elif binary:
                    yield from self._whole(handle)
                elif self.span is not None:
                    yield from self._stretch(handle, self.span)
                elif self.by_lines and streams:
                    yield from self._lines(self._utf8_lines(handle))
                elif self._chunked_bibtex(handle):
                    yield from self._bibtex(handle, "utf-8-sig")
                else:
                    yield from self._whole(handle)
        except OSError as error:
            reason = f"cannot read: {error.strerror or error}"
            self.problems.append(Problem(str(self.path), 0, reason))

    def _stretch(self, handle: BinaryIO, span: tuple[int, int, int]) -> Iterator[Paper]:
        """A stretch of a file a build cut (`search.segments`; `sources.stretches`)."""
        from paperterm.index.sources.stretches import stretch_kind, stretch_module

        kind = stretch_kind(self.path, handle, self.read_as)
        handle.seek(span[0])
        first_line, length = span[2], span[1] - span[0]
        if kind is None or isinstance(kind, str):  # JSON Lines
            yield from self._lines(self._utf8_lines(handle, first_line, length), first_line)
            return
        self.format = format_name(stretch_module(kind), self.path, self.read_as)
        for found in kind.read(self.path, handle, span, self.collection, self.read_as):
            if isinstance(found, Problem):
                self.problems.append(found)
            else:
                yield rendered(found, self.problems, self.path)
        self.size = length
        self.complete = True

    def _whole(self, handle: BinaryIO) -> Iterator[Paper]:
        """The file read whole and parsed; a JSON array's papers given as each is decoded
        (a first launch shows the first while the rest are read), the others once all are."""
        from paperterm.index.sources import json_records

        handle.seek(0)
        data = handle.read()
        self._digest.update(data)
        self.size = len(data)
        text, problems = decode(self.path, data)
        del data  # a large file's bytes are not held while its text is parsed
        self.problems += problems
        if text is None:
            self.complete = True
            return
        module = choose(self.path, text, self.read_as)
        self.format = format_name(module, self.path, self.read_as)
        if module == "json_records" and json_records.holds_array(text):
            yield from self._papers_of(json_records.array_papers(self.path, text, self.collection))
            return
        papers, problems = parser_for(module, self.read_as)(self.path, text, self.collection)
        del text  # nor its text while its papers are taken
        self.problems += problems
        done = [rendered(paper, self.problems, self.path) for paper in papers]
        self.complete = True
        yield from done

    def _papers_of(self, found: Iterable[Paper | Problem]) -> Iterator[Paper]:
        """The papers among `found`, rendered as they come; its problems kept (when there
        is neither, "no papers found")."""
        papers = problems = 0
        for item in found:
            if isinstance(item, Problem):
                self.problems.append(item)
                problems += 1
            else:
                papers += 1
                yield rendered(item, self.problems, self.path)
        self.complete = True
        if not papers and not problems:
            self.problems.append(Problem(str(self.path), 0, "no papers found"))

    def _wide(self, handle: BinaryIO, codec: str) -> Iterator[Paper]:
        """A UTF-16 or UTF-32 file (with a byte order mark), read as its UTF-8 file would
        be: JSON Lines a block at a time, a large BibTeX file a chunk of entries at a time,
        other formats whole. The file is checked first, a block at a time: one that does
        not decode is read whole, which gives no papers and says on which line it fails
        (`decode`), as it did before any paper was given."""
        from paperterm.index.sources import json_records

        if not self._decodes(handle, codec):
            yield from self._whole(handle)
        elif self.by_lines and json_records.streams(self.path, self._first_line(handle, codec)):
            yield from self._lines(_split_lines(self._decoded(handle, codec, final=True)))
        elif self._large_bibtex(handle):
            yield from self._bibtex(handle, codec)
        else:
            yield from self._whole(handle)

    def _chunked_bibtex(self, handle: BinaryIO) -> bool:
        """Whether the file is a UTF-8 BibTeX file to read a chunk at a time: large, not
        binary, and UTF-8 throughout (a file that is not is read as Latin-1 throughout,
        which only its end may tell)."""
        if not self._large_bibtex(handle):
            return False
        head = handle.read(SNIFF_BYTES)
        handle.seek(0)
        return not looks_binary(head) and self._decodes(handle, "utf-8")

    def _large_bibtex(self, handle: BinaryIO) -> bool:
        """Whether the file is a BibTeX file large enough to read a chunk at a time."""
        if FORMATS.get(self.path.suffix.lower()) != "bibtex":
            return False
        if self.read_as.format not in ("auto", "bibtex"):
            return False
        return os.fstat(handle.fileno()).st_size >= BIBTEX_STREAM_BYTES

    def _decodes(self, handle: BinaryIO, codec: str) -> bool:
        """Whether the whole file is text in `codec`. Reads it once, a block at a time."""
        handle.seek(0)
        decoder = codecs.getincrementaldecoder(codec)()
        try:
            while block := handle.read(_READ_BLOCK):
                decoder.decode(block)
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            return False
        finally:
            handle.seek(0)
        return True

    def _decoded(self, handle: BinaryIO, codec: str, final: bool) -> Iterator[str]:
        """The file's text, a block at a time (`final`: the pass that makes the papers,
        which the digest and the bytes read follow)."""
        handle.seek(0)
        decoder = codecs.getincrementaldecoder(codec)("replace")
        while block := handle.read(_READ_BLOCK):
            if final:
                self._digest.update(block)
                self.size += len(block)
            yield decoder.decode(block)
        yield decoder.decode(b"", final=True)

    def _first_line(self, handle: BinaryIO, codec: str) -> str:
        """The first line of the file's text (the byte order mark dropped)."""
        head = ""
        for text in self._decoded(handle, codec, final=False):
            head += text
            if "\n" in head:
                break
        return head.split("\n", 1)[0]

    def _bibtex(self, handle: BinaryIO, codec: str) -> Iterator[Paper]:
        from paperterm.index.sources import bibtex

        self.format = "bibtex"

        def read(final: bool) -> Iterator[str]:
            return self._decoded(handle, codec, final)

        for found in bibtex.stream(self.path, read, self.collection):
            if isinstance(found, Problem):
                self.problems.append(found)
            else:
                yield rendered(found, self.problems, self.path)
        self.complete = True

    def _utf8_lines(
        self, handle: BinaryIO, first: int = 1, length: int | None = None
    ) -> Iterator[str]:
        """The lines of a UTF-8 file from where `handle` is, line `first`, for `length`
        bytes (None: to the end); a line that is not UTF-8 is read as Latin-1, with a
        warning at the first."""
        latin1 = False
        for number, raw in enumerate(handle, start=first):
            if length is not None and self.size >= length:
                break
            self._digest.update(raw)
            self.size += len(raw)
            line, as_latin1 = line_text(raw[:-1] if raw.endswith(b"\n") else raw, number == 1)
            if as_latin1 and not latin1:
                warning = "not valid UTF-8; read as Latin-1"
                self.problems.append(Problem(str(self.path), number, warning))
                latin1 = True
            yield line

    def _lines(self, lines: Iterable[str], first: int = 1) -> Iterator[Paper]:
        """The papers of JSON Lines `lines`, the first of them line `first`."""
        from paperterm.index.sources.json_records import parse_line

        self.format = "jsonl"
        papers = 0
        for number, line in enumerate(lines, start=first):
            found = parse_line(self.path, number, line, self.collection)
            if isinstance(found, Problem):
                self.problems.append(found)
            elif found is not None:
                papers += 1
                yield rendered(found, self.problems, self.path)
        self.complete = True
        if not papers and not self.problems:
            self.problems.append(Problem(str(self.path), 0, "no papers found"))


def _split_lines(texts: Iterable[str]) -> Iterator[str]:
    """The lines of text given a block at a time, cut at "\n" only (as JSON Lines are:
    `json_records._lines`); no line after a last "\n". A line longer than a block is joined
    once, from its pieces (adding each block to it would copy it again each time)."""
    pending: list[str] = []
    for text in texts:
        first, *lines = text.split("\n")
        pending.append(first)
        if lines:
            yield "".join(pending)
            yield from lines[:-1]
            pending = [lines[-1]]
    rest = "".join(pending)
    if rest:
        yield rest


def load_data(
    path: Path,
    data: bytes,
    collection: str | None = None,
    read_as: ReadAs = DEFAULT_READ,
    formats: list[str] | None = None,
) -> tuple[list[Paper], list[Problem]]:
    """`load_file` of bytes already read from `path`; `formats` gets the name of the format
    it was read as (`detect.format_name`)."""
    text, problems = decode(path, data)
    return parse_text(path, text, problems, collection, read_as, formats)


def parse_text(
    path: Path,
    text: str | None,
    problems: list[Problem],
    collection: str | None = None,
    read_as: ReadAs = DEFAULT_READ,
    formats: list[str] | None = None,
) -> tuple[list[Paper], list[Problem]]:
    """The records of `path`'s decoded text (None: it is not text), rendered and bounded;
    `problems` (the decoding's) with the parser's added."""
    if text is None:
        return [], problems
    module = choose(path, text, read_as)
    if formats is not None:
        formats.append(format_name(module, path, read_as))
    papers, parse_problems = parser_for(module, read_as)(path, text, collection)
    problems += parse_problems
    return [rendered(paper, problems, path) for paper in papers], problems


def load_sources(specs: Iterable[SourceSpec]) -> Corpus:
    """Every paper from every source, duplicates merged, problems collected (never raised)."""
    corpus = Corpus()
    prepared: list[Prepared] = []
    for spec in specs:
        files, problems = discover(spec)
        corpus.problems.extend(problems)
        for path in files:
            records, problems = prepare_file(path, spec.collection, read_as=spec.read_as)
            corpus.files.append(path)
            prepared.extend(records)
            corpus.problems.extend(problems)
    corpus.papers = merge_prepared(prepared)
    return corpus


def prepare_file(
    path: Path,
    collection: str | None = None,
    data: bytes | None = None,
    read_as: ReadAs = DEFAULT_READ,
) -> tuple[list[Prepared], list[Problem]]:
    """The records of one file (its bytes, when already read), each prepared as if it were
    the only one (`prepare`): the work that does not depend on other files, which a build
    runs in parallel and keeps."""
    papers, problems = (
        load_file(path, collection, read_as)
        if data is None
        else load_data(path, data, collection, read_as)
    )
    return [prepare(paper) for paper in papers], problems
