"""Issues 3 and 6: a dropped SSH link (SIGHUP) or a SIGTERM ends the real reader cleanly,
with the bookmark it just made on disk."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from e2e_sandbox import Sandbox, paperterm_argv
from reader_flow import ALL_PAPERS, read_bookmarks
from tmux_pane import WAIT_SECONDS, TmuxServer, wait_for, wait_for_exit, wait_until

pytestmark = pytest.mark.slow  # end-to-end


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(child) for child in path.read_text().split()] if path.exists() else []


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM], ids=["SIGHUP", "SIGTERM"])
def test_signal_ends_the_reader_cleanly_with_bookmarks_saved(
    tmux: TmuxServer, sandbox: Sandbox, signum: signal.Signals
) -> None:
    pane = tmux.start(paperterm_argv())
    wait_for(pane, "index ready")
    wait_for(pane, ALL_PAPERS)
    pane.keys("b")
    bookmarks = sandbox.data_dir / "bookmarks.toml"
    saved = wait_until(
        pane,
        lambda: (read_bookmarks(bookmarks) or {}).get("bookmarks"),
        "the bookmark to be saved",
        WAIT_SECONDS,
    )
    assert len(saved) == 1

    shell = int(pane.info("#{pane_pid}"))
    reader = wait_until(pane, lambda: _children(shell), "the reader's process", WAIT_SECONDS)[0]
    os.kill(reader, signum)

    assert wait_for_exit(pane) == 0
    assert "Traceback" not in pane.everything()
    assert (read_bookmarks(bookmarks) or {}).get("bookmarks") == saved
    assert sandbox.crash_logs() == []
