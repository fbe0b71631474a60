"""Issue 10: Ctrl+Z suspends the real reader to an interactive shell, and `fg` brings it back
whole: the search bar and the status line too, not only the panes that happen to change
(they stayed blank until a resize)."""

from __future__ import annotations

import pytest
from e2e_sandbox import paperterm_argv
from processes import children, reader_pid, seconds_until_gone
from reader_flow import ALL_PAPERS
from tmux_pane import WAIT_SECONDS, TmuxServer, wait_for, wait_until

PROMPT = "pt-shell$"  # PS1 is this and a space, which a captured screen leaves out


@pytest.mark.slow
def test_ctrl_z_then_fg_redraws_everything(tmux: TmuxServer) -> None:
    pane = tmux.start(["env", f"PS1={PROMPT} ", "sh", "-i"])  # a shell with job control
    wait_for(pane, PROMPT)
    pane.type(" ".join(paperterm_argv()))
    pane.keys("Enter")
    wait_for(pane, ALL_PAPERS)
    wait_for(pane, "index ready")
    interactive = reader_pid(pane)  # the wrapper's child is the interactive shell
    reader = wait_until(
        pane, lambda: children(interactive) or None, "paperterm's process", WAIT_SECONDS
    )[0]

    pane.keys("C-z")
    stopped = wait_for(pane, "Stopped")
    assert stopped.rstrip().endswith(PROMPT), stopped  # the shell has the terminal

    pane.type("fg")
    pane.keys("Enter")
    screen = wait_for(pane, ALL_PAPERS)
    rows = screen.split("\n")
    assert rows[0].startswith(" Search"), screen  # the search bar
    assert "index ready" in screen  # the status line

    pane.keys("q")
    wait_until(
        pane,
        lambda: pane.screen().rstrip().endswith(PROMPT),
        "the shell's prompt after quitting",
        WAIT_SECONDS,
    )
    assert seconds_until_gone(reader, WAIT_SECONDS) is not None
