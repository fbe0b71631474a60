"""Writers in real processes, for the kill and concurrency tests of the user's files
(bookmarks, reading state); imported by name (tests/library is on sys.path).

A writer script loads its store, prints "ready", waits for a line on stdin when started with
`wait`, then runs its plan (`KIND:ID` steps) and prints each step once it is saved: a printed
step is an acknowledged change."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path


def start_writer(
    code: str, path: Path, plan: list[str], *, wait: bool = False
) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-c", code, str(path), "wait" if wait else "go", *plan],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    assert process.stdout.readline() == "ready\n"
    return process


def state_after(steps: list[str], adds: str) -> set[str]:
    """The ids present after `steps`: a step of kind `adds` adds its id, any other removes."""
    present: set[str] = set()
    for step in steps:
        kind, paper_id = step.split(":", 1)
        if kind == adds:
            present.add(paper_id)
        else:
            present.discard(paper_id)
    return present


def kill_at_seeded_moments(
    path: Path,
    code: str,
    plan_of: Callable[[int], list[str]],
    adds: str,
    ids_on_disk: Callable[[Path], set[str]],
    *,
    runs: int,
    seed: int,
    longest_wait: float,
) -> None:
    """Start a writer per run, kill it after a seeded wait, and check that the file still
    parses (`ids_on_disk` raises if not), holds every acknowledged step of this run (and
    perhaps the one being saved), and nothing else changed."""
    rng = random.Random(seed)
    before: set[str] = set()  # what earlier runs left on disk
    for run in range(runs):
        plan = plan_of(run)
        writer = start_writer(code, path, plan)
        time.sleep(rng.uniform(0, longest_wait))
        writer.kill()
        # Read through the text buffer: `communicate()` reads the pipe's descriptor and loses
        # the acknowledgements `readline()` buffered with the "ready" line.
        assert writer.stdin is not None and writer.stdout is not None
        writer.stdin.close()
        output = writer.stdout.read()
        writer.wait()
        acked = output.splitlines()
        assert acked == plan[: len(acked)]
        on_disk = ids_on_disk(path)
        ours = {paper_id for paper_id in on_disk if paper_id.startswith(f"r{run}-")}
        # The step being saved when the kill came may or may not have landed.
        done = state_after(acked, adds)
        maybe = state_after(plan[: len(acked) + 1], adds)
        assert ours in (done, maybe), (run, acked[-1:], sorted(ours ^ done))
        assert on_disk - ours == before
        before = on_disk
        # Temporary files a kill leaves are removed by the next save: never more than one set.
        assert len(list(path.parent.glob("*.tmp"))) <= 2
    backup = path.with_name(path.name + ".bak")
    if backup.exists():
        ids_on_disk(backup)  # the backup parses too


def writers_at_once(code: str, path: Path, plans: list[list[str]]) -> None:
    """Start a writer per plan, all loaded (and stale) before any writes; each must finish
    having saved its whole plan."""
    writers = [start_writer(code, path, plan, wait=True) for plan in plans]
    for writer in writers:
        assert writer.stdin is not None
        writer.stdin.write("go\n")
        writer.stdin.flush()
    for writer, plan in zip(writers, plans, strict=True):
        output, _ = writer.communicate(timeout=60)
        assert writer.returncode == 0
        assert output.splitlines() == plan
