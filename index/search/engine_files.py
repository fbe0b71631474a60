"""What the store needs of a search engine's files: the seam a second engine's index plugs
into (`store.ENGINES`).

An engine's index lives in a generation's `engine/` folder and is made of parts: each the
documents of a run of consecutive source files, in corpus order, so that a document's
number (its position in the index) is its paper's row in the papers file. A build keeps
the parts whose papers did not change (`keep_part`: hard links, so a part's files must
never change once written) and writes the others; `commit` makes a list of parts the
folder's index. An engine that cannot keep parts apart can write one part of everything:
then every change rebuilds it, and the rest of the store (generations, checksums, kept
source records, the row store) works the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from paperterm.index.papers import Paper


class EngineIndex(Protocol):
    """An engine's index open for reading (`OpenIndex.ix`; `searcher.open_engine` makes the
    engine that searches it)."""

    def doc_count_all(self) -> int: ...

    def close(self) -> None: ...


class PartWriter(Protocol):
    def add(self, paper: Paper, words: list[str] | None = None) -> None:
        """Index the paper as the next document. `words`: the words the vocabulary counts
        of it (`words.paper_words`), when the caller has them: an engine may take its
        text's words from them rather than cut the text again."""
        ...

    def __len__(self) -> int: ...

    @property
    def postings(self) -> int:
        """What the part's size (and the memory writing it takes) follows."""
        ...

    def finish(self) -> object:
        """Write the part's files; the part, as `commit` takes it (picklable: a worker
        process writes it and the build process commits it)."""
        ...


class EngineFiles(Protocol):
    #: The folder name under `<data dir>/index/`: each engine's indexes live apart.
    name: str
    #: Whether a part's writer holds bounded memory whatever the part's size (then a large
    #: build writes fewer, larger parts, rather than many it must join again).
    bounded_writer: bool

    def part_writer(self, folder: Path) -> PartWriter: ...

    def part_id(self, part: object) -> str: ...

    def parts(self, folder: Path) -> dict[str, object]:
        """The parts of the index in `folder`, by id (raises when it cannot be read)."""
        ...

    def part_files(self, folder: Path, part: object) -> list[str]: ...

    def keep_part(self, base: Path, folder: Path, part: object) -> None:
        """Make a part of the index in `base` one of `folder`'s."""
        ...

    def commit(self, folder: Path, parts: Sequence[object]) -> None:
        """Make the index of `folder` these parts, in this order."""
        ...

    def open(self, folder: Path) -> EngineIndex:
        """The index of `folder`, for reading (what `OpenIndex.ix` and the searcher take)."""
        ...

    def in_memory(self, papers: Sequence[Paper]) -> EngineIndex:
        """An index of `papers` in memory (a data dir that cannot be written)."""
        ...
