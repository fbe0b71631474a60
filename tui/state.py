"""What the reader knows, apart from how it is drawn: the papers, how far the index is, the
searcher, the bookmarks, the reading state, the saved searches, what `u` can undo and where
`ctrl+o` jumps back to, the warnings, the pauses it keeps.

The app owns one `ReaderState` and changes it as its workers report; every screen gets it
in its constructor and reads it with its types. So a screen never reaches into the app, and
the screens' modules never import the app's (the app imports them): no import circle, type-only
imports included. Nothing here imports Textual, so the rules are testable without a terminal.
"""

from __future__ import annotations

import contextlib
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from paperterm.index.config import Config
from paperterm.index.library.bookmarks import (
    Bookmark,
    BookmarksError,
    BookmarksFileError,
    BookmarkStore,
)
from paperterm.index.library.filters import paper_collections, paper_ids, query_matches
from paperterm.index.library.op_store import (
    LibraryError,
    LibrarySaveError,
    OpLogStore,
    Restore,
    restore_of,
)
from paperterm.index.library.place import Place, load_place
from paperterm.index.library.reading import ReadingStore
from paperterm.index.library.searches import SavedSearch, SearchesStore, all_searches
from paperterm.index.library.sorting import SortKeys
from paperterm.index.papers import Paper
from paperterm.index.search.records import PaperList
from paperterm.index.text.display import safe_text

if TYPE_CHECKING:
    from paperterm.index.library.affinity import Ranking, TermVectors
    from paperterm.index.library.decisions import DecisionStore
    from paperterm.index.search.hits import Hit
    from paperterm.index.search.open_index import OpenIndex
    from paperterm.index.search.searcher import Searcher
    from paperterm.tui.watching import WatchState

#: loading: reading the papers; opening: papers shown, index opening; indexing: first
#: launch, the index is being built; updating: a source changed, the old index is searched
#: while the new one is built; ready / memory: search works; failed: it never will.
IndexState = Literal["loading", "opening", "indexing", "updating", "ready", "memory", "failed"]
RELATED_LIMIT = 5
#: Related papers kept per paper id: moving back over a paper costs no second look-up.
RELATED_CACHE = 512
#: How a binding's keys read on screen, by binding id: `key_text("cursor_down")` -> `j/↓`
#: (`keys.KeyLabels`, made by the app: it knows how Textual shows a key).
KeyText = Callable[[str], str]


class Timing(NamedTuple):
    """The reader's pauses, in seconds. Tests set them to 0 (and `bookmark_poll` to None: no
    polling) unless the pause is what they test, and wait on the reader's own signals.

    `debounce`: keys typed within it of the last search are folded into one run (the
    config's `search.debounce_ms`). `related`: the pause before related papers are looked
    up, so holding `j` does not queue a look-up per row; `related_typing`: the same while
    the search box has the focus, so a look-up does not hold the searcher when the next key
    comes. `bookmark_poll`: how often the bookmarks and reading-state files are checked for
    other processes' changes (and failed saves retried). `clock`: what the debounce
    measures time with. `quiet`: the index worker's work after the index is ready (the
    sort orders) waits until no key was typed into the search box for this long.
    `facets_typing`: the facets sidebar's count waits that long after the last key (its
    worker would hold the interpreter while the result's frame is written).

    A named tuple, not a frozen dataclass: cheaper to define as the reader starts; change
    one with `_replace`.
    """

    debounce: float
    related: float = 0.12
    related_typing: float = 0.6
    bookmark_poll: float | None = 2.0
    clock: Callable[[], float] = time.monotonic
    quiet: float = 0.4
    facets_typing: float = 0.08

    @classmethod
    def from_config(cls, config: Config) -> Timing:
        return cls(debounce=config.debounce_ms / 1000)


#: Changes `u` can take back, newest last: far more than anyone undoes in a row.
UNDO_DEPTH = 100
#: Places `ctrl+o` can return to.
JUMP_DEPTH = 50


class UndoStep(NamedTuple):
    """One change and how to take it back: `restore` puts `store`'s entries as they were,
    and each of `more` another store's (a decision's read mark). A named tuple, not a
    frozen dataclass: cheaper to define as the reader starts, where none is made before
    the first frame."""

    store: OpLogStore[Any]
    restore: Restore[Any]
    label: str
    more: tuple[tuple[OpLogStore[Any], Restore[Any]], ...] = ()


class UndoStack:
    """The last changes of reading state and bookmarks, to take back one by one."""

    def __init__(self) -> None:
        self.steps: list[UndoStep] = []

    def record(
        self, store: OpLogStore[Any], keys: Iterable[str], label: str, change: Callable[[], Any]
    ) -> Any:
        """Run `change` (of `keys`' entries in `store`) and remember how to undo it, if it
        changed anything: also when its save failed, since the change stays pending and is
        retried. Returns what `change` returns; raises what it raises."""
        return self.record_all((store,), keys, label, change)

    def record_all(
        self,
        stores: Sequence[OpLogStore[Any]],
        keys: Iterable[str],
        label: str,
        change: Callable[[], Any],
    ) -> Any:
        """`record` for a change of `keys` in several stores: one step undoes it in all."""
        keys = tuple(keys)
        restores = [(store, restore_of(store, keys)) for store in stores]
        try:
            result = change()
        except LibrarySaveError:
            self._push(restores, label)
            raise
        self._push(restores, label)
        return result

    def _push(self, restores: list[tuple[OpLogStore[Any], Restore[Any]]], label: str) -> None:
        changed = any(
            store.entries.get(key) != value
            for store, restore in restores
            for key, value in restore.entries
        )
        if changed:
            (store, restore), *more = restores
            self.steps.append(UndoStep(store, restore, label, tuple(more)))
            del self.steps[:-UNDO_DEPTH]

    def pop(self) -> UndoStep | None:
        return self.steps.pop() if self.steps else None


class ReaderState:
    """The reader's data. Changed on the UI thread only, except that `similar` and searches
    run in workers, holding `search_lock` around the one `Searcher`, and that the reading
    state is saved and reloaded by workers (its store is thread-safe)."""

    def __init__(
        self,
        config: Config,
        bookmarks: BookmarkStore,
        key_text: KeyText,
        timing: Timing,
        reading: ReadingStore | None = None,
        searches: SearchesStore | None = None,
    ) -> None:
        self.config = config
        self.bookmarks = bookmarks
        folder = bookmarks.path.parent
        self.reading = reading or ReadingStore.in_dir(folder)
        self._decisions: DecisionStore | None = None
        self._decisions_lock = threading.Lock()
        self._watching: WatchState | None = None
        self.searches = searches or SearchesStore.in_dir(folder)
        self.key_text = key_text
        self.timing = timing
        self.papers: Sequence[Paper] = []
        self.by_id: Mapping[str, Paper] = {}
        self.collections: list[str] = []
        self._collection_ids: dict[str, list[str]] | None = None
        self.sort_keys = SortKeys([])
        #: Saved search name -> the ids its query finds, best first (set by a worker).
        self.search_matches: dict[str, list[str]] = {}
        self.undo = UndoStack()
        self.jumps: list[Place] = []
        self.place = Place()
        self.place_warnings: list[str] = []
        self.problems: dict[str, str] = {}  # "reading", "searches" -> why it is off
        #: The papers this reader marked read, in order: an unread-only view keeps those read
        #: since it was entered (dimmed) until it is left.
        self.read_here: list[str] = []
        #: Topics computed for a corpus that carries none: id -> label (else None).
        self.topics: Mapping[str, str] | None = None
        #: The "like my bookmarks" scores while that order is on (else None).
        self.ranking: Ranking | None = None
        #: Whether the main list is in the "like my bookmarks" order now (the detail then
        #: says why a paper ranks where it does).
        self.like_order = False
        self._vectors: TermVectors | None = None
        self._vectors_of: Sequence[Paper] | None = None
        self._vectors_lock = threading.Lock()
        self.searcher: Searcher | None = None
        self.search_lock = threading.Lock()
        #: When a key was last typed into the search box (`timing.clock`).
        self.typed_at = -math.inf
        self.index_state: IndexState = "loading"
        self.index_percent = 0
        #: While the first build runs: papers read so far, of about how many.
        self.index_done = 0
        self.index_total = 0
        #: Bytes of the source files the build has read, of how many.
        self.index_read = 0
        self.index_size = 0
        #: While the first build runs and `searcher` is set: how many papers it searches.
        self.searchable = 0
        self.index_error = ""
        self.warnings: list[str] = []
        self.bookmarks_problem = ""
        self._related_cache: OrderedDict[str, list[Hit]] = OrderedDict()

    # --- papers and the index ------------------------------------------------------------

    def set_papers(self, papers: Sequence[Paper]) -> None:
        """The papers to list. A `PaperList` (a built index's) is read as it is looked at:
        its ids, collections and sort keys come from its rows file, a paper when it is
        shown."""
        self.papers = papers
        if isinstance(papers, PaperList):
            self.by_id = papers.by_id
            self.collections = papers.collections
        else:
            self.by_id = {paper.id: paper for paper in papers}
            self.collections = list(dict.fromkeys(n for p in papers for n in p.collections))
        self._collection_ids = None
        self.sort_keys = SortKeys(papers)
        self.search_matches = {}
        self.ranking = None
        self.topics = None

    @property
    def collection_ids(self) -> dict[str, list[str]]:
        """Collection -> the ids of its papers, in corpus order (from a `PaperList`'s rows;
        made when the sidebar first counts, not before the first frame)."""
        if self._collection_ids is None:
            ids: dict[str, list[str]] = {name: [] for name in self.collections}
            for paper_id, names in paper_collections(self.papers):
                for name in names:
                    ids.setdefault(name, []).append(paper_id)
            self._collection_ids = ids
        return self._collection_ids

    def adopt_sort_keys(self, keys: SortKeys) -> None:
        """Sort keys a worker prepared (`SortKeys.prepare`), when they are of the papers
        shown (the corpus may have changed since)."""
        if keys.papers is self.papers:
            self.sort_keys = keys

    def corpus_loaded(self, papers: Sequence[Paper], problems: list[str], building: bool) -> None:
        self.set_papers(papers)
        self.warnings = list(dict.fromkeys([*problems, *self.place_warnings]))
        if self.searcher is None:
            self.index_state = "indexing" if building else "opening"

    def library_loaded(self) -> None:
        """After `load_library` (in a worker): its warnings join those shown."""
        self.warnings = list(dict.fromkeys([*self.warnings, *self.place_warnings]))

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
            ranking = self.ranking
            self.set_papers(papers)
            if same:  # the same papers: their "like" scores (by id) stand
                self.ranking = ranking
        self.searcher = searcher
        self.searchable = 0
        self.index_state = "memory" if opened.location == ":memory:" else "ready"
        self.warnings = list(dict.fromkeys([*self.warnings, *opened.meta.problems, *warnings]))
        return not same

    def index_updating(self, opened: OpenIndex, searcher: Searcher) -> bool:
        """The index as built before a source changed, searched while the update runs;
        True when its papers differ from those shown so far."""
        changed = opened.papers is not self.papers
        if changed:
            self.set_papers(opened.papers)
        self.searcher = searcher
        self.searchable = 0
        self.index_state = "updating"
        return changed

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

    def term_vectors(self) -> TermVectors:
        """The papers' term vectors for "like my bookmarks", built on first use (slow on a
        large corpus: call it from a worker)."""
        from paperterm.index.library.affinity import TermVectors  # "like" only

        papers = self.papers
        with self._vectors_lock:
            if self._vectors is None or self._vectors_of is not papers:
                self._vectors, self._vectors_of = TermVectors(papers), papers
            return self._vectors

    def like_reasons(self, paper_id: str) -> list[str]:
        """Why the "like my bookmarks" order ranks `paper_id` high (the words it shares with
        the bookmarks), while that order is on; none for a paper it ranks last (read or
        bookmarked)."""
        ranking, vectors = self.ranking, self.vectors
        if not self.like_order or ranking is None or vectors is None:
            return []
        if self.reading.is_read(paper_id) or self.bookmarks.is_bookmarked(paper_id):
            return []
        if ranking.scores.get(paper_id, 0) <= 0:
            return []
        return vectors.reasons(paper_id, ranking.centroid)

    @property
    def vectors(self) -> TermVectors | None:
        """The term vectors if they are built for the papers shown, else None."""
        return self._vectors if self._vectors_of is self.papers else None

    def find_search_matches(self) -> dict[str, list[str]] | None:
        """Every saved search's ids (None until the index is ready). Call from a worker."""
        searcher = self.searcher
        if searcher is None:
            return None
        papers, marks = self.papers, self.marks
        self.sort_keys.position  # noqa: B018 - made here, not when a search's view is shown
        found: dict[str, list[str]] = {}
        with self.search_lock:
            for search in self.saved_searches:
                found[search.name] = query_matches(
                    searcher, search.query, papers, marks, self.topics
                )
        return found

    # --- saved searches, reading state, place --------------------------------------------

    @property
    def decisions(self) -> DecisionStore:
        """The triage decisions (for the facets), made when first asked for: the first frame
        does without them. A damaged file is the reading state's problem, said once."""
        with self._decisions_lock:
            if self._decisions is None:
                from paperterm.index.library.decisions import DecisionStore

                self._decisions = DecisionStore(self.reading.path)
            return self._decisions

    @property
    def watching(self) -> WatchState:
        """The watch list (made when first asked for: the first frame does without it)."""
        with self._decisions_lock:
            if self._watching is None:
                from paperterm.tui.watching import WatchState

                self._watching = WatchState(self.bookmarks.path.parent, self.config)
            return self._watching

    @property
    def saved_searches(self) -> list[SavedSearch]:
        return all_searches(self.config.searches, self.searches)

    def decision_of(self, paper_id: str) -> str | None:
        """The paper's triage decision, None before the decisions are read (the list asks
        for every row it draws: the first frame must not read the file)."""
        store = self._decisions
        return None if store is None else store.entries.get(paper_id)

    @property
    def unsaved_decisions(self) -> int:
        """`decisions.unsaved`, without making the store before the library is read."""
        return 0 if self._decisions is None else self._decisions.unsaved

    @property
    def unsaved_watches(self) -> int:
        """`watching.unsaved`, without making the watch list before it is needed."""
        return 0 if self._watching is None else self._watching.unsaved

    def load_library(self, sources: str = "") -> None:
        """Read the reading state and the saved searches (a problem with either is shown,
        never fatal), and where the reader was in the set of sources named `sources`."""
        for name, store in (("reading", self.reading), ("searches", self.searches)):
            try:
                store.load()
            except LibraryError as error:
                self.problems[name] = _problem(error, store)
            else:
                self.problems.pop(name, None)
        with contextlib.suppress(LibraryError):
            self.decisions.load()
        self.place, self.place_warnings = load_place(self.bookmarks.path.parent, sources)

    def reload_reading(self) -> bool:
        """Pick up what another paperterm (or `paperterm read`) saved; True when what the
        screens show may have changed. Reads the file: call it from a worker."""
        before = self.problems.get("reading", "")
        decided = False  # the facets count the decisions
        with contextlib.suppress(LibraryError):
            decided = self.decisions.reload_if_changed()
        try:
            changed = self.reading.reload_if_changed()
        except LibraryError as error:
            self.problems["reading"] = _problem(error, self.reading)
            changed = True
        else:
            if changed or (before and not self.reading.read_only):
                self.problems.pop("reading", None)
        return decided or changed or before != self.problems.get("reading", "")

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
        self.bookmarks_problem = _problem(error, self.bookmarks)


def _problem(error: LibraryError, store: OpLogStore[Any]) -> str:
    """A store's problem as the warning bar shows it."""
    text = safe_text(str(error), keep_newlines=False)
    if isinstance(error, BookmarksFileError):
        text += f" ({store.format.read_only_text})"
    return text
