"""The main screen: search box, views sidebar, list and detail panes, progress and status
lines, wired to the controllers in tui/controllers/ (search, sorting, views, status).

Queries run in an exclusive thread worker; a result whose generation is not the latest is
dropped (tui/controllers/search.py). What the list holds is the view (all papers, a
collection, a tag, a saved search), narrowed by the filters (bookmarks only, unread only)
and the query, in the chosen sort. Marking a paper read never removes its row, also with
unread-only on (it is dimmed): rows go only when the view is computed again (a key, a
search), so the cursor never jumps under you.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events, on, work
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Input

from paperterm.index.library.filters import Filters
from paperterm.index.library.place import DENSITIES
from paperterm.index.library.sorting import next_sort
from paperterm.index.text.display import one_line
from paperterm.tui import keys
from paperterm.tui.controllers import views as view_rules
from paperterm.tui.controllers.search import TagFilters, View, ViewRequest, has_clauses, parse_box
from paperterm.tui.controllers.sorting import SortJob, SortWait
from paperterm.tui.controllers.views import ZOOMS
from paperterm.tui.rows import COMFORTABLE_MIN_COLUMNS, WHOLE_TITLE_WIDTH
from paperterm.tui.screens.main_messages import LikeRanked, SearchDone, SearchesMatched, SortReady
from paperterm.tui.screens.main_watch import WatchingScreen
from paperterm.tui.state import ReaderState
from paperterm.tui.view import Row
from paperterm.tui.widgets.detail import PaperDetail
from paperterm.tui.widgets.paper_list import PaperList

# The full-screen reading and the views sidebar are imported where they are first used:
# the first frame does without them (tests/tui/test_reader_startup.py).
if TYPE_CHECKING:
    from paperterm.tui.widgets.views import ViewsPane

__all__ = [
    "ZOOMS",
    "LikeRanked",
    "MainScreen",
    "SearchDone",
    "SearchesMatched",
    "SortJob",
    "SortReady",
    "SortWait",
    "TagFilters",
    "View",
    "ViewRequest",
]

#: From this width on, comfortable rows' list (half the screen, less its scrollbar) keeps
#: whole titles beside the detail.
SIDE_BY_SIDE_WHOLE_TITLES = 2 * (WHOLE_TITLE_WIDTH + 1)


class MainScreen(WatchingScreen):
    BINDINGS = keys.scope_bindings("main")
    #: The list has the focus from the start (Textual's default, the first widget, would
    #: style the search box twice more before the first frame).
    AUTO_FOCUS = "#list"
    #: The key table's scopes of this screen, shown first in the help.
    KEY_SCOPES = ("main", "list")

    class Ready(Message):
        """The screen's widgets are mounted: the app may start loading (its workers'
        messages update them)."""

    class SearchSaved(Message):
        """A search was saved as a view: its papers must be found."""

    class DensityChanged(Message):
        """The rows' density was switched: the place (which keeps it) is to be saved."""

    def __init__(self, state: ReaderState) -> None:
        super().__init__(state)
        self.zoom = "both"
        self._dwell: Timer | None = None
        self._detail_due = False  # a redraw of the detail is scheduled

    def on_mount(self) -> None:
        super().on_mount()
        if self.state.papers:  # read before the app started: in the first frame
            self.papers_changed()
        self.update_status()
        # The app's workers start once the first frame is drawn: a worker thread holds the
        # GIL much of the time, and the first frame (the list and its count) would wait for it.
        self.call_after_refresh(self.post_message, self.Ready())

    def _size_classes(self, width: int, height: int) -> None:
        super()._size_classes(width, height)
        self.set_class(self._side_by_side(width), "-side")
        self._update_note()  # it wraps to the new width

    def _side_by_side(self, width: int) -> bool:
        """Whether the list goes beside the detail: from `side_by_side_min_width` on, and
        with comfortable rows only once the list's half of what the sidebars leave keeps
        whole titles (stacked, the list has that whole width)."""
        if width < self.state.config.side_by_side_min_width:
            return False
        comfortable = self.paper_list.comfortable_at(width)
        sidebars = sum(
            pane.outer_size.width
            for pane in (self._views, self.facets)
            if pane is not None and pane.display
        )
        return not comfortable or width - sidebars >= SIDE_BY_SIDE_WHOLE_TITLES

    @property
    def pending(self) -> bool:
        """Also while a dwell waits to mark a paper read."""
        return super().pending or self._dwell is not None

    # --- what the app tells us -----------------------------------------------------------

    def papers_changed(self) -> None:
        self.sort_ctl.papers_changed()
        self.run_search(keep_id=self._current_id())
        self.find_watched_soon()

    def papers_refreshed(self) -> None:
        """The same papers (by id) read again: the rows are made anew; rankings by id stand."""
        self.sort_ctl.papers_refreshed()
        self.run_search(keep_id=self._current_id())
        self.find_watched_soon()

    def progress_changed(self, done: int, total: int) -> None:
        bar = self._progress_bar()
        if bar is not None:
            bar.update(total=max(total, 1), progress=done)
        self.update_status()

    def index_changed(self) -> None:
        """Search works now (or searches more: a first build's next part, or its end)."""
        if self.state.searcher is not None and self.state.saved_searches:
            self.find_search_matches()
        searching = self.state.searcher and has_clauses(self.search_input.value)
        # No papers: the list's message changes ("Reading the sources…", "No papers…").
        if self.search_ctl.waiting_for_index or searching or not self.state.papers:
            self.search_ctl.waiting_for_index = False
            self.run_search(keep_id=self._current_id())
        if self.detail.row is not None:
            self.request_related(self.detail)
        self.update_status()

    def bookmarks_changed(self) -> None:
        parsed = parse_box(self.search_input.value)
        tagged = parsed is not None and parsed.tagged
        filters = self.filters
        if filters.bookmarks_only or tagged or filters.view.kind == "tag":
            self.run_search(keep_id=self._current_id(), keep_index=True)
        elif self.sort == "like" and (seeds := self.sort_ctl.like_due(filters)) is not None:
            self._rank_like(seeds)
        self.paper_list.refresh()
        self._detail_soon()
        self.update_status()
        self._views_soon()
        self.facets_soon()

    def reading_changed(self) -> None:
        """Marks and counts change; the rows stay (see the module docstring). The list and
        the status line go out in the next frame, the detail and the sidebar just after
        (`space` moves on at once: the detail is then drawn once, for the next paper)."""
        self._count_unread()
        self.paper_list.refresh()
        self._detail_soon()
        self.update_status()
        self._views_soon()
        self.facets_soon()

    # --- the views sidebar ---------------------------------------------------------------

    @work(
        thread=True,
        exclusive=True,
        exit_on_error=False,
        group="searches",
        description="match saved searches",
    )
    def find_search_matches(self) -> None:
        self.post_message(SearchesMatched(self.state.find_search_matches()))

    def on_searches_matched(self, message: SearchesMatched) -> None:
        if message.matches is None:
            return
        self.state.search_matches = message.matches
        self.update_views()
        if self.filters.view.kind == "search":
            self.search_ctl.waiting_for_index = False
            self.run_search(keep_id=self._current_id())

    def on_main_screen_search_saved(self, message: SearchSaved) -> None:
        self.find_search_matches()
        self.update_views()

    def on_views_pane_chosen(self, message: ViewsPane.Chosen) -> None:
        self.set_view(message.view)
        self.set_focus(self.paper_list)

    async def action_toggle_views(self) -> None:
        views = await self._mount_views()
        if views is None:
            return  # the app is ending
        views.display = not views.display
        self.sidebars_changed()
        if views.display:
            self.update_views()
            self.set_focus(views)
        elif self.focused is None or self.focused is views:
            self.set_focus(self.paper_list)

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
            if self._current_id() == row.id:
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

    def neighbour(self, paper_id: str, step: int, unread: bool) -> Row | None:
        """The row `step` rows from `paper_id` (the next unread one that way, with `unread`),
        the list's cursor moved there; None at the end. A paper not in the list (a related
        one) starts from the cursor."""
        paper_list = self.paper_list
        rows = paper_list.rows
        start = paper_list.index_of(paper_id)
        if start is None:
            start = paper_list.cursor if step > 0 else paper_list.cursor + 1
            if unread and step > 0:
                start -= 1
        read, ids = self.state.reading.entries, paper_list.ids
        index = view_rules.neighbour_index(ids, rows.__getitem__, start, step, unread, read)
        if index is None:
            return None
        paper_list.move_to(index)
        return rows[index]

    def show_next_unread(self) -> bool:
        current = self.current_row()
        if current is None:
            return False
        return self.neighbour(current.id, 1, unread=True) is not None

    # --- keys ----------------------------------------------------------------------------

    @on(Input.Submitted, "#search-input")
    def _query_submitted(self, event: Input.Submitted) -> None:
        control = self.search_ctl
        if control.applied != control.generation or self._timer is not None:
            control.focus_results = True
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
        """Esc: leave the search box; then clear the query; then an author's view; then the
        filters."""
        box = self.search_input
        if self.focused is box:
            self.set_focus(self.paper_list)
        elif box.value:
            box.value = ""
        elif self.leave_author_view():
            pass
        elif self.filters.active:
            self.set_filters(Filters())
        else:
            self.set_focus(self.paper_list)

    def action_triage(self) -> None:
        """`T`: the view's papers one at a time, from the first undecided one."""
        from paperterm.tui.screens.triage import TriageScreen

        self.app.push_screen(TriageScreen.of_list(self.state, self.paper_list))

    def action_zoom(self) -> None:
        """Both panes, then the list only, then the detail only (each with the focus)."""
        zoom = self.zoom = view_rules.next_zoom(self.zoom)
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
        it: they read every paper, which would slow the keys pressed meanwhile."""
        self.set_sort(next_sort(self.sort, self.searching))

    def action_mark_view_read(self) -> None:
        """`R`: every paper in view read, after a one-key question."""
        unread = view_rules.unread_in_view(self.paper_list.rows, self.state.reading.entries)
        if not unread:
            self.app.notify("Every paper in view is read already", markup=False)
            return
        question = view_rules.mark_read_question(len(unread), self.state.key_text("confirm"))

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
        notice, kept = view_rules.save_search(self.state, name, query)
        self.app.notify(notice.text, severity=notice.severity, markup=False)
        if kept:
            self.post_message(self.SearchSaved())
            self.update_status()

    def action_toggle_snippets(self) -> None:
        paper_list = self.paper_list
        paper_list.toggle_snippets()
        shown = "shown" if paper_list.show_snippets else "hidden"
        self.notify(f"Where the query matched: {shown} under each title", timeout=3)

    def set_density(self, density: str) -> None:
        """The list's rows "comfortable" or "compact", and the panes laid out for them."""
        self.paper_list.set_density(density)
        self._size_classes(self.app.size.width, self.app.size.height)

    def action_row_density(self) -> None:
        """Comfortable or compact rows; remembered at once (in the place file)."""
        paper_list = self.paper_list
        compact = paper_list.density == DENSITIES[0]
        self.set_density(DENSITIES[1] if compact else DENSITIES[0])
        said = "one line each" if compact else "whole titles with authors"
        if not compact and not paper_list.comfortable:
            said += f" (on screens of {COMFORTABLE_MIN_COLUMNS} columns and more)"
        self.notify(f"Rows: {said}", timeout=3)
        self.post_message(self.DensityChanged())

    def action_search_as_typed(self) -> None:
        """After a typo correction: search the words as typed (`=word` in the box, which
        the user sees and can take back)."""
        if self.view.corrections:
            from paperterm.index.search.query import pin_words  # after a search's correction

            box = self.search_input
            box.value = pin_words(box.value, [typed for typed, _ in self.view.corrections])
            box.cursor_position = len(box.value)


def _title(row: Row) -> str:
    paper = row.paper
    return one_line((paper.title or paper.name) if paper else row.missing_title, 60)
