"""Bookmarks under real processes: writers killed mid-save, and writers running at once."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

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


def start_writer(path: Path, plan: list[str], *, wait: bool = False) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), "wait" if wait else "go", *plan],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    assert process.stdout.readline() == "ready\n"
    return process


def kill_plan(run: int, size: int = 60) -> list[str]:
    """Adds of fresh ids, each second one removed again right after."""
    plan = []
    for i in range(size):
        plan.append(f"add:r{run}-{i}")
        if i % 2:
            plan.append(f"remove:r{run}-{i - 1}")
    return plan


def state_after(steps: list[str]) -> set[str]:
    present: set[str] = set()
    for step in steps:
        kind, paper_id = step.split(":", 1)
        if kind == "add":
            present.add(paper_id)
        else:
            present.discard(paper_id)
    return present


def test_killed_writers_never_lose_an_acknowledged_change(tmp_path: Path) -> None:
    path = tmp_path / "bookmarks.toml"
    rng = random.Random(20240501)
    before: set[str] = set()  # what earlier runs left on disk
    for run in range(100):
        plan = kill_plan(run)
        writer = start_writer(path, plan)
        time.sleep(rng.uniform(0, 0.04))
        writer.kill()
        # Read through the text buffer: `communicate()` reads the pipe's descriptor and loses
        # the acknowledgements `readline()` buffered with the "ready" line.
        assert writer.stdin is not None and writer.stdout is not None
        writer.stdin.close()
        output = writer.stdout.read()
        writer.wait()
        acked = output.splitlines()
        assert acked == plan[: len(acked)]

        store = BookmarkStore(path)
        store.load()  # always parses: raises if the file were damaged
        on_disk = {mark.id for mark in store.bookmarks}
        done = state_after(acked)
        # The step being saved when the kill came may or may not have landed.
        maybe = state_after(plan[: len(acked) + 1])
        ours = {mark for mark in on_disk if mark.startswith(f"r{run}-")}
        assert ours in (done, maybe), (run, acked[-1:], sorted(ours ^ done))
        assert on_disk - ours == before
        for mark in store.bookmarks:
            assert mark.title == f"title of {mark.id}"
        before = on_disk
        # Temporary files a kill leaves are removed by the next save: never more than one set.
        assert len(list(tmp_path.glob("*.tmp"))) <= 2
    if store.backup_path.exists():
        BookmarkStore(store.backup_path).load()  # the backup parses too


def test_two_writers_at_once_keep_every_bookmark(tmp_path: Path) -> None:
    path = tmp_path / "bookmarks.toml"
    plans = {
        name: [f"add:{name}-{i}" for i in range(40)]
        + [f"remove:{name}-{i}" for i in range(0, 40, 4)]
        for name in ("left", "right")
    }
    writers = [start_writer(path, plan, wait=True) for plan in plans.values()]
    for writer in writers:  # both are loaded (and stale) before either writes
        assert writer.stdin is not None
        writer.stdin.write("go\n")
        writer.stdin.flush()
    for writer, plan in zip(writers, plans.values(), strict=True):
        output, _ = writer.communicate(timeout=60)
        assert writer.returncode == 0
        assert output.splitlines() == plan
    store = BookmarkStore(path)
    store.load()
    expected = state_after(plans["left"]) | state_after(plans["right"])
    assert {mark.id for mark in store.bookmarks} == expected
    assert len(expected) == 60
