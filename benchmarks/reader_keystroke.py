"""bench_reader.py's keystroke part: queries typed a key at a time into the reader, key to
results on screen and query change to frame in the app, against a bare Textual Input's echo."""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from measure import (
    summary_ms,
)
from reader_terminal import (
    KEY_INTERVAL_S,
    RESULTS,
    PtyApp,
    ms_columns,
    reader_command,
    terminal_env,
)

from paperterm.index.library.place import PLACE_FILENAME, Place, save_place
from paperterm.index.search.searcher import Searcher

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

#: The keystroke part's terminal, columns and rows (`--size`), and the list's rows
#: (`--density`; "": the reader's default).
KEYSTROKE_SIZE: list[tuple[int, int]] = [(80, 24)]
KEYSTROKE_DENSITY = [""]


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
    rows = [[f"{label}: results shown", n, len(latencies), *ms_columns(reader), missed]]
    if short:
        rows.append(
            ["  of which 1- or 2-letter words", n, len(short), *ms_columns(summary_ms(short)), ""]
        )
    rows.append(["paperterm, in-app: query change to frame drawn", n, len(inside)])
    rows[-1] += [*ms_columns(summary_ms(inside)), ""]
    added = f"{reader['p95'] - floor['p95']:.1f}"
    rows.append([f"added over the bare echo, p95: {added} ms", n, "", "", "", "", ""])
    return rows
