"""What the reader knows, apart from how it is drawn: the papers, how far the index is, the
searcher, the bookmarks, the warnings, the pauses it keeps.

The app owns one `ReaderState` and changes it as its workers report; every screen gets it
in its constructor and reads it with its types. So a screen never reaches into the app, and
the screens' modules never import the app's (the app imports them): no import circle, type-only
imports included. Nothing here imports Textual, so the rules are testable without a terminal.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from paperterm.index.config import Config
from paperterm.index.library.bookmarks import (
    Bookmark,
    BookmarksError,
    BookmarksFileError,
    BookmarkStore,
)
from paperterm.index.library.filters import paper_ids
from paperterm.index.papers import Paper
from paperterm.index.search.hits import Hit
from paperterm.index.search.records import PaperList
from paperterm.index.search.store import OpenIndex
from paperterm.index.text.display import safe_text

if TYPE_CHECKING:
    from paperterm.index.search.searcher import Searcher

#: loading: reading the papers; opening: papers shown, index opening; indexing: first
#: launch, the index is being built; ready / memory: search works; failed: it never will.
IndexState = Literal["loading", "opening", "indexing", "ready", "memory", "failed"]
RELATED_LIMIT = 5
#: Related papers kept per paper id: moving back over a paper costs no second look-up.
RELATED_CACHE = 512
#: How a binding's keys read on screen, by binding id: `key_text("cursor_down")` -> `j/↓`
#: (`keys.KeyLabels`, made by the app: it knows how Textual shows a key).
KeyText = Callable[[str], str]


@dataclass(frozen=True, slots=True)
class Timing:
    """The reader's pauses, in seconds. Tests set them to 0 (and `bookmark_poll` to None: no
    polling) unless the pause is what they test, and wait on the reader's own signals.

    `debounce`: keys typed within it of the last search are folded into one run (the
    config's `search.debounce_ms`). `related`: the pause before related papers are looked
    up, so holding `j` does not queue a look-up per row; `related_typing`: the same while
    the search box has the focus, so a look-up does not hold the searcher when the next key
    comes. `bookmark_poll`: how often the bookmarks file is checked for other processes'
    changes. `clock`: what the debounce measures time with.
    """

    debounce: float
    related: float = 0.12
    related_typing: float = 0.6
    bookmark_poll: float | None = 2.0
    clock: Callable[[], float] = time.monotonic

    @classmethod
    def from_config(cls, config: Config) -> Timing:
        return cls(debounce=config.debounce_ms / 1000)


class ReaderState:
    """The reader's data. Changed on the UI thread only, except that `similar` and searches
    run in workers, holding `search_lock` around the one `Searcher`."""

    def __init__(
        self, config: Config, bookmarks: BookmarkStore, key_text: KeyText, timing: Timing
    ) -> None:
        self.config = config
        self.bookmarks = bookmarks
        self.key_text = key_text
        self.timing = timing
        self.papers: Sequence[Paper] = []
        self.by_id: Mapping[str, Paper] = {}
        self.collections: list[str] = []
        self.searcher: Searcher | None = None
        self.search_lock = threading.Lock()
        self.index_state: IndexState = "loading"
        self.index_percent = 0
        #: While the first build runs: papers read so far, of about how many.
        self.index_done = 0
        self.index_total = 0
        #: While the first build runs and `searcher` is set: how many papers it searches.
        self.searchable = 0
        self.index_error = ""
        self.warnings: list[str] = []
        self.bookmarks_problem = ""
        self._related_cache: OrderedDict[str, list[Hit]] = OrderedDict()

    # --- papers and the index ------------------------------------------------------------

    def set_papers(self, papers: Sequence[Paper]) -> None:
        """The papers to list. A `PaperList` (a built index's) is read as it is looked at:
        its ids and collections come from its rows file, a paper when it is shown."""
        self.papers = papers
        if isinstance(papers, PaperList):
            self.by_id = papers.by_id
            self.collections = papers.collections
            return
        self.by_id = {paper.id: paper for paper in papers}
        seen: dict[str, None] = {}
        for paper in papers:
            for name in paper.collections:
                seen.setdefault(name, None)
        self.collections = list(seen)

    def corpus_loaded(self, papers: Sequence[Paper], problems: list[str], building: bool) -> None:
        self.set_papers(papers)
        self.warnings = list(dict.fromkeys(problems))
        if self.searcher is None:
            self.index_state = "indexing" if building else "opening"

    def progress(self, done: int, total: int) -> None:
        self.index_done, self.index_total = done, total
        self.index_percent = 100 * done // max(1, total)

    def partial_index(self, opened: OpenIndex, searcher: Searcher) -> None:
        """While the first build runs: search what is indexed so far."""
        if self.index_state in ("indexing", "loading"):
            self.searcher = searcher
            self.searchable = len(opened.papers)

    def index_ready(self, opened: OpenIndex, searcher: Searcher, warnings: list[str]) -> bool:
        """Search is on; True when the index's papers differ from those shown so far."""
        papers = opened.papers
        same = papers is self.papers or list(paper_ids(papers)) == list(paper_ids(self.papers))
        if papers is not self.papers:
            self.set_papers(papers)
        self.searcher = searcher
        self.searchable = 0
        self.index_state = "memory" if opened.location == ":memory:" else "ready"
        self.warnings = list(dict.fromkeys([*self.warnings, *opened.meta.problems, *warnings]))
        return not same

    def index_failed(self, reason: str) -> None:
        self.index_state = "failed"
        self.index_error = reason

    def similar(self, paper_id: str) -> list[Hit] | None:
        """Related papers (None until the index is ready). Call from a worker thread."""
        searcher = self.searcher
        if searcher is None:
            return None
        with self.search_lock:
            hits = self._related_cache.get(paper_id)
            if hits is None:
                hits = searcher.similar(paper_id, limit=RELATED_LIMIT)
                self._related_cache[paper_id] = hits
                while len(self._related_cache) > RELATED_CACHE:
                    self._related_cache.popitem(last=False)
            return hits

    # --- bookmarks -----------------------------------------------------------------------

    @property
    def marks(self) -> dict[str, Bookmark]:
        return {mark.id: mark for mark in self.bookmarks.bookmarks}

    def load_bookmarks(self) -> None:
        try:
            self.bookmarks.load()
        except BookmarksError as error:
            self._bookmarks_failed(error)
        else:
            self.bookmarks_problem = ""

    def reload_bookmarks(self) -> bool:
        """Pick up what another paperterm (or the CLI) saved; True when what the screens
        show of the bookmarks (marks, tags, notes, the problem line) may have changed."""
        before = self.bookmarks_problem
        try:
            changed = self.bookmarks.reload_if_changed()
        except BookmarksError as error:
            self._bookmarks_failed(error)
            changed = True
        else:
            if changed or (before and not self.bookmarks.read_only):
                self.bookmarks_problem = ""
        return changed or before != self.bookmarks_problem

    def _bookmarks_failed(self, error: BookmarksError) -> None:
        self.bookmarks_problem = safe_text(str(error), keep_newlines=False)
        if isinstance(error, BookmarksFileError):
            self.bookmarks_problem += " (bookmarks are read-only until the file is fixed)"
