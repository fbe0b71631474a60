"""The main screen's list: the filters, the place, the search as you type, and the sort,
wired to their controllers (tui/controllers/search.py, sorting.py, views.py) and run in
workers whose messages come back here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual import on, work
from textual.timer import Timer
from textual.widgets import Input
from textual.worker import get_current_worker

from paperterm.index.library.filters import Filters, ViewKey
from paperterm.index.library.place import Place
from paperterm.index.library.sorting import effective_sort
from paperterm.tui.controllers import views as view_rules
from paperterm.tui.controllers.search import View, ViewRequest, view_of
from paperterm.tui.controllers.sorting import SortJob
from paperterm.tui.screens.main_layout import MainLayout
from paperterm.tui.screens.main_messages import LikeRanked, SearchDone, SortReady
from paperterm.tui.state import ReaderState
from paperterm.tui.view import PaperRows, Row, missing_rows, row_index

if TYPE_CHECKING:
    from paperterm.index.search.searcher import Searcher


class ListScreen(MainLayout):
    """The main screen's list: what it shows and in which order."""

    def __init__(self, state: ReaderState) -> None:
        super().__init__(state)
        self._timer: Timer | None = None  # a search waiting for the debounce

    @property
    def pending(self) -> bool:
        """Also while a search waits for its debounce (a running search is a worker)."""
        return super().pending or self._timer is not None

    # --- filters and places --------------------------------------------------------------

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
            ids, read = self.paper_list.ids, self.state.reading.entries
            keep = view_rules.next_unread_id(ids, read, self.paper_list.cursor)
        self.filters = filters
        self.run_search(keep_id=keep)

    def set_filters(self, filters: Filters) -> None:
        self.filters = filters
        self.run_search(keep_id=self._current_id())

    def set_sort(self, sort: str) -> None:
        self.sort_ctl.sort = sort
        self.run_search(keep_id=self._current_id())
        if sort == "like" and not self.state.bookmarks.bookmarks:
            self.app.notify(
                f"No bookmarks yet: like my bookmarks ranks papers by them "
                f"({self.state.key_text('bookmark')} bookmarks a paper)",
                markup=False,
            )

    def place(self) -> Place:
        place = view_rules.place_of(
            self.filters, self.search_input.value, self.sort, self._current_id()
        )
        return place._replace(density=self.paper_list.density)

    def go_to(self, place: Place) -> None:
        """Show `place` (at start-up, or `ctrl+o`): its view, filters, sort, query, and
        the cursor on its paper once the view has it."""
        self.filters, self.sort_ctl.sort = view_rules.restored(self.state, place)
        self.search_ctl.restore_id = place.paper or None
        box = self.search_input
        if box.value != place.query:
            box.value = place.query  # the Changed message runs the search
            box.cursor_position = len(place.query)
        else:
            self.run_search(keep_id=place.paper or None)

    def push_jump(self) -> None:
        """Remember where the screen is, for `ctrl+o`."""
        view_rules.push_jump(self.state.jumps, self.place())

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
        wait = self.search_ctl.typed()
        if self._timer is not None:
            return  # a run is scheduled; it will read the latest query
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
        control, state = self.search_ctl, self.state
        control.start_run(bump)
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if control.saved_search_gone():
            self.run_search(keep_id, bump=False, keep_index=keep_index)
            return
        prepared = control.prepare(self.search_input.value)
        if prepared is None:  # a saved search's papers are found once the index is ready
            self._end_sort_wait()
            self.update_status()
            return
        text, parsed, tags, clauses, matches, allowed = prepared
        index = self.paper_list.cursor if keep_index else None
        if not clauses and keep_id is None and index is None:
            keep_id = self._current_id()  # leaving a search (Esc, Ctrl+U) keeps the paper
        request = ViewRequest(control.generation, text, allowed, keep_id, index)
        if clauses:
            if state.searcher is None:
                control.wait_for_index()
                self._end_sort_wait()
                self.update_status()
            else:
                self._search(state.searcher, request)
            return
        control.waiting_for_index = False
        rows: Sequence[Row]
        ready = True
        if matches is not None and effective_sort(self.sort, True) == "relevance":
            self._end_sort_wait()  # a saved search's view: its own order is relevance
            position = state.sort_keys.position
            found = [i for i in matches if allowed is None or i in allowed]
            rows = PaperRows(state.papers, [position[i] for i in found if i in position])
        else:
            ready = self._sort_ready(request, whole=True)
            if not ready and control.shown_for == (text, self.filters, state.sort_keys):
                return  # the list keeps its rows until the sort's order comes
            # Not ready: the rows in corpus order meanwhile, sorted when the order comes.
            rows = self.sort_ctl.rows(allowed, self._effective_sort() if ready else "corpus")
        if (
            self.filters.bookmarks_only
            or tags.tags
            or tags.prefixes
            or self.filters.view.kind == "tag"
        ):
            rows = [*rows, *missing_rows(state.marks, state.by_id, allowed)]
        notes = parsed.notes if parsed is not None else []
        self._apply(request, View(rows, len(rows), notes), ordered=True)
        if not ready:
            self._sort_from_here(request)

    @work(thread=True, exclusive=True, exit_on_error=False, group="search", description="search")
    def _search(self, searcher: Searcher, request: ViewRequest) -> None:
        limit = self.state.config.search_limit
        with self.state.search_lock:
            if request.generation != self.search_ctl.generation:
                return  # a newer query is on its way: skip this one
            results = searcher.search(
                request.text,
                limit=limit,
                snippets=False,
                allowed=request.allowed,
                topics=self.state.topics,
            )
        self.post_message(SearchDone(request, results))

    def on_search_done(self, message: SearchDone) -> None:
        if message.request.generation == self.search_ctl.generation:  # else stale
            self._apply(message.request, view_of(message.results))

    def _apply(self, request: ViewRequest, view: View, ordered: bool = False) -> None:
        """Show a view; `ordered`: its rows are in the sort's order already. A search's hits
        whose sort is not ready are shown in their own order meanwhile, and sorted when the
        order comes (`on_sort_ready`), the cursor on the paper it is on then."""
        control = self.search_ctl
        ready = ordered or self._sort_ready(request, whole=False, view=view)
        rows = view.rows
        if not ordered and ready:
            rows = self.sort_ctl.sorted(list(rows), self._effective_sort())
        view = view._replace(rows=rows)
        control.shown(request, view)
        keep_id = control.keep_on_show(request.keep_id)
        paper_list = self.paper_list
        lost = keep_id is not None and rows and row_index(rows, keep_id) is None
        if request.keep_index is not None and lost:
            keep_id = rows[min(request.keep_index, len(rows) - 1)].id
        empty = control.empty_message(self.search_input.value)
        paper_list.set_rows(rows, keep_id=keep_id, empty_message=empty, matcher=view.matcher)
        if control.focus_results:
            control.focus_results = False
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
        sort = self.sort_ctl.effective(self.searching)
        if sort == "like" and (seeds := self.sort_ctl.like_due(self.filters)) is not None:
            self._rank_like(seeds)
        return sort

    def _sort_ready(self, request: ViewRequest, *, whole: bool, view: View | None = None) -> bool:
        """Whether the sort can be applied now. Otherwise it is computed in a worker, the
        status line says so, keys are answered meanwhile, the rows are shown in an order
        that is ready and sorted when it comes (`on_sort_ready`). A request whose sort is
        ready ends the wait (its worker too)."""
        sort = self._effective_sort()  # asks for the like ranking if it is due: first
        job = self.sort_ctl.job(sort, whole)
        if job.ready():
            self._end_sort_wait()
            return True
        if self.sort_ctl.begin_wait(job, request, view, self._current_id()):
            self._compute_sort(job)
        self.update_status()
        return False

    def _sort_from_here(self, request: ViewRequest) -> None:
        self.sort_ctl.wait_from_here(request, self._current_id())

    def _end_sort_wait(self) -> None:
        """The view waits for no sort: the status line's "sorting by …" goes and the worker
        is cancelled (a message it sent already finds no wait and is dropped)."""
        if self.sort_ctl.end_wait():
            self.workers.cancel_group(self, "sort")

    @work(
        thread=True, exclusive=True, exit_on_error=False, group="sort", description="sort the list"
    )
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
        wait = self.sort_ctl.take(message.job)
        if wait is None:
            return
        request = wait.request
        if request.generation != self.search_ctl.generation:
            self.update_status()
            return  # a newer request is on its way
        current = self._current_id()
        keep_id = request.keep_id if current == wait.cursor_id else current
        if wait.view is None:
            self.run_search(keep_id, bump=False, keep_index=request.keep_index is not None)
        else:
            self._apply(request._replace(keep_id=keep_id), wait.view)

    def _rank_like(self, seeds: tuple[str, ...]) -> None:
        self.sort_ctl.rank_like(seeds)
        self._find_like(seeds)

    @work(
        thread=True,
        exclusive=True,
        exit_on_error=False,
        group="like",
        description="rank like my bookmarks",
    )
    def _find_like(self, seeds: tuple[str, ...]) -> None:
        ranking = self.state.term_vectors().rank(seeds)
        self.post_message(LikeRanked(seeds, ranking))

    def on_like_ranked(self, message: LikeRanked) -> None:
        if self.sort_ctl.like_ranked(message.seeds, message.ranking) and self.sort == "like":
            self.run_search(keep_id=self._current_id())
