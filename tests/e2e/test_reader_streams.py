"""Issue 10: the real reader with stderr closed or sent to a file still draws (on the
terminal it has: stdout), and ends with status 0."""

from __future__ import annotations

import pytest
from e2e_sandbox import Sandbox, paperterm_argv
from reader_flow import ALL_PAPERS
from tmux_pane import TmuxServer, wait_for, wait_for_exit


@pytest.mark.slow
@pytest.mark.parametrize("redirect", ["2>&-", "2>stderr.log"], ids=["closed", "to-a-file"])
def test_the_reader_draws_without_stderr_on_the_terminal(
    tmux: TmuxServer, sandbox: Sandbox, redirect: str
) -> None:
    log = sandbox.root / "stderr.log"
    redirect = redirect.replace("stderr.log", str(log))
    pane = tmux.start(["sh", "-c", f'exec "$@" {redirect}', "sh", *paperterm_argv()])
    wait_for(pane, ALL_PAPERS)
    wait_for(pane, "index ready")
    pane.keys("q")
    assert wait_for_exit(pane) == 0
    assert "Traceback" not in pane.everything()
    if log.exists():
        assert "\x1b[" not in log.read_text(encoding="utf-8", errors="replace")  # no UI in it
