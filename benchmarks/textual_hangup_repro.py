"""Minimal reproduction of a Textual bug: a hang-up can block an app for ever (Textual 8.2.8).

Run: `python benchmarks/textual_hangup_repro.py [TRIES]` (Linux; needs only textual).

Each try runs the tiny app below on a fresh pty, lets it draw for a random 0-1 s, closes
the pty's master (what closing a terminal window or dropping an SSH link does) and waits 3 s
for the app to exit. The app exits on SIGHUP (`loop.add_signal_handler(SIGHUP, app.exit)`,
as any app that wants to save its state on a hang-up does) and on SIGTERM likewise.

    handler   - as above: some tries never end, and SIGTERM does not end them either;
    none      - no SIGHUP handler: SIGHUP's default action kills the app every time;
    nocont    - as `handler`, but Textual's SIGCONT handler removed: no try hangs.

Why: on a hang-up the kernel sends SIGHUP *and SIGCONT*. LinuxDriver._sigcont_application
calls resume_application_mode() although nothing was suspended; on a hung-up tty
`os.isatty()` is false, so start_application_mode() skips its NOP-tcsetattr guard and starts
a second WriterThread, which dies at its first write (EIO). Its Queue(maxsize=30) then has no
reader: once ~30 writes are queued (start-up sequences, a few frames, shutdown sequences),
`WriterThread.write` or `LinuxDriver.close -> WriterThread.stop -> Queue.put` blocks the
main thread for ever, and with it the event loop that would have handled SIGTERM. (Even
without the restart, any OSError in WriterThread.run kills the writer the same way.)
paperterm's workaround is tui/terminal.py.

Measured on a 2-core machine, 20 tries each: `handler` hung 5 times (load 5-6) and 2 times
(load 3.3), SIGTERM ignored every time; `none` and `nocont` never.
"""

from __future__ import annotations

import os
import pty
import random
import select
import signal
import sys
import time

APP = r"""
import asyncio, signal, sys
from textual.app import App
from textual.widgets import Static

class Hangup(App):
    def compose(self):
        yield Static()

    def on_mount(self):
        mode = sys.argv[1]
        if mode == "nocont":
            signal.signal(signal.SIGCONT, signal.SIG_DFL)
        if mode in ("handler", "nocont"):
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGHUP, signal.SIGTERM):
                loop.add_signal_handler(signum, self.exit)
        self.frames = 0
        self.set_interval(0.01, self.draw)

    def draw(self):
        self.frames += 1
        self.query_one(Static).update(f"frame {self.frames} " * 200)

Hangup().run()
"""


def one_try(mode: str, delay: float) -> str:
    pid, master = pty.fork()
    if pid == 0:
        os.execv(sys.executable, [sys.executable, "-c", APP, mode])
    until = time.monotonic() + delay
    while time.monotonic() < until:  # read what it draws, as a terminal would
        ready, _, _ = select.select([master], [], [], 0.01)
        if ready:
            try:
                os.read(master, 1 << 16)
            except OSError:
                break
    os.close(master)  # the terminal goes away
    if _exited(pid, 3.0):
        return "exited"
    os.kill(pid, signal.SIGTERM)
    if _exited(pid, 1.0):
        return "hung (SIGTERM ended it)"
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return "hung (SIGTERM ignored)"


def _exited(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if os.waitpid(pid, os.WNOHANG)[0]:
            return True
        time.sleep(0.02)
    return False


def main() -> None:
    tries = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    for mode in ("handler", "none", "nocont"):
        rng = random.Random(1)
        counts: dict[str, int] = {}
        for _ in range(tries):
            outcome = one_try(mode, rng.uniform(0.0, 1.0))
            counts[outcome] = counts.get(outcome, 0) + 1
        print(f"{mode:8} {counts}", flush=True)


if __name__ == "__main__":
    main()
