"""Terminal manners: layouts by width, tiny windows, NO_COLOR, untrusted text."""

from __future__ import annotations

import pytest
from reader_helpers import flat, reader_of, resize, screen_text, settle, type_text

from paperterm.index.config import Config
from paperterm.tui.rows import WHOLE_TITLE_WIDTH


async def test_side_by_side_from_the_configured_width_stacked_below(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.main
        assert not screen.has_class("-side")
        list_region, detail_region = screen.paper_list.region, screen.detail.region
        assert detail_region.y >= list_region.bottom  # stacked: both visible
        assert list_region.height >= 5 and detail_region.height >= 5
        await resize(pilot, 150, 24)
        assert screen.has_class("-side")
        list_region, detail_region = screen.paper_list.region, screen.detail.region
        assert detail_region.x >= list_region.right
        assert list_region.y == detail_region.y


async def test_comfortable_rows_stack_the_panes_until_half_the_screen_keeps_whole_titles(
    reader,
):
    """Comfortable rows want the list's width for whole titles: stacked up to 149 columns,
    side by side from 150 (each half then holds any title under 140 cells in two lines);
    compact rows go side by side from `side_by_side_min_width` as before."""
    app = reader()
    async with app.run_test(size=(149, 30)) as pilot:
        await settle(pilot)
        screen = app.main
        assert screen.paper_list.comfortable and not screen.has_class("-side")
        assert screen.paper_list.scrollable_content_region.width >= 140
        await resize(pilot, 150, 30)
        assert screen.has_class("-side")
        assert screen.paper_list.scrollable_content_region.width >= WHOLE_TITLE_WIDTH
        await resize(pilot, 120, 30)
        assert not screen.has_class("-side")
        await pilot.press("D")  # compact: side by side again
        await settle(pilot)
        assert not screen.paper_list.comfortable and screen.has_class("-side")
        await pilot.press("D")
        await settle(pilot)
        assert screen.paper_list.comfortable and not screen.has_class("-side")


async def test_side_by_side_width_comes_from_the_config(reader):
    app = reader(Config(side_by_side_min_width=140))
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        assert not app.main.has_class("-side")


async def test_small_windows_say_so_and_recover(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await resize(pilot, 39, 20)
        assert "window too small" in screen_text(app)
        await resize(pilot, 60, 9)
        assert "window too small" in screen_text(app)
        await resize(pilot, 40, 10)
        text = screen_text(app)
        assert "window too small" not in text
        assert "38 papers" in text


SIZES = [(1, 1), (2, 1), (1, 5), (5, 2), (10, 3), (20, 5), (39, 9), (40, 10), (45, 12)]


@pytest.mark.parametrize("opener", [[], ["f"], ["question_mark"], ["t"], ["n"], ["ctrl+p"]])
async def test_no_size_breaks_any_screen(reader, opener):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(*opener)
        await pilot.pause()
        for width, height in SIZES:
            await resize(pilot, width, height)
            screen_text(app)
            assert app.is_running
        await resize(pilot, 80, 24)
        assert app.is_running


@pytest.mark.parametrize("opener", [["question_mark"], ["ctrl+p", *"Warn", "enter"]])
async def test_a_dialog_in_a_tiny_window_comes_to_rest(reader, opener):
    """At 2 columns the help's scroll bar used to appear and vanish without end (with it the
    text had no room, without it the text needed it): 15% of a core, for as long as the
    help stayed open."""
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.state.warnings = ["one problem"]  # so that the palette offers the warnings
        await pilot.press(*opener)
        await settle(pilot)
        scroll = app.screen.query_one(".dialog ScrollingText")
        flips: list[bool] = []

        def flipped(shown: bool) -> None:
            flips.append(shown)

        app.screen.watch(scroll, "show_vertical_scrollbar", flipped, init=False)
        for width, height in [(2, 1), (5, 2), (1, 5), (3, 3)]:
            await resize(pilot, width, height)
            flips.clear()
            for _ in range(5):
                await pilot.pause()
            assert flips == [], f"the scroll bar keeps flipping at {width}x{height}"


async def test_starting_tiny_works(reader):
    app = reader()
    async with app.run_test(size=(1, 1)) as pilot:
        await settle(pilot)
        screen_text(app)
        await resize(pilot, 80, 24)
        assert "38 papers" in screen_text(app)


async def test_no_color_is_honoured(reader, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.no_color
        strips = app.screen._compositor.render_strips()
        for line in app.get_line_filters()[0].apply(list(strips[1]), app.styles.background):
            if line.style is not None:
                assert (
                    line.style.color is None
                    or line.style.color.is_default
                    or (
                        line.style.color.triplet is not None
                        and len(set(line.style.color.triplet)) == 1  # grey levels only
                    )
                )


async def test_untrusted_text_is_never_markup_nor_control_sequences(tmp_path):
    source = tmp_path / "evil.txt"
    source.write_text(
        "[bold red]Evil[/] list\n\n"
        "We study [link=https://x]clicks[/link] and \x1b]0;owned\x07 titles "
        "with \x1b[31mred\x1b[0m text and [b]bold[/b] words, see https://example.org/a.\n",
        encoding="utf-8",
    )
    app = reader_of([source], tmp_path / "data")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "[link=https://x]clicks[/link]" in text
        assert "\x1b" not in text
        assert "owned" not in text
        await pilot.press("f")
        await settle(pilot)
        assert "[b]bold[/b]" in screen_text(app)
        assert "[bold red]Evil[/] list" in screen_text(app)  # the collection, in the facts
        await pilot.press("escape", "ctrl+p")
        await type_text(pilot, "Collection")
        await settle(pilot)
        assert "Collection: [bold red]Evil[/] list" in screen_text(app)


async def test_corpus_problems_are_counted_and_listed(tmp_path):
    folder = tmp_path / "sources"
    folder.mkdir()
    (folder / "good.txt").write_text("Good list\n\nWe study a good problem.\n", encoding="utf-8")
    (folder / "bad.txt").write_bytes(b"\x00\x01\x02 binary")
    app = reader_of([folder], tmp_path / "data")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert "1 paper · 1 unread · 1/1 · index ready · 1 warning" in screen_text(app)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Warnings" in titles
        app.show_warnings()
        await pilot.pause()
        assert "not a text file (binary content)" in flat(screen_text(app).replace("│", ""))
        await pilot.press("escape")
        assert app.screen is app.main


async def test_an_empty_corpus_says_what_to_do(tmp_path):
    app = reader_of([], tmp_path / "data", Config(include_seeds=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "No papers. Add sources in the config file" in text
        assert "0 papers" in text
        await pilot.press("j", "f", "b", "y", "o", "t", "n", "slash", *"x", "escape")
        await settle(pilot)
        assert app.is_running


@pytest.mark.parametrize("tiny", [(39, 20), (60, 9), (1, 1)])
@pytest.mark.parametrize("pane", ["list", "search"])
async def test_keys_work_again_after_a_tiny_window(reader, tiny, pane):
    """Through "window too small" and back, the pane that had the focus has it again: the
    list's keys move its cursor, and letters go on into the search box."""
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.main
        if pane == "search":
            await pilot.press("slash")
            await settle(pilot)
        focused = screen.focused
        assert focused is not None
        await resize(pilot, *tiny)
        await resize(pilot, 80, 24)
        assert screen.focused is focused
        if pane == "search":
            await type_text(pilot, "ab")
            await settle(pilot)
            assert screen.search_input.value == "ab"
            return
        assert screen.paper_list.cursor == 0
        await pilot.press("j")
        await settle(pilot)
        assert screen.paper_list.cursor == 1
        await pilot.press("down", "down")
        await settle(pilot)
        assert screen.paper_list.cursor == 3
        await pilot.press("k")
        await settle(pilot)
        assert screen.paper_list.cursor == 2


async def test_a_sidebar_stacks_the_panes_when_the_list_would_cut_titles(reader):
    app = reader()
    async with app.run_test(size=(160, 30)) as pilot:
        await settle(pilot)
        screen = app.main
        assert screen.has_class("-side")
        await pilot.press("F")  # the facets take 26 columns: half of the rest cuts titles
        await settle(pilot)
        assert not screen.has_class("-side")
        assert screen.paper_list.scrollable_content_region.width >= 2 * WHOLE_TITLE_WIDTH - 20
        await pilot.press("F")
        await settle(pilot)
        assert screen.has_class("-side")
        await resize(pilot, 200, 30)
        await pilot.press("v")  # the views sidebar: 200 less 26 still leaves two halves
        await settle(pilot)
        assert screen.has_class("-side")
        assert screen.paper_list.scrollable_content_region.width >= WHOLE_TITLE_WIDTH
