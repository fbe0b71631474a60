"""Decisions under real processes: two deciders and a reader marking read at once on one
`reading.toml` keep every change of each."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from process_writers import writers_at_once

from paperterm.index.library.decisions import DecisionStore
from paperterm.index.library.reading import ReadingStore

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals"),
]

# A writer as the reader is one: stages each step ("keep:ID", "maybe:ID", "skip:ID",
# "clear:ID" or "read:ID") and saves both stores from a second thread.
WRITER = r"""
import sys, threading
from pathlib import Path
from paperterm.index.library.decisions import DecisionStore, decide
from paperterm.index.library.reading import ReadingStore, mark_read

decisions, reading = DecisionStore(Path(sys.argv[1])), ReadingStore(Path(sys.argv[1]))
decisions.load()
reading.load()
print("ready", flush=True)
if sys.argv[2] == "wait":
    sys.stdin.readline()
for step in sys.argv[3:]:
    kind, paper_id = step.split(":", 1)
    if kind == "read":
        reading.stage(mark_read([paper_id]))
    else:
        decide(decisions, reading, [paper_id], None if kind == "clear" else kind, stage=True)
    def save():
        decisions.save()
        reading.save()
    saver = threading.Thread(target=save)
    saver.start()
    saver.join()
    print(step, flush=True)
"""


def test_two_deciders_and_a_reader_at_once_keep_every_change(tmp_path: Path) -> None:
    path = tmp_path / "reading.toml"
    plans = [
        [f"{('keep', 'maybe', 'skip')[i % 3]}:{name}-{i}" for i in range(30)]
        + [f"clear:{name}-{i}" for i in range(0, 30, 5)]
        for name in ("left", "right")
    ]
    plans.append([f"read:plain-{i}" for i in range(30)])
    writers_at_once(WRITER, path, plans)
    decisions, reading = DecisionStore(path), ReadingStore(path)
    decisions.load()
    reading.load()
    expected = {
        f"{name}-{i}": ("keep", "maybe", "skip")[i % 3]
        for name in ("left", "right")
        for i in range(30)
        if i % 5
    }
    assert decisions.entries == expected
    assert set(reading.entries) == {
        *(f"{name}-{i}" for name in ("left", "right") for i in range(30)),
        *(f"plain-{i}" for i in range(30)),
    }
