"""Triage in the reader: `T`, a key per decision, undo, moving without deciding, leaving on
the paper shown, resuming, remapped keys, and what reaches reading.toml."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from reader_helpers import (
    INSTANT,
    flat,
    row_ids,
    said,
    screen_text,
    settle,
    status_line,
)
from test_reader_keymap import CONFIG, config_with_keys
from test_reader_lifecycle import disk_full, wait_for_exit
from textual import events

from paperterm.index import user_files
from paperterm.index.config import Config, ConfigError
from paperterm.index.library.decisions import DecisionStore, decide
from paperterm.index.library.reading import READING_FILENAME, ReadingStore
from paperterm.index.session import Session
from paperterm.index.toml_text import parse_toml
from paperterm.tui.app import make_app
from paperterm.tui.cli.main import main
from paperterm.tui.lifecycle import Ending
from paperterm.tui.screens.main import MainScreen
from paperterm.tui.screens.triage import TriageCard, TriageScreen

CONFERENCE = Path(__file__).resolve().parents[1] / "fixtures" / "conference.json"


def decisions_on_disk(app) -> dict[str, str]:
    store = DecisionStore.in_dir(app.session.data_dir)
    store.load()
    return dict(store.entries)


def read_on_disk(app) -> set[str]:
    store = ReadingStore.in_dir(app.session.data_dir)
    store.load()
    return set(store.entries)


def shown_id(app) -> str | None:
    screen = app.screen
    assert isinstance(screen, TriageScreen)
    return screen.control.current


def decide_elsewhere(data_dir, ids, decision) -> None:
    """What `paperterm decide` or another reader saves."""
    decisions, reading = DecisionStore.in_dir(data_dir), ReadingStore.in_dir(data_dir)
    decisions.load()
    reading.load()
    decide(decisions, reading, ids, decision)


async def test_T_opens_the_first_paper_and_the_keys_show(reader):
    app = reader()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        await pilot.press("T")
        await settle(pilot)
        assert isinstance(app.screen, TriageScreen)
        assert shown_id(app) == ids[0]
        text = flat(screen_text(app))
        assert "1 keep 2 maybe 3 skip u undo" in text
        assert "undecided · paper 1 of 38 in view" in text
        assert app.state.by_id[ids[0]].title.split()[0] in text
        assert status_line(app).startswith(" 0 of 38 triaged · 0 keep · 0 maybe")


async def test_a_decision_marks_read_moves_to_the_next_undecided_and_counts(reader, data_dir):
    app = reader()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        decide_elsewhere(data_dir, [ids[1]], "skip")  # decided elsewhere: passed over
        app.poll_reading()
        await settle(pilot)
        await pilot.press("T")
        await settle(pilot)
        await pilot.press("1")
        await settle(pilot)
        assert shown_id(app) == ids[2]
        await pilot.press("2", "3", "2")
        await settle(pilot)
        assert shown_id(app) == ids[5]
        assert decisions_on_disk(app) == {
            ids[0]: "keep",
            ids[1]: "skip",
            ids[2]: "maybe",
            ids[3]: "skip",
            ids[4]: "maybe",
        }
        assert read_on_disk(app) == set(ids[:5])
        assert status_line(app).startswith(" 5 of 38 triaged · 1 keep · 2 maybe")
        text = (data_dir / READING_FILENAME).read_text(encoding="utf-8")
        assert parse_toml(text)["version"] == 2


async def test_undo_takes_the_decision_and_its_read_mark_back_and_shows_the_paper(reader):
    app = reader()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        await pilot.press("T", "1", "3")
        await settle(pilot)
        assert shown_id(app) == ids[2]
        await pilot.press("u")
        await settle(pilot)
        assert shown_id(app) == ids[1]
        assert decisions_on_disk(app) == {ids[0]: "keep"}
        assert read_on_disk(app) == {ids[0]}
        assert "1 of 38 triaged · 1 keep · 0 maybe" in status_line(app)
        assert any(text.startswith("Undone: skip ") for text in said(app))


async def test_j_and_k_move_without_deciding(reader):
    app = reader()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        await pilot.press("T", "j", "j", "down", "k")
        await settle(pilot)
        assert shown_id(app) == ids[2]
        await pilot.press("up", "k", "k")
        await settle(pilot)
        assert shown_id(app) == ids[0]
        assert "This is the first paper in the view" in said(app)
        assert decisions_on_disk(app) == {}
        assert read_on_disk(app) == set()
        assert "paper 1 of 38 in view" in flat(screen_text(app))


@pytest.mark.parametrize("key", ["escape", "h", "q"])
async def test_leaving_puts_the_list_on_the_paper_shown(reader, key):
    app = reader()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        await pilot.press("T", "j", "j", "1", "j")
        await settle(pilot)
        assert shown_id(app) == ids[4]
        await pilot.press(key)
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert app.main.paper_list.current.id == ids[4]
        assert app.is_running  # `q` left triage, not the reader


async def test_T_again_resumes_at_the_first_undecided_paper(reader):
    app = reader()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        await pilot.press("T", "1", "2", "j", "j", "escape")  # ids[2] and ids[3] passed over
        await settle(pilot)
        assert app.main.paper_list.current.id == ids[4]
        await pilot.press("T")
        await settle(pilot)
        assert shown_id(app) == ids[2]
        assert "2 of 38 triaged · 1 keep · 1 maybe" in status_line(app)


async def test_the_last_undecided_paper_wraps_to_the_top_then_says_all_are_done(reader):
    app = reader()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        await pilot.press("T", "j", *["3"] * 37)
        await settle(pilot)
        assert shown_id(app) == ids[0]  # past the end: the first undecided from the top
        await pilot.press("1")
        await settle(pilot)
        assert "Every paper in view is triaged" in said(app)
        assert "38 of 38 triaged · 1 keep · 0 maybe" in status_line(app)


async def test_decisions_made_elsewhere_show_after_a_poll(reader, data_dir):
    app = reader()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        await pilot.press("T")
        await settle(pilot)
        decide_elsewhere(data_dir, [ids[0], ids[7]], "keep")
        app.poll_reading()
        await settle(pilot)
        assert "2 of 38 triaged · 2 keep" in status_line(app)
        assert "KEEP · paper 1 of 38" in flat(screen_text(app))
        await pilot.press("2")
        await settle(pilot)
        assert decisions_on_disk(app) == {ids[0]: "maybe", ids[7]: "keep"}


async def test_a_remapped_decision_key_works(reader):
    app = reader(config=config_with_keys('triage_keep = "4"'))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        await pilot.press("T", "1")
        await settle(pilot)
        assert decisions_on_disk(app) == {}
        await pilot.press("4")
        await settle(pilot)
        assert decisions_on_disk(app) == {ids[0]: "keep"}
        assert "4 keep 2 maybe" in flat(screen_text(app))


@pytest.mark.parametrize(
    ("body", "other"),
    [('triage_keep = "k"', "cursor_up"), ('triage_skip = "u"', "undo")],
)
def test_a_decision_key_that_clashes_is_refused(reader, body, other):
    with pytest.raises(ConfigError) as error:
        reader(config=config_with_keys(body))
    assert str(error.value).startswith(f"{CONFIG}:2: keys.triage_")
    assert f"is already {other}" in str(error.value)


async def test_every_author_with_affiliation_and_the_schedule_show(tmp_path):
    config = Config()
    session = Session.create(tmp_path / "data", [CONFERENCE], config)
    app = make_app(session, config, timing=INSTANT, environ={})
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        await pilot.press("T", *["j"] * ids.index("vs-101"))
        await settle(pilot)
        assert shown_id(app) == "vs-101"
        text = flat(screen_text(app))
        assert "Ada Lovelace (University of London), Alan Turing" in text
        assert "Oral · Poster Session 3 · Exhibit Hall C · 2025-12-03 11:00–14:00" in text


async def test_decisions_not_saved_are_counted_and_printed_at_exit(
    reader, data_dir, monkeypatch, capsys
):
    monkeypatch.setattr(user_files, "atomic_write_bytes", disk_full)
    app = reader()
    ending = Ending(app)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        await pilot.press("T", "1", "3")
        await settle(pilot)
        assert "2 decision changes not saved" in status_line(app)
        assert status_line(app).startswith(" 2 of 38 triaged · 1 keep")
        await pilot.press("escape")
        await settle(pilot)
        assert "2 decision changes not saved" in status_line(app)  # the list's too
        await pilot.press("q")
        await wait_for_exit(pilot)
    assert ending.finish() == 1
    lines = capsys.readouterr().err.splitlines()
    assert "2 decision changes and 2 reading changes could not be saved" in lines[0]
    keep = f"paperterm --data-dir {data_dir} decide keep -- {ids[0]}"
    assert lines[2:4] == [keep, f"paperterm --data-dir {data_dir} decide skip -- {ids[1]}"]
    assert f"paperterm --data-dir {data_dir} read -- {ids[0]}" in lines

    monkeypatch.undo()
    monkeypatch.setenv("PAPERTERM_CONFIG", "")
    assert main(shlex.split(keep)[1:]) == 0
    assert decisions_on_disk(app) == {ids[0]: "keep"}
    assert read_on_disk(app) == {ids[0]}


async def test_a_reader_another_reader_and_the_cli_deciding_at_once_lose_nothing(
    reader, data_dir, monkeypatch
):
    monkeypatch.setenv("PAPERTERM_CONFIG", "")
    app = reader()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        await pilot.press("T", "1")
        await settle(pilot)
        # Meanwhile, with no poll in between: the CLI, and another reader's staged save.
        assert main(["--data-dir", str(data_dir), "decide", "maybe", ids[5]]) == 0
        other, other_reading = DecisionStore.in_dir(data_dir), ReadingStore.in_dir(data_dir)
        other.load()
        other_reading.load()
        decide(other, other_reading, [ids[6]], "skip", stage=True)
        other.save()
        other_reading.save()
        await pilot.press("3")
        await settle(pilot)
        assert decisions_on_disk(app) == {
            ids[0]: "keep",
            ids[1]: "skip",
            ids[5]: "maybe",
            ids[6]: "skip",
        }
        assert read_on_disk(app) == {ids[0], ids[1], ids[5], ids[6]}
        app.poll_reading()
        await settle(pilot)
        assert "4 of 38 triaged · 1 keep · 1 maybe" in status_line(app)


async def test_a_decision_and_esc_in_one_burst_decide_and_leave(reader):
    app = reader()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        await pilot.press("T")
        await settle(pilot)
        # One read from the terminal: Esc is handled before the decision's message is.
        app.post_message(events.Key("2", "2"))
        app.post_message(events.Key("escape", None))
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert decisions_on_disk(app) == {ids[0]: "maybe"}
        assert app.main.paper_list.current.id == ids[0]


async def test_a_decision_not_saved_is_saved_by_the_next_poll(reader, monkeypatch):
    app = reader()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        with monkeypatch.context() as patch:
            patch.setattr(user_files, "atomic_write_bytes", disk_full)
            await pilot.press("T", "2")
            await settle(pilot)
        assert "1 decision change not saved" in status_line(app)
        app.poll_reading()  # what the 2-second timer does
        await settle(pilot)
        assert decisions_on_disk(app) == {ids[0]: "maybe"}
        assert read_on_disk(app) == {ids[0]}
        assert "not saved" not in status_line(app)
        assert "The reading changes that were not saved are saved now" in said(app)


async def test_a_version_1_file_main_wrote_migrates_on_the_first_decision(tmp_path):
    """`reading_v1.toml` is as paperterm wrote it before decisions existed: deciding in the
    reader writes version 2 and keeps every read mark of it, with its time."""
    v1 = (CONFERENCE.parent / "reading_v1.toml").read_text(encoding="utf-8")
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / READING_FILENAME).write_text(v1, encoding="utf-8")
    config = Config()
    session = Session.create(data_dir, [CONFERENCE.parent / "agenda.json"], config)
    app = make_app(session, config, timing=INSTANT, environ={})
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("T")  # the first undecided paper, read already
        await settle(pilot)
        assert shown_id(app) == "ag-orals"
        await pilot.press("2", "1")
        await settle(pilot)
        assert decisions_on_disk(app) == {"ag-orals": "maybe", "ag-posters": "keep"}
    before = parse_toml(v1)
    after = parse_toml((data_dir / READING_FILENAME).read_text(encoding="utf-8"))
    assert (before["version"], after["version"]) == (1, 2)
    assert {k: v for k, v in after["read"].items() if k != "ag-posters"} == before["read"]


async def test_the_card_scrolls_with_the_page_keys_and_a_new_paper_starts_at_the_top(reader):
    app = reader()
    async with app.run_test(size=(60, 14)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        await pilot.press("T")
        await settle(pilot)
        card = app.screen.query_one(TriageCard)
        assert card.max_scroll_y > 0  # a seed abstract is longer than the window
        await pilot.press("pagedown")
        await settle(pilot)
        assert card.scroll_y > 0 and shown_id(app) == ids[0]
        await pilot.press("G")
        await settle(pilot)
        assert card.scroll_y == card.max_scroll_y
        await pilot.press("j")
        await settle(pilot)
        assert shown_id(app) == ids[1] and card.scroll_y == 0


async def test_the_links_and_the_type_show(tmp_path):
    config = Config()
    session = Session.create(tmp_path / "data", [CONFERENCE], config)
    app = make_app(session, config, timing=INSTANT, environ={})
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        await pilot.press("T", *["j"] * ids.index("vs-101"))
        await settle(pilot)
        assert "https://openreview.net/forum?id=AbCdEf123" in flat(screen_text(app))
        await pilot.press(*["k"] * len(ids), *["j"] * ids.index("vs-103"))
        await settle(pilot)
        assert shown_id(app) == "vs-103"
        assert "Tutorial · Tutorials" in flat(screen_text(app))
