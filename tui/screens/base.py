"""The base of every screen that shows papers: the too-small notice, the status line,
related papers looked up after a pause, and the lines the detail pane adds about a paper in
the reader (when it was read, why "like my bookmarks" ranks it high).

A `PaperScreen` is also what the app talks to: it gets the `ReaderState` when it is made,
answers `current_row`, `bookmarks_changed`, `reading_changed`, `show_next_unread` and
`undone`, asks the app to mark papers read by message (`MarkRead`: the app keeps the undo
steps and saves), and reports its workers' failures by message.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input, Static
from textual.worker import Worker, WorkerState, get_current_worker

from paperterm.tui import keys
from paperterm.tui.state import ReaderState
from paperterm.tui.status import Part
from paperterm.tui.view import Row, read_note
from paperterm.tui.widgets.detail import PaperDetail
from paperterm.tui.widgets.key_footer import KeyFooter
from paperterm.tui.widgets.mount_once import mount_once
from paperterm.tui.widgets.status_line import StatusLine

if TYPE_CHECKING:
    from paperterm.index.search.hits import Hit

#: Below this size the screen shows "window too small" instead of squeezed panes.
MIN_WIDTH = 40
MIN_HEIGHT = 10


class RelatedFound(Message):
    def __init__(self, paper_id: str, hits: list[Hit] | None) -> None:
        super().__init__()
        self.paper_id = paper_id
        self.hits = hits


class PaperScreen(Screen):
    """A screen that shows papers: below the minimum size it says "window too small" (the
    `-tiny` class hides everything else), and it looks up related papers for its
    `PaperDetail` after a short pause (`Timing.related`)."""

    class MarkRead(Message):
        """Mark these papers read (opening one full screen, resting on one, `R`); `label`
        names the change for undo."""

        def __init__(self, ids: list[str], label: str) -> None:
            super().__init__()
            self.ids = ids
            self.label = label

    class WorkerFailed(Message):
        """One of the screen's workers raised (`Worker.StateChanged` does not bubble: this
        takes the failure to the app, which reports it)."""

        def __init__(self, worker: Worker) -> None:
            super().__init__()
            self.worker = worker

    def __init__(self, state: ReaderState) -> None:
        super().__init__()
        self.state = state
        self._related_timer: Timer | None = None
        self._too_small: Static | None = None  # the notice, once mounted
        #: What had the focus when the window became too small (hiding it drops the focus).
        self._focus_before_tiny: Widget | None = None
        self._footer_for: tuple[object, ...] | None = None  # what the footer was made from

    # --- what the app asks of every paper screen -----------------------------------------

    def current_row(self) -> Row | None:
        """The paper the app's keys (bookmark, tags, note, links) act on."""
        raise NotImplementedError

    def bookmarks_changed(self) -> None:
        """The bookmarks changed (here or in another process): redraw what shows them."""
        raise NotImplementedError

    def reading_changed(self) -> None:
        """The reading state changed (here or in another process): redraw what shows it."""
        raise NotImplementedError

    def show_next_unread(self) -> bool:
        """Go to the next unread paper after the current one in the view; False at the end."""
        raise NotImplementedError

    def undone(self, ids: Sequence[str]) -> None:
        """`u` took back a change of these papers (a screen may show them again)."""

    def detail_notes(self, row: Row | None) -> list[str]:
        """The detail pane's lines about `row` in the reader: read or not, and why "like my
        bookmarks" ranks it where it is."""
        if row is None or row.paper is None:
            return []
        state = self.state
        notes = [read_note(state.reading.read_at(row.id))]
        reasons = state.like_reasons(row.id)
        if reasons:
            notes.append(f"like your bookmarks: {', '.join(reasons)}")
        return notes

    @property
    def pending(self) -> bool:
        """Whether work the screen has scheduled (a related look-up whose pause has not
        ended) is still to come: what a test waits for, instead of a guessed sleep."""
        return self._related_timer is not None

    # --- size ----------------------------------------------------------------------------

    def on_mount(self) -> None:
        self._size_classes(self.app.size.width, self.app.size.height)
        self.update_footer()

    def on_resize(self, event: events.Resize) -> None:
        self._size_classes(event.size.width, event.size.height)

    def _size_classes(self, width: int, height: int) -> None:
        """Below the minimum size only the notice shows; back above it, the focus returns
        to the pane that had it (the keys of a pane work only while it has the focus)."""
        tiny = width < MIN_WIDTH or height < MIN_HEIGHT
        if tiny:  # the notice is the last child
            self._too_small = mount_once(
                self, self._too_small, lambda: Static(Text("window too small"), id="too-small")
            )
            if not self.has_class("-tiny"):
                self._focus_before_tiny = self.focused
        elif self.has_class("-tiny"):
            self.call_after_refresh(self._focus_again)
        self.set_class(tiny, "-tiny")

    def _focus_again(self) -> None:
        """After a tiny window: the focus back where it was, unless something has it."""
        before, self._focus_before_tiny = self._focus_before_tiny, None
        if self.focused is not None or self.has_class("-tiny"):
            return
        if before is not None and before.is_attached and before.screen is self:
            before.focus(scroll_visible=False)

    def compose_footer(self) -> ComposeResult:
        """The status line, the footer of keys, and the notice that replaces everything in
        a tiny window."""
        yield StatusLine(id="status")
        footer = KeyFooter(id="key-footer")
        footer.display = self.state.config.footer
        yield footer
        # The "window too small" notice is mounted when first needed (`_size_classes`).

    @property
    def status_line(self) -> StatusLine:
        return self.query_one("#status", StatusLine)

    def hint_part(self) -> list[Part]:
        """Where the key names are (when the footer is off), the first part to make room."""
        if self.state.config.footer:
            return []
        key = self.state.key_text
        return [Part(f"{key('help')} keys  {key('command_palette')} commands", keep=0)]

    # --- the footer ----------------------------------------------------------------------

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.update_footer()

    def update_footer(self) -> None:
        """The focused pane's most useful keys (from the key table), then the help key."""
        if not self.state.config.footer:
            return
        typing = isinstance(self.focused, Input)
        active = [
            (binding.binding.id, binding.binding.key)
            for binding in self.active_bindings.values()
            if binding.binding.id and binding.enabled
        ]
        key = self.state.key_text
        made_from = (typing, tuple(active), key)
        if made_from == self._footer_for:
            return  # the start asks again with the same bindings
        items = [
            (key(binding_id), keys.BY_ID[binding_id].label)
            for binding_id in keys.footer_ids(active, typing)
        ]
        tail = None if typing else (key("help"), "all keys")
        self.query_one(KeyFooter).set_items(items, tail)
        self._footer_for = made_from

    # --- related papers ------------------------------------------------------------------

    def request_related(self, detail: PaperDetail) -> None:
        if self._related_timer is not None:
            self._related_timer.stop()
        row = detail.row
        if row is None or row.paper is None:
            return
        paper_id = row.id

        def fetch() -> None:
            self._related_timer = None
            self._find_related(paper_id)

        timing = self.state.timing
        delay = timing.related_typing if isinstance(self.focused, Input) else timing.related
        if delay > 0:
            self._related_timer = self.set_timer(delay, fetch)
        else:
            fetch()  # Textual's timers need a pause above 0

    @work(
        thread=True,
        exclusive=True,
        exit_on_error=False,
        group="related",
        description="find related papers",
    )
    def _find_related(self, paper_id: str) -> None:
        if get_current_worker().is_cancelled:
            return  # another paper was chosen before this look-up started
        hits = self.state.similar(paper_id)
        self.post_message(RelatedFound(paper_id, hits))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR:
            self.post_message(self.WorkerFailed(event.worker))

    def on_related_found(self, message: RelatedFound) -> None:
        if message.hits is None and self.state.index_state == "failed":
            note = "Related papers need the search index, which failed to build."
        else:
            note = ""
        for detail in self.query(PaperDetail):
            detail.set_related(message.paper_id, message.hits, note=note)
