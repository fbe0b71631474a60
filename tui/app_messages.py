"""The index worker's messages to the app: papers to show, progress, an index to search,
the library read, the sort keys computed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual.message import Message

from paperterm.index.library.sorting import SortKeys
from paperterm.index.papers import Paper

if TYPE_CHECKING:
    from paperterm.index.search.open_index import OpenIndex
    from paperterm.index.search.searcher import Searcher


class CorpusLoaded(Message):
    """The papers, shown at once: while the index is being built (first launch) or while
    the searcher is being set up."""

    def __init__(self, papers: Sequence[Paper], problems: list[str], building: bool) -> None:
        super().__init__()
        self.papers = papers
        self.problems = problems
        self.building = building


class PartialIndex(Message):
    """While the first build runs: an index of the papers indexed so far, to search."""

    def __init__(self, opened: OpenIndex, searcher: Searcher) -> None:
        super().__init__()
        self.opened = opened
        self.searcher = searcher


class IndexProgress(Message):
    def __init__(self, done: int, total: int) -> None:
        super().__init__()
        self.done = done
        self.total = total


class IndexBytes(Message):
    """How much of the source files a build has read (bytes read, bytes to read)."""

    def __init__(self, read: int, size: int) -> None:
        super().__init__()
        self.read = read
        self.size = size


class ReadingPolled(Message):
    """The reading-state worker's poll: whether what the screens show may have changed,
    and whether changes that had failed to save are saved now."""

    def __init__(self, changed: bool, saved: bool) -> None:
        super().__init__()
        self.changed = changed
        self.saved = saved


class ReadingSaveFailed(Message):
    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


class LibraryLoaded(Message):
    """The reading state, the saved searches and where the reader was are read."""


class SortKeysReady(Message):
    def __init__(self, keys: SortKeys) -> None:
        super().__init__()
        self.keys = keys


class IndexReady(Message):
    def __init__(self, opened: OpenIndex, searcher: Searcher, warnings: list[str]) -> None:
        super().__init__()
        self.opened = opened
        self.searcher = searcher
        self.warnings = warnings


class TopicsReady(Message):
    """The topics computed for a corpus that carries none (id -> label), and a warning
    about the kept file, if any."""

    def __init__(self, labels: dict[str, str], warning: str | None) -> None:
        super().__init__()
        self.labels = labels
        self.warning = warning


class IndexUpdating(Message):
    """A source changed: the index as built before, searched while the update runs."""

    def __init__(self, opened: OpenIndex, searcher: Searcher) -> None:
        super().__init__()
        self.opened = opened
        self.searcher = searcher
