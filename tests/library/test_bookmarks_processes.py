"""Bookmarks under real processes: writers killed mid-save, and writers running at once."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from process_writers import kill_at_seeded_moments, state_after, writers_at_once

from paperterm.index.library.bookmarks import BookmarkStore

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals"),
]

# A writer: loads the store, says "ready", waits for a line on stdin when asked to, then runs
# its plan (argv[3:] as "add:ID" / "remove:ID"), printing each operation once it is saved.
WRITER = r"""
import sys
from pathlib import Path
from paperterm.index.library.bookmarks import BookmarkStore

store = BookmarkStore(Path(sys.argv[1]))
store.load()
print("ready", flush=True)
if sys.argv[2] == "wait":
    sys.stdin.readline()
for step in sys.argv[3:]:
    kind, paper_id = step.split(":", 1)
    if kind == "add":
        store.add(paper_id, "title of " + paper_id)
    else:
        store.remove(paper_id)
    print(step, flush=True)
"""


def kill_plan(run: int, size: int = 60) -> list[str]:
    """Adds of fresh ids, each second one removed again right after."""
    plan = []
    for i in range(size):
        plan.append(f"add:r{run}-{i}")
        if i % 2:
            plan.append(f"remove:r{run}-{i - 1}")
    return plan


def bookmarked(path: Path) -> set[str]:
    store = BookmarkStore(path)
    store.load()  # always parses: raises if the file were damaged
    for mark in store.bookmarks:
        assert mark.title == f"title of {mark.id}"
    return {mark.id for mark in store.bookmarks}


def test_killed_writers_never_lose_an_acknowledged_change(tmp_path: Path) -> None:
    path = tmp_path / "bookmarks.toml"
    kill_at_seeded_moments(
        path, WRITER, kill_plan, "add", bookmarked, runs=100, seed=20240501, longest_wait=0.04
    )


def test_two_writers_at_once_keep_every_bookmark(tmp_path: Path) -> None:
    path = tmp_path / "bookmarks.toml"
    plans = [
        [f"add:{name}-{i}" for i in range(40)] + [f"remove:{name}-{i}" for i in range(0, 40, 4)]
        for name in ("left", "right")
    ]
    writers_at_once(WRITER, path, plans)
    expected = state_after(plans[0], "add") | state_after(plans[1], "add")
    assert bookmarked(path) == expected
    assert len(expected) == 60
