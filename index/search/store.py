"""The on-disk Whoosh index: built on first use, swapped in atomically, rebuilt when stale.

Layout inside `<data dir>/index/`:

    CURRENT          name of the live generation (replaced atomically with os.replace)
    gen-<stamp>/     a complete index: Whoosh files, meta.json, papers.bin, vocab.json
    tmp-<stamp>/     a build in progress (or one killed mid-way: removed by the next build)
    build.lock       locked (`FileLock`) by the process that is building

A build writes a whole new generation and only then points CURRENT at it, so a reader never
sees a half-written index, a killed build leaves the old one live, and readers that opened
the previous generation keep working until they reopen (the previous one is kept).
"""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING

from paperterm.index.atomic import (
    FileLock,
    atomic_write_bytes,
    atomic_write_text,
    fsync_folder,
    remove_stale_temp_files,
    write_json,
)
from paperterm.index.papers import Paper
from paperterm.index.sources.loader import Corpus

if TYPE_CHECKING:
    from whoosh.fields import Schema
    from whoosh.index import Index

    from paperterm.index.search.vocabulary import Vocabulary

#: Bump when the schema, the analyzers or what goes into papers.bin change: forces a rebuild.
SCHEMA_VERSION = 5
#: Bump when parsing or derivation (names, titles, display text) changes.
PARSER_VERSION = 3

Progress = Callable[[int, int], None]
VOCABULARY_FILE = "vocab.json"
PAPERS_FILE = "papers.bin"


class StoreError(Exception):
    """The index cannot be used or built; the message is one line for the user."""


class BuildCancelled(Exception):
    pass


def make_schema() -> Schema:
    """`all` holds every searchable word of a paper (stemmed) and does the matching; the
    small `name` and `title` fields add their boosts to papers that match there, and
    `authors` and `collection` serve `author:` and `collection:` queries. Each field's
    analyzer is `FieldAnalysis`'s, which the query planner cuts queries with."""
    # Whoosh is imported where it is used: a start with a built index shows the list from
    # the papers file before anything of Whoosh is loaded.
    from whoosh.fields import ID, TEXT, Schema

    from paperterm.index.search.analysis import FieldAnalysis

    analysis = FieldAnalysis()
    return Schema(
        id=ID(stored=True, unique=True),
        all=TEXT(analyzer=analysis.analyzer("all")),
        name=TEXT(analyzer=analysis.analyzer("name"), field_boost=4.0),
        title=TEXT(analyzer=analysis.analyzer("title"), field_boost=2.5),
        authors=TEXT(analyzer=analysis.analyzer("authors")),
        collection=TEXT(analyzer=analysis.analyzer("collection")),
    )


def fingerprint(files: list[Path], extra: object = None) -> str:
    """Changes when a source file is added, removed or modified, or when the schema or
    parsers change. Uses size and modification time, which costs one stat() per file.
    Paths count as the bytes they are on disk: how the locale decodes a name that is not
    ASCII (`LC_ALL=C` with `PYTHONUTF8=0`) must not make the index look stale."""
    entries = []
    for path in files:
        try:
            info = path.stat()
            entries.append([_path_key(path.resolve()), info.st_size, info.st_mtime_ns])
        except OSError:
            entries.append([_path_key(path), -1, -1])
    payload = json.dumps(
        [SCHEMA_VERSION, PARSER_VERSION, sorted(entries), extra], sort_keys=True, default=str
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def _path_key(path: Path) -> str:
    return os.fsencode(path).decode("utf-8", "surrogateescape")


def paper_document(paper: Paper) -> dict[str, str]:
    authors = " ; ".join(paper.authors)
    collections = " ; ".join(paper.collections)
    return {
        "id": paper.id,
        "all": f"{paper.name}\n{paper.title}\n{paper.text}\n{authors}\n{collections}",
        "name": paper.name,
        "title": paper.title,
        "authors": authors,
        "collection": collections,
    }


def vocabulary_of(papers: list[Paper]) -> Vocabulary:
    from paperterm.index.search.vocabulary import Vocabulary

    return Vocabulary.from_texts(f"{p.name} {p.title} {p.text}" for p in papers)


@dataclass(slots=True)
class Meta:
    schema: int
    fingerprint: str
    papers: int
    collections: list[str]
    built_at: float
    seconds: float
    problems: list[str] = field(default_factory=list)

    @classmethod
    def of_build(cls, corpus: Corpus, fp: str, started: float) -> Meta:
        """What a build of `corpus` that began at `started` (perf_counter) records."""
        return cls(
            schema=SCHEMA_VERSION,
            fingerprint=fp,
            papers=len(corpus.papers),
            collections=corpus.collections,
            built_at=time.time(),
            seconds=round(time.perf_counter() - started, 3),
            problems=[str(problem) for problem in corpus.problems],
        )


@dataclass(slots=True)
class OpenIndex:
    """A usable index and the papers it holds (in corpus order)."""

    ix: Index
    papers: list[Paper]
    meta: Meta
    location: str  # folder of the generation, or ":memory:"
    _vocabulary: Vocabulary | None = None

    def vocabulary(self) -> Vocabulary:
        """The corpus's words, from the file saved at build time (or counted again)."""
        if self._vocabulary is None:
            from paperterm.index.search.vocabulary import Vocabulary

            try:
                self._vocabulary = Vocabulary.load(Path(self.location) / VOCABULARY_FILE)
            except (OSError, ValueError):
                self._vocabulary = vocabulary_of(self.papers)
        return self._vocabulary


class Store:
    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.root = data_dir / "index"

    # --- reading -------------------------------------------------------------------------

    def current_generation(self) -> Path | None:
        try:
            name = (self.root / "CURRENT").read_text(encoding="utf-8").strip()
        except (OSError, ValueError):  # missing, unreadable, or not text
            return None
        if not name.startswith("gen-") or "/" in name or "\\" in name:
            return None
        folder = self.root / name
        return folder if folder.is_dir() else None

    def read_meta(self, folder: Path) -> Meta | None:
        try:
            data = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
            return Meta(**data)
        except (OSError, ValueError, TypeError):
            return None

    def _current_meta(self, expected_fingerprint: str | None) -> tuple[Path, Meta] | None:
        folder = self.current_generation()
        if folder is None:
            return None
        meta = self.read_meta(folder)
        if meta is None or meta.schema != SCHEMA_VERSION:
            return None
        if expected_fingerprint is not None and meta.fingerprint != expected_fingerprint:
            return None
        return folder, meta

    def read_papers(self, expected_fingerprint: str | None) -> list[Paper] | None:
        """The live generation's papers without opening the index (no Whoosh import): what
        the reader shows first. None when there is no sound, current generation."""
        found = self._current_meta(expected_fingerprint)
        if found is None:
            return None
        folder, meta = found
        try:
            papers = load_papers(folder / PAPERS_FILE)
        except Exception:  # any damage means "rebuild", never a crash
            return None
        return papers if len(papers) == meta.papers else None

    def open_current(
        self, expected_fingerprint: str | None, papers: list[Paper] | None = None
    ) -> OpenIndex | None:
        """The live generation, or None when there is none, it is stale or it is damaged.
        `papers` from `read_papers` saves reading them again."""
        found = self._current_meta(expected_fingerprint)
        if found is None:
            return None
        folder, meta = found
        try:
            from whoosh import index as whoosh_index

            ix = whoosh_index.open_dir(str(folder), readonly=True)
            with ix.searcher() as searcher:
                if searcher.doc_count() != meta.papers:
                    return None
            if papers is None:
                papers = load_papers(folder / PAPERS_FILE)
        except Exception:  # any damage means "rebuild", never a crash
            return None
        if len(papers) != meta.papers:
            return None
        return OpenIndex(ix, papers, meta, str(folder))

    # --- building ------------------------------------------------------------------------

    def build_lock(self) -> FileLock:
        """The lock a process holds while it builds (waiting for it waits for the build)."""
        return FileLock(self.root / "build.lock", timeout=None)

    def build(
        self,
        corpus: Corpus,
        fp: str,
        progress: Progress | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> OpenIndex:
        """Build a new generation and make it live. Call with the build lock held."""
        self._remove_leftovers()
        stamp = f"{time.time_ns():x}-{os.getpid()}"
        tmp = self.root / f"tmp-{stamp}"
        final = self.root / f"gen-{stamp}"
        tmp.mkdir(parents=True)
        from whoosh import index as whoosh_index

        try:
            started = time.perf_counter()
            ix = whoosh_index.create_in(str(tmp), make_schema())
            write_documents(ix, corpus.papers, progress, cancelled)
            save_papers(tmp / PAPERS_FILE, corpus.papers)
            vocabulary = vocabulary_of(corpus.papers)
            atomic_write_text(tmp / VOCABULARY_FILE, vocabulary.dumps())
            meta = Meta.of_build(corpus, fp, started)
            write_json(tmp / "meta.json", asdict(meta))
            fsync_folder(tmp)
            os.rename(tmp, final)
            atomic_write_text(self.root / "CURRENT", final.name + "\n")
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            if self.current_generation() != final:  # not made live: nothing will use it
                shutil.rmtree(final, ignore_errors=True)
            raise
        self._remove_old_generations(keep={final.name})
        ix = whoosh_index.open_dir(str(final), readonly=True)
        return OpenIndex(ix, corpus.papers, meta, str(final), vocabulary)

    def _remove_leftovers(self) -> None:
        """What builds killed mid-way left: their folders and CURRENT's temporary files."""
        for entry in self.root.glob("tmp-*"):
            shutil.rmtree(entry, ignore_errors=True)
        remove_stale_temp_files(self.root / "CURRENT")

    def _remove_old_generations(self, keep: set[str]) -> None:
        """Drop all generations but the live one and the newest previous one (which a
        running reader may still be using)."""
        old = sorted(
            (p for p in self.root.glob("gen-*") if p.name not in keep),
            key=lambda p: p.stat().st_mtime_ns if p.exists() else 0,
        )
        for entry in old[:-1]:
            shutil.rmtree(entry, ignore_errors=True)


def build_in_memory(
    corpus: Corpus,
    fp: str,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> OpenIndex:
    """For a data dir that cannot be written: the same index, in RAM, for this run only."""
    started = time.perf_counter()
    from whoosh.filedb.filestore import RamStorage

    class MemoryStorage(RamStorage):  # type: ignore[misc]  # Whoosh has no type hints
        """RamStorage whose writers' scratch space is memory too. Whoosh's own puts it in
        a folder named after the index in the temp dir, `/tmp/MAIN.tmp` for every process:
        two in-memory builds at once (a reader and a CLI over an unwritable data dir)
        deleted each other's scratch files and crashed, and a full disk failed it."""

        def temp_storage(self, name: str | None = None) -> RamStorage:
            return RamStorage()

    ix = MemoryStorage().create_index(make_schema())
    write_documents(ix, corpus.papers, progress, cancelled)
    meta = Meta.of_build(corpus, fp, started)
    return OpenIndex(ix, corpus.papers, meta, ":memory:", vocabulary_of(corpus.papers))


def write_documents(
    ix: Index,
    papers: list[Paper],
    progress: Progress | None,
    cancelled: Callable[[], bool] | None,
) -> None:
    writer = ix.writer(limitmb=256)
    total = len(papers)
    step = max(1, total // 100)
    try:
        for done, paper in enumerate(papers, start=1):
            writer.add_document(**paper_document(paper))
            if done % step == 0 or done == total:
                if cancelled is not None and cancelled():
                    raise BuildCancelled
                if progress is not None:
                    progress(done, total)
    except BaseException:
        writer.cancel()
        raise
    writer.commit(optimize=False, merge=False)


#: Paper fields in the order the papers file stores them.
_PAPER_FIELDS = tuple(f.name for f in fields(Paper))


def save_papers(path: Path, papers: list[Paper]) -> None:
    """The corpus as parsed, for the next start: one marshal'd list of tuples, which loads
    about five times faster than JSON (a warm start at 50,000 papers reads ~100 MB)."""
    rows = [tuple(getattr(paper, name) for name in _PAPER_FIELDS) for paper in papers]
    atomic_write_bytes(path, marshal.dumps((_PAPER_FIELDS, rows)))


def load_papers(path: Path) -> list[Paper]:
    """Raises ValueError (or OSError) when the file is damaged or from another version."""
    with open(path, "rb") as handle:
        names, rows = marshal.load(handle)
    if tuple(names) != _PAPER_FIELDS:
        raise ValueError(f"{path}: written by another version")
    return [Paper(*row) for row in rows]
