"""Triage: the main list's view one paper at a time, with the whole screen, and a key per
decision (keep, maybe, skip).

A decision marks the paper read (the app makes the change: `Decide`) and moves on to the
next undecided paper of the view; `j` / `k` move without deciding; `u` (the app's undo)
takes the decision back and shows its paper again. Leaving puts the list's cursor on the
paper shown. Which paper comes next and what the progress says: tui/controllers/triage.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.message import Message
from textual.widgets import Static

from paperterm.index.library.bookmarks import Bookmark
from paperterm.index.text.display import one_line
from paperterm.tui import keys
from paperterm.tui.controllers.triage import TriageControl
from paperterm.tui.screens.base import PaperScreen
from paperterm.tui.state import ReaderState
from paperterm.tui.status import STATE, Part
from paperterm.tui.view import Row, unsaved_text
from paperterm.tui.widgets.detail import PagingText, paper_text
from paperterm.tui.widgets.paper_list import PaperList

#: What the first line of a paper says of its decision.
DECISION_BANNERS = {"keep": "KEEP", "maybe": "MAYBE", "skip": "SKIP"}
_STYLE_NAMES = ("title", "facts", "authors", "link", "match", "marker", "warn", "decision")


class TriageCard(PagingText, inherit_bindings=False):
    """One paper in full (title, every author with affiliation, status, type and session,
    links, the abstract); scrolls with the page keys and g / G, since j / k move between
    papers here."""

    BINDINGS = keys.bindings("first", "last", "page_down", "page_up")
    COMPONENT_CLASSES: ClassVar[set[str]] = {f"triage-card--{name}" for name in _STYLE_NAMES}
    DEFAULT_CSS = """
    TriageCard {
        height: 1fr;
        padding: 0 2;
        scrollbar-size-vertical: 1;
        overflow-x: hidden;
    }
    TriageCard > .triage-card--title { text-style: bold; }
    TriageCard > .triage-card--facts { color: $text-muted; }
    TriageCard > .triage-card--authors { color: $text-secondary; }
    TriageCard > .triage-card--link { color: $text-accent; text-style: underline; }
    TriageCard > .triage-card--match { color: $text-warning; text-style: bold underline; }
    TriageCard > .triage-card--marker { color: $text-warning; text-style: bold; }
    TriageCard > .triage-card--warn { color: $text-error; text-style: bold; }
    TriageCard > .triage-card--decision { color: $text-success; text-style: bold; }
    #triage-body { width: 1fr; }
    """

    def compose(self) -> ComposeResult:
        yield Static(Text(""), id="triage-body")

    def show(
        self,
        row: Row,
        mark: Bookmark | None,
        head: str,
        notes: Sequence[str],
        *,
        reset: bool,
    ) -> None:
        """Show `row` under the line `head` (its decision, where it is in the view);
        `reset` scrolls back to the top (a new paper, not a re-draw)."""
        get = self.get_component_rich_style
        styles: dict[str, Style] = {
            name: get(f"triage-card--{name}", partial=True) for name in _STYLE_NAMES
        }
        text = Text(head, style=styles["decision"])
        text.append("\n")
        text.append_text(paper_text(row, mark, None, styles, notes))
        self.query_one("#triage-body", Static).update(text)
        if reset:
            self.scroll_home(animate=False, immediate=True)


class TriageScreen(PaperScreen):
    """The view's papers one at a time; a decision key decides and moves on. The list's
    keys up and down and the full-screen reader's keys (next, previous, back) work here
    too: Esc, h or q returns to the list on the paper shown."""

    BINDINGS = keys.bindings(
        "triage_keep",
        "triage_maybe",
        "triage_skip",
        "cursor_down",
        "cursor_up",
        "close_reader",
        "next_paper",
        "previous_paper",
    )
    #: The key table's scopes of this screen, shown first in the help.
    KEY_SCOPES = ("triage", "reader")

    class Decide(Message):
        """Give these papers `decision` (marking them read); `label` names the change for
        undo. The app calls `triage.decided` once the change is made."""

        def __init__(self, screen: TriageScreen, ids: list[str], decision: str, label: str) -> None:
            super().__init__()
            self.triage = screen
            self.ids = ids
            self.decision = decision
            self.label = label

    def __init__(
        self,
        state: ReaderState,
        ids: Sequence[str],
        start: str | None = None,
        leave: Callable[[str], None] | None = None,
    ) -> None:
        """Triage `ids` (the view, in its order) from the first undecided paper, or from
        `start` when all are decided; `leave(id)` is told the paper shown on Esc."""
        super().__init__(state)
        self.control = TriageControl(ids, lambda: state.decisions.entries)
        self.all_decided = not self.control.resume(start)
        self.leave = leave

    @classmethod
    def of_list(cls, state: ReaderState, paper_list: PaperList) -> TriageScreen:
        """Triage the papers of the main list (not the bookmarks whose paper is gone);
        Esc puts the list's cursor on the paper shown."""
        by_id = state.by_id
        ids = [paper_id for paper_id in paper_list.ids if paper_id in by_id]
        current = paper_list.current

        def leave(paper_id: str) -> None:
            index = paper_list.index_of(paper_id)
            if index is not None:
                paper_list.move_to(index)

        return cls(state, ids, current.id if current is not None else None, leave)

    def compose(self) -> ComposeResult:
        yield Static(Text(self.keys_text()), id="triage-keys", classes="keys-bar")
        yield TriageCard(id="triage-card")
        yield from self.compose_footer()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one(TriageCard).focus()
        self._show(reset=True)
        if not self.control.ids:
            self.app.notify("No papers in view to triage", markup=False)
        elif self.all_decided:
            self.app.notify("Every paper in view is triaged", markup=False)

    def keys_text(self) -> str:
        """The keys of this screen, remaps applied."""
        key = self.state.key_text
        return (
            f"{key('triage_keep')} keep  {key('triage_maybe')} maybe  "
            f"{key('triage_skip')} skip  {key('undo')} undo  "
            f"{key('cursor_down')} next  {key('cursor_up')} previous  "
            f"{key('close_reader')} back to the list"
        )

    # --- what the app asks of every paper screen -----------------------------------------

    def current_row(self) -> Row | None:
        paper_id = self.control.current
        if paper_id is None:
            return None
        return Row(paper_id, self.state.by_id.get(paper_id))

    def bookmarks_changed(self) -> None:
        self._show(reset=False)

    def reading_changed(self) -> None:
        """Decisions and reading state change together (here, or in another process)."""
        self.control.decisions_changed()
        self._show(reset=False)

    def show_next_unread(self) -> bool:
        read = self.state.reading.entries
        ids, start = self.control.ids, self.control.cursor + 1
        for index in range(start, len(ids)):
            if ids[index] not in read:
                self.control.cursor = index
                self._show(reset=True)
                return True
        return False

    def undone(self, ids: Sequence[str]) -> None:
        """An undo took back a change of these papers: show the first."""
        if ids and self.control.go_to(ids[0]):
            self._show(reset=True)

    def decided(self, ids: Sequence[str]) -> None:
        """The decision asked for is made: on to the next undecided paper."""
        control = self.control
        control.decisions_changed()
        if control.current in ids and not control.next_undecided():
            self.app.notify("Every paper in view is triaged", markup=False)
        self._show(reset=True)

    # --- drawing -------------------------------------------------------------------------

    def _show(self, reset: bool) -> None:
        if not self.query(TriageCard):
            return  # left already (Esc came before the decision's message was handled)
        row = self.current_row()
        if row is not None:
            state = self.state
            control = self.control
            decision = state.decisions.decision(row.id)
            where = f"paper {control.cursor + 1:,} of {len(control.ids):,} in view"
            head = f"{DECISION_BANNERS.get(decision or '', 'undecided')} · {where}"
            mark = state.bookmarks.get(row.id)
            card = self.query_one(TriageCard)
            card.show(row, mark, head, self.detail_notes(row), reset=reset)
        self._update_status()

    def _update_status(self) -> None:
        """The progress first, then unsaved changes, then where the paper is."""
        state = self.state
        control = self.control
        progress = control.progress
        parts = [Part(progress.text(), short=f"{progress.decided:,}/{progress.total:,} triaged")]
        stores = (
            (state.decisions, "decision"),
            (state.reading, "reading"),
            (state.bookmarks, "bookmark"),
        )
        for store, what in stores:
            if store.unsaved:
                text = unsaved_text(store.unsaved, what)
                parts.append(Part(text, keep=STATE, short=f"{store.unsaved} unsaved"))
        if control.ids:
            parts.append(Part(f"{control.cursor + 1:,}/{len(control.ids):,}", keep=1))
        self.status_line.set_parts(parts)

    # --- keys ----------------------------------------------------------------------------

    def _decide(self, decision: str) -> None:
        row = self.current_row()
        if row is None or row.paper is None:
            return
        title = one_line(row.paper.title or row.paper.name, 50)
        self.post_message(self.Decide(self, [row.id], decision, f"{decision} {title}"))

    def action_keep(self) -> None:
        self._decide("keep")

    def action_maybe(self) -> None:
        self._decide("maybe")

    def action_skip(self) -> None:
        self._decide("skip")

    def action_cursor_down(self) -> None:
        if self.control.step(1):
            self._show(reset=True)
        else:
            self.app.notify("This is the last paper in the view", markup=False)

    def action_cursor_up(self) -> None:
        if self.control.step(-1):
            self._show(reset=True)
        else:
            self.app.notify("This is the first paper in the view", markup=False)

    def action_next_paper(self) -> None:
        self.action_cursor_down()

    def action_previous_paper(self) -> None:
        self.action_cursor_up()

    def action_close(self) -> None:
        paper_id = self.control.current
        if paper_id is not None and self.leave is not None:
            self.leave(paper_id)
        self.dismiss()
