"""Watch lists (index/planning/watch.py): compiling a matcher and matching every paper.

A `corpus.py` corpus of `--n` papers (default 50,000); a watch list of three authors (one
written with an initial) and three words. Prints the CPU time to build the matcher over the
corpus's author names and to match every paper, and how many papers match.

    python benchmarks/bench_watch.py [--n 50000]
"""

from __future__ import annotations

import argparse
import time

from bench_topics import corpus_papers
from measure import machine

from paperterm.index.planning.watch import WatchList, WatchMatcher, corpus_author_names

WATCH = WatchList(
    authors=("Ada Velora", "B. Kofi", "Zoe Tamira"), words=("diffusion", "language model", "graph")
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=50_000)
    args = parser.parse_args()
    papers = corpus_papers(args.n)
    print(f"machine: {machine()}")
    started = time.process_time()
    matcher = WatchMatcher(WATCH, corpus_author_names(papers))
    built = time.process_time()
    matched = sum(1 for paper in papers if matcher.watched(paper))
    done = time.process_time()
    print(f"matcher over {len(corpus_author_names(papers)):,} names: {built - started:.2f} s CPU")
    print(f"watched() over {args.n:,} papers: {done - built:.2f} s CPU, {matched:,} match")


if __name__ == "__main__":
    main()
