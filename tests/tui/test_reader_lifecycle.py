"""How the reader ends (tui/lifecycle.py): signals, a hang-up, the watchdog, and changes that
could not be saved, which are kept visible and printed as commands at exit (issue 10)."""

from __future__ import annotations

import errno
import os
import shlex
import signal
import threading
from pathlib import Path

import pytest
from reader_helpers import screen_text, settle

from paperterm.index import user_files
from paperterm.index.library.bookmarks import BookmarksSaveError, BookmarkStore
from paperterm.tui import lifecycle
from paperterm.tui.cli.main import main
from paperterm.tui.lifecycle import Ending
from paperterm.tui.rows import BOOKMARK_MARK as MARKER


class Exits:
    """Stands for os._exit: records the statuses (and wakes a waiting test)."""

    def __init__(self) -> None:
        self.statuses: list[int] = []
        self.called = threading.Event()

    def __call__(self, status: int) -> None:
        self.statuses.append(status)
        self.called.set()


def disk_full(*args: object, **kwargs: object) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def on_disk(data_dir: Path) -> BookmarkStore:
    store = BookmarkStore.in_dir(data_dir)
    store.load()
    return store


async def wait_for_exit(pilot) -> None:
    """Until the app has handled its exit (each pause lets the loop run once more)."""
    for _ in range(200):
        if pilot.app.return_code is not None:
            return
        await pilot.pause()
    raise AssertionError("the app did not exit")


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
async def test_a_signal_on_a_live_terminal_ends_the_reader_cleanly(reader, data_dir, signum):
    app = reader()
    exits = Exits()
    ending = Ending(app, exit_process=exits)
    with ending.signals_caught():
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("b")
            await pilot.pause()
            os.kill(os.getpid(), signum)
            await wait_for_exit(pilot)
        assert ending.finish() == 0
        ending.finished.set()
    assert exits.statuses == []  # the normal way out: the watchdog had nothing to do
    assert on_disk(data_dir).bookmarks


async def test_disk_full_keeps_the_star_says_so_and_prints_commands_at_exit(
    reader, data_dir, monkeypatch, capsys
):
    """The old reader showed a toast, kept the star, and `q` exited 0 with the bookmark
    gone."""
    monkeypatch.setattr(user_files, "atomic_write_bytes", disk_full)
    app = reader()
    ending = Ending(app)
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        row = app.main.paper_list.current
        await pilot.press("b")
        await pilot.pause()
        assert any(
            n.message.startswith("Not saved: No space left on device") for n in app._notifications
        )
        assert screen_text(app).splitlines()[1].startswith(MARKER)  # the star stays...
        assert "1 bookmark change not saved" in screen_text(app)  # ...and so does this
        await pilot.press("f")  # the full-screen reader says it too
        await pilot.pause()
        assert "1 bookmark change not saved" in screen_text(app)
        await pilot.press("escape", "q")
        await wait_for_exit(pilot)
    status = ending.finish()
    err = capsys.readouterr().err
    assert status == 1
    # Opening the paper full screen marked it read: that could not be saved either.
    assert "1 bookmark change and 1 reading change could not be saved" in err
    assert "No space left on device" in err
    command = f"paperterm --data-dir {data_dir} bookmarks add -- {row.id}"
    assert command in err.splitlines()
    assert f"paperterm --data-dir {data_dir} read -- {row.id}" in err.splitlines()
    assert not on_disk(data_dir).is_bookmarked(row.id)

    # Once there is room again, the printed command does what the reader could not.
    monkeypatch.undo()
    monkeypatch.setenv("PAPERTERM_CONFIG", "")
    assert main(shlex.split(command)[1:]) == 0
    assert on_disk(data_dir).is_bookmarked(row.id)


async def test_unsaved_changes_are_saved_by_the_next_poll(reader, data_dir, monkeypatch):
    app = reader()
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        with monkeypatch.context() as patch:
            patch.setattr(user_files, "atomic_write_bytes", disk_full)
            await pilot.press("b")
            await pilot.pause()
        assert app.state.bookmarks.pending
        app.poll_bookmarks()  # what the 2-second timer does
        await pilot.pause()
        assert not app.state.bookmarks.pending
        assert "not saved" not in screen_text(app)
        assert any("are saved now" in n.message for n in app._notifications)
    assert on_disk(data_dir).bookmarks


async def test_a_hangup_saves_and_leaves_at_once_writing_what_it_could_not_save(
    reader, data_dir, tmp_path, monkeypatch
):
    """No terminal to print to: the commands go to a file in the log folder."""
    monkeypatch.setattr(user_files, "atomic_write_bytes", disk_full)
    app = reader()
    exits = Exits()
    log_dir = tmp_path / "log"
    ending = Ending(app, log_dir, exit_process=exits)
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        row = app.main.paper_list.current
        await pilot.press("b")
        await pilot.pause()
        ending.terminal_lost()  # what the driver does when a write fails with EIO
        for _ in range(50):
            if exits.statuses:
                break
            await pilot.pause()
        assert exits.statuses == [1]
        ending.finished.set()
    saved = (log_dir / lifecycle.UNSAVED_FILENAME).read_text(encoding="utf-8")
    assert "(terminal hung up)" in saved
    assert f"paperterm --data-dir {data_dir} bookmarks add -- {row.id}" in saved


def test_the_watchdog_ends_a_stuck_process_and_still_saves(
    reader, data_dir, monkeypatch, capsys
) -> None:
    """No event loop runs here, as when it is blocked: only the watchdog can end it."""
    monkeypatch.setattr(lifecycle, "TERMINATE_GRACE", 0.05)
    app = reader()
    app.state.bookmarks.load()
    with monkeypatch.context() as patch:
        patch.setattr(user_files, "atomic_write_bytes", disk_full)
        with pytest.raises(BookmarksSaveError):
            app.state.bookmarks.add("0123456789ab", "A paper")
    exits = Exits()
    ending = Ending(app, exit_process=exits)
    ending.begin("terminate")
    assert exits.called.wait(10)
    assert exits.statuses == [0]  # the pending change was saved before leaving
    assert on_disk(data_dir).is_bookmarked("0123456789ab")


def test_a_second_signal_does_not_wait(reader) -> None:
    app = reader()
    exits = Exits()
    ending = Ending(app, exit_process=exits)
    ending.reason = "terminate"  # the first SIGTERM is being handled
    ending._on_signal(signal.SIGTERM, None)
    assert exits.statuses == [0]
