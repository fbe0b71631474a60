"""What the CLI and the TUI share: resolve sources and data dir, open or build the index.

Both faces call these same functions; neither knows how the index is stored.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from paperterm.index.config import Config
from paperterm.index.private_files import NotPrivateError, check_private
from paperterm.index.search.records import PaperList
from paperterm.index.search.store import Meta, Progress, SourceFile, Store, set_key
from paperterm.index.sources.files import SourceSpec, bundled_seeds, discover

if TYPE_CHECKING:
    from paperterm.index.problems import Problem
    from paperterm.index.search.listener import Listener
    from paperterm.index.search.open_index import OpenIndex
    from paperterm.index.sources.loader import Corpus


#: Above this many papers, `engine = "auto"` (Whoosh) says how to get the tantivy engine.
LARGE_CORPUS = 100_000


class SessionError(Exception):
    """A one-line reason the session cannot start (bad data dir, missing source...)."""


class SourceRefused(SessionError):
    """A source file named directly has a shape no parser reads (`detect.refusal`)."""


#: The extensions read as they say, whatever the file holds: no look inside is needed.
_READ_BY_NAME = (".txt", ".bib", ".bibtex", ".jsonl", ".ndjson")


def check_sources(specs: list[SourceSpec]) -> None:
    """Raise `SourceRefused` for the first file named directly (not found in a folder,
    whose files are refused one by one, the others read) that would be refused."""
    for spec in specs:
        if spec.format not in ("auto", "csv", "tsv"):
            continue
        if spec.format == "auto" and spec.path.suffix.lower() in _READ_BY_NAME:
            continue
        if spec.path.is_file():
            from paperterm.index.sources.detect import refusal

            why = refusal(spec.path, spec.read_as)
            if why is not None:
                raise SourceRefused(why)


class Check(NamedTuple):
    """What `Session.check` found. A named tuple, not a dataclass: less to define as the
    reader starts (issue 14)."""

    location: str
    papers: int
    files: int
    damaged: list[str]
    rebuilt: bool


@dataclass(slots=True)
class Session:
    data_dir: Path
    specs: list[SourceSpec]
    config: Config = field(default_factory=Config)
    warnings: list[str] = field(default_factory=list)
    _files: list[SourceFile] | None = None
    _problems: list[Problem] = field(default_factory=list)
    #: Some source files were touched since the index was built (their content the same):
    #: the next build only records their new stamps.
    _restamped: bool = False
    _store: Store | None = None
    #: The live generation `current_meta` last looked at, and what it found (`freshness`).
    _judged: tuple[Path, str] | None = None

    @classmethod
    def create(cls, data_dir: Path, sources: list[Path], config: Config) -> Session:
        """`sources` from the command line replace the configured ones (and the seeds)."""
        if data_dir.is_symlink() and not data_dir.is_dir():
            raise SessionError(f"{data_dir}: data dir is a symbolic link to no folder")
        if data_dir.exists() and not data_dir.is_dir():
            raise SessionError(f"{data_dir}: data dir exists but is not a folder")
        for folder, what in ((data_dir, "data folder"), (data_dir / "index", "index folder")):
            try:
                check_private(folder, what)
            except NotPrivateError as error:
                raise SessionError(f"{folder}: {error.strerror}") from None
        if sources:
            missing = [path for path in sources if not path.exists()]
            if missing:
                raise SessionError(f"{missing[0]}: no such source file or folder")
            specs = [SourceSpec(path) for path in sources]
        else:
            specs = (bundled_seeds() if config.include_seeds else []) + list(config.sources)
        check_sources(specs)
        if config.engine == "tantivy" and not _tantivy_found():
            # Not installed: `load_tantivy` says so in the words the user needs.
            from paperterm.index.search.tantivy_index import TantivyMissing, load_tantivy

            try:
                load_tantivy()
            except TantivyMissing as error:
                raise SessionError(str(error)) from None
        return cls(data_dir=data_dir, specs=specs, config=config)

    @property
    def engine(self) -> str:
        """The engine the index is built for: "auto" is Whoosh."""
        return "tantivy" if self.config.engine == "tantivy" else "whoosh"

    @property
    def sources_key(self) -> str:
        """The name of this set of sources (`store.set_key`)."""
        return set_key(self.specs)

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = Store(self.data_dir, self.specs, self.engine)
        return self._store

    def note_engine(self, opened: OpenIndex) -> None:
        """With `engine = "auto"` and a large corpus, say (once) how to get the engine made
        for it, when it is not installed."""
        if self.config.engine != "auto" or opened.meta.papers <= LARGE_CORPUS:
            return
        from paperterm.index.search.tantivy_index import INSTALL_HINT, tantivy_installed

        hint = (
            f"{opened.meta.papers:,} papers: searching is faster with the tantivy engine "
            f'({INSTALL_HINT}, then engine = "tantivy" in the config)'
        )
        if hint not in self.warnings and not tantivy_installed():
            self.warnings.append(hint)

    def files(self) -> list[SourceFile]:
        """The source files, in corpus order."""
        if self._files is None:
            files: list[SourceFile] = []
            for number, spec in enumerate(self.specs):
                found, problems = discover(spec)
                files += [
                    SourceFile(number, path, spec.collection, read_as=spec.read_as)
                    for path in found
                ]
                self._problems.extend(problems)
            self._files = files
        return self._files

    @property
    def problems(self) -> list[str]:
        """What finding the source files ran into (missing files, unreadable folders)."""
        self.files()
        return [str(problem) for problem in self._problems]

    def current_meta(self) -> tuple[Path, Meta] | None:
        """The live generation of these sources, if it was built from them as they are."""
        found = self.store.read_meta()
        if found is None:
            return None
        freshness = self.store.freshness(found[1], self.files())
        self._judged = (found[0], freshness)
        if freshness == "stale":
            return None
        self._restamped = freshness == "restamped"
        return found

    def open_papers(self) -> PaperList | None:
        """The papers of a built, current index, without opening it (no Whoosh): the
        reader's first screen. None when the index must be built."""
        found = self.current_meta()
        return None if found is None else self.store.open_rows(*found)

    def open_existing(self, papers: PaperList | None = None) -> OpenIndex | None:
        """The index if it is built, current and sound: the fast path of every start.
        `papers` from `open_papers` saves opening them twice."""
        found = self.current_meta()
        if found is None:
            return None
        folder, meta = found
        store = self.store
        papers = papers if papers is not None else store.open_rows(folder, meta)
        ix = None if papers is None else store.open_engine(folder, meta)
        if papers is None or ix is None:
            return None
        from paperterm.index.search.open_index import OpenIndex  # after the first frame

        opened = OpenIndex(ix, papers, meta, str(folder))
        store.mark_used()
        self.note_engine(opened)
        return opened

    def open_previous(self) -> OpenIndex | None:
        """The live index of these sources as it was built, though a source changed since:
        what the reader lists and searches while the update runs. None when there is none,
        or it is not sound. A build keeps it until the next one."""
        found = self.store.read_meta()
        if found is None:
            return None
        folder, meta = found
        store = self.store
        papers = store.open_rows(folder, meta)
        ix = None if papers is None else store.open_engine(folder, meta)
        if papers is None or ix is None:
            if papers is not None:
                papers.close()
            return None
        from paperterm.index.search.open_index import OpenIndex

        return OpenIndex(ix, papers, meta, str(folder))

    def load_corpus(self) -> Corpus:
        from paperterm.index.sources.loader import load_sources  # the parsers, when needed

        return load_sources(self.specs)

    def build(
        self,
        progress: Progress | None = None,
        cancelled: Callable[[], bool] | None = None,
        *,
        force: bool = False,
        listener: Listener | None = None,
        read_bytes: Progress | None = None,
    ) -> OpenIndex:
        """Build what changed (or wait for another process's build of the same sources;
        `force` builds anew whatever is there), falling back to memory when the data dir
        cannot be written: the result's `location` is then ":memory:"."""
        # Imported here: a start with a built index builds nothing (issue 14).
        from paperterm.index.search.listener import Listener

        listener = listener or Listener(
            progress=progress, read_bytes=read_bytes, cancelled=cancelled
        )
        store = self.store
        try:
            with store.build_lock():
                # Another process may have finished the same build while we waited (a
                # restamped index is not opened: the build records its new stamps).
                look = not force and not self._still_stale()
                if look and self.current_meta() is not None and not self._restamped:
                    ready = self.open_existing()
                    if ready is not None:
                        return ready
                from paperterm.index.search.build import Builder  # the parsers, when needed

                builder = Builder(store, self.files(), self._problems, listener, reuse=not force)
                opened = builder.run()
            store.remove_old_sets()
            self.note_engine(opened)
            return opened
        except OSError as error:
            # Read-only, full, or damaged in a way we did not make (a file where the index
            # folder should be...): whatever the reason, this run still works from memory.
            self.warnings.append(
                f"{self.data_dir}: cannot write the index ({_reason(error)}); "
                "using an in-memory index for this run"
            )
            return self.build_in_memory(listener)

    def _still_stale(self) -> bool:
        """Whether the live generation is still the one `current_meta` found stale or
        restamped (no build of another process went live since): not looked at again."""
        judged = self._judged
        if judged is None or judged[1] == "current":
            return False
        return self.store.current_generation() == judged[0]

    def build_in_memory(self, listener: Listener | None = None) -> OpenIndex:
        """For a data dir that cannot be written: the same index, in RAM, for this run."""
        import time

        from paperterm.index.search.open_index import OpenIndex
        from paperterm.index.search.vocabulary import Vocabulary

        started = time.perf_counter()
        corpus = self.load_corpus()
        if listener is not None:
            listener.check()
        store = self.store
        ix = store.engine.in_memory(corpus.papers)
        seconds = round(time.perf_counter() - started, 3)
        problems = [str(problem) for problem in corpus.problems]
        meta = Meta.transient(store.engine.name, corpus.papers, problems, seconds)
        vocabulary = Vocabulary.of_papers(corpus.papers)
        return OpenIndex(ix, corpus.papers, meta, ":memory:", vocabulary)

    def open(
        self,
        rebuild: bool = False,
        progress: Progress | None = None,
        cancelled: Callable[[], bool] | None = None,
        read_bytes: Progress | None = None,
    ) -> tuple[OpenIndex, list[str]]:
        """The index, building what changed if needed; also the corpus problems to report.
        `progress`: (papers read, expected); `read_bytes`: (bytes read, bytes to read)."""
        opened = None if rebuild else self.open_existing()
        if opened is None or self._restamped:
            if opened is not None:
                opened.close()
            opened = self.build(progress, cancelled, force=rebuild, read_bytes=read_bytes)
        return opened, list(dict.fromkeys([*self.problems, *opened.meta.problems]))

    def check(self, progress: Progress | None = None) -> Check:
        """Read every file of the index against its checksum; rebuild what is damaged."""
        store = self.store
        found = store.read_meta()
        damaged: list[str] = []
        if found is not None:
            folder, meta = found
            damaged = store.verify(folder, meta, full=True)
        elif store.current_generation() is not None:
            damaged = ["meta.json: damaged or of another version"]
        rebuilt = False
        opened: OpenIndex | None
        if damaged or self.current_meta() is None:
            opened = self.build(progress, force=bool(damaged))
            rebuilt = True
        else:
            opened = self.open_existing()
            if opened is None:  # damaged since the check: build it again
                opened = self.build(progress, force=True)
                rebuilt = True
        files = len(opened.meta.files)
        opened.close()
        return Check(opened.location, opened.meta.papers, files, damaged, rebuilt)


def _tantivy_found() -> bool:
    """Whether the tantivy package is installed, without importing it: its native module
    (17 MB) and the engine's module are loaded when the index is opened, after the reader's
    first frame (issue 14: they were ~1-3 ms of the start's CPU and ~270 page faults)."""
    from importlib.util import find_spec

    return find_spec("tantivy") is not None


def _reason(error: OSError) -> str:
    """`strerror: file` for an OSError, in one line."""
    why = error.strerror or str(error)
    return f"{why}: {error.filename}" if error.filename else why
