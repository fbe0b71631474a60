"""The reader's watch marks (tui/watch_marks.py): finding the watched papers, and the cost
of marking a row and an abstract as they are drawn.

A `corpus.py` corpus of `--n` papers (default 50,000) and bench_watch.py's watch list.
Prints the CPU time of `find_marks` (every paper read once, in the reader's worker), then
the mean time to mark one list row (`mark_row` over `row_cells` at 100 columns) and to
find the watched words in one abstract (`word_spans`, the detail pane's), over `--rows`
papers.

    python benchmarks/bench_watch_marks.py [--n 50000] [--rows 2000]
"""

from __future__ import annotations

import argparse
import time

from bench_topics import corpus_papers
from bench_watch import WATCH
from measure import machine

from paperterm.tui.rows import row_cells, row_text
from paperterm.tui.view import Row
from paperterm.tui.watch_marks import find_marks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=50_000)
    parser.add_argument("--rows", type=int, default=2000)
    args = parser.parse_args()
    papers = corpus_papers(args.n)
    print(f"machine: {machine()}")
    started = time.process_time()
    marks = find_marks(WATCH, papers)
    found = time.process_time()
    watched = len(marks.ids)
    print(f"find_marks over {args.n:,} papers: {found - started:.2f} s CPU, {watched:,} watched")
    sample = papers[: args.rows]
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


if __name__ == "__main__":
    main()
