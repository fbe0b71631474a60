"""A generation's Whoosh index: the schema, each paper's document, parts written and kept.

The index's parts are Whoosh segments (`segments.SegmentBuilder` writes them), each
holding the papers of a run of consecutive sources, in corpus order, with no deletions ever:
so a document's number is its paper's row in the papers file, and the statistics scores are
made of (document counts, field lengths) are those of the papers, whatever the history of
the index. A build keeps a part whose papers did not change by hard-linking its files into
the new generation (Whoosh never changes a segment's files once written).

`WhooshFiles` is the engine's side of a build (`engine_files.EngineFiles`).
"""

from __future__ import annotations

import os

# hashlib's own blake2b, without importing hashlib: the reader's start need not load
# OpenSSL.
from _blake2 import blake2b
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperterm.index.papers import Paper
from paperterm.index.search.filter_fields import FILTER_FIELDS, filter_texts

if TYPE_CHECKING:
    from whoosh.codec.base import Segment
    from whoosh.fields import Schema
    from whoosh.index import Index

    from paperterm.index.search.whoosh.segments import SegmentBuilder

INDEX_NAME = "MAIN"


def make_schema() -> Schema:
    """`all` holds every searchable word of a paper (stemmed) and does the matching; the
    small `name` and `given_title` fields add their boosts to papers that match there
    (`given_title` holds only a title the source gave, `paper_document`); `title`,
    `authors` and `collection` serve `title:`, `author:` and `collection:` queries, and
    the conference's fields (`filter_fields.FILTER_FIELDS`) their filters. Each field's
    analyzer is `FieldAnalysis`'s, which the query planner cuts queries with."""
    # Whoosh is imported where it is used: a start with a built index shows the list from
    # the rows file before anything of Whoosh is loaded.
    from whoosh.fields import ID, TEXT, Schema

    from paperterm.index.search.analysis import FieldAnalysis

    analysis = FieldAnalysis()
    return Schema(
        id=ID(stored=True, unique=True),
        all=TEXT(analyzer=analysis.analyzer("all")),
        name=TEXT(analyzer=analysis.analyzer("name"), field_boost=4.0),
        title=TEXT(analyzer=analysis.analyzer("title"), field_boost=2.5),
        given_title=TEXT(analyzer=analysis.analyzer("given_title"), field_boost=2.5),
        authors=TEXT(analyzer=analysis.analyzer("authors")),
        collection=TEXT(analyzer=analysis.analyzer("collection")),
        **{name: TEXT(analyzer=analysis.analyzer(name)) for name in FILTER_FIELDS},
    )


def paper_document(paper: Paper) -> dict[str, str | tuple[str, ...]]:
    """The document of a paper. `all` is given in parts (Whoosh would see them joined by
    newlines): the segment builder cuts a part two fields share (the title) once. A title
    derived from the abstract is in neither `all` nor the boosted `given_title`, only in
    `title` (for `title:`): its words are the text's, and counting or boosting them again
    would reward an abstract's first sentence."""
    authors = " ; ".join(paper.authors)
    collections = " ; ".join(paper.collections)
    title = "" if paper.title_derived else paper.title
    return {
        "id": paper.id,
        "all": (paper.name, title, paper.text, authors, collections),
        "name": paper.name,
        "title": paper.title,
        "given_title": title,
        "authors": authors,
        "collection": collections,
        **{name: text(paper) for name, text in FILTER_FIELDS.items()},
    }


def known_pieces(paper: Paper, words: list[str] | None) -> dict[str, list[str]]:
    """What `segments.cut` makes of the paper's text, taken from `words` (the words
    of its name, title and text in lower case, `words.paper_words`): the words of the text
    are those after the name's and the title's (no word runs across the spaces that join
    them). So when the three are ASCII, or have no CJK (which `cut` makes bigrams of) and
    lower alike (`_lowers_alike`: then the words of the lowered text are its words lowered);
    empty otherwise."""
    if words is None:
        return {}
    name, title, text = paper.name, paper.title, paper.text
    if not (name.isascii() and title.isascii() and text.isascii()):
        # The reader's start imports this module and compiles no pattern: `words` does.
        from paperterm.index.text.words import has_cjk

        joined = f"{name}{title}{text}"
        if has_cjk(joined) or not _lowers_alike(joined):
            return {}
    from paperterm.index.search.whoosh.segments import cut

    name_pieces, title_pieces = cut(name), cut(title)
    return {
        name: name_pieces,
        title: title_pieces,
        text: words[len(name_pieces) + len(title_pieces) :],
    }


def _lowers_alike(text: str) -> bool:
    """Whether each character of `text` lowers to one character that is a word character
    (`\\w`: alphanumeric, or "_") when it is one: "İ" lowers to two, for one."""
    return all(
        len(lowered := char.lower()) == 1 and lowered.isalnum() == char.isalnum()
        for char in set(text)
        if not char.isascii()
    )


def documents_digest(papers: Iterable[Paper]) -> str:
    """What one source's documents are made of, in order: equal digests, equal documents."""
    digest = blake2b(digest_size=16)
    for paper in papers:
        add_document(digest, paper)
    return digest.hexdigest()


def add_document(digest: Any, paper: Paper) -> None:
    """`paper`'s document into a running `documents_digest`: each of its values and a NUL,
    a NUL and a NUL, a \\3 when its title is derived, each collection and a \\1, its filter
    fields' texts joined by \\1 when it has any, and a \\2 (given as one string, not an
    update per value)."""
    values = (paper.id, paper.name, paper.title, paper.text, *paper.authors, "\0", "")
    derived = "\3" if paper.title_derived else ""
    collections = "".join(f"{value}\1" for value in paper.collections)
    filters = "\1".join(filter_texts(paper)) if _has_filters(paper) else ""
    document = f"{chr(0).join(values)}{derived}{collections}{filters}\2"
    digest.update(document.encode("utf-8", "surrogatepass"))


def _has_filters(paper: Paper) -> bool:
    return bool(
        paper.status
        or paper.type
        or paper.session
        or paper.topic
        or paper.track
        or paper.affiliations
        or paper.keywords
    )


def part_digest(source_digests: Iterable[str]) -> str:
    """A part's digest, from its sources' `documents_digest`s in order: a part is kept when
    its sources' documents are the ones it holds, and each source's digest is known from
    its prepared records (or, when merging changed them, from the merged ones)."""
    return blake2b("\n".join(source_digests).encode(), digest_size=16).hexdigest()


def _storage(folder: Path, readonly: bool = False) -> object:
    from whoosh.filedb.filestore import FileStorage

    return FileStorage(str(folder), readonly=readonly)


class PartWriter:
    """Writes one part: the documents of some papers, in the order given."""

    def __init__(self, folder: Path) -> None:
        from paperterm.index.search.whoosh.segments import SegmentBuilder

        folder.mkdir(parents=True, exist_ok=True)
        self._builder: SegmentBuilder = SegmentBuilder(_storage(folder), make_schema(), INDEX_NAME)

    def add(self, paper: Paper, words: list[str] | None = None) -> None:
        """`words`: the words of its name, title and text as the vocabulary counts them
        (`words.paper_words`), which serve as its text's pieces when all three are ASCII."""
        self._builder.add(paper_document(paper), known_pieces(paper, words))

    def __len__(self) -> int:
        return len(self._builder)

    @property
    def postings(self) -> int:
        """Postings so far: the part's size on disk and in memory follow it."""
        return self._builder.postings

    def finish(self) -> Segment:
        """Write the part's files; the part (a segment, which its index's table of contents
        lists: id, document count, field length totals)."""
        return self._builder.finish()


class WhooshFiles:
    """The Whoosh engine's files in a generation's engine folder."""

    name = "whoosh"
    bounded_writer = False  # a segment is built in memory

    def part_writer(self, folder: Path) -> PartWriter:
        return PartWriter(folder)

    def part_id(self, part: Segment) -> str:
        return str(part.segment_id())

    def parts(self, folder: Path) -> dict[str, Segment]:
        """The parts of the index in `folder`, by id."""
        from whoosh.index import TOC

        toc = TOC.read(_storage(folder, readonly=True), INDEX_NAME)
        return {segment.segment_id(): segment for segment in toc.segments}

    def part_files(self, folder: Path, part: Segment) -> list[str]:
        prefix = f"{part.segment_id()}."
        return sorted(name for name in os.listdir(folder) if name.startswith(prefix))

    def keep_part(self, base: Path, folder: Path, part: Segment) -> None:
        """Make a part of the index in `base` one of `folder`'s (hard links: the files of a
        segment never change once written)."""
        folder.mkdir(parents=True, exist_ok=True)
        for name in self.part_files(base, part):
            os.link(base / name, folder / name)

    def commit(self, folder: Path, parts: Sequence[Segment]) -> None:
        """Make the index of `folder` the given parts, in order (its table of contents)."""
        from whoosh.index import TOC

        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob(f"_{INDEX_NAME}_*.toc"):
            old.unlink()
        TOC(make_schema(), list(parts), 1).write(_storage(folder), INDEX_NAME)

    def open(self, folder: Path) -> Index:
        """The index of `folder`, each segment's postings file opened once to check what
        it says of itself (`PostingsTable`: a damaged one raises, and the store rebuilds
        the index, as for a file that fails its checksum)."""
        from whoosh.index import FileIndex

        from paperterm.index.search.whoosh.postings import PostingsTable

        storage = _storage(folder, readonly=True)
        ix = FileIndex(storage, indexname=INDEX_NAME)
        for segment in ix._segments():
            PostingsTable.of_segment(storage, segment).close()
        return ix

    def in_memory(self, papers: Sequence[Paper]) -> Index:
        """An index of `papers` in RAM (for a data dir that cannot be written)."""
        from whoosh.filedb.filestore import RamStorage
        from whoosh.index import TOC, FileIndex

        from paperterm.index.search.whoosh.segments import SegmentBuilder

        storage = RamStorage()
        builder = SegmentBuilder(storage, make_schema(), INDEX_NAME)
        for paper in papers:
            builder.add(paper_document(paper))
        TOC(make_schema(), [builder.finish()] if papers else [], 1).write(storage, INDEX_NAME)
        return FileIndex(storage, indexname=INDEX_NAME)
