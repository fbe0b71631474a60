"""Triage in the real `paperterm`, in tmux at 80x24, on a small conference: `T`, keep, maybe
and skip, undo, back to the list, narrow by facets, quit; then `paperterm list --decision`
(same data dir, no terminal) finds what was decided."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from e2e_sandbox import Sandbox, paperterm_argv
from tmux_pane import WAIT_SECONDS, TmuxServer, wait_for, wait_for_exit, wait_until

pytestmark = pytest.mark.slow  # end-to-end

CONFERENCE = str(Path(__file__).resolve().parents[1] / "fixtures" / "agenda.json")


def status_row(screen: str) -> str:
    """The status line: the last row but the footer's."""
    return screen.rstrip("\n").split("\n")[-2]


def test_triage_three_papers_undo_one_narrow_by_facets_and_the_cli_agrees(
    tmux: TmuxServer, sandbox: Sandbox
) -> None:
    source = ["--source", CONFERENCE]
    pane = tmux.start([*paperterm_argv(), *source])
    wait_for(pane, "5 papers · 5 unread · 1/5")

    pane.keys("T")
    screen = wait_for(pane, "undecided · paper 1 of 5 in view")
    assert "1 keep  2 maybe  3 skip  u undo" in screen  # the keys are on the screen
    assert "Sparse Attention Revisited" in screen
    assert status_row(screen).startswith(" 0 of 5 triaged · 0 keep · 0 maybe")

    pane.keys("1")  # keep, and on to the next undecided paper
    wait_for(pane, "1 of 5 triaged · 1 keep · 0 maybe")
    wait_for(pane, "Graph Priors for Tabular Data")
    pane.keys("2")
    wait_for(pane, "2 of 5 triaged · 1 keep · 1 maybe")
    pane.keys("3")
    screen = wait_for(pane, "3 of 5 triaged · 1 keep · 1 maybe")
    assert "Small Models Reason Too" in screen  # past the skipped one
    pane.keys("u")  # the skip goes back, and its paper shows again
    screen = wait_for(pane, "Undone: skip Calibrated Agents")
    assert "undecided · paper 3 of 5 in view" in screen
    assert status_row(screen).startswith(" 2 of 5 triaged · 1 keep · 1 maybe")

    pane.keys("Escape")  # back to the list, its cursor on the paper shown
    wait_for(pane, "5 papers · 3 unread · 3/5")

    pane.keys("F")
    wait_until(
        pane,
        lambda: all(word in pane.screen() for word in ("decision", "keep", "none")),
        "the facets sidebar with the decisions",
        WAIT_SECONDS,
    )
    pane.keys("Enter")  # the first value: the status most papers have
    screen = wait_for(pane, "2 of 5 papers · 1 unread · status: Poster")
    assert "Sparse Attention Revisited" not in screen
    wait_until(
        pane, lambda: "Oral Session 1" not in pane.screen(), "the counts to follow", WAIT_SECONDS
    )
    # The topics grouped for this corpus (it has none of its own) come in the background.
    wait_until(pane, lambda: "topic" in pane.screen(), "the computed topics", WAIT_SECONDS)
    # Down the narrowed sidebar: Poster Session 1, Poster Session 2, the topic, Example Conf
    # 2025, maybe.
    pane.keys("Down", "Down", "Down", "Down", "Down", "Enter")
    screen = wait_for(pane, "1 of 5 papers · 0 unread · status: Poster · decision: maybe")
    assert "Calibrated Agents" not in screen.split("────")[0]
    pane.keys("BSpace")  # takes back the value chosen last
    wait_for(pane, "2 of 5 papers · 1 unread · status: Poster · ")

    pane.keys("q")
    assert wait_for_exit(pane) == 0

    def listed(*args: str) -> list[str]:
        result = sandbox.cli(*source, "list", "--json", *args)
        assert result.returncode == 0, result.stderr
        return [paper["id"] for paper in json.loads(result.stdout)]

    assert listed("--decision", "keep") == ["ag-orals"]
    assert listed("--decision", "maybe") == ["ag-posters"]
    assert listed("--decision", "skip") == []  # undone
    assert listed("--read") == ["ag-orals", "ag-posters"]  # the undo took its read mark too
    assert sandbox.crash_logs() == []
