"""Decisions under real processes: two deciders, a reader marking read and the CLI at once
on one `reading.toml` keep every change of each."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from locations import FIXTURES
from process_writers import kill_at_seeded_moments, start_writer

from paperterm.index.library.decisions import DecisionStore
from paperterm.index.library.reading import ReadingStore

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals"),
]

# A writer as the reader is one: stages each step ("keep:ID", "maybe:ID", "skip:ID",
# "clear:ID" or "read:ID") and saves both stores from a second thread; "pause" prints
# itself and waits for a line on stdin.
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
    if step == "pause":  # until a line on stdin
        print(step, flush=True)
        sys.stdin.readline()
        continue
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
    config = tmp_path / "config.toml"
    config.write_text("", encoding="utf-8")
    env = {**os.environ, "PAPERTERM_DATA_DIR": str(tmp_path), "PAPERTERM_CONFIG": str(config)}
    cli = [sys.executable, "-m", "paperterm.tui.cli", "--source", str(FIXTURES / "agenda.json")]
    subprocess.run([*cli, "index"], env=env, check=True, capture_output=True)  # built before
    writers = [start_writer(WRITER, path, plan, wait=True) for plan in plans]
    for writer in writers:
        assert writer.stdin is not None
        writer.stdin.write("go\n")
        writer.stdin.flush()
    decided = subprocess.run(
        [*cli, "decide", "skip", "ag-orals", "ag-posters"], env=env, capture_output=True, text=True
    )
    for writer, plan in zip(writers, plans, strict=True):
        output, _ = writer.communicate(timeout=60)
        assert writer.returncode == 0
        assert output.splitlines() == plan
    assert decided.returncode == 0, decided.stderr
    decisions, reading = DecisionStore(path), ReadingStore(path)
    decisions.load()
    reading.load()
    expected = {
        f"{name}-{i}": ("keep", "maybe", "skip")[i % 3]
        for name in ("left", "right")
        for i in range(30)
        if i % 5
    } | {"ag-orals": "skip", "ag-posters": "skip"}
    assert decisions.entries == expected
    assert set(reading.entries) == {
        *(f"{name}-{i}" for name in ("left", "right") for i in range(30)),
        *(f"plain-{i}" for i in range(30)),
        "ag-orals",
        "ag-posters",
    }


def test_two_readers_and_the_cli_deciding_on_one_data_dir_lose_nothing(tmp_path: Path) -> None:
    """Two readers load the file, decide half their papers, and wait while `paperterm
    decide` changes it under them; then they decide the rest (one of them a paper the CLI
    had decided) while the CLI decides again."""
    path = tmp_path / "reading.toml"
    config = tmp_path / "config.toml"
    config.write_text("", encoding="utf-8")
    env = {**os.environ, "PAPERTERM_DATA_DIR": str(tmp_path), "PAPERTERM_CONFIG": str(config)}
    cli = [sys.executable, "-m", "paperterm.tui.cli", "--source", str(FIXTURES / "agenda.json")]
    subprocess.run([*cli, "index"], env=env, check=True, capture_output=True)  # built before
    decisions = ("keep", "maybe", "skip")
    plans = [
        [f"{decisions[i % 3]}:{name}-{i}" for i in range(20)]
        + ["pause"]
        + [f"{decisions[i % 3]}:{name}-{i}" for i in range(20, 40)]
        for name in ("left", "right")
    ]
    plans[0].append("maybe:ag-orals")  # after the CLI's keep: the later decision wins
    readers = [start_writer(WRITER, path, plan, wait=True) for plan in plans]
    for reader in readers:
        assert reader.stdin is not None and reader.stdout is not None
        reader.stdin.write("go\n")
        reader.stdin.flush()
    for reader, plan in zip(readers, plans, strict=True):
        assert reader.stdout is not None
        assert [reader.stdout.readline().strip() for _ in range(21)] == plan[:21]
    first = subprocess.run(
        [*cli, "decide", "keep", "ag-orals", "ag-posters"], env=env, capture_output=True
    )
    assert first.returncode == 0, first.stderr
    meanwhile = subprocess.Popen([*cli, "decide", "skip", "ag-noend"], env=env)
    for reader in readers:
        assert reader.stdin is not None
        reader.stdin.write("go on\n")
        reader.stdin.flush()
    for reader, plan in zip(readers, plans, strict=True):
        assert reader.stdout is not None and reader.stdin is not None
        reader.stdin.close()
        assert reader.stdout.read().splitlines() == plan[21:]  # each step acknowledged
        assert reader.wait(timeout=60) == 0
    assert meanwhile.wait(timeout=60) == 0

    store, reading = DecisionStore(path), ReadingStore(path)
    store.load()
    reading.load()
    expected = {f"{name}-{i}": decisions[i % 3] for name in ("left", "right") for i in range(40)}
    expected |= {"ag-orals": "maybe", "ag-posters": "keep", "ag-noend": "skip"}
    assert store.entries == expected
    assert set(reading.entries) == set(expected)


def kill_plan(run: int, size: int = 45) -> list[str]:
    """Papers kept, each third one cleared again right after."""
    plan = []
    for i in range(size):
        plan.append(f"keep:r{run}-{i}")
        if i % 3 == 2:
            plan.append(f"clear:r{run}-{i - 1}")
    return plan


def decided_ids(path: Path) -> set[str]:
    store = DecisionStore(path)
    store.load()  # always parses: raises if the file were damaged
    ReadingStore(path).load()
    return set(store.entries)


def test_killed_deciders_never_lose_an_acknowledged_decision(tmp_path: Path) -> None:
    path = tmp_path / "reading.toml"
    kill_at_seeded_moments(
        path, WRITER, kill_plan, "keep", decided_ids, runs=40, seed=20261206, longest_wait=0.05
    )
