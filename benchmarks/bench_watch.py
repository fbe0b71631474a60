"""Watch lists (index/planning/watch.py): compiling a matcher and matching every paper.

A `corpus.py` corpus of `--n` papers (default 50,000); a watch list of three authors (one
written with an initial) and three words. Prints the CPU time to build the matcher over the
corpus's author names and to match every paper, and how many papers match (`--json`: the
same figures as one JSON object).

    python benchmarks/bench_watch.py [--n 50000] [--json]
"""

from __future__ import annotations

import argparse
import time

from bench_topics import corpus_papers
from measure import machine, people_output, print_json

from paperterm.index.planning.watch import WatchList, WatchMatcher, corpus_author_names

WATCH = WatchList(
    authors=("Ada Velora", "B. Kofi", "Zoe Tamira"), words=("diffusion", "language model", "graph")
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=50_000)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    with people_output(args.json):
        results = measure(args.n)
    if args.json:
        print_json(results)


def measure(n: int) -> dict[str, object]:
    """Print the figures; them, for `--json`."""
    papers = corpus_papers(n)
    print(f"machine: {machine()}")
    started = time.process_time()
    matcher = WatchMatcher(WATCH, corpus_author_names(papers))
    built = time.process_time()
    matched = sum(1 for paper in papers if matcher.watched(paper))
    done = time.process_time()
    print(f"matcher over {len(corpus_author_names(papers)):,} names: {built - started:.2f} s CPU")
    print(f"watched() over {n:,} papers: {done - built:.2f} s CPU, {matched:,} match")
    return {
        "papers": n,
        "matcher_cpu_s": built - started,
        "match_cpu_s": done - built,
        "matched": matched,
    }


if __name__ == "__main__":
    main()
