"""The agenda (`A`): the kept papers by day, then session (times, room), clashes named,
the papers without a session apart, in the conference's own time zone (or the config's
`[agenda] time_zone`).

The grouping is index/planning/agenda.py's and the lines and the cursor are
tui/controllers/agenda.py's: this screen shows them. The agenda is built in a worker (it
reads every kept paper), again when the maybe toggle flips or a decision changes. Enter
(or `l`) shows the paper in the list; `e` writes the agenda's calendar file where the
user says.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from paperterm.index.text.display import one_line
from paperterm.tui import keys
from paperterm.tui.controllers.agenda import (
    AgendaControl,
    AgendaLine,
    agenda_lines,
    chosen_papers,
    empty_lines,
    summary,
)
from paperterm.tui.screens.base import PaperScreen
from paperterm.tui.screens.dialogs import LineScreen
from paperterm.tui.state import ReaderState
from paperterm.tui.status import STATE, Part
from paperterm.tui.view import Row

if TYPE_CHECKING:
    from paperterm.index.papers import Paper
    from paperterm.index.planning.agenda import Agenda

#: The calendar file's name in the data dir, offered first.
ICS_NAME = "agenda.ics"
_STYLES = {"day": "bold underline", "session": "bold", "paper": "", "note": ""}
_INDENT = {"day": "", "session": "  ", "paper": "      ", "note": "  "}


class AgendaBuilt(Message):
    """The agenda of build number `number`, with its lines."""

    def __init__(self, number: int, agenda: Agenda, lines: list[AgendaLine]) -> None:
        super().__init__()
        self.number = number
        self.agenda = agenda
        self.lines = lines


class PathScreen(LineScreen[str]):
    """Where to write the calendar file (a path; `~` is the home folder)."""

    HEADING = "Write the agenda's calendar (iCalendar) to"
    NAME = "name"  # the name dialog's look

    def result(self, line: str) -> str | None:
        return line.strip() or None


class AgendaList(OptionList, inherit_bindings=False):
    """The agenda's lines; the screen's keys move the cursor (over papers only)."""

    DEFAULT_CSS = """
    AgendaList {
        height: 1fr;
        border: none;
        padding: 0 1;
        scrollbar-size-vertical: 1;
    }
    AgendaList > .option-list--option-disabled { color: $text; }
    AgendaList:focus { border: none; }
    """


def line_text(line: AgendaLine) -> Text:
    """A line as shown: headings bold, a clash in words, marked at the left and in red."""
    text = Text()
    text.append("! " if line.clash else "  ", style="bold red")
    text.append(_INDENT[line.kind])
    text.append(line.text, style=_STYLES[line.kind])
    if line.clash:
        text.append(" · ")
        text.append(line.clash, style="bold red")
    return text


class AgendaScreen(PaperScreen):
    """The agenda, full screen. `j` / `k` move over the papers, Enter or `l` shows the
    paper in the list (`leave(id)`), Esc, `h` or `q` close (`leave(None)`)."""

    BINDINGS = keys.bindings(
        "cursor_down",
        "cursor_up",
        "first",
        "last",
        "page_down",
        "page_up",
        "agenda_open",
        "agenda_maybe",
        "agenda_export",
        "close_reader",
    )
    #: The key table's scopes of this screen, shown first in the help.
    KEY_SCOPES = ("agenda", "reader")

    def __init__(
        self,
        state: ReaderState,
        start: str | None = None,
        leave: Callable[[str | None, str | None], None] | None = None,
        data_dir: Path | None = None,
    ) -> None:
        """The cursor starts on `start` when the agenda holds it; `leave(shown, at)` is
        told the paper to show in the list (None on Esc) and the one the cursor was on.
        The calendar file is offered in `data_dir` (the current folder when None)."""
        super().__init__(state)
        self.maybe = False
        self.leave = leave
        self.data_dir = data_dir
        self.agenda: Agenda | None = None
        self.control = AgendaControl([], start)
        self._start = start
        self._builds = 0  # builds asked for; a build not the latest is dropped
        self._said = Part("")  # what the last export did

    def compose(self) -> ComposeResult:
        yield Static(Text(self.keys_text()), id="agenda-keys", classes="keys-bar")
        yield AgendaList(id="agenda-list", markup=False)
        yield from self.compose_footer()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one(AgendaList).focus()
        self.build()
        self._update_status()

    def keys_text(self) -> str:
        key = self.state.key_text
        shown = "shown" if self.maybe else "hidden"
        return (
            f"{key('cursor_down')}/{key('cursor_up')} move  "
            f"{key('agenda_open')} show in the list  "
            f"{key('agenda_maybe')} maybe papers ({shown})  "
            f"{key('agenda_export')} calendar file  {key('close_reader')} back"
        )

    # --- building ------------------------------------------------------------------------

    def build(self) -> None:
        """Build the agenda again (in a worker), the cursor staying on its paper."""
        self._builds += 1
        state = self.state
        self._build(
            self._builds,
            dict(state.decisions.entries),
            state.by_id,
            self.maybe,
            state.config.agenda_default_minutes,
            state.config.agenda_time_zone,
        )

    @work(
        thread=True,
        exclusive=True,
        exit_on_error=False,
        group="agenda",
        description="build the agenda",
    )
    def _build(
        self,
        number: int,
        decisions: dict[str, str],
        by_id: Mapping[str, Paper],
        maybe: bool,
        minutes: int,
        zone: str | None,
    ) -> None:
        from paperterm.index.planning.agenda import build_agenda

        chosen = chosen_papers(decisions, by_id, maybe)
        agenda = build_agenda(chosen, tz=zone, default_minutes=minutes)
        self.post_message(AgendaBuilt(number, agenda, agenda_lines(agenda, decisions)))

    def on_agenda_built(self, message: AgendaBuilt) -> None:
        if message.number != self._builds:
            return  # a newer build is on its way
        self.agenda = message.agenda
        lines = message.lines
        if not lines:
            key = self.state.key_text
            lines = empty_lines(self.maybe, key("triage"), key("triage_keep"), key("triage_maybe"))
        at = self.control.current or self._start
        self.control = AgendaControl(lines, at)
        options = self.query_one(AgendaList)
        options.set_options(
            [Option(line_text(line), disabled=line.kind != "paper") for line in lines]
        )
        self._show_cursor()
        self._update_status()

    def _show_cursor(self) -> None:
        line = self.control.line
        options = self.query_one(AgendaList)
        if line is not None:
            options.highlighted = line
            options.scroll_to_highlight()

    def _update_status(self) -> None:
        parts: list[Part] = []
        if self._said.text:
            parts.append(self._said)
        agenda = self.agenda
        if agenda is None:
            parts.append(Part("building the agenda…"))
        else:
            parts.append(Part(summary(agenda), short=summary(agenda).split(" · ")[0]))
            zone = self.state.config.agenda_time_zone
            if zone:
                parts.append(Part(f"times in {zone}", short=zone))
            shown = ("maybe papers shown", "+ maybe") if self.maybe else ("kept papers only", "")
            parts.append(Part(shown[0], keep=STATE, short=shown[1]))
        position = self.control.position
        if position:
            parts.append(Part(position, keep=1))
        self.status_line.set_parts(parts)

    # --- what the app asks of every paper screen -----------------------------------------

    def current_row(self) -> Row | None:
        paper_id = self.control.current
        if paper_id is None:
            return None
        return Row(paper_id, self.state.by_id.get(paper_id))

    def bookmarks_changed(self) -> None:
        """The agenda shows no bookmarks."""

    def reading_changed(self) -> None:
        """Decisions change with the reading state (an undo, another process's save)."""
        self.build()

    def show_next_unread(self) -> bool:
        return False

    def undone(self, ids: Sequence[str]) -> None:
        self.build()

    # --- keys ----------------------------------------------------------------------------

    def _moved(self, moved: bool = True) -> None:
        if moved:
            self._show_cursor()
            self._update_status()

    def action_cursor_down(self) -> None:
        self._moved(self.control.step(1))

    def action_cursor_up(self) -> None:
        self._moved(self.control.step(-1))

    def action_first(self) -> None:
        self.control.first()
        self._moved()

    def action_last(self) -> None:
        self.control.last()
        self._moved()

    def action_page_down(self) -> None:
        self.control.page(self.query_one(AgendaList).scrollable_content_region.height, 1)
        self._moved()

    def action_page_up(self) -> None:
        self.control.page(self.query_one(AgendaList).scrollable_content_region.height, -1)
        self._moved()

    @on(OptionList.OptionSelected)
    def _clicked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._moved(self.control.choose_line(event.option_index))

    def action_show_paper(self) -> None:
        paper_id = self.control.current
        if paper_id is None:
            return
        if self.leave is not None:
            self.leave(paper_id, paper_id)
        self.dismiss()

    def action_close(self) -> None:
        if self.leave is not None:
            self.leave(None, self.control.current)
        self.dismiss()

    def action_toggle_maybe(self) -> None:
        self.maybe = not self.maybe
        self.query_one("#agenda-keys", Static).update(Text(self.keys_text()))
        self.build()

    def action_export(self) -> None:
        """Ask where to write the calendar file, then write it."""
        folder = self.data_dir if self.data_dir is not None else Path.cwd()

        def chosen(path: str | None) -> None:
            if path:
                self.export_to(Path(path).expanduser())

        self.app.push_screen(PathScreen(str(folder / ICS_NAME), self.state.key_text), chosen)

    def export_to(self, path: Path) -> None:
        """Write the agenda's calendar file to `path`; the status line says where it went,
        or in one line why not."""
        agenda = self.agenda
        if agenda is None:
            return
        from paperterm.index.planning.agenda_ics import agenda_ics
        from paperterm.index.user_files import user_mode, write_user_file

        events = sum(1 for session in agenda.sessions if session.start is not None)
        try:
            write_user_file(path, agenda_ics(agenda), new_mode=user_mode(), wait_for_reader=False)
        except OSError as error:
            said = one_line(f"{path}: cannot write the calendar: {error.strerror or error}")
            self._said = Part(said, short="calendar not written")
            self.app.notify(said, severity="error", markup=False)
        else:
            said = f"calendar written to {path} ({events} event{'s' * (events != 1)})"
            self._said = Part(said, short="calendar written")
        self._update_status()
