"""The reader's watch marks (tui/watch_marks.py): finding the watched papers, and the cost
of marking a row and an abstract as they are drawn.

A `corpus.py` corpus of `--n` papers (default 50,000; several sizes in turn) and
bench_watch.py's watch list.
Prints the CPU time of `find_marks` (every paper read once, in the reader's worker), then
the mean time to mark one list row (`mark_row` over `row_cells` at 100 columns) and to
find the watched words in one abstract (`word_spans`, the detail pane's), over `--rows`
papers (`--json`: one JSON object,
`sizes` listing each size's figures).

    python benchmarks/bench_watch_marks.py [--n 50000 ...] [--rows 2000] [--json]
"""

from __future__ import annotations

import argparse
import time

from bench_topics import corpus_papers
from bench_watch import WATCH
from measure import machine, people_output, print_json

from paperterm.tui.rows import row_cells, row_text
from paperterm.tui.view import Row
from paperterm.tui.watch_marks import find_marks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, nargs="+", default=[50_000])
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    with people_output(args.json):
        results = [measure(n, args.rows) for n in args.n]
    if args.json:
        print_json({"sizes": results})


def measure(n: int, count: int) -> dict[str, object]:
    """Print the figures; them, for `--json`."""
    papers = corpus_papers(n)
    print(f"machine: {machine()}")
    started = time.process_time()
    marks = find_marks(WATCH, papers)
    find_s = time.process_time() - started
    watched = len(marks.ids)
    print(f"find_marks over {n:,} papers: {find_s:.2f} s CPU, {watched:,} watched")
    sample = papers[:count]
    cells = [(p.id, row_cells(row_text(Row(p.id, p)), 100)) for p in sample]
    started = time.process_time()
    for paper_id, row in cells:
        marks.mark_row(paper_id, row)
    rows = time.process_time()
    for paper in sample:
        marks.word_spans(paper.abstract)
    spans = time.process_time()
    print(f"mark_row: {(rows - started) / len(sample) * 1e6:.1f} us a row")
    print(f"word_spans: {(spans - rows) / len(sample) * 1e6:.1f} us an abstract")
    return {
        "papers": n,
        "watched": watched,
        "find_cpu_s": find_s,
        "mark_row_us": (rows - started) / len(sample) * 1e6,
        "word_spans_us": (spans - rows) / len(sample) * 1e6,
    }


if __name__ == "__main__":
    main()
