"""The reading state under real processes: writers killed mid-save at seeded moments lose no
acknowledged change, and writers running at once keep every change."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from process_writers import kill_at_seeded_moments, state_after, writers_at_once

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


def kill_plan(run: int, size: int = 60) -> list[str]:
    """Papers read, each third one marked unread again right after."""
    plan = []
    for i in range(size):
        plan.append(f"read:r{run}-{i}")
        if i % 3 == 2:
            plan.append(f"unread:r{run}-{i - 1}")
    return plan


def read_ids(path: Path) -> set[str]:
    store = ReadingStore(path)
    store.load()  # always parses: raises if the file were damaged
    return set(store.entries)


def test_killed_writers_never_lose_an_acknowledged_change(tmp_path: Path) -> None:
    path = tmp_path / "reading.toml"
    kill_at_seeded_moments(
        path, WRITER, kill_plan, "read", read_ids, runs=80, seed=20241201, longest_wait=0.05
    )


def test_two_writers_at_once_keep_every_change(tmp_path: Path) -> None:
    path = tmp_path / "reading.toml"
    plans = [
        [f"read:{name}-{i}" for i in range(40)] + [f"unread:{name}-{i}" for i in range(0, 40, 4)]
        for name in ("left", "right")
    ]
    writers_at_once(WRITER, path, plans)
    expected = state_after(plans[0], "read") | state_after(plans[1], "read")
    assert read_ids(path) == expected
    assert len(expected) == 60
