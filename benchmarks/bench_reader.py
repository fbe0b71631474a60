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

The parts live in reader_startup.py, reader_keystroke.py and reader_reading.py, the
terminal driving they share in reader_terminal.py.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from measure import (
    fresh_bytecode,
    load_average,
    machine,
    people_output,
    print_json,
    table,
)
from reader_keystroke import KEYSTROKE_DENSITY, KEYSTROKE_SIZE, bench_echo, bench_keystroke
from reader_reading import bench_like, bench_list, bench_reading
from reader_startup import bench_first_launch, bench_startup
from reader_terminal import ENGINE, RESULTS, indexed_corpus, ms_columns

from paperterm.index.library.place import DENSITIES


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
        echo = ["bare Textual: Input echo", "-", 60, *ms_columns(floor), ""]
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
