"""Every binding, pressed through Pilot."""

from __future__ import annotations

import pytest
from reader_helpers import run_from_palette, screen_text, settle
from textual.widgets import OptionList

from paperterm.index.config import Config
from paperterm.index.library.filters import ViewKey
from paperterm.tui import keys
from paperterm.tui.screens.dialogs import HelpScreen
from paperterm.tui.screens.main import MainScreen
from paperterm.tui.screens.read import ReadScreen
from paperterm.tui.widgets.detail import PaperDetail


async def test_cursor_keys_move_the_selection_and_drive_the_detail(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.main
        rows = screen.paper_list.rows
        await pilot.press("j", "j", "down")
        assert screen.paper_list.cursor == 3
        await pilot.press("k", "up")
        assert screen.paper_list.cursor == 1
        await pilot.press("G")
        assert screen.paper_list.cursor == len(rows) - 1
        await pilot.press("g")
        assert screen.paper_list.cursor == 0
        await pilot.press("end")
        assert screen.paper_list.cursor == len(rows) - 1
        await pilot.press("home")
        assert screen.paper_list.cursor == 0
        await pilot.press("pagedown")
        page = screen.paper_list.cursor
        assert page > 3
        await pilot.press("pagedown", "pageup")
        assert screen.paper_list.cursor == page
        await pilot.press("pageup")
        assert screen.paper_list.cursor == 0
        await pilot.press("j")
        await settle(pilot)
        assert screen.detail.row.id == rows[1].id
        assert rows[1].paper.title[:30] in screen_text(app).replace("\n", " ")


async def test_the_list_scrolls_to_keep_the_cursor_in_view(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        paper_list = app.main.paper_list
        await pilot.press("G")
        await pilot.pause()
        last = paper_list.rows[-1].paper.title[:25]
        assert paper_list.scroll_y > 0
        assert last in screen_text(app)


async def test_tab_cycles_the_panes_and_slash_focuses_the_search(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.main
        assert app.focused is screen.paper_list
        await pilot.press("tab")
        assert app.focused is screen.detail
        await pilot.press("shift+tab")
        assert app.focused is screen.paper_list
        await pilot.press("shift+tab")
        assert app.focused is screen.search_input
        await pilot.press("tab")
        assert app.focused is screen.paper_list
        await pilot.press("slash")
        assert app.focused is screen.search_input


async def test_detail_scrolls_with_the_list_keys(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        detail = app.main.detail
        await pilot.press("tab")
        assert app.focused is detail
        await pilot.press("j", "j")
        assert detail.scroll_y == 2
        await pilot.press("k")
        assert detail.scroll_y == 1
        await pilot.press("G")
        assert detail.scroll_y == detail.max_scroll_y
        await pilot.press("g")
        assert detail.scroll_y == 0
        await pilot.press("pagedown")
        assert detail.scroll_y > 2
        await pilot.press("pageup")
        assert detail.scroll_y == 0


@pytest.mark.parametrize("opener", [["f"], ["enter"], ["tab", "enter"]])
async def test_full_screen_reader_opens_and_returns(reader, opener):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("j")
        chosen = app.main.paper_list.current
        for closer in ["escape", "h", "q", "f"]:  # each closer in turn, in one reader
            await pilot.press(*opener)
            await settle(pilot)
            assert isinstance(app.screen, ReadScreen)
            assert app.screen.row.id == chosen.id
            assert chosen.paper.title[:30] in screen_text(app).replace("\n", " ")
            await pilot.press(closer)
            await pilot.pause()
            assert isinstance(app.screen, MainScreen), f"{closer} did not close the reader"
            assert app.is_running
            if opener == ["tab", "enter"]:
                await pilot.press("shift+tab")  # back to the list, as before the first open


async def test_related_papers_are_listed_and_enter_opens_one(reader):
    app = reader()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"DNA", "enter")
        await settle(pilot)
        detail = app.main.detail
        related = detail.query_one("#related", OptionList)
        assert 1 <= related.option_count <= 5
        assert all(hit.paper.id != detail.row.id for hit in detail._related)
        related.focus()
        await pilot.press("down")
        chosen = detail._related[related.highlighted].paper
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ReadScreen)
        assert app.screen.row.id == chosen.id
        # The reader shows related papers too, and opening one stacks another reader.
        reader_detail = app.screen.query_one(PaperDetail)
        assert reader_detail.query_one("#related", OptionList).option_count >= 1
        reader_detail.query_one("#related", OptionList).focus()
        await pilot.press("enter")
        await settle(pilot)
        assert len(app.screen_stack) == 3
        await pilot.press("escape", "escape")
        assert isinstance(app.screen, MainScreen)


async def test_help_lists_every_binding(reader):
    app = reader()
    async with app.run_test(size=(120, 60)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.help_text().plain
        for spec in keys.SPECS:
            assert spec.description in text
        await pilot.press("q")
        assert isinstance(app.screen, MainScreen)
        assert app.is_running
        await pilot.press("question_mark", "question_mark")
        assert isinstance(app.screen, MainScreen)
        await pilot.press("question_mark", "escape")
        assert isinstance(app.screen, MainScreen)


async def test_remapped_keys_work_and_show_in_help_and_status(reader):
    config = Config(keys={"bookmark": "m", "help": "f1", "cursor_down": "J,down"})
    app = reader(config)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        await pilot.press("J", "J")
        assert app.main.paper_list.cursor == 2
        await pilot.press("j")
        assert app.main.paper_list.cursor == 2  # j is not cursor_down any more
        await pilot.press("m")
        assert app.state.bookmarks.is_bookmarked(app.main.paper_list.current.id)
        await pilot.press("b")
        assert app.state.bookmarks.is_bookmarked(app.main.paper_list.current.id)
        assert "f1 all keys" in screen_text(app)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        lines = app.screen.help_text().plain.splitlines()
        assert any(line.split()[:1] == ["m"] and "Bookmark" in line for line in lines)
        assert any(line.strip().startswith("J/↓") for line in lines)


async def test_command_palette_opens_and_runs_our_commands(reader):
    app = reader()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Show only bookmarks (toggle) · B" in titles
        assert "Collection: ICML 2024 Papers" in titles
        assert "Export bookmarks as BibTeX" in titles
        await run_from_palette(pilot, "Collection: ICML 2024 Papers")
        assert app.main.filters.view == ViewKey("collection", "ICML 2024 Papers")
        assert "19 of 38 papers" in screen_text(app)
        await pilot.press("x")
        await settle(pilot)
        assert "38 papers" in screen_text(app)
        assert app.main.filters.view == ViewKey()


async def test_y_copies_the_link_or_else_the_citation(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.main
        with_link = next(i for i, r in enumerate(screen.paper_list.rows) if r.paper.links)
        without = next(i for i, r in enumerate(screen.paper_list.rows) if not r.paper.links)
        screen.paper_list.move_to(with_link)
        await pilot.press("y")
        assert app.clipboard == screen.paper_list.rows[with_link].paper.links[0]
        screen.paper_list.move_to(without)
        await pilot.press("y")
        paper = screen.paper_list.rows[without].paper
        assert paper.title in app.clipboard
        assert paper.collection in app.clipboard


async def test_o_over_ssh_copies_and_shows_the_link(reader, opened_urls):
    app = reader(environ={"SSH_CONNECTION": "1 2 3 4"})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.main
        index = next(i for i, r in enumerate(screen.paper_list.rows) if r.paper.links)
        screen.paper_list.move_to(index)
        url = screen.paper_list.rows[index].paper.links[0]
        await pilot.press("o")
        await settle(pilot)
        assert opened_urls.urls == []
        assert app.clipboard == url
        assert any(url in n.message for n in app._notifications)


async def test_o_locally_opens_the_browser(reader, opened_urls):
    app = reader(environ={"DISPLAY": ":0"})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.main
        index = next(i for i, r in enumerate(screen.paper_list.rows) if r.paper.links)
        screen.paper_list.move_to(index)
        await pilot.press("o")
        await settle(pilot)
        assert opened_urls.urls == [screen.paper_list.rows[index].paper.links[0]]


async def test_o_without_a_link_says_so(reader, opened_urls):
    app = reader(environ={"DISPLAY": ":0"})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.main
        index = next(i for i, r in enumerate(screen.paper_list.rows) if not r.paper.links)
        screen.paper_list.move_to(index)
        await pilot.press("o")
        await settle(pilot)
        assert opened_urls.urls == []
        assert any("no link" in n.message for n in app._notifications)


async def test_mouse_click_selects_a_row(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.click("#list", offset=(5, 3))
        assert app.main.paper_list.cursor == 3


async def test_a_late_answer_to_a_removed_screen_is_dropped(reader):
    """Messages can still arrive while the app ends (a SIGTERM under load): the widgets
    that are mounted on their first use (the related list, the notice lines, the progress
    row) must not be mounted on a screen that has left: a SIGTERM under the full suite's
    load ended the reader with a MountError traceback and status 1 (and a removed detail,
    its children gone, raised NoMatches)."""
    app = reader()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"DNA", "enter")
        await settle(pilot)
        main = app.main
        detail = main.detail
        row, hits = detail.row, list(detail._related)
        assert row is not None and hits
        await main.query_one("#body").remove()
        assert not detail.is_attached
        detail._related_list = None  # as before the first related papers came
        detail.set_related(row.id, hits)
        assert detail._related_list is None
        main.remove()
        await settle(pilot)
        assert not main.is_attached
        main._show_line("late-line", "a late notice")
        main._progress_bar()
        assert not main.query("#late-line") and not main.query("#progress-row")
        # Nothing made then is kept: every later call would have had the detached one.
        for _ in range(2):
            assert main._progress_bar() is None and main._progress is None
            assert await main._mount_views() is None and main._views is None
            main._size_classes(20, 5)
            assert main._too_small is None and not main.query("#too-small")
