"""The reading state under real processes: writers killed mid-save at seeded moments lose no
acknowledged change, and writers running at once keep every change."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from paperterm.index.library.reading import ReadingStore

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals"),
]

# A writer as the reader is one: loads the store, says "ready", waits for a line on stdin
# when asked to, then for each step of its plan (argv[3:], "read:ID" / "unread:ID") stages
# the change and saves it from a second thread, printing the step once that save returned.
WRITER = r"""
import sys, threading
from pathlib import Path
from paperterm.index.library.reading import ReadingStore, mark_read, mark_unread

store = ReadingStore(Path(sys.argv[1]))
store.load()
print("ready", flush=True)
if sys.argv[2] == "wait":
    sys.stdin.readline()
for step in sys.argv[3:]:
    kind, paper_id = step.split(":", 1)
    store.stage(mark_read([paper_id]) if kind == "read" else mark_unread([paper_id]))
    saver = threading.Thread(target=store.save)
    saver.start()
    saver.join()
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
    """Papers read, each third one marked unread again right after."""
    plan = []
    for i in range(size):
        plan.append(f"read:r{run}-{i}")
        if i % 3 == 2:
            plan.append(f"unread:r{run}-{i - 1}")
    return plan


def state_after(steps: list[str]) -> set[str]:
    read: set[str] = set()
    for step in steps:
        kind, paper_id = step.split(":", 1)
        if kind == "read":
            read.add(paper_id)
        else:
            read.discard(paper_id)
    return read


def test_killed_writers_never_lose_an_acknowledged_change(tmp_path: Path) -> None:
    path = tmp_path / "reading.toml"
    rng = random.Random(20241201)
    before: set[str] = set()  # what earlier runs left on disk
    for run in range(80):
        plan = kill_plan(run)
        writer = start_writer(path, plan)
        time.sleep(rng.uniform(0, 0.05))
        writer.kill()
        output, _ = writer.communicate()
        acked = output.splitlines()
        assert acked == plan[: len(acked)]

        store = ReadingStore(path)
        store.load()  # always parses: raises if the file were damaged
        on_disk = set(store.entries)
        ours = {paper_id for paper_id in on_disk if paper_id.startswith(f"r{run}-")}
        # The step being saved when the kill came may or may not have landed.
        done, maybe = state_after(acked), state_after(plan[: len(acked) + 1])
        assert ours in (done, maybe), (run, acked[-1:], sorted(ours ^ done))
        assert on_disk - ours == before
        before = on_disk
        assert len(list(tmp_path.glob("*.tmp"))) <= 2  # a kill's leftovers go with the next save
    backup = path.with_name(path.name + ".bak")
    if backup.exists():
        ReadingStore(backup).load()  # the backup parses too


def test_two_writers_at_once_keep_every_change(tmp_path: Path) -> None:
    path = tmp_path / "reading.toml"
    plans = {
        name: [f"read:{name}-{i}" for i in range(40)]
        + [f"unread:{name}-{i}" for i in range(0, 40, 4)]
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
    store = ReadingStore(path)
    store.load()
    assert set(store.entries) == state_after(plans["left"]) | state_after(plans["right"])
    assert len(store.entries) == 60
