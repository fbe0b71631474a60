"""How long the real reader takes to be gone after its terminal goes away.

Run: `python benchmarks/bench_hangup.py [TRIES] [--storm] [--seed N]` (needs tmux).

Each try starts `paperterm` in a private tmux server with a fresh data dir, waits a seeded
0-3 s (sending key bursts meanwhile with --storm), kills the server (the pty hangs up) and
polls the process table until the reader has ended. Prints the seconds each exit took, their
median and maximum, and how many outlived 5 s. tests/e2e/test_reader_hangup.py asserts the
2 s promise; this measures the distribution. Wall time: report the load (`uptime`) with it.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e"))

from e2e_sandbox import Sandbox, paperterm_argv
from processes import reader_pid, seconds_until_gone
from tmux_pane import TmuxServer

GIVE_UP = 5.0


def one_try(root: Path, delay: float, storm: bool) -> float | None:
    sandbox = Sandbox(root / "sandbox")
    (root / "tmux").mkdir()
    tmux = TmuxServer(root / "tmux", sandbox.env)
    try:
        pane = tmux.start(paperterm_argv())
        pid = reader_pid(pane)
        until = time.monotonic() + delay
        while time.monotonic() < until:
            if storm:
                pane.keys("j", "j", "k", "G", "g", "/")
                pane.type("query transformer context DNA")
                pane.keys("Escape", "Escape")
            time.sleep(0.01)
        tmux.run("kill-server")
    finally:
        tmux.kill()
    took = seconds_until_gone(pid, GIVE_UP)
    if took is None:
        os.kill(pid, signal.SIGKILL)  # an orphan: leave none behind
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("tries", type=int, nargs="?", default=30)
    parser.add_argument("--storm", action="store_true", help="key bursts until the hang-up")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    times: list[float] = []
    left = 0
    with tempfile.TemporaryDirectory() as folder:
        for number in range(args.tries):
            took = one_try(Path(folder) / f"try{number}", rng.uniform(0.0, 3.0), args.storm)
            if took is None:
                left += 1
            else:
                times.append(took)
    shown = " ".join(f"{t:.2f}" for t in sorted(times))
    print(f"{args.tries} tries ({'storm' if args.storm else 'quiet'}): exits in s: {shown}")
    if times:
        print(f"median {statistics.median(times):.2f} s, max {max(times):.2f} s")
    print(f"still running after {GIVE_UP:g} s: {left}")


if __name__ == "__main__":
    main()
