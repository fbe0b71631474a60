"""A generation's tantivy index (the optional engine for large corpora): its schema, each
paper's document, parts written and kept.

Each part is a tantivy index of its own in the engine folder, `<part id>.part/`, holding the
papers of a run of consecutive sources in corpus order. The index searched is `joined-<id>/`:
every part's segments in one tantivy index (hard links, and a meta.json that lists them), so
that statistics are the whole corpus's. `parts.json` names it and lists the parts in order,
with their paper counts and segments: a paper's row in the papers file is its part's offset
plus its `row` (a fast field). A build keeps a part whose papers did not change by
hard-linking its files (tantivy never changes a segment's files once written).

Text is cut by our own analyzers (`FieldAnalysis.joined`: the terms joined by spaces) and
indexed with tantivy's whitespace tokenizer, so both engines hold the same terms: stemming,
stop words and CJK bigrams are Whoosh's, and the query planner serves both.

`tantivy` is imported only by `load_tantivy`, and only when used: it is an
optional dependency (`pip install 'paperterm[tantivy]'`), so its objects are typed `Any`
(the default install type-checks without it).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperterm.index.atomic import write_json
from paperterm.index.papers import Paper
from paperterm.index.search.filter_fields import FILTER_FIELDS
from paperterm.index.search.tantivy import load_tantivy
from paperterm.index.text.words import lowers_alike, words_of

if TYPE_CHECKING:
    from paperterm.index.search.analysis import FieldAnalysis

PARTS_FILE = "parts.json"
PART_SUFFIX = ".part"
JOINED_PREFIX = "joined-"
#: The text fields, as the Whoosh schema names them (`whoosh.index.make_schema`).
TEXT_FIELDS = (
    "all",
    "name",
    "title",
    "given_title",
    "authors",
    "collection",
    *FILTER_FIELDS,
)
#: The writer's memory: tantivy writes a segment whenever it is full (a worker process
#: writes one part at a time, so a build holds this per worker).
WRITER_HEAP = 64_000_000


def make_schema() -> Any:
    tantivy = load_tantivy()
    builder = tantivy.SchemaBuilder()
    builder.add_unsigned_field("row", indexed=True, fast=True)
    for name in TEXT_FIELDS:
        builder.add_text_field(name, tokenizer_name="whitespace", index_option="position")
    return builder.build()


#: Collections (joined by " ; ") -> their terms in `all` and their `collection` field:
#: papers share a few collections, so each is cut once (cleared past `_COLLECTIONS_KEPT`).
_COLLECTIONS: dict[str, tuple[list[str], str]] = {}
_COLLECTIONS_KEPT = 10_000


def _collection_terms(analysis: FieldAnalysis, collections: str) -> tuple[list[str], str]:
    found = _COLLECTIONS.get(collections)
    if found is None:
        if len(_COLLECTIONS) >= _COLLECTIONS_KEPT:
            _COLLECTIONS.clear()
        cut = words_of(collections)
        found = (analysis.word_terms("all", cut), analysis.joined_words("collection", cut))
        _COLLECTIONS[collections] = found
    return found


def make_document(
    tantivy: Any,
    analysis: FieldAnalysis,
    row: int,
    paper: Paper,
    words: list[str] | None = None,
) -> tuple[Any, int]:
    """A paper's document, `row` its place in its part, and the distinct terms of its `all`
    field (what the part's size follows). Its fields hold what `whoosh.index.paper_document`
    gives Whoosh, cut by our analyzers: `all` is the name, title (when the source gave
    one), text, authors and collections, whose terms are each part's in turn (no word runs
    across the line breaks that would join them), so each part is cut once (the title's
    terms serve both fields, the authors' words both analyzers). `words`: the words of its
    name, title and text as the vocabulary counts them (`words.paper_words`, in lower
    case), which `all` takes for those of text that `words.lowers_alike`."""
    author_words = words_of(" ; ".join(paper.authors))
    author_terms = analysis.word_terms("all", author_words)
    collection_terms, collections = _collection_terms(analysis, " ; ".join(paper.collections))
    name_words = words_of(paper.name)
    title_words = words_of(paper.title)
    title_terms = analysis.word_terms("title", title_words)
    given_terms = [] if paper.title_derived else title_terms
    if (
        words is not None
        and lowers_alike(paper.name)
        and lowers_alike(paper.title)
        and lowers_alike(paper.text)
    ):
        # Their words are `words` in lower case (ASCII text, and most other: a fifth of
        # arXiv rows is not ASCII), and a word without CJK has one term: counted without
        # cutting `every` again.
        if paper.title_derived:  # its words are the text's: not counted twice
            words = words[: len(name_words)] + words[len(name_words) + len(title_words) :]
        terms = analysis.word_terms("all", words)
        rest = [*author_terms, *collection_terms]
        every = " ".join(terms + rest)
        distinct = set(terms)
        distinct.update(" ".join(rest).split())
    else:
        text_terms = analysis.word_terms("all", words_of(paper.text))
        name_terms = analysis.word_terms("all", name_words)
        every = " ".join([*name_terms, *given_terms, *text_terms, *author_terms, *collection_terms])
        distinct = set(every.split())
    document = tantivy.Document()
    document.add_unsigned("row", row)
    document.add_text("all", every)
    document.add_text("name", analysis.joined_words("name", name_words))
    document.add_text("title", " ".join(title_terms))
    document.add_text("given_title", " ".join(given_terms))
    document.add_text("authors", analysis.joined_words("authors", author_words))
    document.add_text("collection", collections)
    for name, text in FILTER_FIELDS.items():
        value = text(paper)
        document.add_text(name, analysis.joined(name, value) if value else "")
    return document, len(distinct)


@dataclass(frozen=True, slots=True)
class TantivyPart:
    """A part of the index: its folder's id and how many papers it holds."""

    id: str
    papers: int


class PartWriter:
    """Writes one part: the documents of some papers, in the order given."""

    def __init__(self, folder: Path) -> None:
        from paperterm.index.search.analysis import FieldAnalysis

        self._tantivy = load_tantivy()
        self.id = uuid.uuid4().hex[:16]
        self._folder = folder / f"{self.id}{PART_SUFFIX}"
        self._folder.mkdir(parents=True)
        self._index = self._tantivy.Index(make_schema(), path=str(self._folder))
        self._writer = self._index.writer(WRITER_HEAP, 1)
        self._analysis = FieldAnalysis()
        self._count = 0
        self._postings = 0

    def add(self, paper: Paper, words: list[str] | None = None) -> None:
        document, distinct = make_document(self._tantivy, self._analysis, self._count, paper, words)
        self._writer.add_document(document)
        self._postings += distinct
        self._count += 1

    def __len__(self) -> int:
        return self._count

    @property
    def postings(self) -> int:
        return self._postings

    def finish(self) -> TantivyPart:
        """Write the part's segments and let go of its files."""
        self._writer.commit()
        self._writer.wait_merging_threads()
        self._writer = self._index = None
        return TantivyPart(self.id, self._count)


class TantivyIndex:
    """An open tantivy index: one index over the segments of every part, and for each
    segment (in the index's order) the row of its part's first paper."""

    def __init__(self, index: Any, offsets: Sequence[int] | None = None) -> None:
        self.index = index
        self.searcher = index.searcher()
        #: None: rows are the papers' own (an index written in one go).
        self.offsets = list(offsets) if offsets is not None else None
        self.schema = make_schema()

    def doc_count_all(self) -> int:
        return int(self.searcher.num_docs)

    def close(self) -> None:
        """Let go of the index's files (tantivy maps them)."""
        self.index = self.searcher = None


def _part(part: object) -> TantivyPart:
    """A part the store hands back (it keeps every engine's parts as plain objects)."""
    if not isinstance(part, TantivyPart):
        raise TypeError(f"not a tantivy part: {part!r}")
    return part


def _private_lock(path: Path) -> None:
    """Create tantivy's lock file 0600 before tantivy does (with the umask's mode); best
    effort: a data dir that cannot be written is read as it is."""
    with contextlib.suppress(OSError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600))


def _is_lock(name: str) -> bool:
    """Tantivy's lock files, which it makes (and may remove) whenever it opens an index."""
    return name.startswith(".") and name.endswith(".lock")


class TantivyFiles:
    """The tantivy engine's files in a generation's engine folder (`EngineFiles`)."""

    name = "tantivy"
    bounded_writer = True  # a segment is written whenever the writer's heap is full

    def __init__(self) -> None:
        load_tantivy()  # a clear error at once, not in a worker process

    def part_writer(self, folder: Path) -> PartWriter:
        return PartWriter(folder)

    def part_id(self, part: object) -> str:
        return _part(part).id

    def parts(self, folder: Path) -> dict[str, object]:
        return {part.id: part for part, _ in self._listed(folder)[1]}

    def _listed(self, folder: Path) -> tuple[str, list[tuple[TantivyPart, list[str]]]]:
        """The joined index's folder, and the parts in order, each with its segments."""
        listed = json.loads((folder / PARTS_FILE).read_text(encoding="utf-8"))
        parts = [
            (TantivyPart(str(e["id"]), int(e["papers"])), [str(s) for s in e["segments"]])
            for e in listed["parts"]
        ]
        return str(listed["joined"]), parts

    def part_files(self, folder: Path, part: object) -> list[str]:
        name = f"{_part(part).id}{PART_SUFFIX}"
        return sorted(f"{name}/{file}" for file in os.listdir(folder / name) if not _is_lock(file))

    def keep_part(self, base: Path, folder: Path, part: object) -> None:
        (folder / f"{_part(part).id}{PART_SUFFIX}").mkdir(parents=True, exist_ok=True)
        for name in self.part_files(base, part):
            os.link(base / name, folder / name)

    def commit(self, folder: Path, parts: Sequence[object]) -> None:
        """Make the index of `folder` these parts, in order: a joined index (a folder of its
        own, new each time: a reader of the previous one keeps it) whose meta.json lists
        every part's segments, their files hard-linked from the parts. So a query sees one
        index: its statistics (idf, average field lengths) are the whole corpus's, as in
        Whoosh, whatever the parts. The lock files tantivy left are removed, so that no
        checksum is recorded for them."""
        folder.mkdir(parents=True, exist_ok=True)
        listed = [_part(part) for part in parts]
        joined = folder / f"{JOINED_PREFIX}{uuid.uuid4().hex[:16]}"
        joined.mkdir()
        template: dict[str, Any] | None = None
        segments: list[Any] = []
        described = []
        for part in listed:
            own = folder / f"{part.id}{PART_SUFFIX}"
            meta = json.loads((own / "meta.json").read_text(encoding="utf-8"))
            template = template or meta
            segments += meta["segments"]
            described.append(
                {
                    "id": part.id,
                    "papers": part.papers,
                    "segments": [segment["segment_id"] for segment in meta["segments"]],
                }
            )
            for file in os.listdir(own):
                if _is_lock(file):
                    (own / file).unlink(missing_ok=True)
                elif file not in ("meta.json", ".managed.json"):
                    os.link(own / file, joined / file)
        if template is None:  # no papers: an empty index
            load_tantivy().Index(make_schema(), path=str(joined))
        else:
            write_json(joined / "meta.json", {**template, "segments": segments})
        for file in os.listdir(joined):
            if _is_lock(file) or file == ".managed.json":
                (joined / file).unlink()
        write_json(folder / PARTS_FILE, {"joined": joined.name, "parts": described})
        for old in folder.glob(f"{JOINED_PREFIX}*"):
            if old != joined:
                shutil.rmtree(old, ignore_errors=True)

    def open(self, folder: Path) -> TantivyIndex:
        tantivy = load_tantivy()
        joined, parts = self._listed(folder)
        if "/" in joined or not joined.startswith(JOINED_PREFIX):
            raise ValueError(f"{folder / PARTS_FILE}: not a folder of this index: {joined!r}")
        offset_of: dict[str, int] = {}
        offset = 0
        for part, segments in parts:
            offset_of.update(dict.fromkeys(segments, offset))
            offset += part.papers
        meta = json.loads((folder / joined / "meta.json").read_text(encoding="utf-8"))
        offsets = [offset_of[segment["segment_id"]] for segment in meta["segments"]]
        _private_lock(folder / joined / ".tantivy-meta.lock")
        return TantivyIndex(tantivy.Index.open(str(folder / joined)), offsets)

    def in_memory(self, papers: Sequence[Paper]) -> TantivyIndex:
        """An index of `papers` in RAM (for a data dir that cannot be written)."""
        from paperterm.index.search.analysis import FieldAnalysis

        tantivy = load_tantivy()
        index = tantivy.Index(make_schema())
        writer = index.writer(WRITER_HEAP, 1)
        analysis = FieldAnalysis()
        for row, paper in enumerate(papers):
            writer.add_document(make_document(tantivy, analysis, row, paper)[0])
        writer.commit()
        writer.wait_merging_threads()
        index.reload()
        return TantivyIndex(index)
