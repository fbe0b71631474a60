"""The reader (TUI) at 2,600 and 50,000 abstracts: warm start to the first frame with the
list, keystroke to results, a first launch (rows on screen, search while it builds), and
moving through the list. `--engine tantivy --format jsonl --sizes 500000`: the large corpus.

startup    The reader runs as a fresh process in an 80x24 pseudo-terminal with its index
           already built; the clock stops when the list is on screen (the status line's
           "50000 papers", drawn in the same frame as the rows), and again when search is on
           ("index ready"). The same for a bare Textual hello-world app, in the same run.
           Median of N runs. Target (issue 14): the list within 1.3x hello world. Also, in
           other runs, the CPU time each process has used when its first frame is drawn
           (an in-app clock): steadier than wall time on a busy machine.
keystroke  The reader in an 80x24 pseudo-terminal (`--size`: another, such as 120x40 for
           the comfortable rows of 100 columns and more; `--density compact`: one-line
           rows there too); queries typed one key at a time at a fast
           typist's pace (a key every 150 ms); time from writing the key to the terminal
           until the status line with that key's result count arrives (keys that do not
           change the count cannot be told apart on screen and are not timed), and inside
           the app from the query's change to the frame with its results drawn. For
           reference, a bare Textual app echoing an Input the same way: what any Textual app
           costs from key to screen. Target: p95 <= 50 ms. `--facets`: again with the facets
           sidebar (F) shown, which counts the results of every query in a worker.
first      A first launch: the reader on an empty data dir; time until the first rows are
           on screen ("N papers · indexing"), until a query typed then is answered from
           what is indexed so far ("indexed so far"), and until the index is ready. Target:
           rows within 1 s.
list       The largest size: time from a key (G, k, g, j) to the frame whose detail pane
           shows the paper the cursor moved to.
reading    The reading keys (issue 13) at 2,600 and 50,000 papers (`--quick`: 2,600 only), in
           an 80x24 pseudo-terminal at a key every 150 ms: `space` (read, next unread), `U`
           (unread only), `s` (the next sort), `v` (the views sidebar with its counts) and
           `space` while the sidebar shows. In-app clocks: from the key's action starting to
           the frame drawn after it, wall time and the process's CPU time over the same span
           (CPU includes the worker that saves reading.toml). `s` onto "like my bookmarks"
           also times the frame that shows the ranked list (its ranking is a worker's). And
           `space` from key to terminal (the status line's new unread count arriving).
           Target: p95 <= 50 ms at 2,600, <= 100 ms at 50,000.
like       "Like my bookmarks" as functions, CPU time, in fresh processes: the term vectors of
           2,600 papers built (cold) and one ranking with 3, 30 and 200 bookmarks (warm).
           Target: <= 200 ms at 2,600.

Pilot is not used for timing: its waits for the CPU to go idle add tens of milliseconds.

    python benchmarks/bench_reader.py [--quick] [--sizes N ...] [--keep DIR]
        [--engine whoosh|tantivy] [--format text|jsonl|json] [--facets] [--json]
        [startup|keystroke|first|list|reading|like ...]

`--json`: the tables go to stderr and stdout holds one JSON object: `echo` (the bare Input's
key-to-output summary in ms) and `sizes`, mapping each size to its `startup`, `keystroke`,
`keystroke_facets` and `first` figures (startup, keystroke and first only).

With `--keep DIR` the corpus of N abstracts is DIR/N/corpus (written in `--format` if absent,
else used as it is: it may be a symbolic link to a corpus made by benchmarks/corpus.py) and
its indexes DIR/N/data (one per engine).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from pathlib import Path

import corpus
from measure import (
    fresh_bytecode,
    load_average,
    machine,
    people_output,
    print_json,
    summary_ms,
    table,
)

from paperterm.index.config import Config
from paperterm.index.library.filters import paper_ids
from paperterm.index.library.place import DENSITIES, PLACE_FILENAME, Place, save_place
from paperterm.index.search.open_index import OpenIndex
from paperterm.index.search.searcher import Searcher
from paperterm.index.session import Session

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
ECHO = """
from textual.app import App
from textual.widgets import Input, Static

class Echo(App):
    def compose(self):
        yield Input()
        yield Static("hello world", id="out")

    def on_input_changed(self, event):
        self.query_one("#out", Static).update(f"{len(event.value)} chars typed")

Echo().run()
"""
#: Typed a key at a time: every word is a prefix search from its first letter.
QUERIES = [
    "transformer",
    "language model",
    "graph neural networks",
    "reinforcement learning",
    "DNA",
    "diffusion",
    "optimization",
    "robust attention",
    "benchmark",
    "in-context",
]
#: The reader with two clocks added (no change to its code): when a change of the query
#: reaches the main screen, and when the frame with that query's results has been drawn.
INSTRUMENTED = """
import sys, time
from paperterm.tui.cli import main as cli
from paperterm.tui.screens import main as main_screen

log = open(sys.argv[1], "w")
started = {}
request, apply = main_screen.MainScreen.request_search, main_screen.MainScreen._apply

def on_request(self):
    started[self.generation + 1] = time.perf_counter()
    request(self)

def on_apply(self, request, *args, **kwargs):
    apply(self, request, *args, **kwargs)
    if request.generation in started:
        begun = started.pop(request.generation)
        self.call_after_refresh(lambda: print(time.perf_counter() - begun, file=log, flush=True))

main_screen.MainScreen.request_search = on_request
main_screen.MainScreen._apply = on_apply
sys.exit(cli.main(sys.argv[2:]))
"""
KEY_INTERVAL_S = 0.150
#: The reader with in-app clocks on the reading keys' actions: from the action starting to
#: the frame drawn after it (wall and process CPU time), one line per key; and for `s` onto
#: "like my bookmarks", to the frame after the ranking arrived.
READING_INSTRUMENTED = """
import sys, time
from paperterm.tui import app as reader_app
from paperterm.tui.cli import main as cli
from paperterm.tui.screens import main as main_screen

log = open(sys.argv[1], "w")
TIMED = {"read_next", "unread_only", "cycle_sort", "toggle_views"}
run_action = reader_app.ReaderApp.run_action
on_like_ranked = main_screen.MainScreen.on_like_ranked
like_started = []

def frame_clock(app, name, began, cpu):
    def done():
        print(name, time.perf_counter() - began, time.process_time() - cpu, file=log, flush=True)
    app.call_after_refresh(done)

async def timed_action(self, action, default_namespace=None, namespaces=None):
    name = action if isinstance(action, str) else ""
    if name not in TIMED:
        return await run_action(self, action, default_namespace, namespaces)
    began, cpu = time.perf_counter(), time.process_time()
    handled = await run_action(self, action, default_namespace, namespaces)
    label = name
    if name == "read_next" and self.main.views is not None and self.main.views.display:
        label = "read_next+views"
    if name == "cycle_sort":
        label = f"cycle_sort:{self.main.sort}"
        if self.main.sort == "like":
            like_started.append((began, cpu))
    frame_clock(self, label, began, cpu)
    return handled

def timed_like(self, message):
    on_like_ranked(self, message)
    if like_started:
        began, cpu = like_started.pop()
        frame_clock(self.app, "like_ranked", began, cpu)

reader_app.ReaderApp.run_action = timed_action
main_screen.MainScreen.on_like_ranked = timed_like
sys.exit(cli.main(sys.argv[2:]))
"""


# --- a reader in a pseudo-terminal ------------------------------------------------------------


class PtyApp:
    """A process on a fresh pseudo-terminal; its output is collected by a reader thread."""

    def __init__(self, command: list[str], env: dict[str, str], size=(80, 24)) -> None:
        self.master, slave = os.openpty()
        columns, rows = size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            command, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True
        )
        os.close(slave)
        self.output = bytearray()
        self.changed = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self.master, 1 << 16)
            except OSError:
                data = b""
            with self.changed:
                if not data:
                    self.changed.notify_all()
                    return
                self.output += data
                self.changed.notify_all()

    def mark(self) -> int:
        with self.changed:
            return len(self.output)

    def wait_for(self, marker: bytes, since: int = 0, timeout: float = 30) -> float | None:
        """Seconds until `marker` shows up in the output after offset `since` (None: never)."""
        deadline = time.perf_counter() + timeout
        with self.changed:
            while self.output.find(marker, since) < 0:
                left = deadline - time.perf_counter()
                if left <= 0 or not self.reader.is_alive():
                    return None
                self.changed.wait(left)
            return time.perf_counter()

    def wait_for_any(
        self, markers: list[bytes], since: int = 0, timeout: float = 30
    ) -> tuple[bytes | None, float | None]:
        """The first of `markers` to show up after offset `since`, and when."""
        deadline = time.perf_counter() + timeout
        with self.changed:
            while True:
                for marker in markers:
                    if self.output.find(marker, since) >= 0:
                        return marker, time.perf_counter()
                left = deadline - time.perf_counter()
                if left <= 0 or not self.reader.is_alive():
                    return None, None
                self.changed.wait(left)

    def send(self, data: bytes) -> float:
        os.write(self.master, data)
        return time.perf_counter()

    def close(self, quit_key: bytes) -> None:
        with contextlib.suppress(OSError):
            os.write(self.master, quit_key)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.reader.join(timeout=5)
        os.close(self.master)


#: Where the reader's bytecode is cached between runs (see `terminal_env`).
BYTECODE = Path(tempfile.gettempdir()) / "paperterm-bench-bytecode"


def terminal_env() -> dict[str, str]:
    """The environment of a process in a pseudo-terminal. Bytecode is cached (outside the
    tree), as an installed paperterm's is (pip compiles it): with PYTHONDONTWRITEBYTECODE
    set, as in some shells here, every run compiled paperterm's modules from source, ~85 ms
    of its start that a user never pays (Textual's own bytecode comes with its wheel)."""
    env = {**os.environ, "TERM": "xterm-256color", "COLORTERM": "truecolor"}
    env.pop("NO_COLOR", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(BYTECODE)
    return env


#: The search engine the reader is run with (`--engine`; None: its default, Whoosh).
ENGINE: list[str | None] = [None]
#: The keystroke part's terminal, columns and rows (`--size`), and the list's rows
#: (`--density`; "": the reader's default).
KEYSTROKE_SIZE: list[tuple[int, int]] = [(80, 24)]
KEYSTROKE_DENSITY = [""]
# What `--json` prints: each size's figures, keyed by the size, filled in as they are measured.
RESULTS: dict[str, dict[str, object]] = {}


def reader_command(data: Path, sources: list[Path]) -> list[str]:
    command = [sys.executable, "-m", "paperterm.tui.cli", "--data-dir", str(data)]
    for source in sources:
        command += ["--source", str(source)]
    if ENGINE[0] is not None:
        command += ["--engine", ENGINE[0]]
    return command


# --- startup ----------------------------------------------------------------------------------


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


# --- keystroke --------------------------------------------------------------------------------


def expected_counts(opened, queries: list[str]) -> list[tuple[str, bytes | None]]:
    """Each key of each query, with the status text its results show (None when the count
    does not change, so nothing on screen tells that key's results apart)."""
    searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
    total = len(opened.papers)
    keys: list[tuple[str, bytes | None]] = []
    for query in queries:
        previous = total
        for end in range(1, len(query) + 1):
            prefix = query[:end]
            count = searcher.search(prefix, limit=200, snippets=False).total
            if not prefix.strip():
                count = total
            marker = f"{count} of {total} papers".encode() if count != previous else None
            keys.append((query[end - 1], marker))
            previous = count
        keys.append(("\x15", None))  # Ctrl+U clears the box for the next query
    return keys


def type_and_time(
    app: PtyApp, plan: list[tuple[str, bytes | None]]
) -> tuple[list[float | None], int]:
    """Type each key of `plan` at `KEY_INTERVAL_S`; the seconds until each key's marker
    showed (None for a key without one, or whose marker never showed), and how many never
    did."""
    latencies: list[float | None] = []
    missed = 0
    for key, marker in plan:
        time.sleep(KEY_INTERVAL_S)
        since = app.mark()
        sent = app.send(key.encode())
        seen = None if marker is None else app.wait_for(marker, since, timeout=3)
        missed += marker is not None and seen is None
        latencies.append(None if seen is None else seen - sent)
    return latencies, missed


def short_prefix_states(queries: list[str]) -> list[bool]:
    """For each key `expected_counts` types: whether the word it ends is one or two letters
    long so far (`t`, `tr`, `language m`), the states a prefix search makes costly."""
    short: list[bool] = []
    for query in queries:
        short += [0 < len(query[:end].split(" ")[-1]) <= 2 for end in range(1, len(query) + 1)]
        short.append(False)  # Ctrl+U
    return short


def bench_echo() -> dict[str, float]:
    echo = PtyApp([sys.executable, "-c", ECHO], terminal_env(), size=KEYSTROKE_SIZE[0])
    try:
        echo.wait_for(b"hello world")
        time.sleep(0.5)
        plan = [("x", f"{count} chars typed".encode()) for count in range(1, 61)]
        echoed, _ = type_and_time(echo, plan)
    finally:
        echo.close(b"\x11")
    floor = [seconds for seconds in echoed if seconds is not None]
    return summary_ms(floor)


def bench_keystroke(
    opened, data: Path, sources: list[Path], floor: dict[str, float], facets: bool = False
) -> list:
    """`facets`: with the facets sidebar (`F`) shown, so every result is counted again."""
    n = len(opened.papers)
    plan = expected_counts(opened, QUERIES)
    # The reader starts where it last ended (place.toml): an earlier run's last query was
    # found restored in the box, every key typed onto it, and the keys whose count was then
    # never the one expected were counted as missed (4 of 68 in one run).
    (data / PLACE_FILENAME).unlink(missing_ok=True)
    if KEYSTROKE_DENSITY[0]:
        save_place(data, Place(density=KEYSTROKE_DENSITY[0]))
    with tempfile.TemporaryDirectory() as tmp:
        clocks = Path(tmp) / "clocks.txt"
        command = [sys.executable, "-c", INSTRUMENTED, str(clocks)]
        command += reader_command(data, sources)[3:]
        app = PtyApp(command, terminal_env(), size=KEYSTROKE_SIZE[0])
        try:
            app.wait_for(b"index ready", timeout=120)
            time.sleep(0.5)
            if facets:
                since = app.mark()
                app.send(b"F")
                app.wait_for(b"decision", since)
                time.sleep(0.5)
            app.send(b"/")
            time.sleep(0.3)
            timed, missed = type_and_time(app, plan)
        finally:
            app.close(b"\x11")
        inside = [float(line) for line in clocks.read_text().split()]
    latencies = [seconds for seconds in timed if seconds is not None]
    short = [
        seconds
        for seconds, is_short in zip(timed, short_prefix_states(QUERIES), strict=True)
        if seconds is not None and is_short
    ]
    reader = summary_ms(latencies)
    size = "x".join(map(str, KEYSTROKE_SIZE[0]))
    figures = {**reader, "keys": len(latencies), "missed": missed, "terminal": size}
    figures["in_app_p95"] = summary_ms(inside)["p95"]
    RESULTS.setdefault(str(n), {})["keystroke_facets" if facets else "keystroke"] = figures
    label = "paperterm, facets shown" if facets else "paperterm"
    rows = [[f"{label}: results shown", n, len(latencies), *_ms(reader), missed]]
    if short:
        rows.append(["  of which 1- or 2-letter words", n, len(short), *_ms(summary_ms(short)), ""])
    rows.append(["paperterm, in-app: query change to frame drawn", n, len(inside)])
    rows[-1] += [*_ms(summary_ms(inside)), ""]
    added = f"{reader['p95'] - floor['p95']:.1f}"
    rows.append([f"added over the bare echo, p95: {added} ms", n, "", "", "", "", ""])
    return rows


def _ms(stats: dict[str, float]) -> list[float]:
    return [round(stats["p50"], 1), round(stats["p95"], 1), round(stats["max"], 1)]


# --- a very long list -------------------------------------------------------------------------


def indexed_corpus(
    folder: Path, n: int, fmt: str = "text", engine: str | None = None
) -> tuple[Path, Path, OpenIndex]:
    """A synthetic corpus of `n` abstracts in `folder`, indexed: (source, data dir, index).
    A corpus already there (`--keep DIR`) is used as it is, its index too if current.
    `fmt`: the corpus's files (benchmarks/corpus.py); `engine`: the index's."""
    source = folder / "corpus"
    if not source.exists():
        per_file = corpus.ARXIV_PER_MONTH if fmt == "jsonl" else corpus.PER_FILE
        abstracts = corpus.make_abstracts(n, per_file=per_file)
        corpus.WRITERS[fmt](source, abstracts, per_file)
    data = folder / "data"
    config = Config() if engine is None else Config(engine=engine)
    started = time.perf_counter()
    opened, _ = Session.create(data, [source], config).open()
    print(f"({n} papers indexed in {time.perf_counter() - started:.0f} s)")
    return source, data, opened


def bench_list(opened, data: Path, sources: list[Path], rounds: int) -> None:
    n = len(opened.papers)
    ids = list(paper_ids(opened.papers))
    app = PtyApp(reader_command(data, sources), terminal_env())
    timings: dict[str, list[float]] = {}
    missed = 0
    try:
        app.wait_for(b"index ready", timeout=60)
        time.sleep(1)
        position = 0
        for _ in range(rounds):
            for key, name in ((b"G", "G"), (b"k", "k"), (b"g", "g"), (b"j", "j")):
                position = {
                    "G": len(ids) - 1, "k": position - 1, "g": 0, "j": position + 1
                }[name]  # fmt: skip
                time.sleep(KEY_INTERVAL_S)
                since = app.mark()
                sent = app.send(key)
                seen = app.wait_for(f"id {ids[position]}".encode(), since, timeout=3)
                if seen is None:
                    missed += 1
                else:
                    timings.setdefault(name, []).append(seen - sent)
    finally:
        app.close(b"q")
    rows = []
    for name, seconds in timings.items():
        stats = summary_ms(seconds)
        rows.append([name, len(seconds), stats["p50"], stats["p95"], stats["max"]])
    print(table([f"key, {n} papers", "presses", "p50 ms", "p95 ms", "max ms"], rows))
    print(f"keys whose frame never showed: {missed}")


# --- the reading keys -------------------------------------------------------------------------


def bench_reading(n: int, keep: Path | None = None) -> None:
    """Drive the reading keys in a pseudo-terminal; print each key's in-app times. `keep`:
    a folder where the corpus and its index stay for the next run."""
    with contextlib.ExitStack() as stack:
        if keep is None:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        else:
            folder = keep / str(n)
            folder.mkdir(parents=True, exist_ok=True)
        source, data, opened = indexed_corpus(folder, n, engine=ENGINE[0])
        ids = list(paper_ids(opened.papers))
        for name in ("reading.toml", "bookmarks.toml", "place.toml"):
            (data / name).unlink(missing_ok=True)  # every run starts unread
        _bookmark(data, ids[:: max(1, n // 20)])  # some 20 bookmarks for "like"
        clocks = folder / "clocks.txt"
        command = [sys.executable, "-c", READING_INSTRUMENTED, str(clocks)]
        app = PtyApp(command + reader_command(data, [source])[3:], terminal_env())
        to_terminal: list[float] = []
        try:
            app.wait_for(b"index ready", timeout=120)
            time.sleep(1)
            unread = n
            for _ in range(30):
                unread -= 1
                time.sleep(KEY_INTERVAL_S)
                since = app.mark()
                sent = app.send(b" ")
                seen = app.wait_for(f"{unread} unread".encode(), since, timeout=3)
                if seen is not None:
                    to_terminal.append(seen - sent)
            for key, times in ((b"U", 10), (b"s", 12), (b"v", 1), (b" ", 20), (b"v", 1)):
                for _ in range(times):
                    time.sleep(KEY_INTERVAL_S * (4 if key == b"s" else 1))  # "like" ranks
                    app.send(key)
            time.sleep(1)
        finally:
            app.close(b"q")
        samples: dict[str, list[tuple[float, float]]] = {}
        for line in clocks.read_text().splitlines():
            name, wall, cpu = line.split()
            samples.setdefault(name, []).append((float(wall), float(cpu)))
    rows = []
    for name, pairs in sorted(samples.items()):
        wall, cpu = summary_ms([w for w, _ in pairs]), summary_ms([c for _, c in pairs])
        rows.append([name, len(pairs), *_ms(wall), round(cpu["p50"], 1), round(cpu["p95"], 1)])
    if to_terminal:
        wall = summary_ms(to_terminal)
        rows.append(["space, key to terminal", len(to_terminal), *_ms(wall), "-", "-"])
    headers = [f"key, {n} papers", "presses", "p50 ms", "p95 ms", "max ms", "CPU p50", "CPU p95"]
    print(table(headers, rows))


def _bookmark(data: Path, ids: list[str]) -> None:
    from paperterm.index.library.bookmarks import BookmarkStore

    store = BookmarkStore.in_dir(data)
    store.load()
    for paper_id in ids:
        store.add(paper_id)


LIKE_PROBE = """
import sys, time
sys.path.insert(0, sys.argv[1])
import corpus
from paperterm.index.library.affinity import TermVectors
from paperterm.index.papers import Paper

papers = [
    Paper(str(i), a.collection, a.text, text=a.text, title=a.title)
    for i, a in enumerate(corpus.make_abstracts(int(sys.argv[2])))
]
cpu = time.process_time()
vectors = TermVectors(papers)
built = time.process_time() - cpu
ranks = []
for seeds in (3, 30, 200):
    cpu = time.process_time()
    vectors.rank([p.id for p in papers[:: len(papers) // seeds][:seeds]])
    ranks.append(time.process_time() - cpu)
print(built, *ranks)
"""


def bench_like(n: int, runs: int) -> None:
    """Term vectors built and rankings, CPU time, each run in a fresh process (cold caches,
    as the reader's first "like" sort is)."""
    here = str(Path(__file__).resolve().parent)
    results = []
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-c", LIKE_PROBE, here, str(n)],
            capture_output=True,
            text=True,
            check=True,
        )
        results.append([float(value) for value in done.stdout.split()])
    rows = []
    for index, label in enumerate(
        ["term vectors built (cold)", "rank: 3 bookmarks", "rank: 30 bookmarks", "rank: 200"]
    ):
        stats = summary_ms([result[index] for result in results])
        rows.append([label, runs, round(stats["p50"], 1), round(stats["max"], 1)])
    cold = summary_ms([result[0] + result[2] for result in results])
    print(table([f"like my bookmarks, {n} papers", "runs", "CPU p50 ms", "CPU max ms"], rows))
    print(f"first ranking (build + 30 bookmarks): CPU p50 {cold['p50']:.0f} ms (target <= 200)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "parts",
        nargs="*",
        default=["startup", "keystroke", "first", "list", "reading", "like"],
    )
    parser.add_argument("--quick", action="store_true", help="2,600 abstracts, fewer runs")
    parser.add_argument("--sizes", type=int, nargs="+", help="corpus sizes")
    parser.add_argument(
        "--keep", type=Path, metavar="DIR", help="keep the corpora and indexes here (reused)"
    )
    parser.add_argument("--engine", choices=("whoosh", "tantivy"), help="the reader's engine")
    parser.add_argument(
        "--facets",
        action="store_true",
        help="keystroke: also with the facets sidebar shown, in the same run",
    )
    parser.add_argument(
        "--size", default="80x24", help="keystroke: the terminal, COLUMNSxROWS (80x24)"
    )
    parser.add_argument("--density", choices=DENSITIES, help="keystroke: the list's rows")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--format",
        choices=("text", "jsonl", "json"),
        default="text",
        help="a corpus written anew (json: one array)",
    )
    args = parser.parse_args()
    with people_output(args.json):
        floor = measure(args)
    if args.json:
        print_json({"echo": floor, "sizes": RESULTS})


def measure(args: argparse.Namespace) -> dict[str, float] | None:
    """Run and print the parts `args` asks for; the bare Input's echo, when measured."""
    fresh_bytecode()
    ENGINE[0] = args.engine
    columns, rows = args.size.split("x")
    KEYSTROKE_SIZE[0] = (int(columns), int(rows))
    KEYSTROKE_DENSITY[0] = args.density or ""
    sizes = args.sizes or ([2600] if args.quick else [2600, 50_000])
    runs = 5 if args.quick else 11
    print(f"{machine()}; engine {args.engine or 'whoosh (default)'}\n")
    startup, keystroke, first = [], [], []
    floor = bench_echo() if "keystroke" in args.parts else None
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            where = (args.keep or Path(tmp)) / str(n)
            where.mkdir(parents=True, exist_ok=True)
            folder, data, opened = indexed_corpus(where, n, args.format, args.engine)
            if "startup" in args.parts:
                startup += bench_startup(data, [folder], n, runs)
            if "keystroke" in args.parts and floor is not None:
                keystroke += bench_keystroke(opened, data, [folder], floor)
                if args.facets:
                    keystroke += bench_keystroke(opened, data, [folder], floor, facets=True)
            if "first" in args.parts:
                first += bench_first_launch([folder], n, "learning")
            if "list" in args.parts and n == sizes[-1]:
                bench_list(opened, data, [folder], rounds=5 if args.quick else 20)
                print()
            print(f"(load average {load_average()})", flush=True)
    if startup:
        print(table(["warm start, 80x24", "papers", "median ms", "max ms", "runs"], startup))
        print()
    if keystroke and floor is not None:
        echo = ["bare Textual: Input echo", "-", 60, *_ms(floor), ""]
        size = "x".join(map(str, KEYSTROKE_SIZE[0])) + f" {args.density or ''}".rstrip()
        headers = [f"key to output, {size}", "papers", "keys", "p50 ms", "p95 ms", "max ms"]
        headers.append("missed")
        print(table(headers, [echo, *keystroke]))
        print("target: p95 <= 50 ms")
        print()
    if first:
        headers = ["first launch", "rows on screen s", "answer while building s", "ready s"]
        print(table(headers, first))
        print("target: rows on screen <= 1 s")
        print()
    if "reading" in args.parts:
        for n in (2600,) if args.quick else (2600, 50_000):
            bench_reading(n, args.keep)
            print()
    if "like" in args.parts:
        bench_like(2600, runs=3 if args.quick else 10)
    print(f"\nload average at the end: {load_average()}")
    return floor


if __name__ == "__main__":
    main()
