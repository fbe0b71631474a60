"""Issues 3 and 6: a dropped SSH link (SIGHUP) or a SIGTERM ends the real reader cleanly,
with the bookmark it just made on disk."""

from __future__ import annotations

import os
import signal

import pytest
from e2e_sandbox import Sandbox, paperterm_argv
from processes import reader_pid
from reader_flow import ALL_PAPERS, read_bookmarks
from tmux_pane import WAIT_SECONDS, TmuxServer, wait_for, wait_for_exit, wait_until

pytestmark = pytest.mark.slow  # end-to-end


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

    os.kill(reader_pid(pane), signum)

    status = wait_for_exit(pane)
    assert status == 0, f"exit status {status}; the pane showed:\n{pane.everything()}"
    assert "Traceback" not in pane.everything()
    assert (read_bookmarks(bookmarks) or {}).get("bookmarks") == saved
    assert sandbox.crash_logs() == []
