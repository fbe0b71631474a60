"""Peeking without losing one's place: looking at a paper (the cursor on it, its detail,
triage passing over it) never marks it read unless `reading.mark_on_dwell_ms` says so, and
in an unread-only view a paper read meanwhile stays, dimmed, until the view is left."""

from __future__ import annotations

from reader_helpers import row_ids, settle, status_line
from rich.color import Color
from test_reader_reading import read_on_disk

from paperterm.index.config import Config
from paperterm.tui.screens.main import MainScreen
from paperterm.tui.screens.triage import TriageScreen


def title_color(app, index: int) -> Color | None:
    """The colour the list draws row `index`'s title in (its first word's segment)."""
    paper_list = app.main.paper_list
    word = app.state.by_id[paper_list.rows[index].id].title.split()[0]
    strip = paper_list.render_line(index * paper_list.lines_per_row - round(paper_list.scroll_y))
    (style,) = [segment.style for segment in strip if word in segment.text][:1]
    return style.color if style is not None else None


async def test_the_cursor_the_detail_and_triage_never_mark_read_by_default(reader):
    app = reader()  # no `mark_on_dwell_ms`: only a key marks a paper read
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)  # would wait for a dwell timer too (the screen says it is pending)
        ids = row_ids(app)
        await pilot.press("U", "j", "j", "tab", "pagedown")  # down the list, into the detail
        await settle(pilot)
        assert app.main.detail.row.id == ids[2]
        await pilot.press("T", "j", "k", "escape")  # triage looks, decides nothing
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert read_on_disk(app) == set()
        assert "38 unread" in status_line(app)


async def test_read_while_unread_only_stays_dimmed_until_the_view_is_left(reader):
    app = reader(config=Config(mark_on_dwell_ms=20))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        assert read_on_disk(app) == {ids[0]}  # the rule says so: resting on it read it
        await pilot.press("U")  # without the paper read before the view was entered
        await settle(pilot)
        await pilot.press("j")
        await settle(pilot)
        assert read_on_disk(app) == set(ids[:3])
        assert row_ids(app) == ids[1:]  # the two read in this view stay in it
        await pilot.press("s")  # the list computed again, in another order: still there
        await settle(pilot)
        assert "sort: title" in status_line(app)
        assert set(row_ids(app)) == set(ids[1:])
        await pilot.press("s", "s", "s", "s")  # back to the corpus order
        await settle(pilot)
        assert row_ids(app) == ids[1:]
        # Row 0 read, row 1 under the cursor, rows 2 and 3 unread.
        assert title_color(app, 0) != title_color(app, 2) == title_color(app, 3)
        assert "35 unread · unread only" in status_line(app)
        await pilot.press("T")  # triage over the view as shown: the read papers are in it
        await settle(pilot)
        assert isinstance(app.screen, TriageScreen) and len(app.screen.control.ids) == 37
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("U", "U")  # out of the view and back in
        await settle(pilot)
        assert row_ids(app) == ids[3:]


async def test_a_paper_read_full_screen_in_unread_only_keeps_the_place_on_return(reader):
    """Reading full screen is the explicit read (the reading loop's rule): back in the
    unread-only list the paper is still there, under the cursor, among the same rows."""
    app = reader()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        await pilot.press("U", "j", "j", "f")
        await settle(pilot)
        assert read_on_disk(app) == {ids[2]}
        await pilot.press("right_square_bracket", "escape")  # the next one, then back
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert read_on_disk(app) == {ids[2], ids[3]}
        assert row_ids(app) == ids and app.main.paper_list.current.id == ids[3]
        assert title_color(app, 2) != title_color(app, 4)


async def test_papers_triaged_in_unread_only_stay_in_the_view_until_it_is_left(reader):
    app = reader()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        await pilot.press("U", "T", "1", "3", "escape")
        await settle(pilot)
        assert read_on_disk(app) == set(ids[:2])
        await pilot.press("s")  # the list computed again
        await settle(pilot)
        assert set(row_ids(app)) == set(ids)
        await pilot.press("U", "U")
        await settle(pilot)
        assert set(row_ids(app)) == set(ids[2:])


async def test_with_mark_on_open_false_reading_full_screen_marks_nothing(reader):
    app = reader(config=Config(mark_on_open=False))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        await pilot.press("j", "f", "right_square_bracket")  # two papers read full screen
        await settle(pilot)
        assert app.screen.row.id == ids[2]
        await pilot.press("r")  # the explicit mark still marks
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert read_on_disk(app) == {ids[2]}
