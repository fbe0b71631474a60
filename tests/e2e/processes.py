"""The process table, read from /proc: a pane's programs, and whether one is still there."""

from __future__ import annotations

import time
from pathlib import Path

from tmux_pane import POLL_SECONDS, WAIT_SECONDS, Pane, wait_until


def children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(child) for child in path.read_text().split()] if path.exists() else []


def reader_pid(pane: Pane) -> int:
    """The pid of the program the pane's wrapper shell started."""
    shell = int(pane.info("#{pane_pid}"))
    found = wait_until(pane, lambda: children(shell) or None, "its process", WAIT_SECONDS)
    return found[0]


def alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie has ended: only its exit status waits to be read)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def seconds_until_gone(pid: int, timeout: float) -> float | None:
    """Poll the process table until `pid` has ended: the seconds it took, or None if it is
    still there after `timeout`."""
    started = time.monotonic()
    while alive(pid):
        if time.monotonic() - started > timeout:
            return None
        time.sleep(POLL_SECONDS / 5)
    return time.monotonic() - started
