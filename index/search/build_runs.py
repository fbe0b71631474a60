"""Which files each build worker prepares: a run of consecutive files each, and when a worker
has finished its run while another still has files it has not started, the end of that run
handed over to it.

Runs are first balanced by bytes (`split_runs`), but what a byte costs differs between files
(the vocabulary grows, the machine's load changes): one worker could end well before the
other, a core idle for the rest of the build. Handing over the end of a run keeps
every worker's files consecutive, so a part still covers consecutive files of one worker.

The hand-over is asked and confirmed (`Runs.heard`): the main process asks the busy worker
to stop before a position of its run, and the worker answers where it stopped: there, or
after the file it is preparing when it had already started that one. Only the worker knows
which files it started, so only its answer moves files: none is prepared twice or skipped.
One hand-over is asked at a time. Workers do not ask for each next file instead: each would
wait at every file's end for the main process, which may be busy for seconds (publishing
the index so far, reading records back for the reader), and handing out a file ahead of
time would take from the hand-over the very file it needs at the end. A stop costs nothing
until a worker is idle, and is answered as the busy worker reads (every few hundred
records), not once it finished its file.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


def split_runs(sizes: Sequence[int], count: int) -> list[range]:
    """Consecutive runs of items, `count` of them at most, of about equal total size."""
    total = sum(sizes) or 1
    runs: list[range] = []
    start = 0
    done = 0
    for index, size in enumerate(sizes):
        done += size
        if done * count >= total * (len(runs) + 1) and len(runs) < count - 1:
            runs.append(range(start, index + 1))
            start = index + 1
    if start < len(sizes):
        runs.append(range(start, len(sizes)))
    return runs


def kept(unstarted: Sequence[int], current: int) -> int:
    """How many of a busy worker's unstarted files (their sizes, in order) it keeps, the
    others going to an idle worker, so that the two end about together: the split whose
    longer side is the shortest, counting `current`, the bytes the busy worker has still to
    read of the file it is preparing. All of them when handing over would not help."""
    total = current + sum(unstarted)
    best, keep = total, len(unstarted)
    tail = 0
    for count in range(len(unstarted) - 1, -1, -1):
        tail += unstarted[count]
        longer = max(total - tail, tail)
        if longer < best:
            best, keep = longer, count
    return keep


@dataclass(slots=True)
class _Run:
    """A worker's run: the files it prepares (positions in the build's list), how many of
    them it said were prepared, the bytes it said it read of the next, and whether it is
    idle (it said it finished the run)."""

    files: list[int]
    prepared: int = 0
    read: int = 0
    idle: bool = False


#: What the main process tells a worker: ("run", positions), ("stop", position), ("end",).
Order = tuple[Any, ...]


@dataclass(slots=True)
class Runs:
    """The workers' runs, as the main process knows them from what the workers say
    (`heard`), and what it tells them."""

    sizes: Sequence[int]
    runs: list[_Run] = field(default_factory=list)
    #: The hand-over asked and not yet confirmed: (the busy worker, the idle one).
    asked: tuple[int, int] | None = None
    ended: bool = False

    @classmethod
    def split(cls, sizes: Sequence[int], count: int) -> Runs:
        """`count` runs at most, balanced by size (`split_runs`)."""
        return cls(sizes, [_Run(list(run)) for run in split_runs(sizes, count)])

    def start(self) -> list[tuple[int, Order]]:
        """Each worker's first run."""
        return [(worker, ("run", list(run.files))) for worker, run in enumerate(self.runs)]

    def heard(self, worker: int, message: tuple[Any, ...]) -> list[tuple[int, Order]]:
        """Take what a worker said ("read", "source", "ran", "stopped"; the rest is not
        about runs): what to tell which worker now."""
        run = self.runs[worker]
        orders: list[tuple[int, Order]] = []
        kind = message[0]
        if kind == "read":
            run.read = message[2]
        elif kind == "source":
            run.prepared += 1
            run.read = 0
        elif kind == "ran":
            run.idle = True
        elif kind == "stopped":
            receiver, moved = self._stopped(worker, message[1])
            if moved:
                orders.append((receiver, ("run", moved)))
        else:
            return orders
        asked = self._ask()
        if asked is not None:
            orders.append((asked[0], ("stop", asked[1])))
        elif self.over and not self.ended:
            self.ended = True
            orders += [(other, ("end",)) for other in range(len(self.runs))]
        return orders

    @property
    def over(self) -> bool:
        """Every worker finished its run and no hand-over is under way."""
        return self.asked is None and all(run.idle for run in self.runs)

    def _ask(self) -> tuple[int, int] | None:
        """A hand-over to ask for now, for a worker that finished its run: (the busy worker
        with the most bytes to read that can give some, the position in its run it is to
        stop before); None when there is none, or one is already under way."""
        idle = [worker for worker, run in enumerate(self.runs) if run.idle]
        if self.asked is not None or not idle:
            return None
        best: tuple[int, int, int] | None = None  # (bytes to read, worker, position)
        for worker, run in enumerate(self.runs):
            if run.idle or run.prepared >= len(run.files):
                continue
            current = max(0, self.sizes[run.files[run.prepared]] - run.read)
            unstarted = [self.sizes[spot] for spot in run.files[run.prepared + 1 :]]
            keep = kept(unstarted, current)
            left = current + sum(unstarted)
            if keep < len(unstarted) and (best is None or left > best[0]):
                best = (left, worker, run.prepared + 1 + keep)
        if best is None:
            return None
        self.asked = (best[1], idle[0])
        return best[1], best[2]

    def _stopped(self, worker: int, at: int) -> tuple[int, list[int]]:
        """The busy worker confirmed it stopped before position `at` of its run (where it
        was asked to, or after the file it had started): (the idle worker, the files it now
        prepares, which may be none)."""
        assert self.asked is not None and self.asked[0] == worker, (self.asked, worker)
        receiver = self.asked[1]
        self.asked = None
        run = self.runs[worker]
        moved = run.files[at:]
        del run.files[at:]
        if moved:
            self.runs[receiver] = _Run(moved)
        return receiver, moved


def usable_cores() -> int:
    """The cores this process may run on (its affinity on Linux), at least one."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1
