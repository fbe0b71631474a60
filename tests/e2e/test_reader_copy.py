"""Issue 12: `y` and `Y` reach tmux's paste buffer under tmux's DEFAULT config (where
set-clipboard is `external`, so tmux ignores an application's own OSC 52)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_sandbox import Sandbox, paperterm_argv, require
from tmux_pane import WAIT_SECONDS, TmuxServer, wait_for, wait_for_exit, wait_until

pytestmark = pytest.mark.slow  # end-to-end

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "display_sample.bib"
PAGE = "https://proceedings.mlr.press/v901/quill24.html"


@pytest.fixture
def default_tmux(tmp_path: Path, sandbox: Sandbox) -> Iterator[TmuxServer]:
    require("tmux")
    workdir = tmp_path / "tmux-default"
    workdir.mkdir()
    server = TmuxServer(workdir, sandbox.env, config=None)
    try:
        yield server
    finally:
        server.kill()


def paste_buffer(server: TmuxServer) -> str | None:
    """The newest paste buffer (what prefix ] would paste), None while there is none."""
    names = server.run("list-buffers", "-F", "#{buffer_name}", check=False).split()
    return server.run("show-buffer", check=False) if names else None


def test_y_and_shift_y_land_in_tmuxs_buffer_with_the_default_config(
    default_tmux: TmuxServer,
) -> None:
    pane = default_tmux.start([*paperterm_argv(), "--source", str(FIXTURE)])
    assert default_tmux.run("show", "-gv", "set-clipboard").strip() == "external"
    wait_for(pane, "index ready")
    wait_for(pane, "QuillNet")

    pane.keys("y")
    wait_until(pane, lambda: paste_buffer(default_tmux) == PAGE, "the link in tmux's buffer",
               WAIT_SECONDS)  # fmt: skip
    wait_for(pane, "Copied the link to tmux's paste")  # the message says where it went

    pane.keys("Y")
    entry = wait_until(
        pane,
        lambda: (text := paste_buffer(default_tmux)) and text.startswith("@InProceedings") and text,
        "the BibTeX entry in tmux's buffer",
        WAIT_SECONDS,
    )
    assert entry.startswith("@InProceedings{quill24,\n")
    assert f"  url = {{{PAGE}}}" in entry
    assert "  booktitle = {Proceedings of the Alpha Workshop on Reading Machines}" in entry
    assert entry.rstrip().endswith("}")

    pane.keys("q")
    assert wait_for_exit(pane) == 0
