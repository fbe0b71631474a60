"""Issue 3: the real `paperterm` in a real terminal (tmux, 80x24), on a first launch."""

from __future__ import annotations

import re

import pytest
from e2e_sandbox import Sandbox, paperterm_argv
from reader_flow import ALL_PAPERS, search_bookmark_quit
from tmux_pane import WAIT_SECONDS, TmuxServer, wait_for, wait_until

pytestmark = pytest.mark.slow  # end-to-end


def test_search_bookmark_and_quit_in_tmux(
    tmux: TmuxServer, sandbox: Sandbox, caduceus_id: str
) -> None:
    assert not sandbox.data_dir.exists()  # a first launch: the index is built while we look
    pane = tmux.start(paperterm_argv())

    search_bookmark_quit(pane, sandbox.data_dir, caduceus_id)

    assert (sandbox.data_dir / "index").is_dir()
    assert pane.title() == pane.initial_title
    assert sandbox.crash_logs() == []


def test_letters_typed_right_after_the_slash_reach_the_search_box(tmux: TmuxServer) -> None:
    pane = tmux.start(paperterm_argv())
    wait_for(pane, "index ready")
    wait_for(pane, ALL_PAPERS)
    bar = pane.styled_rows()[0]

    pane.type("/DNA")  # in one write
    wait_until(pane, lambda: pane.styled_rows()[0] != bar, "the search box to change", WAIT_SECONDS)
    pane.type("x")  # the box has the focus now: `x` lands there, after whatever D, N, A did

    screen = wait_for(pane, re.compile(r"^ Search \S*x"))
    assert screen.startswith(" Search DNAx"), screen
