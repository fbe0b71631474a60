"""Reading one paper with the whole screen."""

from __future__ import annotations

from textual.app import ComposeResult

from paperterm.index.search.hits import Matcher
from paperterm.index.text.display import one_line
from paperterm.tui import keys
from paperterm.tui.screens.base import PaperScreen
from paperterm.tui.state import ReaderState
from paperterm.tui.status import STATE, Part
from paperterm.tui.view import Row, unsaved_text
from paperterm.tui.widgets.detail import PaperDetail


class ReadScreen(PaperScreen):
    """One paper with the whole screen; Esc (or h, q, or the full-screen key) returns."""

    BINDINGS = keys.bindings("close_reader", "fullscreen")
    #: The key table's scopes of this screen, shown first in the help.
    KEY_SCOPES = ("reader", "list")

    def __init__(self, state: ReaderState, row: Row, matcher: Matcher | None) -> None:
        super().__init__(state)
        self.row = row
        self.matcher = matcher

    def compose(self) -> ComposeResult:
        yield PaperDetail(id="reader-detail", can_open=False)
        yield from self.compose_footer()

    def on_mount(self) -> None:
        super().on_mount()
        detail = self.query_one(PaperDetail)
        self._show(reset=True)
        detail.focus()
        self.request_related(detail)
        self._update_status()

    def _update_status(self) -> None:
        """Unsaved bookmark changes when there are some, then (when the footer is off) the
        main keys, then the paper's collection."""
        parts = []
        pending = len(self.state.bookmarks.pending)
        if pending:
            parts.append(Part(unsaved_text(pending), keep=STATE, short=f"{pending} unsaved"))
        if not self.state.config.footer:
            key = self.state.key_text
            hints = (
                f"{key('close_reader')} back  {key('bookmark')} bookmark  "
                f"{key('copy_link')} copy link  {key('help')} keys"
            )
            parts.append(Part(hints, keep=1))
        if self.row.paper is not None:
            parts.append(Part(one_line(self.row.paper.collection), keep=0))
        self.status_line.set_parts(parts)

    def _show(self, reset: bool) -> None:
        mark = self.state.bookmarks.get(self.row.id)
        self.query_one(PaperDetail).show(self.row, mark, self.matcher, reset=reset)

    def current_row(self) -> Row | None:
        return self.row

    def bookmarks_changed(self) -> None:
        self._show(reset=False)
        self._update_status()

    def on_paper_detail_related_chosen(self, message: PaperDetail.RelatedChosen) -> None:
        row = Row(message.paper.id, message.paper)
        self.app.push_screen(ReadScreen(self.state, row, self.matcher))

    def action_close(self) -> None:
        self.dismiss()

    def action_fullscreen(self) -> None:
        self.dismiss()
