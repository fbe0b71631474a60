"""What the CLI and the TUI share: resolve sources and data dir, open or build the index.

Both faces call these same functions; neither knows how the index is stored.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from paperterm.index.config import Config
from paperterm.index.papers import Paper
from paperterm.index.problems import Problem
from paperterm.index.search.store import (
    OpenIndex,
    Progress,
    Store,
    build_in_memory,
    fingerprint,
)
from paperterm.index.sources.loader import (
    Corpus,
    SourceSpec,
    bundled_seeds,
    discover,
    load_sources,
)


class SessionError(Exception):
    """A one-line reason the session cannot start (bad data dir, missing source...)."""


@dataclass(slots=True)
class Session:
    data_dir: Path
    specs: list[SourceSpec]
    config: Config = field(default_factory=Config)
    warnings: list[str] = field(default_factory=list)
    _files: list[Path] | None = None
    _problems: list[Problem] = field(default_factory=list)

    @classmethod
    def create(cls, data_dir: Path, sources: list[Path], config: Config) -> Session:
        """`sources` from the command line replace the configured ones (and the seeds)."""
        if data_dir.is_symlink() and not data_dir.is_dir():
            raise SessionError(f"{data_dir}: data dir is a symbolic link to no folder")
        if data_dir.exists() and not data_dir.is_dir():
            raise SessionError(f"{data_dir}: data dir exists but is not a folder")
        if sources:
            missing = [path for path in sources if not path.exists()]
            if missing:
                raise SessionError(f"{missing[0]}: no such source file or folder")
            specs = [SourceSpec(path) for path in sources]
        else:
            specs = (bundled_seeds() if config.include_seeds else []) + list(config.sources)
        return cls(data_dir=data_dir, specs=specs, config=config)

    @property
    def store(self) -> Store:
        return Store(self.data_dir)

    def files(self) -> list[Path]:
        if self._files is None:
            files: list[Path] = []
            for spec in self.specs:
                found, problems = discover(spec)
                files.extend(found)
                self._problems.extend(problems)
            self._files = files
        return self._files

    def fingerprint(self) -> str:
        overrides = [[str(spec.path), spec.collection] for spec in self.specs]
        return fingerprint(self.files(), overrides)

    def open_existing(self, papers: list[Paper] | None = None) -> OpenIndex | None:
        """The index if it is built, current and sound: the fast path of every start.
        `papers` from `open_papers` saves reading them twice."""
        return self.store.open_current(self.fingerprint(), papers)

    def open_papers(self) -> list[Paper] | None:
        """The papers of a built, current index, without opening it (no Whoosh): the
        reader's first screen. None when the index must be built."""
        return self.store.read_papers(self.fingerprint())

    def load_corpus(self) -> Corpus:
        corpus = load_sources(self.specs)
        return corpus

    def build(
        self,
        corpus: Corpus,
        progress: Progress | None = None,
        cancelled: Callable[[], bool] | None = None,
        *,
        force: bool = False,
    ) -> OpenIndex:
        """Build (or wait for another process's build; `force` builds anew whatever is
        there), falling back to memory when the data dir cannot be written: the result's
        `location` is then ":memory:"."""
        fp = self.fingerprint()
        store = self.store
        try:
            lock = store.build_lock()
            if force:
                lock.acquire()
            elif not lock.try_acquire():
                stale = store.open_current(None)
                if stale is not None:
                    self.warnings.append(
                        "another paperterm is rebuilding the index; showing the previous one"
                    )
                    return stale
                lock.acquire()  # nothing to show meanwhile: wait for that build
            try:
                # Another process may have finished the same build while we waited.
                ready = None if force else store.open_current(fp)
                if ready is not None:
                    return ready
                return store.build(corpus, fp, progress, cancelled)
            finally:
                lock.release()
        except OSError as error:
            # Read-only, full, or damaged in a way we did not make (a file where the index
            # folder should be...): whatever the reason, this run still works from memory.
            self.warnings.append(
                f"{self.data_dir}: cannot write the index ({_reason(error)}); "
                "using an in-memory index for this run"
            )
            return build_in_memory(corpus, fp, progress, cancelled)

    def open(
        self,
        rebuild: bool = False,
        progress: Progress | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> tuple[OpenIndex, list[str]]:
        """The index, building it if needed; also the corpus problems to report."""
        if not rebuild:
            ready = self.open_existing()
            if ready is not None:
                return ready, [*map(str, self._problems), *ready.meta.problems]
        corpus = self.load_corpus()
        opened = self.build(corpus, progress, cancelled, force=rebuild)
        return opened, [*map(str, self._problems), *map(str, corpus.problems)]


def _reason(error: OSError) -> str:
    """`strerror: file` for an OSError, in one line."""
    why = error.strerror or str(error)
    return f"{why}: {error.filename}" if error.filename else why
