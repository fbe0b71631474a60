"""The main screen's facets sidebar (`F`): counts of the papers in the list by status,
type, session, topic, track, collection, tag, decision and read, counted in a worker each
time the list's rows or what the counts read (bookmarks, reading state) change, once no
key has been typed into the search box for `Timing.facets_typing` (for a list of more
than `COUNT_INLINE` rows, `Timing.quiet`). A list of up to `COUNT_INLINE` rows is counted
at once from the corpus's facet table (a few C-level passes, cheaper than starting a
worker); a longer one, or the first count (which makes the table), in a worker that counts
a chunk at a time and stops between two chunks once a newer count is asked for: a worker
would hold the interpreter while a result's frame is written or the next key's search
runs (BENCHMARKS.md). A value chosen in the
sidebar narrows the list through `Filters.facets` (tui/controllers/facets.py), where
`allowed_ids` applies it with the other filters."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from textual import work
from textual.message import Message
from textual.timer import Timer
from textual.widget import AwaitMount
from textual.worker import get_current_worker

from paperterm.tui.controllers import facets as facet_rules
from paperterm.tui.controllers.search import View, ViewRequest
from paperterm.tui.screens.main_list import ListScreen
from paperterm.tui.state import ReaderState
from paperterm.tui.widgets.mount_once import mount_once

if TYPE_CHECKING:
    from paperterm.index.library.bookmarks import Bookmark
    from paperterm.index.papers import Paper
    from paperterm.tui.view import Row
    from paperterm.tui.widgets.facets import FacetsPane


#: The longest list counted on the screen's thread (search results are at most a few
#: hundred rows); longer ones are counted in a worker, once typing pauses.
COUNT_INLINE = 5_000


class FacetsCounted(Message):
    """The counts of count number `number`."""

    def __init__(self, number: int, counts: dict[str, dict[str, int]]) -> None:
        super().__init__()
        self.number = number
        self.counts = counts


class FacetsScreen(ListScreen):
    """The list, with the facets sidebar beside it when shown."""

    def __init__(self, state: ReaderState) -> None:
        super().__init__(state)
        self._facets: FacetsPane | None = None  # mounted when first shown
        self._facets_asked = 0  # counts asked for; a count not the latest is dropped
        self._facets_due = False  # a count is scheduled
        self._facets_timer: Timer | None = None  # a count waiting for typing to pause
        self._facet_tables = facet_rules.TableKeeper()

    @property
    def pending(self) -> bool:
        """Also while a count waits for typing to pause."""
        return super().pending or self._facets_timer is not None

    @property
    def facets(self) -> FacetsPane | None:
        """The facets sidebar (None until it is first shown)."""
        return self._facets

    def _facets_shown(self) -> bool:
        return self._facets is not None and self._facets.display

    async def action_toggle_facets(self) -> None:
        if self._facets is None and self.is_attached:
            from paperterm.tui.widgets.facets import FacetsPane

            body = self.query_one("#body")
            self._facets = mount_once(body, None, lambda: FacetsPane(id="facets"), before="#panes")
            if self._facets is not None:
                await AwaitMount(body, [self._facets])
        facets = self._facets
        if facets is None:
            return  # the app is ending
        facets.display = not facets.display
        self.sidebars_changed()
        if facets.display:
            self.count_facets()
            self.set_focus(facets)
        elif self.focused is None or self.focused is facets:
            self.set_focus(self.paper_list)

    def sidebars_changed(self) -> None:
        """Lay the panes out again once a sidebar shown or hidden has its width."""
        self.call_after_refresh(lambda: self._size_classes(*self.app.size))

    def facets_soon(self) -> None:
        """`count_facets` after the next frame (for a long list: once typing pauses), once,
        while the sidebar is shown."""
        if not self._facets_due and self._facets_shown():
            self._facets_due = True
            self.call_after_refresh(self._count_when_quiet)

    def _count_when_quiet(self) -> None:
        self._facets_timer = None
        timing = self.state.timing
        short = len(self.paper_list.rows) <= COUNT_INLINE
        pause = timing.facets_typing if short else timing.quiet
        wait = pause - (timing.clock() - self.state.typed_at)
        if wait > 0 and self._facets_shown():
            self._facets_timer = self.set_timer(wait, self._count_when_quiet)
        else:
            self.count_facets()

    def count_facets(self) -> None:
        """Count the list's papers (only while the sidebar is shown): at once when the list
        is short and the corpus's table made, else in a worker."""
        self._facets_due = False
        if self._facets_timer is not None:
            self._facets_timer.stop()
            self._facets_timer = None
        if not self._facets_shown():
            return
        self._facets_asked += 1
        state = self.state
        rows = self.paper_list.rows
        table = self._facet_tables.made(state.papers)
        if table is not None and len(rows) <= COUNT_INLINE and self._facets is not None:
            counts = facet_rules.count_rows(
                rows,
                state.marks,
                state.decisions.entries,
                state.reading.entries,
                state.topics,
                table=table,
            )
            self._facets.show_entries(facet_rules.facet_entries(counts, self.filters.facets))
            return
        self._count(
            self._facets_asked,
            state.papers,
            rows,
            state.marks,
            dict(state.decisions.entries),
            set(state.reading.entries),
            state.topics,
        )

    @work(
        thread=True,
        exclusive=True,
        exit_on_error=False,
        group="facets",
        description="count the facets",
    )
    def _count(
        self,
        number: int,
        papers: Sequence[Paper],
        rows: Sequence[Row],
        marks: Mapping[str, Bookmark],
        decisions: Mapping[str, str],
        read: set[str],
        topics: Mapping[str, str] | None,
    ) -> None:
        table = self._facet_tables.table(papers, _let_others_run)
        worker = get_current_worker()

        def pause() -> None:
            _let_others_run()
            if worker.is_cancelled or number != self._facets_asked:
                raise _Replaced

        try:
            counts = facet_rules.count_rows(
                rows, marks, decisions, read, topics, table=table, pause=pause
            )
        except _Replaced:
            return  # a newer count is on its way: this one stops between two chunks
        self.post_message(FacetsCounted(number, counts))

    def on_facets_counted(self, message: FacetsCounted) -> None:
        facets = self._facets
        if message.number != self._facets_asked or facets is None:
            return  # a newer count is on its way
        facets.show_entries(facet_rules.facet_entries(message.counts, self.filters.facets))

    def on_facets_pane_chosen(self, message: FacetsPane.Chosen) -> None:
        chosen = facet_rules.choose(self.filters.facets, message.facet, message.value)
        self.set_filters(self.filters._replace(facets=chosen))

    def on_facets_pane_dropped(self, message: FacetsPane.Dropped) -> None:
        if self.filters.facets:
            chosen = facet_rules.drop_last(self.filters.facets)
            self.set_filters(self.filters._replace(facets=chosen))

    def _apply(self, request: ViewRequest, view: View, ordered: bool = False) -> None:
        super()._apply(request, view, ordered)
        self.facets_soon()


class _Replaced(Exception):
    """A count stops: a newer one was asked for."""


def _let_others_run() -> None:
    """Between a count's chunks: the interpreter goes to the interface's thread if it waits."""
    time.sleep(0)
