"""bench_reader.py's start-up parts: a warm start to the first frame (wall time and CPU
time, against a bare Textual app), and a first launch on an empty data dir."""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from measure import (
    summary_ms,
)
from reader_terminal import RESULTS, PtyApp, reader_command, terminal_env

HELLO = """
from textual.app import App
from textual.widgets import Static

class Hello(App):
    def compose(self):
        yield Static("hello world")

Hello().run()
"""
#: The same two, writing the CPU time the process has used when its first frame has been
#: written to the terminal (the end of the first compositor refresh: the reader's shows its
#: rows and count, the "the list" marker above). The reader's clock is set once its start
#: has paused the garbage collector (tui/cli/__init__.py), as Textual's import is then.
FIRST_FRAME_CLOCK = """
import sys, time

CLOCK = sys.argv[1]

def clock_first_frame():
    from textual.screen import Screen

    refresh = Screen._compositor_refresh

    def clocked(self):
        refresh(self)
        Screen._compositor_refresh = refresh
        with open(CLOCK, "w") as out:
            out.write(str(time.process_time()))

    Screen._compositor_refresh = clocked
"""
HELLO_CPU = FIRST_FRAME_CLOCK + "clock_first_frame()" + HELLO
READER_CPU = (
    FIRST_FRAME_CLOCK
    + """
from paperterm.tui import collector
from paperterm.tui.cli import run

pause = collector.pause

def paused():
    pause()
    collector.pause = pause
    clock_first_frame()

collector.pause = paused
sys.argv[1:] = sys.argv[2:]  # the clock's file is not an argument of paperterm's
sys.exit(run())
"""
)


def time_to_marker(command: list[str], marker: bytes, quit_key: bytes) -> float:
    app = PtyApp(command, terminal_env())
    try:
        seen = app.wait_for(marker)
        return float("nan") if seen is None else seen - app.started
    finally:
        app.close(quit_key)


def cpu_to_first_frame(command: list[str], marker: bytes, quit_key: bytes) -> float:
    """Run `command` (a *_CPU program: its first argument is where it writes its clock)
    until `marker` shows; the CPU seconds it had used at its first frame."""
    with tempfile.TemporaryDirectory() as tmp:
        clock = Path(tmp) / "cpu.txt"
        app = PtyApp([*command[:3], str(clock), *command[3:]], terminal_env())
        try:
            app.wait_for(marker)
            deadline = time.perf_counter() + 10
            while time.perf_counter() < deadline and not _read(clock):
                time.sleep(0.01)  # the clock is written just after the frame
        finally:
            app.close(quit_key)
        text = _read(clock)
        return float(text) if text else float("nan")


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except FileNotFoundError:
        return ""


def bench_startup(data: Path, sources: list[Path], papers: int, runs: int) -> list:
    count = f"{papers} papers".encode()
    reader = reader_command(data, sources)
    hello = [sys.executable, "-c", HELLO]
    medians = []
    rows = []
    for label, command, marker, quit_key in (
        ("hello world (bare Textual)", hello, b"hello world", b"\x11"),
        ("paperterm: the list", reader, count, b"q"),
        ("paperterm: index ready", reader, b"index ready", b"q"),
    ):
        time_to_marker(command, marker, quit_key)  # warm the file cache
        times = [time_to_marker(command, marker, quit_key) for _ in range(runs)]
        medians.append(statistics.median(times))
        stats = summary_ms(times)
        rows.append([label, papers, round(stats["p50"]), round(stats["max"]), runs])
    ratio = medians[1] / medians[0]
    startup = {"hello_ms": medians[0] * 1000, "list_ms": medians[1] * 1000, "ratio": ratio}
    startup["ready_ms"] = medians[2] * 1000
    rows.append([f"the list / hello world: {ratio:.2f}x (target <= 1.3x)", papers, "", "", ""])
    cpu = []
    hello_cpu = [sys.executable, "-c", HELLO_CPU]
    reader_cpu = [sys.executable, "-c", READER_CPU, *reader[3:]]
    for label, command, marker, quit_key in (
        ("CPU at first frame: hello world", hello_cpu, b"hello world", b"\x11"),
        ("CPU at first frame: paperterm", reader_cpu, count, b"q"),
    ):
        times = [cpu_to_first_frame(command, marker, quit_key) for _ in range(runs)]
        cpu.append(statistics.median(times))
        stats = summary_ms(times)
        rows.append([label, papers, round(stats["p50"]), round(stats["max"]), runs])
    rows.append([f"CPU, paperterm / hello world: {cpu[1] / cpu[0]:.2f}x", papers, "", "", ""])
    startup.update(hello_cpu_ms=cpu[0] * 1000, cpu_ms=cpu[1] * 1000, cpu_ratio=cpu[1] / cpu[0])
    RESULTS.setdefault(str(papers), {})["startup"] = startup
    return rows


def bench_first_launch(sources: list[Path], papers: int, query: str) -> list:
    """Time to the first rows (the detail pane shows the paper under the cursor, "· id ..."
    at its top: Textual writes only the cells that change, so the status line's new count
    is not one piece of output), to an answer from what is indexed so far, and to index
    ready."""
    with tempfile.TemporaryDirectory() as tmp:
        app = PtyApp(reader_command(Path(tmp) / "data", sources), terminal_env())
        try:
            first = app.wait_for("· id ".encode(), timeout=120)
            answered: float | str | None = None
            if first is not None:
                since = app.mark()
                app.send(b"/")
                app.send(query.encode())
                found, answered = app.wait_for_any(
                    [b"indexed so far", b"index ready"], since, timeout=600
                )
                if found == b"index ready":
                    answered = "built first"
            ready = app.wait_for(b"index ready", timeout=600)
        finally:
            app.close(b"\x11")

    def since(moment: float | str | None) -> float | str:
        if isinstance(moment, str):
            return moment
        return "never" if moment is None else round(moment - app.started, 2)

    row = [papers, since(first), since(answered), since(ready)]
    RESULTS.setdefault(str(papers), {})["first"] = dict(
        zip(("rows_s", "answered_s", "ready_s"), row[1:], strict=True)
    )
    return [row]
