"""bench_reader.py's parts that move through the papers: the list's keys at the largest size,
the reading keys timed inside the app, and "like my bookmarks" as functions."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from measure import (
    summary_ms,
    table,
)
from reader_terminal import (
    ENGINE,
    KEY_INTERVAL_S,
    PtyApp,
    indexed_corpus,
    ms_columns,
    reader_command,
    terminal_env,
)

from paperterm.index.library.filters import paper_ids

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
        rows.append(
            [name, len(pairs), *ms_columns(wall), round(cpu["p50"], 1), round(cpu["p95"], 1)]
        )
    if to_terminal:
        wall = summary_ms(to_terminal)
        rows.append(["space, key to terminal", len(to_terminal), *ms_columns(wall), "-", "-"])
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
