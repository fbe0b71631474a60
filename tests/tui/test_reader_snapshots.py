"""Snapshots of the reader at 80x24 and 120x40, the triage rows also at 200x50 (update
with `pytest --snapshot-update`).

Nothing on these screens depends on the clock, the host or the temporary data dir; the
search box's cursor does not blink.
"""

from __future__ import annotations

import time
from datetime import datetime, timezone

import pytest
from locations import FIXTURES
from reader_helpers import INSTANT, settle, type_text

from paperterm.index.config import Config
from paperterm.index.library import reading
from paperterm.index.library.decisions import DecisionStore, decide
from paperterm.index.library.reading import ReadingStore
from paperterm.index.session import Session
from paperterm.tui.app import make_app
from paperterm.tui.clipboard import Clipboard

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


class Typed(str):
    """Text typed in one burst (see `type_text`), among the keys of `run_then`."""


def run_then(*keys: str, index: bool = True):
    async def run_before(pilot) -> None:
        await settle(pilot, index=index)
        # A blinking cursor would make the picture depend on the moment it is taken.
        pilot.app.main.search_input.cursor_blink = False
        for key in keys:
            if isinstance(key, Typed):
                await type_text(pilot, key)
            else:
                await pilot.press(key)
        await settle(pilot, index=index)

    return run_before


@pytest.mark.parametrize("size", SIZES)
def test_list(snap_compare, reader, size):
    assert snap_compare(reader(), terminal_size=size, run_before=run_then())


@pytest.mark.parametrize("size", SIZES)
def test_search_results_with_highlights(snap_compare, reader, size):
    keys = ["slash", Typed("transformer"), "enter", "j"]
    assert snap_compare(reader(), terminal_size=size, run_before=run_then(*keys))


@pytest.fixture
def fixed_clock(monkeypatch):
    """Papers read at one moment, shown in UTC: the full view says when its paper was read."""
    monkeypatch.setattr(
        reading, "utc_now", lambda: datetime(2024, 7, 21, 9, 30, tzinfo=timezone.utc)
    )
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize("size", SIZES)
def test_full_screen_detail(snap_compare, reader, size, fixed_clock):
    keys = ["slash", *"DNA", "enter", "f"]
    assert snap_compare(reader(), terminal_size=size, run_before=run_then(*keys))


@pytest.mark.parametrize("size", SIZES)
def test_help(snap_compare, reader, size):
    assert snap_compare(reader(), terminal_size=size, run_before=run_then("question_mark"))


@pytest.mark.parametrize("size", SIZES)
def test_empty_result(snap_compare, reader, size):
    keys = ["slash", Typed("=transfomer")]  # `=`: as typed, so no paper matches
    assert snap_compare(reader(), terminal_size=size, run_before=run_then(*keys))


@pytest.mark.parametrize("size", SIZES)
def test_corrected_query_with_its_note(snap_compare, reader, size):
    # No paper has "xqzv": the papers with any of the words show, most words first, with
    # both notes.
    # j, k: the detail's scrollbar (on or off at this length: either fits) is decided from
    # the next paper's, not from whichever paper typing showed last.
    keys = ["slash", Typed("trasnformer xqzv "), "enter", "j", "k"]
    assert snap_compare(reader(), terminal_size=size, run_before=run_then(*keys))


@pytest.mark.parametrize("size", SIZES)
def test_first_launch_progress(snap_compare, gated_reader, size):
    app, _session = gated_reader()  # the build is held at 45% until the app exits
    assert snap_compare(app, terminal_size=size, run_before=run_then(index=False))


def sample_reader(tmp_path):
    """The reader over tests/fixtures/display_sample.bib: authors, years, two volumes,
    titles in CJK with an emoji and with combining marks."""
    config = Config()
    session = Session.create(tmp_path / "data", [FIXTURES / "display_sample.bib"], config)
    return make_app(session, config, timing=INSTANT, environ={}, copier=Clipboard({}))


@pytest.mark.parametrize("size", SIZES)
def test_rows_with_authors_years_and_marks(snap_compare, tmp_path, size):
    # The first paper bookmarked (by the store: the `b` key's toast could time out on a
    # slow machine before the picture is taken), the cursor on the CJK title.
    app = sample_reader(tmp_path)
    settled = run_then("j")

    async def run_before(pilot) -> None:
        await settle(pilot)
        pilot.app.state.bookmarks.add("quill24", "QuillNet")
        pilot.app.bookmarks_changed()
        await settled(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_search_results_with_snippets(snap_compare, tmp_path, size):
    keys = ["slash", Typed("transformers"), "enter"]
    assert snap_compare(sample_reader(tmp_path), terminal_size=size, run_before=run_then(*keys))


NARROW = [pytest.param((40, 24), id="40x24"), pytest.param((60, 24), id="60x24")]


@pytest.mark.parametrize("size", NARROW)
def test_narrow_status_keeps_the_filter_and_the_footer_fits(snap_compare, reader, size):
    keys = ["b", "j", "b", "B", "slash", Typed("persona"), "escape"]
    assert snap_compare(reader(), terminal_size=size, run_before=run_then(*keys))


def test_zoomed_detail_at_80x24(snap_compare, reader):
    assert snap_compare(reader(), terminal_size=(80, 24), run_before=run_then("j", "z", "z"))


def test_help_over_the_reader_lists_its_keys_first(snap_compare, reader):
    keys = ["f", "question_mark"]
    assert snap_compare(reader(), terminal_size=(80, 24), run_before=run_then(*keys))


def test_help_at_40_columns_puts_descriptions_under_their_keys(snap_compare, reader):
    assert snap_compare(reader(), terminal_size=(40, 24), run_before=run_then("question_mark"))


WIDE = [*SIZES, pytest.param((200, 50), id="200x50")]


def icml_reader(tmp_path):
    """The reader over tests/fixtures/icml_rows.json: ICML-shaped papers with long titles,
    affiliations, Oral and Spotlight, sessions and days, a CJK title, one with combining
    marks; two decided (and so read), one maybe."""
    config = Config()
    data_dir = tmp_path / "data"
    session = Session.create(data_dir, [FIXTURES / "icml_rows.json"], config)
    decisions, reading_state = DecisionStore.in_dir(data_dir), ReadingStore.in_dir(data_dir)
    decisions.load()
    reading_state.load()
    for ids, decision in ((["icml-02"], "keep"), (["icml-06"], "skip"), (["icml-08"], "maybe")):
        decide(decisions, reading_state, ids, decision)
    return make_app(session, config, timing=INSTANT, environ={}, copier=Clipboard({}))


def bookmark_then(*keys: str, density: str = ""):
    """`run_then(*keys)` after bookmarking icml-07 by the store (see
    `test_rows_with_authors_years_and_marks`), and with the rows' `density` when given
    (set, not keyed: the key's toast could time out before the picture is taken)."""
    settled = run_then(*keys)

    async def run_before(pilot) -> None:
        await settle(pilot)
        pilot.app.state.bookmarks.add("icml-07", "Stop Regressing")
        pilot.app.bookmarks_changed()
        if density:
            pilot.app.main.set_density(density)
        await settled(pilot)

    return run_before


@pytest.mark.parametrize("size", WIDE)
def test_triage_rows_with_whole_titles(snap_compare, tmp_path, size, fixed_clock):
    # The cursor on the CJK title; at 80 columns the rows are one line each.
    app = icml_reader(tmp_path)
    assert snap_compare(app, terminal_size=size, run_before=bookmark_then("j", "j"))


def test_compact_rows_at_120x40(snap_compare, tmp_path, fixed_clock):
    app = icml_reader(tmp_path)
    run_before = bookmark_then("j", density="compact")
    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)


def test_triage_rows_with_snippets_at_120x40(snap_compare, tmp_path, fixed_clock):
    keys = ["slash", Typed("transformers"), "enter"]
    app = icml_reader(tmp_path)
    assert snap_compare(app, terminal_size=(120, 40), run_before=run_then(*keys))
