"""The footer, the status line, toasts, the help and the palette as the key table and the
window size make them (Pilot)."""

from __future__ import annotations

import pytest
from reader_helpers import resize, run_from_palette, screen_text, settle, toasts_shown, type_text
from textual.widgets._toast import Toast

from paperterm.index.config import Config
from paperterm.tui import keys
from paperterm.tui.screens.dialogs import HelpScreen
from paperterm.tui.screens.read import ReadScreen
from paperterm.tui.widgets.key_footer import KeyFooter


def footer_text(app) -> str:
    return app.screen.query_one(KeyFooter).text


async def test_the_footer_teaches_the_focused_panes_keys_within_80_columns(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = listed = footer_text(app)
        assert text.startswith("/ search  ⏎ open  b bookmark")
        assert text.endswith("? all keys")
        assert len(text) <= 78
        assert 5 <= text.count("  ") + 1 <= 8  # 5-7 keys, and the help key
        assert text in screen_text(app)
        await pilot.press("slash")  # typing: no key the box takes as text
        text = footer_text(app)
        assert "esc back" in text and "b bookmark" not in text and "?" not in text
        await pilot.press("escape")  # the list again: its keys again
        assert footer_text(app) == listed
        await pilot.press("tab")  # the detail pane
        assert app.main.focused is app.main.detail
        assert "⏎ open" in footer_text(app)
        await pilot.press("f")
        await settle(pilot)
        assert isinstance(app.screen, ReadScreen)
        text = footer_text(app)
        assert text.startswith("esc/h/q back") and "/ search" not in text


async def test_the_footer_shows_more_keys_when_wide_and_follows_remaps(reader):
    app = reader(Config(keys={"bookmark": "m"}))
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        text = footer_text(app)
        assert "m bookmark" in text and "b bookmark" not in text
        assert text.count("  ") == keys.FOOTER_MOST  # the gaps before the help key too


async def test_the_footer_can_be_turned_off(reader):
    app = reader(Config(footer=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert not app.screen.query_one(KeyFooter).display
        assert "? keys  ^p commands" in screen_text(app).splitlines()[-1]


@pytest.mark.parametrize("width", [40, 60, 80, 120])
async def test_the_status_line_keeps_the_filter_and_the_count(reader, width):
    app = reader()
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot)
        await pilot.press("b", "j", "b", "B")  # two bookmarks, bookmarks only
        await pilot.press("slash")
        await type_text(pilot, "persona")  # in the second paper only
        await settle(pilot)
        status = app.main.status_line.text
        assert status in screen_text(app)
        assert status.startswith(("1 of 38 papers · ", "1/38 · "))
        assert "bookmarks only" in status or "★ only" in status
        if width in (40, 120):  # a decoration makes room when space is short
            assert ("index ready" in status) == (width == 120)


@pytest.mark.parametrize("width", [40, 60])
async def test_read_only_bookmarks_stay_in_a_narrow_status_line(reader, data_dir, width):
    (data_dir / "bookmarks.toml").write_text('version = 1\n[[bookmarks]]\nid = "a\n', "utf-8")
    app = reader()
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot)
        status = app.main.status_line.text
        assert status.startswith("38 papers · ") and "read-only" in status


async def test_one_toast_at_a_time_over_the_footer_at_80x24(reader):
    app = reader()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("w", "w", "y")
        await settle(pilot)
        await toasts_shown(pilot)
        toasts = list(app.screen.query(Toast))
        assert len(toasts) == 1
        assert "Copied" in str(toasts[0].render()) or "copied" in str(toasts[0].render())
        region = toasts[0].region
        assert region.y >= 22 and region.bottom <= 24  # the status line and the footer only


async def test_toasts_stack_in_a_large_window(reader):
    app = reader()
    async with app.run_test(size=(140, 50), notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("w", "w")
        await settle(pilot)
        await toasts_shown(pilot)
        assert len(app.screen.query(Toast)) == 2
        await resize(pilot, 80, 24)  # small now: the next toast replaces both
        await pilot.press("w")
        await settle(pilot)
        await toasts_shown(pilot)
        assert app.has_class("-small") and len(app.screen.query(Toast)) == 1


async def test_stacked_the_detail_gets_at_least_half_and_zoom_gives_it_all(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.main
        panes = screen.query_one("#panes").region.height
        assert screen.detail.region.height * 2 >= panes
        await pilot.press("z")
        await pilot.pause()
        assert screen.zoom == "list" and not screen.detail.display
        assert screen.paper_list.region.height == panes
        await pilot.press("z")
        await pilot.pause()
        assert screen.zoom == "detail" and screen.focused is screen.detail
        assert screen.detail.region.height == panes
        await pilot.press("z")
        await pilot.pause()
        assert screen.zoom == "both" and screen.paper_list.display and screen.detail.display


async def test_help_shows_this_screens_keys_first_with_their_ids(reader):
    app = reader()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        lines = app.screen.help_text().plain.splitlines()
        assert lines[0] == "Main screen (this screen)"
        for spec in keys.SPECS:
            assert any(
                f" {spec.id} " in f"{line} " and spec.description[:30] in line for line in lines
            ), spec.id
        await pilot.press("escape", "f")
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        lines = app.screen.help_text().plain.splitlines()
        assert lines[0] == "Full-screen reader (this screen)"
        assert lines[1].split()[:2] == ["esc/h/q", "close_reader"]


async def test_palette_entries_show_their_keys_and_run(reader):
    app = reader(Config(keys={"bookmarks_only": "ctrl+b"}))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Bookmark or unbookmark the paper · b" in titles
        assert "Show only bookmarks (toggle) · ^b" in titles
        await run_from_palette(pilot, "Show only bookmarks")
        assert app.main.filters.bookmarks_only


@pytest.mark.parametrize("size", [(1, 1), (10, 4), (39, 24), (80, 9), (40, 10), (20, 60)])
async def test_tiny_windows_do_not_crash(reader, size):
    app = reader()
    async with app.run_test(size=size, notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("j", "z", "w", "b", "question_mark", "escape", "f", "escape")
        await settle(pilot)
        await resize(pilot, 80, 24)
        assert app.is_running
        assert footer_text(app)
