"""The main screen's widgets: the search box, the list, the detail, and the lines and panes
mounted the first time they have something to show (the first frame does without them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Container, Horizontal
from textual.widget import AwaitMount
from textual.widgets import Input, Static

from paperterm.index.library.filters import Filters
from paperterm.tui.controllers import views as view_rules
from paperterm.tui.controllers.search import SearchControl, View
from paperterm.tui.controllers.sorting import SortControl
from paperterm.tui.controllers.status_line import ListFacts, status_parts, warnings_text
from paperterm.tui.screens.base import PaperScreen
from paperterm.tui.state import ReaderState
from paperterm.tui.view import Row, fit_note
from paperterm.tui.widgets.detail import PaperDetail
from paperterm.tui.widgets.mount_once import mount_once
from paperterm.tui.widgets.paper_list import PaperList

if TYPE_CHECKING:
    from textual.widgets import ProgressBar

    from paperterm.tui.widgets.views import ViewsPane


class MainLayout(PaperScreen):
    """The main screen's widgets, its controllers (search, sort), and what the widgets
    show of them: the status line, the note under the search box, the sidebar's counts."""

    def __init__(self, state: ReaderState) -> None:
        super().__init__(state)
        self._texts: dict[str, str] = {}
        self._views: ViewsPane | None = None  # mounted when first shown
        self._progress: ProgressBar | None = None  # the same
        self._resumed = False  # see on_screen_resume
        self._lines: dict[str, Static] = {}  # `_show_line`'s, once mounted
        self.search_ctl = SearchControl(state)
        self.sort_ctl = SortControl(state)
        self._unread = 0  # unread rows in the list
        self._views_due = False  # a redraw of the sidebar is scheduled
        self._note_for: tuple[tuple[str, ...], int] | None = None  # the parts and width shown

    # The controllers' state, as the app and the tests read it.
    @property
    def view(self) -> View:
        return self.search_ctl.view

    @property
    def filters(self) -> Filters:
        return self.search_ctl.filters

    @filters.setter
    def filters(self, filters: Filters) -> None:
        self.search_ctl.filters = filters

    @property
    def sort(self) -> str:
        return self.sort_ctl.sort

    @property
    def generation(self) -> int:
        return self.search_ctl.generation

    @property
    def waiting_for_index(self) -> bool:
        return self.search_ctl.waiting_for_index

    @property
    def searching(self) -> bool:
        """Whether the rows have a relevance order: a query, or a saved search's view."""
        return self.search_ctl.searching(self.search_input.value)

    def _count_unread(self) -> None:
        read = self.state.reading.entries
        if not read:
            # Nothing read (also before the reading state is loaded): every row is unread,
            # and the rows' ids are not read just to count them.
            self._unread = len(self.paper_list.rows)
            return
        ids = self.paper_list.ids
        self._unread = len(ids) - sum(map(read.__contains__, ids))

    def update_views(self) -> None:
        """Redraw the sidebar's counts (only while it is shown)."""
        self._views_due = False
        views = self._views
        if views is not None and views.display:
            views.show_views(view_rules.sidebar_entries(self.state), self.filters.view)

    def _views_soon(self) -> None:
        """`update_views` after the next frame, once."""
        if not self._views_due and self._views_shown():
            self._views_due = True
            self.call_after_refresh(self.update_views)

    def compose(self) -> ComposeResult:
        with Horizontal(id="search-bar"):
            yield Static(Text("Search"), id="search-label")
            yield Input(
                placeholder='words, "a phrase", title:…, author:…, tag:…, -word',
                id="search-input",
                # Not `compact=True`: app.tcss gives the box the same look (one line, no
                # border), and the flag had Textual style it once more before the mount.
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
                decision_of=self.state.decision_of,
                id="list",
            )
            yield PaperDetail(id="detail")
        yield from self.compose_footer()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """The first time: the screen's widgets were styled as they were mounted, a moment
        ago, with the classes they start with, and need no second styling. This handler
        runs before Textual's own (`Screen._on_screen_resume`), which reads the flag. Later
        resumes (a dialog closed) restyle as usual."""
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False

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

    def _current_id(self) -> str | None:
        current = self.current_row()
        return current.id if current else None

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

    # --- status --------------------------------------------------------------------------

    def update_status(self) -> None:
        """The status line (tui/controllers/status_line.py), the progress row while a build
        reads sources, the note, and the warnings line."""
        state = self.state
        paper_list = self.paper_list
        facts = ListFacts(
            self.view.in_view,
            len(paper_list.rows),
            self._unread,
            paper_list.cursor,
            self.search_ctl.filtered,
            self.filters,
            self.sort,
            self.searching,
            self.sort_ctl.waiting_sort(),
        )
        self.status_line.set_parts([*status_parts(state, facts), *self.hint_part()])
        indexing = state.index_state in ("loading", "indexing")
        if indexing:
            self._progress_bar()
        self.set_class(indexing, "-indexing")
        self._update_note()
        self._show_line("warning-bar", warnings_text(state), before="#status")

    def _update_note(self) -> None:
        """The note under the search box, in two lines at most, fitted to the width."""
        parts = self.search_ctl.note_parts(lambda: self.search_input.value)
        shown = (tuple(parts), max(self.size.width - 2, 10))
        if shown == self._note_for:
            return  # the start asks several times with the same parts
        lines = fit_note(*shown)
        self._show_line("search-note", "\n".join(lines), after="#search-bar")
        if not lines or "search-note" in self._lines:  # shown, not skipped
            self._note_for = shown
