"""The reader with state files holding odd values (dates past the calendar's edges, deep
nesting) and with saves that fail: it keeps running with what it could read, search stays
on, and what it could not save is counted, retried and printed at exit as commands."""

from __future__ import annotations

import errno
import os
import shlex

from reader_helpers import flat, row_ids, said, screen_text, settle, status_line, type_text

from paperterm.index import user_files
from paperterm.index.library.reading import ReadingStore
from paperterm.index.library.searches import SearchesStore
from paperterm.tui.cli.main import main
from paperterm.tui.lifecycle import Ending
from paperterm.tui.screens.dialogs import NameScreen

LATE = "9999-12-31T23:59:59-23:59"  # a valid TOML date-time whose UTC time is in year 10000
DEEP = "[" * 500 + "]" * 500


def disk_full(*args: object, **kwargs: object) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def read_on_disk(data_dir) -> set[str]:
    store = ReadingStore.in_dir(data_dir)
    store.load()
    return set(store.entries)


async def test_a_reading_date_out_of_range_leaves_search_on_and_the_file_alone(reader, data_dir):
    path = data_dir / "reading.toml"
    text = f"version = 1\n[read]\np001 = 2024-01-01T00:00:00Z\np002 = {LATE}\n"
    path.write_text(text, encoding="utf-8")
    app = reader()
    async with app.run_test(size=(140, 24)) as pilot:
        await settle(pilot)
        assert app.state.index_state == "ready"
        assert f"{path}:4: read.'p002': {LATE} is out of range" in flat(screen_text(app))
        assert "reading state read-only" in status_line(app)
        await pilot.press("slash")
        await type_text(pilot, "graph")
        await settle(pilot)
        assert 0 < len(row_ids(app)) < 38  # search works
        before = len(said(app))
        app.poll_reading()
        await settle(pilot)
        app.poll_reading()
        await settle(pilot)
        assert len(said(app)) == before  # no message a poll
        await pilot.press("escape", "space")
        await settle(pilot)
        assert "read-only until the file is fixed" in said(app)[-1]
        await pilot.press("q")
        await settle(pilot)
    assert Ending(app).finish() == 0
    assert path.read_text(encoding="utf-8") == text


async def test_a_date_out_of_range_written_meanwhile_keeps_the_change_counted_and_printed(
    reader, data_dir, monkeypatch, capsys
):
    """Another program writes the odd date between a key and its save: the change waits,
    counted, and is printed at exit as the command that makes it."""
    path = data_dir / "reading.toml"
    app = reader()
    async with app.run_test(size=(140, 24)) as pilot:
        await settle(pilot)
        paper_id = row_ids(app)[0]
        path.write_text(f"version = 1\n[read]\np002 = {LATE}\n", encoding="utf-8")
        await pilot.press("space")
        await settle(pilot)
        assert "1 reading change not saved" in status_line(app)
        assert any(f"{path}:3:" in message for message in said(app))
        app.poll_reading()
        await settle(pilot)
        assert "1 reading change not saved" in status_line(app)
        await pilot.press("q")
        await settle(pilot)
    ending = Ending(app)
    assert ending.finish() == 1
    err = capsys.readouterr().err
    command = f"paperterm --data-dir {data_dir} read -- {paper_id}"
    assert command in err.splitlines()
    assert "out of range" in err
    path.write_text("version = 1\n", encoding="utf-8")  # fixed: the command does the rest
    monkeypatch.setenv("PAPERTERM_CONFIG", "")
    assert main(shlex.split(command)[1:]) == 0
    assert read_on_disk(data_dir) == {paper_id}


async def test_a_bookmark_date_out_of_range_makes_bookmarks_read_only_not_a_crash(reader, data_dir):
    path = data_dir / "bookmarks.toml"
    path.write_text(f'version = 1\n\n[[bookmarks]]\nid = "x"\nadded = {LATE}\n', encoding="utf-8")
    app = reader()
    async with app.run_test(size=(140, 24)) as pilot:
        await settle(pilot)
        assert f"{path}:3: bookmark 1: 'added' {LATE} is out of range" in flat(screen_text(app))
        assert "bookmarks read-only" in status_line(app)
        assert app.state.index_state == "ready"


async def test_deeply_nested_state_files_leave_the_reader_running(reader, data_dir):
    for name in ("reading.toml", "bookmarks.toml", "searches.toml"):
        (data_dir / name).write_text(f"version = 1\n\nx = {DEEP}\n", encoding="utf-8")
    app = reader()
    async with app.run_test(size=(160, 30)) as pilot:
        await settle(pilot)
        assert app.state.index_state == "ready"
        assert len(row_ids(app)) == 38
        assert "bookmarks read-only" in status_line(app)
        problems = [app.state.bookmarks_problem, *app.state.problems.values()]
        for name in ("reading.toml", "bookmarks.toml", "searches.toml"):
            assert any(
                p.startswith(f"{data_dir / name}:3: values are nested more than") for p in problems
            )


async def save_search_as(pilot, query: str, name: str) -> None:
    await pilot.press("slash")
    await type_text(pilot, query)
    await settle(pilot)
    await pilot.press("escape", "S")
    await pilot.pause()
    assert isinstance(pilot.app.screen, NameScreen)
    await pilot.press("ctrl+u")
    await type_text(pilot, name)
    await pilot.press("enter")
    await settle(pilot)


async def test_a_search_saved_where_nothing_can_be_written_is_counted_retried_and_saved(
    reader, data_dir, monkeypatch
):
    app = reader()
    async with app.run_test(size=(140, 24)) as pilot:
        await settle(pilot)
        with monkeypatch.context() as patch:
            patch.setattr(user_files, "atomic_write_bytes", disk_full)
            await save_search_as(pilot, "vision transformer", "ViT")
            assert "1 saved search change not saved" in status_line(app)
            assert any("'ViT' is not saved yet: No space left" in m for m in said(app))
            app.poll_bookmarks()  # what the 2-second timer does: still failing
            await settle(pilot)
            assert "1 saved search change not saved" in status_line(app)
        app.poll_bookmarks()
        await settle(pilot)
        assert "not saved" not in status_line(app)
        assert "saved searches that were not saved are saved now" in said(app)[-1]
    store = SearchesStore.in_dir(data_dir)
    store.load()
    assert store.entries["ViT"].query == "vision transformer"


async def test_a_search_never_saved_is_printed_at_exit_as_a_command(
    reader, data_dir, monkeypatch, capsys
):
    monkeypatch.setattr(user_files, "atomic_write_bytes", disk_full)
    app = reader()
    async with app.run_test(size=(140, 24)) as pilot:
        await settle(pilot)
        await save_search_as(pilot, "graph -vision", "graphs, no vision")
        await pilot.press("q")
        await settle(pilot)
    assert Ending(app).finish() == 1
    err = capsys.readouterr().err
    assert "1 saved search change could not be saved" in err
    words = "searches save -- 'graphs, no vision' 'graph -vision'"
    command = f"paperterm --data-dir {data_dir} {words}"
    assert command in err.splitlines()
    monkeypatch.undo()
    monkeypatch.setenv("PAPERTERM_CONFIG", "")
    assert main(shlex.split(command)[1:]) == 0
    store = SearchesStore.in_dir(data_dir)
    store.load()
    assert store.entries["graphs, no vision"].query == "graph -vision"


async def test_a_reading_link_out_of_the_data_dir_is_not_written_and_the_change_is_kept(
    reader, data_dir, tmp_path, capsys
):
    chosen = tmp_path / "elsewhere" / "chosen.toml"  # where another user would have it write
    (data_dir / "reading.toml").symlink_to(chosen)
    app = reader()
    async with app.run_test(size=(140, 24)) as pilot:
        await settle(pilot)
        paper_id = row_ids(app)[0]
        await pilot.press("space")
        await settle(pilot)
        assert "1 reading change not saved" in status_line(app)
        assert any("does not write through it" in message for message in said(app))
        await pilot.press("q")
        await settle(pilot)
    assert Ending(app).finish() == 1
    assert f"paperterm --data-dir {data_dir} read -- {paper_id}" in capsys.readouterr().err
    assert not chosen.parent.exists()
    assert (data_dir / "reading.toml").is_symlink()
