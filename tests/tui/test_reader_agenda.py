"""The agenda in the reader (`A`): days and sessions with times and rooms, clashes in words,
the papers without a session apart, the maybe toggle, Enter to the paper in the list, the
calendar file (`e`), and what an empty agenda says."""

from __future__ import annotations

from pathlib import Path

import icalendar
from reader_helpers import flat, reader_of, said, screen_text, settle, status_line, type_text

from paperterm.index.library.decisions import DecisionStore, decide
from paperterm.index.library.reading import ReadingStore
from paperterm.tui.screens.agenda import AgendaScreen
from paperterm.tui.screens.main import MainScreen

AGENDA = Path(__file__).resolve().parents[1] / "fixtures" / "agenda.json"
KEPT = ["ag-orals", "ag-posters", "ag-noend", "ag-none"]


def agenda_reader(data_dir: Path, kept: list[str] = KEPT, maybe: tuple[str, ...] = ("ag-maybe",)):
    """A reader over the agenda fixture with `kept` kept and `maybe` maybe."""
    decisions, reading = DecisionStore.in_dir(data_dir), ReadingStore.in_dir(data_dir)
    decisions.load()
    reading.load()
    if kept:
        decide(decisions, reading, kept, "keep")
    if maybe:
        decide(decisions, reading, list(maybe), "maybe")
    return reader_of([AGENDA], data_dir)


def agenda_screen(app) -> AgendaScreen:
    screen = app.screen
    assert isinstance(screen, AgendaScreen)
    return screen


async def open_agenda(pilot) -> AgendaScreen:
    await settle(pilot)
    await pilot.press("A")
    await settle(pilot)
    return agenda_screen(pilot.app)


async def test_A_shows_days_sessions_rooms_posters_clashes_and_the_unscheduled(tmp_path):
    app = agenda_reader(tmp_path / "data")
    async with app.run_test(size=(120, 40)) as pilot:
        await open_agenda(pilot)
        lines = [flat(line) for line in screen_text(app).splitlines()]
        at = {line: index for index, line in enumerate(lines) if line}
        orals = (
            "! 10:00–11:00 UTC-08:00 · Oral Session 1 · Room 101 · "
            "clash with Poster Session 1 (Hall B)"
        )
        posters = (
            "! 10:30–12:30 UTC-08:00 · Poster Session 1 · Hall B · "
            "clash with Oral Session 1 (Room 101)"
        )
        noend = "15:00–16:00 (assumed) UTC-08:00 · Poster Session 2 · Hall B"
        order = [
            "Wednesday 3 December 2025",
            orals,
            "Sparse Attention Revisited",
            posters,
            "#12 Graph Priors for Tabular Data",
            "Thursday 4 December 2025",
            noend,
            "#7 Calibrated Agents",
            "Not scheduled (no session or time in the data)",
            "A Paper Without a Session",
        ]
        assert all(line in at for line in order), [line for line in order if line not in at]
        assert "#7 Calibrated Agents" in at  # no clash: no marker
        assert [at[line] for line in order] == sorted(at[line] for line in order)
        assert "Small Models Reason Too" not in screen_text(app)  # a maybe paper
        assert "4 papers · 3 sessions on 2 days · 2 in a clash" in status_line(app)


async def test_j_k_move_over_papers_and_enter_shows_the_paper_in_the_list(tmp_path):
    app = agenda_reader(tmp_path / "data")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_agenda(pilot)
        assert screen.control.current == "ag-orals"
        await pilot.press("j", "j")
        assert screen.control.current == "ag-noend"
        await pilot.press("k")
        assert screen.control.current == "ag-posters"
        assert app.current_row().id == "ag-posters"  # the app's keys (b, o, y) act on it
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert app.main.paper_list.current.id == "ag-posters"
        assert "Graph Priors for Tabular Data" in app.main.detail.row.paper.title
        await pilot.press("A")  # back on the paper it was left on
        await settle(pilot)
        assert agenda_screen(app).control.current == "ag-posters"
        await pilot.press("j", "l")  # l shows it too
        await settle(pilot)
        assert app.main.paper_list.current.id == "ag-noend"


async def test_a_paper_not_in_the_view_is_shown_among_all_papers(tmp_path):
    app = agenda_reader(tmp_path / "data")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await type_text(pilot, "agents")
        await pilot.press("enter")
        await settle(pilot)
        assert [row.id for row in app.main.paper_list.rows] == ["ag-noend"]
        await pilot.press("A")
        await settle(pilot)
        await pilot.press("enter")  # the first paper: Sparse Attention Revisited
        await settle(pilot)
        assert app.main.search_input.value == ""
        assert app.main.paper_list.current.id == "ag-orals"


async def test_escape_h_and_q_close_the_agenda(tmp_path):
    app = agenda_reader(tmp_path / "data")
    async with app.run_test(size=(120, 40)) as pilot:
        for key in ("escape", "h", "q"):
            await open_agenda(pilot)
            before = app.main.paper_list.current.id
            await pilot.press(key)
            await settle(pilot)
            assert isinstance(app.screen, MainScreen)
            assert app.main.paper_list.current.id == before
        assert app.is_running


async def test_the_maybe_toggle_adds_the_maybe_papers(tmp_path):
    app = agenda_reader(tmp_path / "data")
    async with app.run_test(size=(120, 40)) as pilot:
        await open_agenda(pilot)
        await pilot.press("M")
        await settle(pilot)
        text = screen_text(app)
        assert "Small Models Reason Too  (maybe)" in text
        assert "09:00–10:00 UTC-08:00 · Oral Session 2 · Room 102" in text
        assert "M maybe papers (shown)" in flat(text)
        assert "maybe papers shown" in status_line(app)
        await pilot.press("M")
        await settle(pilot)
        assert "Small Models Reason Too" not in screen_text(app)


async def test_e_writes_a_calendar_with_one_event_per_session(tmp_path):
    data = tmp_path / "data"
    app = agenda_reader(data)
    async with app.run_test(size=(160, 40)) as pilot:
        await open_agenda(pilot)
        await pilot.press("e")
        await settle(pilot)
        box = app.screen.query_one("#name-input")
        assert box.value == str(data / "agenda.ics")  # the data dir first
        await pilot.press("enter")
        await settle(pilot)
        agenda_screen(app)
        path = data / "agenda.ics"
        calendar = icalendar.Calendar.from_ical(path.read_bytes())
        events = calendar.walk("VEVENT")
        assert sorted(str(e["SUMMARY"]) for e in events) == [
            "Oral Session 1",
            "Poster Session 1",
            "Poster Session 2",
        ]
        assert f"calendar written to {path} (3 events)" in status_line(app)


async def test_a_calendar_that_cannot_be_written_is_one_line(tmp_path):
    data = tmp_path / "data"
    app = agenda_reader(data)
    async with app.run_test(size=(160, 40)) as pilot:
        await open_agenda(pilot)
        await pilot.press("e")
        await settle(pilot)
        box = app.screen.query_one("#name-input")
        box.value = str(tmp_path / "missing" / "agenda.ics")
        await pilot.press("enter")
        await settle(pilot)
        target = tmp_path / "missing" / "agenda.ics"
        assert said(app) == [f"{target}: cannot write the calendar: the folder does not exist"]
        assert "calendar not written" in status_line(app)
        assert not (tmp_path / "missing").exists()


async def test_an_empty_agenda_says_how_to_keep_papers(tmp_path):
    app = agenda_reader(tmp_path / "data", kept=[], maybe=())
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_agenda(pilot)
        text = flat(screen_text(app))
        assert "No kept papers yet." in text
        assert "Keep papers in triage: T in the list, then 1 on a paper (2: maybe)." in text
        assert screen.control.current is None
        await pilot.press("j", "enter")  # nothing to move to or show
        await settle(pilot)
        assert app.screen is screen


async def test_a_decision_undone_leaves_the_agenda(tmp_path):
    """The agenda follows decisions made or taken back while it is open."""
    data = tmp_path / "data"
    app = agenda_reader(data, kept=["ag-orals"], maybe=())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.main.paper_list.move_to(app.main.paper_list.index_of("ag-posters"))
        await pilot.press("T")
        await settle(pilot)
        await pilot.press("1", "escape")  # keeps the first undecided: ag-posters
        await settle(pilot)
        await open_agenda(pilot)
        assert "Graph Priors for Tabular Data" in screen_text(app)
        await pilot.press("u")
        await settle(pilot)
        assert "Graph Priors for Tabular Data" not in screen_text(app)
        assert "Sparse Attention Revisited" in screen_text(app)


async def test_the_config_time_zone_shows_the_agenda_there_and_says_so(tmp_path):
    app = agenda_reader(tmp_path / "data")
    app.state.config.agenda_time_zone = "Europe/Paris"
    async with app.run_test(size=(120, 40)) as pilot:
        await open_agenda(pilot)
        text = flat(screen_text(app))
        assert "19:00–20:00 UTC+01:00 · Oral Session 1 · Room 101" in text
        assert "UTC-08:00" not in text
        assert "times in Europe/Paris" in status_line(app)
