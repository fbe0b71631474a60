"""An index open for reading, and the papers it holds. Apart from the store (store.py): the
reader's first frame shows the rows of a generation (`Store.open_rows`) and opens its
engine after it, so defining this dataclass waits until then."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from paperterm.index.search.store import VOCABULARY_FILE

if TYPE_CHECKING:
    from paperterm.index.papers import Paper
    from paperterm.index.search.engine_files import EngineIndex
    from paperterm.index.search.generation_meta import Meta
    from paperterm.index.search.vocabulary import Vocabulary


@dataclass(slots=True)
class OpenIndex:
    """A usable index and the papers it holds (in corpus order: a document's number in the
    engine is its paper's position)."""

    ix: EngineIndex
    papers: Sequence[Paper]
    meta: Meta
    location: str  # folder of the generation, or ":memory:" (or a build in progress)
    _vocabulary: Vocabulary | None = None
    #: While the first build runs: how many papers it will hold (this index has fewer).
    building_total: int | None = None

    @property
    def partial(self) -> bool:
        return self.building_total is not None

    @property
    def collections(self) -> list[str]:
        return self.meta.collections

    def vocabulary(self) -> Vocabulary:
        """The corpus's words, from the file saved at build time (or counted again)."""
        if self._vocabulary is None:
            from paperterm.index.search.vocabulary import Vocabulary

            try:
                self._vocabulary = Vocabulary.load(Path(self.location) / VOCABULARY_FILE)
            except (OSError, ValueError):
                self._vocabulary = Vocabulary.of_papers(self.papers)
        return self._vocabulary

    def close(self) -> None:
        self.ix.close()
