"""The main screen: search box, views sidebar, list and detail panes, progress and status
lines.

Search as you type: every change bumps a generation number; the first key of a burst runs
at once, later keys within `search.debounce_ms` are folded into one run when the pause ends.
Queries run in an exclusive thread worker; a result whose generation is not the latest is
dropped, so a slow old query can never overwrite a newer one.

What the list holds is the view (all papers, a collection, a tag, a saved search), narrowed
by the filters (bookmarks only, unread only) and the query, in the chosen sort. Marking a
paper read never removes its row, also with unread-only on (it is dimmed): rows go only
when the view is computed again (a key, a search), so the cursor never jumps under you.
Where the screen is (`Place`) is saved when the reader ends, restored when it starts, and
pushed on the jump list before a search, a view change or a followed related paper.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, NamedTuple

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.containers import Container, Horizontal
from textual.message import Message
from textual.timer import Timer
from textual.widget import AwaitMount
from textual.widgets import Input, Static
from textual.worker import get_current_worker

from paperterm.index.library.filters import ALL, Filters, ViewKey, allowed_ids, like_seeds
from paperterm.index.library.op_store import LibraryError, LibrarySaveError
from paperterm.index.library.place import Place
from paperterm.index.library.sorting import (
    DEFAULT_SORT,
    SORTS,
    SortKeys,
    effective_sort,
    next_sort,
)
from paperterm.index.search.query_text import blank_query
from paperterm.index.text.display import one_line
from paperterm.tui import keys
from paperterm.tui.screens.base import PaperScreen
from paperterm.tui.state import JUMP_DEPTH, ReaderState
from paperterm.tui.status import STATE, Part, count_part, filter_part
from paperterm.tui.view import (
    PaperRows,
    Row,
    fit_note,
    missing_rows,
    no_match_text,
    position_text,
    row_index,
    unread_text,
    unsaved_text,
    view_entries,
)
from paperterm.tui.widgets.detail import PaperDetail
from paperterm.tui.widgets.mount_once import mount_once
from paperterm.tui.widgets.paper_list import PaperList

# The full-screen reading, the views sidebar and "like my bookmarks" are imported where they
# are first used: the first frame does without them (tests/tui/test_reader_startup.py).
if TYPE_CHECKING:
    from textual.widgets import ProgressBar

    from paperterm.index.library.affinity import Ranking
    from paperterm.index.search.hits import Matcher, Results
    from paperterm.index.search.query import ParsedQuery
    from paperterm.index.search.searcher import Searcher
    from paperterm.tui.widgets.views import ViewsPane


class ViewRequest(NamedTuple):
    """One recomputation of the list: the query and the ids the filters allow, as they were
    when it was asked for, and where the cursor goes after it. `generation` tells a result
    that came too late (a newer request was made since) from the latest. A named tuple, not
    a frozen dataclass: ~0.4 ms less to define as the reader starts (issue 14)."""

    generation: int
    text: str
    allowed: set[str] | None
    keep_id: str | None
    keep_index: int | None = None


class View(NamedTuple):
    """What the list shows: its rows, how many papers match (a search may show fewer), the
    query's notes, a "did you mean", the matcher that highlights the query's words, and,
    when words of the query were corrected, the query that ran and what changed. A named
    tuple, as `ViewRequest` is (~0.3 ms less to define than a frozen dataclass)."""

    rows: Sequence[Row]
    in_view: int
    notes: Sequence[str] = ()
    suggestion: str = ""
    matcher: Matcher | None = None
    corrected: str = ""
    corrections: Sequence[tuple[str, str]] = ()


class SearchDone(Message):
    def __init__(self, request: ViewRequest, results: Results) -> None:
        super().__init__()
        self.request = request
        self.results = results


class LikeRanked(Message):
    """The "like my bookmarks" scores for these seeds are ready."""

    def __init__(self, seeds: tuple[str, ...], ranking: Ranking) -> None:
        super().__init__()
        self.seeds = seeds
        self.ranking = ranking


class SortJob(NamedTuple):
    """What a sort worker computes: `sort`'s order in these sort keys (`whole`: for every
    paper, else the titles or dates a search's hits are sorted by), for this reading state,
    these bookmarks and "like" scores (the unread and like orders depend on them)."""

    keys: SortKeys
    sort: str
    whole: bool
    read: Collection[str]
    bookmarked: Collection[str]
    scores: Mapping[str, float] | None

    def same(self, other: SortJob) -> bool:
        """The same job: the same sort keys, reading state, bookmarks and scores (the same
        objects: the stores publish a new dict on every change, so an order of an older
        state is never taken for a newer), and an equal sort (a name read from place.toml
        is another string than the key's or the palette's)."""
        return (
            self.sort == other.sort
            and self.whole == other.whole
            and self.keys is other.keys
            and self.read is other.read
            and self.bookmarked is other.bookmarked
            and self.scores is other.scores
        )


class SortReady(Message):
    """A sort's order (or the titles and dates it sorts by) is computed (`SortWait`)."""

    def __init__(self, job: SortJob) -> None:
        super().__init__()
        self.job = job


class SortWait(NamedTuple):
    """A view waiting for its sort: the job a worker computes, the request, its view when
    it is a search's (else the rows are made when the order comes), and the paper the
    cursor was on when it was asked for."""

    job: SortJob
    request: ViewRequest
    view: View | None
    cursor_id: str | None


class SearchesMatched(Message):
    """Every saved search's papers (None: the index is not ready)."""

    def __init__(self, matches: dict[str, list[str]] | None) -> None:
        super().__init__()
        self.matches = matches


#: What the zoom key cycles through: both panes, the list only, the detail only.
ZOOMS = ("both", "list", "detail")


class MainScreen(PaperScreen):
    BINDINGS = keys.scope_bindings("main")
    #: The list has the focus from the start. Textual's default gave it to the first widget
    #: (the search box), and then the list took it: the box was styled twice more for
    #: nothing before the first frame.
    AUTO_FOCUS = "#list"
    #: The key table's scopes of this screen, shown first in the help.
    KEY_SCOPES = ("main", "list")

    class Ready(Message):
        """The screen's widgets are mounted: the app may start loading (its workers'
        messages update them)."""

    class SearchSaved(Message):
        """A search was saved as a view: its papers must be found."""

    def __init__(self, state: ReaderState) -> None:
        super().__init__(state)
        self.filters = Filters()
        self.sort = DEFAULT_SORT
        self.generation = 0
        self.applied = 0
        self.view = View(rows=[], in_view=0)
        self.filtered = False
        self.waiting_for_index = False
        self._timer: Timer | None = None
        self._last_run = -1e9
        self._focus_results = False
        self._all_rows: dict[str, Sequence[Row]] = {}  # by sort, while nothing narrows the view
        self._texts: dict[str, str] = {}
        self.zoom = "both"
        self._restore_id: str | None = None  # the paper to put the cursor on, once in view
        self._unread = 0  # unread rows in the list
        self._dwell: Timer | None = None
        self._like_seeds: tuple[str, ...] | None = None  # those of `state.ranking`
        self._detail_due = False  # a redraw of the detail is scheduled
        self._views_due = False  # ... and of the sidebar
        self._views: ViewsPane | None = None  # mounted when first shown
        self._progress: ProgressBar | None = None  # the same
        self._resumed = False  # see on_screen_resume
        self._lines: dict[str, Static] = {}  # `_show_line`'s, once mounted
        self._note_for: tuple[tuple[str, ...], int] | None = None  # the parts and width shown
        self._sort_wait: SortWait | None = None  # a sort's order computed in a worker
        #: The query, filters and corpus (its sort keys) of the rows shown.
        self._shown_for: tuple[str, Filters, SortKeys] | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(id="search-bar"):
            yield Static(Text("Search"), id="search-label")
            yield Input(
                placeholder='words, "a phrase", title:…, author:…, tag:…, -word',
                id="search-input",
                # Not `compact=True`: app.tcss gives the box the same look (one line, no
                # border), and the flag, set as the box is made, had Textual style it
                # once more before it was mounted (~1.5 ms of the start).
                # Selecting on focus would let the next key replace letters that arrived
                # with the `/` (see take_stray_key); Ctrl+U clears the box instead.
                select_on_focus=False,
            )
        # The views sidebar, the progress row, the note under the search box and the
        # warnings line are mounted when first shown (`_mount_views`, `_progress_bar`,
        # `_show_line`): the first frame does without them.
        with Horizontal(id="body"), Container(id="panes"):
            yield PaperList(
                self.state.bookmarks.is_bookmarked,
                is_unread=self.state.reading.is_unread,
                id="list",
            )
            yield PaperDetail(id="detail")
        yield from self.compose_footer()

    def on_mount(self) -> None:
        super().on_mount()
        if self.state.papers:  # read before the app started: in the first frame
            self.papers_changed()
        self.update_status()
        # The app's workers start once the first frame is drawn: a worker thread holds the
        # GIL half the time, and the first frame (the list and its count) would wait for it.
        self.call_after_refresh(self.post_message, self.Ready())

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """The first time: the screen's widgets were styled as they were mounted, a moment
        ago, with the classes they start with; Textual would style every one of them again
        (~4 ms of the start) when the screen first resumes. This handler runs before
        Textual's own (`Screen._on_screen_resume`), which reads the flag. Later resumes
        (a dialog closed) restyle as usual."""
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False

    def _size_classes(self, width: int, height: int) -> None:
        super()._size_classes(width, height)
        self.set_class(width >= self.state.config.side_by_side_min_width, "-side")
        self._update_note()  # it wraps to the new width

    # --- widgets -------------------------------------------------------------------------

    @property
    def search_input(self) -> Input:
        return self.query_one("#search-input", Input)

    @property
    def paper_list(self) -> PaperList:
        return self.query_one("#list", PaperList)

    @property
    def detail(self) -> PaperDetail:
        return self.query_one("#detail", PaperDetail)

    def current_row(self) -> Row | None:
        return self.paper_list.current

    @property
    def views(self) -> ViewsPane | None:
        """The views sidebar (None until it is first shown)."""
        return self._views

    def _views_shown(self) -> bool:
        return self._views is not None and self._views.display

    async def _mount_views(self) -> ViewsPane | None:
        """The sidebar, mounted the first time it is asked for (hidden, as #views is); None
        while the app ends."""
        if self._views is None and self.is_attached:
            from paperterm.tui.widgets.views import ViewsPane

            body = self.query_one("#body")
            self._views = mount_once(body, None, lambda: ViewsPane(id="views"), before="#panes")
            if self._views is not None:
                await AwaitMount(body, [self._views])  # its width is known to fill it
        return self._views

    def _progress_bar(self) -> ProgressBar | None:
        """The progress row's bar, mounted the first time (a first launch's build): the
        row is shown while the screen has the -indexing class. None while the app ends."""
        if self._progress is None:
            from textual.widgets import ProgressBar  # a first launch's only

            def row(bar: ProgressBar) -> Horizontal:
                label = Static(Text("Building the search index "), id="progress-label")
                return Horizontal(label, bar, id="progress-row")

            self._progress = mount_once(
                self,
                None,
                lambda: ProgressBar(total=100, show_eta=False, id="progress"),
                holder=row,
                after="#body",
            )
        return self._progress

    @property
    def pending(self) -> bool:
        """Also while a search waits for its debounce, or a dwell to mark a paper read
        (a running search is a worker)."""
        return super().pending or self._timer is not None or self._dwell is not None

    @property
    def searching(self) -> bool:
        """Whether the rows have a relevance order: a query, or a saved search's view."""
        return self._query_has_clauses() or self.filters.view.kind == "search"

    def _query_has_clauses(self) -> bool:
        parsed = _parse_box(self.search_input.value)
        return parsed is not None and bool(parsed.clauses)

    # --- what the app tells us -----------------------------------------------------------

    def papers_changed(self) -> None:
        self._all_rows = {}
        self._like_seeds = None
        current = self.current_row()
        self.run_search(keep_id=current.id if current else None)

    def papers_refreshed(self) -> None:
        """The same papers (by id) read again: the rows are made anew; rankings by id stand."""
        self._all_rows = {}
        current = self.current_row()
        self.run_search(keep_id=current.id if current else None)

    def progress_changed(self, done: int, total: int) -> None:
        bar = self._progress_bar()
        if bar is not None:
            bar.update(total=max(total, 1), progress=done)
        self.update_status()

    def index_changed(self) -> None:
        """Search works now (or searches more: a first build's next part, or its end)."""
        if self.state.searcher is not None and self.state.saved_searches:
            self.find_search_matches()
        searching = self.state.searcher and self._query_has_clauses()
        # No papers: the list's message changes ("Reading the sources…", "No papers…").
        if self.waiting_for_index or searching or not self.state.papers:
            self.waiting_for_index = False
            current = self.current_row()
            self.run_search(keep_id=current.id if current else None)
        if self.detail.row is not None:
            self.request_related(self.detail)
        self.update_status()

    def bookmarks_changed(self) -> None:
        parsed = _parse_box(self.search_input.value)
        tagged = parsed is not None and parsed.tagged
        if self.filters.bookmarks_only or tagged or self.filters.view.kind == "tag":
            current = self.current_row()
            self.run_search(keep_id=current.id if current else None, keep_index=True)
        elif self.sort == "like" and self._seeds() != self._like_seeds:
            self._rank_like(self._seeds())
        self.paper_list.refresh()
        self._detail_soon()
        self.update_status()
        self._views_soon()

    def reading_changed(self) -> None:
        """Marks and counts change; the rows stay (see the module docstring). The list and
        the status line go out in the next frame, the detail and the sidebar just after
        (`space` moves on at once: the detail is then drawn once, for the next paper)."""
        self._count_unread()
        self.paper_list.refresh()
        self._detail_soon()
        self.update_status()
        self._views_soon()

    def _count_unread(self) -> None:
        read = self.state.reading.entries
        if not read:
            # Nothing read (also before the reading state is loaded, at the first frame):
            # every row is unread, and the rows' ids (a rows file's 50,000 records, ~40 ms)
            # are not read just to count them.
            self._unread = len(self.paper_list.rows)
            return
        ids = self.paper_list.ids
        self._unread = len(ids) - sum(map(read.__contains__, ids))  # in C: 50,000 in ~2 ms

    # --- filters -------------------------------------------------------------------------

    def toggle_bookmarks_only(self) -> None:
        self.set_filters(self.filters._replace(bookmarks_only=not self.filters.bookmarks_only))

    def set_view(self, view: ViewKey) -> None:
        """Show a view (the sidebar, the palette's collections); a jump `ctrl+o` undoes."""
        if view != self.filters.view:
            self.push_jump()
            self.set_filters(self.filters._replace(view=view))

    def toggle_unread_only(self) -> None:
        """`U`. The cursor stays on its paper if it is still in view, else goes to the next
        unread paper after it."""
        filters = self.filters._replace(unread_only=not self.filters.unread_only)
        current = self.current_row()
        keep = current.id if current else None
        if filters.unread_only and current is not None and self.state.reading.is_read(current.id):
            keep = self._next_unread_id(self.paper_list.cursor)
        self.filters = filters
        self.run_search(keep_id=keep)

    def set_filters(self, filters: Filters) -> None:
        self.filters = filters
        current = self.current_row()
        self.run_search(keep_id=current.id if current else None)

    def set_sort(self, sort: str) -> None:
        self.sort = sort
        current = self.current_row()
        self.run_search(keep_id=current.id if current else None)
        if sort == "like" and not self.state.bookmarks.bookmarks:
            self.app.notify(
                f"No bookmarks yet: like my bookmarks ranks papers by them "
                f"({self.state.key_text('bookmark')} bookmarks a paper)",
                markup=False,
            )

    # --- where the screen is -------------------------------------------------------------

    def place(self) -> Place:
        current = self.current_row()
        return Place(
            view=str(self.filters.view),
            query=self.search_input.value,
            sort=self.sort,
            unread_only=self.filters.unread_only,
            bookmarks_only=self.filters.bookmarks_only,
            paper=current.id if current else "",
        )

    def go_to(self, place: Place) -> None:
        """Show `place` (at start-up, or `ctrl+o`): its view, filters, sort, query, and
        the cursor on its paper once the view has it."""
        view = ViewKey.parse(place.view) or ALL
        if view.kind == "collection" and view.name not in self.state.collections:
            view = ALL if self.state.papers else view  # a collection gone since
        self.filters = Filters(place.bookmarks_only, place.unread_only, view)
        self.sort = place.sort if place.sort in SORTS else DEFAULT_SORT
        self._restore_id = place.paper or None
        box = self.search_input
        if box.value != place.query:
            box.value = place.query  # the Changed message runs the search
            box.cursor_position = len(place.query)
        else:
            self.run_search(keep_id=place.paper or None)

    def push_jump(self) -> None:
        """Remember where the screen is, for `ctrl+o`."""
        place = self.place()
        jumps = self.state.jumps
        if place.paper and (not jumps or jumps[-1] != place):
            jumps.append(place)
            del jumps[:-JUMP_DEPTH]

    def clear_all(self) -> None:
        self.filters = Filters(unread_only=self.filters.unread_only)
        if self.search_input.value:
            self.search_input.value = ""  # the Changed message runs the search
        else:
            self.set_filters(Filters())

    # --- searching -----------------------------------------------------------------------

    @on(Input.Changed, "#search-input")
    def _query_changed(self, event: Input.Changed) -> None:
        self.request_search()

    def request_search(self) -> None:
        """Search soon: at once after a pause in typing, else when the debounce ends."""
        self.generation += 1
        timing = self.state.timing
        self.state.typed_at = timing.clock()
        if self._timer is not None:
            return  # a run is scheduled; it will read the latest query
        wait = timing.debounce - (timing.clock() - self._last_run)
        if wait <= 0:
            self.run_search(keep_id=None, bump=False)
        else:
            self._timer = self.set_timer(wait, self._timer_fired)

    def _timer_fired(self) -> None:
        self._timer = None
        self.run_search(keep_id=None, bump=False)

    def flush_search(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
            self.run_search(keep_id=None, bump=False)

    def run_search(
        self, keep_id: str | None, *, bump: bool = True, keep_index: bool = False
    ) -> None:
        """Recompute the view now (the query in the box, the filters, the bookmarks)."""
        if bump:
            self.generation += 1
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        state = self.state
        self._last_run = state.timing.clock()
        text = self.search_input.value
        parsed = _parse_box(text)
        tags = _tag_filters(parsed)
        has_clauses = parsed is not None and bool(parsed.clauses)
        marks = state.marks
        view = self.filters.view
        matches = state.search_matches.get(view.name) if view.kind == "search" else None
        if view.kind == "search" and matches is None:
            if view.name not in {s.name for s in state.saved_searches}:
                self.filters = self.filters._replace(view=ALL)  # deleted meanwhile
                self.run_search(keep_id, bump=False, keep_index=keep_index)
                return
            self.waiting_for_index = True  # its papers are found once the index is ready
            self.applied = self.generation
            self._end_sort_wait()
            self.update_status()
            return
        allowed = allowed_ids(
            state.papers,
            marks,
            self.filters,
            *tags,
            read=state.reading.entries,
            search_ids=matches,
        )
        self.filtered = has_clauses or allowed is not None
        index = self.paper_list.cursor if keep_index else None
        if not has_clauses and keep_id is None and index is None:
            # Leaving a search (Esc, Ctrl+U) keeps the paper you were on.
            current = self.current_row()
            keep_id = current.id if current else None
        request = ViewRequest(self.generation, text, allowed, keep_id, index)
        if not has_clauses:
            self.waiting_for_index = False
            rows: Sequence[Row]
            ready = True
            if matches is not None and effective_sort(self.sort, True) == "relevance":
                # a saved search's view: its own order is relevance
                self._end_sort_wait()
                position = state.sort_keys.position
                found = [i for i in matches if allowed is None or i in allowed]
                rows = PaperRows(state.papers, [position[i] for i in found if i in position])
            else:
                ready = self._sort_ready(request, whole=True)
                if not ready and self._shown_for == (text, self.filters, state.sort_keys):
                    return  # the list keeps its rows until the sort's order comes
                # Not ready: the rows in corpus order meanwhile, sorted when the order comes.
                rows = self._rows(allowed, None if ready else "corpus")
            if self.filters.bookmarks_only or tags.tags or tags.prefixes or view.kind == "tag":
                rows = [*rows, *missing_rows(marks, state.by_id, allowed)]
            notes = parsed.notes if parsed is not None else []
            self._apply(request, View(rows, len(rows), notes), ordered=True)
            if not ready:
                self._sort_from_here(request)
            return
        if state.searcher is None:
            self.waiting_for_index = True
            self.applied = request.generation
            self._end_sort_wait()
            self.update_status()
            return
        self._search(state.searcher, request)

    def _rows(self, allowed: set[str] | None, sort: str | None = None) -> Sequence[Row]:
        """The rows of the papers `allowed` (None: all), in the sort's order (or `sort`'s):
        one pass over the corpus's ids in that order (index/library/sorting.py), no sort;
        rows are made when shown (a `PaperList`'s papers read then). The whole corpus in a
        fixed order is kept."""
        state = self.state
        sort = sort or self._effective_sort()
        fixed = sort in ("corpus", "title", "newest")
        if allowed is None and fixed and sort in self._all_rows:
            return self._all_rows[sort]
        ranking = state.ranking
        ordered = state.sort_keys.ordered(
            sort,
            read=state.reading.entries,
            bookmarked=state.bookmarks.entries,
            scores=ranking.scores if ranking is not None else None,
        )
        if allowed is None:
            rows = PaperRows(state.papers, None if sort in ("corpus", "relevance") else ordered)
        else:
            ids = state.sort_keys.ids
            rows = PaperRows(state.papers, [i for i in ordered if ids[i] in allowed])
        if allowed is None and fixed:
            self._all_rows[sort] = rows
        return rows

    @work(thread=True, exclusive=True, exit_on_error=False, group="search")
    def _search(self, searcher: Searcher, request: ViewRequest) -> None:
        limit = self.state.config.search_limit
        with self.state.search_lock:
            if request.generation != self.generation:
                return  # a newer query is on its way: skip this one
            results = searcher.search(
                request.text, limit=limit, snippets=False, allowed=request.allowed
            )
        self.post_message(SearchDone(request, results))

    def on_search_done(self, message: SearchDone) -> None:
        if message.request.generation != self.generation:
            return  # stale
        results = message.results
        rows = [Row(hit.paper.id, hit.paper) for hit in results.hits]
        view = View(
            rows,
            results.total,
            results.notes,
            results.suggestion,
            results.matcher or None,
            results.corrected,
            results.corrections,
        )
        self._apply(message.request, view)

    def _apply(self, request: ViewRequest, view: View, ordered: bool = False) -> None:
        """Show a view; `ordered`: its rows are in the sort's order already. A search's hits
        whose sort is not ready are shown in their own order meanwhile, and sorted when the
        order comes (`on_sort_ready`), the cursor on the paper it is on then."""
        ready = ordered or self._sort_ready(request, whole=False, view=view)
        self.applied = request.generation
        self._shown_for = (request.text, self.filters, self.state.sort_keys)
        rows = view.rows if ordered or not ready else self._sorted(list(view.rows))
        view = view._replace(rows=rows)
        self.view = view
        keep_id = request.keep_id
        if self._restore_id is not None and self.state.papers:
            keep_id, self._restore_id = self._restore_id, None
        paper_list = self.paper_list
        lost = keep_id is not None and rows and row_index(rows, keep_id) is None
        if request.keep_index is not None and lost:
            keep_id = rows[min(request.keep_index, len(rows) - 1)].id
        paper_list.set_rows(
            rows, keep_id=keep_id, empty_message=self._empty_message(), matcher=view.matcher
        )
        if self._focus_results:
            self._focus_results = False
            if rows:
                paper_list.move_to(0)
                self.set_focus(paper_list)
        self._count_unread()
        self.update_status()
        self.update_views()
        if not ready:
            self._sort_from_here(request)

    # --- sorting -------------------------------------------------------------------------

    def _effective_sort(self) -> str:
        """The sort that applies now; for "like my bookmarks", the ranking is asked for if
        the bookmarks changed since the last one (the view is sorted again when it comes)."""
        sort = effective_sort(self.sort, self.searching)
        self.state.like_order = sort == "like"
        if sort == "like":
            seeds = self._seeds()
            if seeds != self._like_seeds:
                self._rank_like(seeds)
        return sort

    def _sort_ready(self, request: ViewRequest, *, whole: bool, view: View | None = None) -> bool:
        """Whether the sort can be applied now. Otherwise (title or newest, before their
        order is computed: ~2 s at 500,000 papers) it is computed in a worker, the status
        line says so, keys are answered meanwhile, the rows are shown in an order that is
        ready (a search's own, corpus order) and sorted when it comes (`on_sort_ready`).
        A request whose sort is ready ends the wait (its worker too)."""
        state = self.state
        sort = self._effective_sort()  # asks for the like ranking if it is due: first
        ranking = state.ranking
        job = SortJob(
            state.sort_keys,
            sort,
            whole,
            state.reading.entries,
            state.bookmarks.entries,
            ranking.scores if ranking is not None else None,
        )
        wait = self._sort_wait
        if job.keys.ready(
            job.sort, whole=whole, read=job.read, bookmarked=job.bookmarked, scores=job.scores
        ):
            self._end_sort_wait()
            return True
        self._sort_wait = SortWait(job, request, view, self._current_id())
        if wait is None or not wait.job.same(job):
            self._compute_sort(job)
        self.update_status()
        return False

    def _sort_from_here(self, request: ViewRequest) -> None:
        """The rows of `request` are shown before their sort's order came: they are sorted
        when it comes, the cursor on the paper it is on then."""
        wait = self._sort_wait
        if wait is not None:
            shown = self._current_id()
            self._sort_wait = wait._replace(
                request=request._replace(keep_id=shown), cursor_id=shown
            )

    def _end_sort_wait(self) -> None:
        """The view waits for no sort (ready, or its own order, or the index): the status
        line's "sorting by …" goes and the worker is cancelled (a message it sent already
        finds no wait and is dropped)."""
        if self._sort_wait is not None:
            self._sort_wait = None
            self.workers.cancel_group(self, "sort")

    @work(thread=True, exclusive=True, exit_on_error=False, group="sort")
    def _compute_sort(self, job: SortJob) -> None:
        worker = get_current_worker()
        steps = job.keys.steps_for(
            job.sort, whole=job.whole, read=job.read, bookmarked=job.bookmarked, scores=job.scores
        )
        for _ in steps:
            if worker.is_cancelled:
                return
        self.post_message(SortReady(job))

    def on_sort_ready(self, message: SortReady) -> None:
        """Show the view that waited for the sort, the cursor on the paper it was on (or
        on the one it was moved to meanwhile)."""
        wait = self._sort_wait
        if wait is None or not wait.job.same(message.job):
            return  # a wait for another sort, or none: that worker's message is to come
        self._sort_wait = None
        request = wait.request
        if request.generation != self.generation:
            self.update_status()
            return  # a newer request is on its way
        current = self._current_id()
        keep_id = request.keep_id if current == wait.cursor_id else current
        if wait.view is None:
            self.run_search(keep_id, bump=False, keep_index=request.keep_index is not None)
        else:
            self._apply(request._replace(keep_id=keep_id), wait.view)

    def _sorted(self, rows: list[Row]) -> list[Row]:
        state = self.state
        sort = self._effective_sort()
        ranking = state.ranking
        return state.sort_keys.order(
            rows,
            _row_id,
            sort,
            read=state.reading.entries,
            bookmarked=state.bookmarks.entries,
            scores=ranking.scores if ranking is not None else None,
        )

    def _seeds(self) -> tuple[str, ...]:
        return tuple(like_seeds(self.state.bookmarks.entries, self.filters.view))

    def _rank_like(self, seeds: tuple[str, ...]) -> None:
        self._like_seeds = seeds
        self.state.ranking = None
        self._find_like(seeds)

    @work(thread=True, exclusive=True, exit_on_error=False, group="like")
    def _find_like(self, seeds: tuple[str, ...]) -> None:
        ranking = self.state.term_vectors().rank(seeds)
        self.post_message(LikeRanked(seeds, ranking))

    def on_like_ranked(self, message: LikeRanked) -> None:
        if message.seeds != self._like_seeds:
            return  # the bookmarks changed since: a newer ranking is on its way
        self.state.ranking = message.ranking
        if self.sort == "like":
            self.run_search(keep_id=self._current_id())

    def _current_id(self) -> str | None:
        current = self.current_row()
        return current.id if current else None

    # --- the views sidebar ---------------------------------------------------------------

    @work(thread=True, exclusive=True, exit_on_error=False, group="searches")
    def find_search_matches(self) -> None:
        self.post_message(SearchesMatched(self.state.find_search_matches()))

    def on_searches_matched(self, message: SearchesMatched) -> None:
        if message.matches is None:
            return
        self.state.search_matches = message.matches
        self.update_views()
        if self.filters.view.kind == "search":
            self.waiting_for_index = False
            self.run_search(keep_id=self._current_id())

    def on_main_screen_search_saved(self, message: SearchSaved) -> None:
        self.find_search_matches()
        self.update_views()

    def update_views(self) -> None:
        """Redraw the sidebar's counts (only while it is shown)."""
        self._views_due = False
        views = self._views
        if views is None or not views.display:
            return
        state = self.state
        entries = view_entries(
            state.papers,
            state.collection_ids,
            state.bookmarks.entries,
            state.reading.entries,
            state.saved_searches,
            state.search_matches,
        )
        views.show_views(entries, self.filters.view)

    def on_views_pane_chosen(self, message: ViewsPane.Chosen) -> None:
        self.set_view(message.view)
        self.set_focus(self.paper_list)

    async def action_toggle_views(self) -> None:
        views = await self._mount_views()
        if views is None:
            return  # the app is ending
        views.display = not views.display
        if views.display:
            self.update_views()
            self.set_focus(views)
        elif self.focused is None or self.focused is views:
            self.set_focus(self.paper_list)

    def _empty_message(self) -> list[str]:
        parsed = _parse_box(self.search_input.value)  # a space at its end counts
        text = self.search_input.value.strip()
        if not self.state.papers:
            if self.state.index_state == "loading":
                return ["Loading papers…"]
            if self.state.index_state == "indexing":
                return ["Reading the sources…"]
            return ["No papers. Add sources in the config file (see config.example.toml)."]
        if parsed is not None and parsed.clauses:
            lines = [no_match_text(one_line(text, 60), self.filters)]
            if self.view.suggestion:
                lines.append(f"Did you mean: {one_line(self.view.suggestion, 60)}?")
                lines.append("Press Enter in the search box to search for it.")
            return lines
        return self._filter_message(_tag_filters(parsed))

    def _filter_message(self, query_tags: TagFilters) -> list[str]:
        view = self.filters.view
        if query_tags.tags or view.kind == "tag":
            tags = [*query_tags.tags, *([view.name] if view.kind == "tag" else [])]
            return [f"No bookmark has the tag {', '.join(tags)}."]
        if query_tags.prefixes:
            return [f"No bookmark has a tag that starts with {query_tags.prefixes[0]}."]
        if self.filters.unread_only:
            key = self.state.key_text("unread_only")
            return ["Every paper in this view is read.", f"Press {key} to list them all."]
        if self.filters.bookmarks_only:
            key = self.state.key_text("bookmark")
            return ["No bookmarks yet.", f"Press {key} on a paper to bookmark it."]
        return ["No papers in view."]

    # --- panes ---------------------------------------------------------------------------

    def on_paper_list_highlighted(self, message: PaperList.Highlighted) -> None:
        # The list's frame goes out first; the detail (a longer layout) follows it.
        self._detail_soon()
        self.update_status()  # the position
        self._start_dwell(message.row)

    def _detail_soon(self) -> None:
        """Show the current paper in the detail pane after the next frame, once however
        many changes asked for it meanwhile."""
        if not self._detail_due:
            self._detail_due = True
            self.call_after_refresh(self._show_current)

    def _views_soon(self) -> None:
        """`update_views` after the next frame, once."""
        if not self._views_due and self._views_shown():
            self._views_due = True
            self.call_after_refresh(self.update_views)

    def _start_dwell(self, row: Row | None) -> None:
        """With `reading.mark_on_dwell_ms`, a paper the cursor rests on is marked read."""
        if self._dwell is not None:
            self._dwell.stop()
            self._dwell = None
        wait = self.state.config.mark_on_dwell_ms
        if not wait or row is None or row.paper is None or self.state.reading.is_read(row.id):
            return

        def dwelt() -> None:
            self._dwell = None
            current = self.current_row()
            if current is not None and current.id == row.id:
                self.post_message(self.MarkRead([row.id], f"read {_title(row)}"))

        self._dwell = self.set_timer(wait / 1000, dwelt)

    def _show_current(self) -> None:
        self._detail_due = False
        self._show_detail(self.current_row())

    def _show_detail(self, row: Row | None, reset: bool = True) -> None:
        detail = self.detail
        mark = self.state.bookmarks.get(row.id) if row is not None else None
        before = detail.row.id if detail.row is not None else None
        detail.show(row, mark, self.view.matcher, reset=reset, notes=self.detail_notes(row))
        if row is not None and row.id != before:
            self.request_related(detail)

    def on_paper_list_opened(self, message: PaperList.Opened) -> None:
        self.read_full_screen(message.row)

    def on_paper_detail_open_requested(self, message: PaperDetail.OpenRequested) -> None:
        if self.detail.row is not None:
            self.read_full_screen(self.detail.row)

    def on_paper_detail_related_chosen(self, message: PaperDetail.RelatedChosen) -> None:
        self.push_jump()
        self.read_full_screen(Row(message.paper.id, message.paper))

    def read_full_screen(self, row: Row) -> None:
        from paperterm.tui.screens.read import ReadScreen

        self.app.push_screen(ReadScreen(self.state, row, self.view.matcher, self.neighbour))

    # --- moving through the view ---------------------------------------------------------

    def neighbour(self, paper_id: str, step: int, unread: bool) -> Row | None:
        """The row `step` rows from `paper_id` (the next unread one that way, with `unread`),
        the list's cursor moved there; None at the end. A paper not in the list (a related
        one) starts from the cursor."""
        paper_list = self.paper_list
        rows = paper_list.rows
        index = paper_list.index_of(paper_id)
        if index is None:
            index = paper_list.cursor if step > 0 else paper_list.cursor + 1
            if unread and step > 0:
                index -= 1
        read, ids = self.state.reading.entries, paper_list.ids
        index += step
        while 0 <= index < len(ids):
            if not unread or ids[index] not in read:  # ids: no row made for read papers
                row = rows[index]
                if not unread or row.paper is not None:
                    paper_list.move_to(index)
                    return row
            index += step
        return None

    def _next_unread_id(self, cursor: int) -> str | None:
        """The first unread row after `cursor`, else the last unread one before it."""
        ids, read = self.paper_list.ids, self.state.reading.entries
        after = (i for i in ids[cursor + 1 :] if i not in read)
        before = (i for i in reversed(ids[:cursor]) if i not in read)
        return next(after, None) or next(before, None)

    def show_next_unread(self) -> bool:
        current = self.current_row()
        if current is None:
            return False
        return self.neighbour(current.id, 1, unread=True) is not None

    # --- keys ----------------------------------------------------------------------------

    @on(Input.Submitted, "#search-input")
    def _query_submitted(self, event: Input.Submitted) -> None:
        if self.applied != self.generation or self._timer is not None:
            self._focus_results = True
            self.flush_search()
            return
        paper_list = self.paper_list
        if paper_list.rows:
            paper_list.move_to(0)
            self.set_focus(paper_list)
        elif self.view.suggestion:
            self.search_input.value = self.view.suggestion

    def take_stray_key(self, event: events.Key) -> None:
        """A printable key that bubbled up to the app while the search box has the focus was
        read together with the `/` (a fast typist, a paste, one SSH packet) and sent to the
        list before the focus moved; the box would have kept it. It belongs in the box."""
        box = self.search_input
        if self.focused is box and event.is_printable and event.character:
            event.stop()
            box.insert_text_at_cursor(event.character)

    def action_focus_search(self) -> None:
        # At once, not on the next loop turn (as `Widget.focus` does): keys that came in the
        # same read as the `/` must already go to the box, not act as list keys.
        if self.focused is not self.search_input:
            self.push_jump()
        self.set_focus(self.search_input)

    def action_next_pane(self) -> None:
        self.focus_next()

    def action_previous_pane(self) -> None:
        self.focus_previous()

    def action_fullscreen(self) -> None:
        row = self.current_row()
        if row is not None:
            self.read_full_screen(row)

    def action_back(self) -> None:
        """Esc: leave the search box; then clear the query; then the filters."""
        box = self.search_input
        if self.focused is box:
            self.set_focus(self.paper_list)
        elif box.value:
            box.value = ""
        elif self.filters.active:
            self.set_filters(Filters())
        else:
            self.set_focus(self.paper_list)

    def action_zoom(self) -> None:
        """Both panes, then the list only, then the detail only (each with the focus)."""
        zoom = ZOOMS[(ZOOMS.index(self.zoom) + 1) % len(ZOOMS)]
        self.zoom = zoom
        self.set_class(zoom == "list", "-zoom-list")
        self.set_class(zoom == "detail", "-zoom-detail")
        if zoom == "detail":
            self.set_focus(self.detail)
        elif zoom == "list" or self.focused is None:
            self.set_focus(self.paper_list)
        self.update_footer()

    def action_clear_search(self) -> None:
        self.clear_all()

    def action_unread_only(self) -> None:
        self.toggle_unread_only()

    def action_cycle_sort(self) -> None:
        """The next sort. "Like my bookmarks" builds its term vectors when it is chosen (the
        ranking's worker; the status line says "ranking…"), not while `s` cycles towards
        it: they read every paper (~2.5 s of CPU at 50,000), which slowed the keys pressed
        meanwhile and was wasted when the cycle went on past it."""
        self.set_sort(next_sort(self.sort, self.searching))

    def action_mark_view_read(self) -> None:
        """`R`: every paper in view read, after a one-key question."""
        read = self.state.reading.entries
        rows = self.paper_list.rows
        if isinstance(rows, PaperRows):  # every row a paper's: ids from the rows file
            ids = rows.ids
        else:
            ids = [row.id for row in rows if row.paper is not None]
        unread = [paper_id for paper_id in ids if paper_id not in read]
        if not unread:
            self.app.notify("Every paper in view is read already", markup=False)
            return
        yes = self.state.key_text("confirm")
        question = (
            f"Mark the {len(unread)} unread paper{'s' if len(unread) != 1 else ''} "
            f"in view read? ({yes}: yes, any other key: no)"
        )

        def answered(sure: bool | None) -> None:
            if sure:
                self.post_message(self.MarkRead(unread, f"marked {len(unread)} papers read"))

        from paperterm.tui.screens.dialogs import ConfirmScreen  # not needed at start-up

        self.app.push_screen(ConfirmScreen(question), answered)

    def action_save_search(self) -> None:
        """Save the query in the box as a view (asks for its name)."""
        query = self.search_input.value.strip()
        if not query:
            self.app.notify(
                f"Type a search first ({self.state.key_text('search')}), then save it",
                markup=False,
            )
            return

        def named(name: str | None) -> None:
            if name:
                self.save_search(name, query)

        from paperterm.tui.screens.dialogs import NameScreen  # not needed at start-up

        self.app.push_screen(NameScreen(query, self.state.key_text), named)

    def save_search(self, name: str, query: str) -> None:
        state = self.state
        name = " ".join(name.split())
        if any(search.name == name for search in state.config.searches):
            self.app.notify(
                f"{name!r} is a search of the config file; choose another name",
                severity="warning",
                markup=False,
            )
            return
        try:
            state.searches.save_search(name, query)
        except LibrarySaveError as error:  # kept, counted, retried, and listed at exit
            self.app.notify(
                f"The view {name!r} is not saved yet: {one_line(error.reason)}. Kept and retried",
                severity="warning",
                markup=False,
            )
        except LibraryError as error:
            self.app.notify(one_line(str(error)), severity="error", markup=False)
            return
        else:
            self.app.notify(f"Saved the search as the view {name!r}", markup=False)
        self.post_message(self.SearchSaved())
        self.update_status()

    def action_toggle_snippets(self) -> None:
        paper_list = self.paper_list
        paper_list.toggle_snippets()
        shown = "shown" if paper_list.show_snippets else "hidden"
        self.notify(f"Where the query matched: {shown} under each title", timeout=3)

    def action_search_as_typed(self) -> None:
        """After a typo correction: search the words as typed (`=word` in the box, which
        the user sees and can take back)."""
        if self.view.corrections:
            from paperterm.index.search.query import pin_words  # after a search's correction

            box = self.search_input
            box.value = pin_words(box.value, [typed for typed, _ in self.view.corrections])
            box.cursor_position = len(box.value)

    # --- status --------------------------------------------------------------------------

    def _set_text(self, selector: str, text: str, *, layout: bool = True) -> None:
        """Update a one-line label only when its text changes (each update costs a frame;
        `layout=False` for labels whose size is fixed)."""
        widget = self.query_one(selector, Static)
        if self._texts.get(selector) != text:
            self._texts[selector] = text
            widget.update(Text(text), layout=layout)

    def _show_line(
        self, line_id: str, text: str, *, before: str | None = None, after: str | None = None
    ) -> None:
        """Show `text` in the line `line_id`, hidden when empty; the line is mounted (at
        `before` or `after`) the first time it has something to show."""
        if not self.is_attached:
            return  # the app is ending: a late message has nowhere to go
        line = self._lines.get(line_id)
        if line is None and not text:
            return
        line = mount_once(self, line, lambda: Static(id=line_id), before=before, after=after)
        if line is None:
            return
        self._lines[line_id] = line
        self._set_text(f"#{line_id}", text)
        line.display = bool(text)

    def update_status(self) -> None:
        """The facts first: `K of N papers · U unread` and what narrows the view, which stay
        at every width (abbreviated); then the states no toast repeats (unsaved changes,
        read-only files, indexing); then what makes room first (the sort, the position
        `12/38`, the index's state, warnings, the key hint)."""
        state = self.state
        view = self.view
        rows = len(self.paper_list.rows)
        parts = [count_part(view.in_view, len(state.papers), self.filtered)]
        if state.papers:
            unread = unread_text(self._unread, rows, view.in_view)
            parts.append(Part(unread, short=f"{self._unread} unread"))
        if self.filters.view != ALL:
            parts.append(filter_part(one_line(self.filters.view.label, 40)))
        if self.filters.unread_only:
            parts.append(filter_part("unread only", "unread only"))
        if self.filters.bookmarks_only:
            parts.append(filter_part("bookmarks only", "★ only"))
        sort = effective_sort(self.sort, self.searching)
        if self._sort_wait is not None:
            parts.append(Part(f"sorting by {SORTS[self._sort_wait.job.sort]}…", keep=4))
        elif sort != effective_sort(DEFAULT_SORT, self.searching):
            waiting = sort == "like" and state.ranking is None
            parts.append(Part(f"sort: {SORTS[sort]}{' (ranking…)' if waiting else ''}", keep=4))
        for store, what in ((state.bookmarks, "bookmark"), (state.reading, "reading")):
            problem = state.bookmarks_problem if what == "bookmark" else state.problems.get(what)
            unsaved = unsaved_text(store.unsaved, what)
            if unsaved:
                parts.append(Part(unsaved, keep=STATE, short=f"{store.unsaved} unsaved"))
            elif problem:
                noun = "bookmarks" if what == "bookmark" else "reading state"
                how = "read-only" if store.read_only else "not saved"
                parts.append(Part(f"{noun} {how}", keep=STATE, short=how))
        if state.searches.unsaved:
            count = state.searches.unsaved
            text = unsaved_text(count, "saved search")
            parts.append(Part(text, keep=STATE, short=f"{count} unsaved"))
        if rows:
            parts.append(Part(position_text(self.paper_list.cursor, rows), keep=3))
        index_state = state.index_state
        if index_state in ("loading", "opening", "indexing", "updating"):
            text = {
                "loading": "loading papers…",
                "opening": "opening the index…",
                "indexing": _indexing(state),
                "updating": "updating the index…",
            }[index_state]
            parts.append(Part(text, keep=STATE - 1))
        else:
            text = {"ready": "index ready", "memory": "in-memory index", "failed": "index failed"}[
                index_state
            ]
            parts.append(Part(text, keep=1 if index_state == "ready" else STATE - 1))
        if state.warnings:
            count = len(state.warnings)
            parts.append(Part(f"{count} warning{'s' if count != 1 else ''}", keep=2))
        self.status_line.set_parts([*parts, *self.hint_part()])
        indexing = index_state in ("loading", "indexing")
        if indexing:
            self._progress_bar()
        self.set_class(indexing, "-indexing")
        self._update_note()
        problems = [state.bookmarks_problem, *state.problems.values()]
        shown = "\n".join(f"⚠ {problem}" for problem in problems if problem)
        self._show_line("warning-bar", shown, before="#status")

    def _update_note(self) -> None:
        """The note under the search box (a correction and the key that undoes it, the
        fallback, a budget cut...), in two lines at most, fitted to the width."""
        state = self.state
        view = self.view
        parts: list[str] = []
        if self.waiting_for_index:
            if state.index_state == "failed":
                parts.append(f"search is off: {state.index_error}")
            else:
                parts.append(f"search starts when the index is ready ({state.index_percent}%)")
        else:
            if view.corrected:
                from paperterm.index.search.hits import correction_note  # a search's only

                how = state.key_text("search_as_typed")
                parts += correction_note(view.corrected, view.corrections, how)
            parts += view.notes
            if not view.notes and state.searchable and self._query_has_clauses():
                parts.append(f"searching the {state.searchable:,} papers indexed so far")
        shown = (tuple(parts), max(self.size.width - 2, 10))
        if shown == self._note_for:
            return  # the start asks several times with the same parts (issue 14)
        lines = fit_note(*shown)
        self._show_line("search-note", "\n".join(lines), after="#search-bar")
        if not lines or "search-note" in self._lines:  # shown, not skipped
            self._note_for = shown


def _indexing(state: ReaderState) -> str:
    """`indexing 12,000 of 50,000 · 21 of 85 MB` (papers read and indexed so far, of about
    how many, and the bytes of the source files read)."""
    if not state.index_total:
        return "indexing…"
    text = f"indexing {state.index_done:,} of {state.index_total:,}"
    if state.index_size:
        text += f" · {state.index_read / 1e6:,.0f} of {state.index_size / 1e6:,.0f} MB"
    return text


_row_id = attrgetter("id")


def _title(row: Row) -> str:
    paper = row.paper
    return one_line((paper.title or paper.name) if paper else row.missing_title, 60)


def _parse_box(text: str) -> ParsedQuery | None:
    """The search box's query; None when it is blank, as at the start, which so does
    without the query module (imported on the first query, after the first frame)."""
    if blank_query(text):
        return None
    from paperterm.index.search.query import parse_query

    return parse_query(text)


class TagFilters(NamedTuple):
    """The `tag:` filters of the search box's query."""

    tags: Sequence[str] = ()
    excluded: Sequence[str] = ()
    #: A last `tag:` still being typed.
    prefixes: Sequence[str] = ()


def _tag_filters(parsed: ParsedQuery | None) -> TagFilters:
    if parsed is None:
        return TagFilters()
    return TagFilters(parsed.tags, parsed.excluded_tags, parsed.tag_prefixes)
