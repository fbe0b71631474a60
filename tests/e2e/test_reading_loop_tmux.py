"""Issue 13: the reading loop in the real `paperterm`, in tmux at 80x24: open, `space` x3,
`r`, `U`, quit, reopen on the same paper, and `paperterm list --unread` agrees."""

from __future__ import annotations

import json
import re

import pytest
from e2e_sandbox import Sandbox, paperterm_argv
from reader_flow import ALL_PAPERS
from tmux_pane import WAIT_SECONDS, TmuxServer, wait_for, wait_for_exit, wait_until

pytestmark = pytest.mark.slow  # end-to-end

UNREAD_ONLY = re.compile(r"34 of 38 papers · 34 unread · unread only")


def test_read_through_quit_and_come_back(
    tmux: TmuxServer, sandbox: Sandbox, seed_papers: list[dict]
) -> None:
    ids = [paper["id"] for paper in seed_papers]
    titles = {paper["id"]: paper["title"] for paper in seed_papers}
    pane = tmux.start(paperterm_argv())
    wait_for(pane, "index ready")
    wait_for(pane, ALL_PAPERS)

    for count in (1, 2, 3):  # each `space`: read, and on to the next unread paper
        pane.keys("Space")
        wait_for(pane, f"38 papers · {38 - count} unread · {count + 1}/38")
    pane.keys("r")  # the fourth paper, read without moving on
    wait_for(pane, "38 papers · 34 unread · 4/38")
    pane.keys("U")
    screen = wait_for(pane, UNREAD_ONLY)
    assert "1/34" in screen  # the cursor on the first unread paper after the fourth
    assert titles[ids[4]][:30] in screen
    pane.keys("q")
    assert wait_for_exit(pane) == 0

    again = tmux.start(paperterm_argv(), title="paperterm-e2e-again")
    screen = wait_for(again, UNREAD_ONLY)
    assert "1/34" in screen

    def detail() -> str | None:  # the detail pane, below the list (drawn after the list)
        shown = again.screen().split("────")[-1]
        return shown if titles[ids[4]][:30] in shown else None

    wait_until(again, detail, "the detail of the paper the reader was on", WAIT_SECONDS)
    assert "1/34" in again.screen()
    again.keys("q")
    assert wait_for_exit(again) == 0

    listed = sandbox.cli("list", "--unread", "--json")
    assert listed.returncode == 0, listed.stderr
    unread = [paper["id"] for paper in json.loads(listed.stdout)]
    assert unread == ids[4:]
    assert sandbox.crash_logs() == []
