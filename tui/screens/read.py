"""Reading one paper with the whole screen.

Opening a paper here marks it read (unless `[reading] mark_on_open` is false). `]` / `[`
move to the next / previous paper of the main screen's view and `space` to the next unread
one, without going back to the list (the list's cursor follows, so Esc returns to the paper
last read).
"""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult

from paperterm.index.search.hits import Matcher
from paperterm.index.text.display import one_line
from paperterm.tui import keys
from paperterm.tui.screens.base import PaperScreen
from paperterm.tui.state import ReaderState
from paperterm.tui.status import STATE, Part
from paperterm.tui.view import Row, unsaved_text
from paperterm.tui.widgets.detail import PaperDetail

#: (paper id, step, unread only) -> the row that far from it in the view (the list's cursor
#: moved there), or None past the end: the main screen's `neighbour`.
Neighbour = Callable[[str, int, bool], Row | None]


class ReadScreen(PaperScreen):
    """One paper with the whole screen; Esc (or h, q, or the full-screen key) returns.
    `followed` says it was opened from another full-screen paper (a related one)."""

    BINDINGS = keys.bindings("close_reader", "fullscreen", "next_paper", "previous_paper")
    #: The key table's scopes of this screen, shown first in the help.
    KEY_SCOPES = ("reader", "list")

    def __init__(
        self,
        state: ReaderState,
        row: Row,
        matcher: Matcher | None,
        neighbour: Neighbour | None = None,
        *,
        followed: bool = False,
    ) -> None:
        super().__init__(state)
        self.row = row
        self.matcher = matcher
        self.neighbour = neighbour
        self.followed = followed

    def compose(self) -> ComposeResult:
        yield PaperDetail(id="reader-detail", can_open=False)
        yield from self.compose_footer()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one(PaperDetail).focus()
        self._open(self.row)

    def _open(self, row: Row) -> None:
        """Show `row` from the top (marking it read, as `mark_on_open` says), and look up its
        related papers."""
        self.row = row
        self._show(reset=True)
        self.request_related(self.query_one(PaperDetail))
        self._update_status()
        if row.paper is not None and self.state.config.mark_on_open:
            title = one_line(row.paper.title or row.paper.name, 60)
            self.post_message(self.MarkRead([row.id], f"read {title}"))

    def _update_status(self) -> None:
        """Unsaved changes when there are some, then (when the footer is off) the main
        keys, then the paper's collection."""
        state = self.state
        parts = []
        for store, what in ((state.bookmarks, "bookmark"), (state.reading, "reading")):
            if store.unsaved:
                text = unsaved_text(store.unsaved, what)
                parts.append(Part(text, keep=STATE, short=f"{store.unsaved} unsaved"))
        if not state.config.footer:
            key = state.key_text
            hints = (
                f"{key('close_reader')} back  {key('read_next')} next unread  "
                f"{key('next_paper')}/{key('previous_paper')} next/previous  "
                f"{key('bookmark')} bookmark  {key('help')} keys"
            )
            parts.append(Part(hints, keep=1))
        if self.row.paper is not None:
            parts.append(Part(one_line(self.row.paper.collection), keep=0))
        self.status_line.set_parts(parts)

    def _show(self, reset: bool) -> None:
        mark = self.state.bookmarks.get(self.row.id)
        notes = self.detail_notes(self.row)
        detail = self.query_one(PaperDetail)
        detail.watch_marks = self.state.watching.marks  # the watched authors and words
        detail.show(self.row, mark, self.matcher, reset=reset, notes=notes)

    def current_row(self) -> Row | None:
        return self.row

    def bookmarks_changed(self) -> None:
        self._show(reset=False)
        self._update_status()

    def reading_changed(self) -> None:
        self._show(reset=False)
        self._update_status()

    def _step(self, step: int, unread: bool) -> bool:
        row = self.neighbour(self.row.id, step, unread) if self.neighbour else None
        if row is None:
            return False
        self._open(row)
        return True

    def show_next_unread(self) -> bool:
        return self._step(1, unread=True)

    def action_next_paper(self) -> None:
        if not self._step(1, unread=False):
            self.app.notify("This is the last paper in the view", markup=False)

    def action_previous_paper(self) -> None:
        if not self._step(-1, unread=False):
            self.app.notify("This is the first paper in the view", markup=False)

    def on_paper_detail_related_chosen(self, message: PaperDetail.RelatedChosen) -> None:
        row = Row(message.paper.id, message.paper)
        screen = ReadScreen(self.state, row, self.matcher, self.neighbour, followed=True)
        self.app.push_screen(screen)

    def action_close(self) -> None:
        self.dismiss()

    def action_fullscreen(self) -> None:
        self.dismiss()
