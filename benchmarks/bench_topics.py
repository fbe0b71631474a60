"""Topics for data that has none (index/planning/topics.py): time and coverage.

For each size, a `corpus.py` corpus (synthetic abstracts with titles) is grouped into topics;
the script prints wall and CPU time, how many topics, the share of papers given one, and a
digest of the result (the same on every run: topics are deterministic). Targets: <= 10 s at
2,610 papers and <= 60 s at 50,000, >= 95% covered.

    python benchmarks/bench_topics.py [--sizes 2610 50000] [--show 5]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time

import corpus
from measure import machine, table

from paperterm.index.papers import Paper
from paperterm.index.planning.topics import topics, topics_json


def corpus_papers(n: int) -> list[Paper]:
    return [
        Paper(
            id=item.key,
            collection=item.collection,
            abstract=item.text,
            text=item.text,
            title=item.title,
            authors=item.authors,
        )
        for item in corpus.make_abstracts(n)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[2610, 50_000])
    parser.add_argument("--show", type=int, default=5, help="topics to print per size")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    rows = []
    for n in args.sizes:
        papers = corpus_papers(n)
        wall, cpu = time.perf_counter(), time.process_time()
        found = topics(papers)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        covered = sum(topic.count for topic in found)
        digest = hashlib.sha256(json.dumps(topics_json(found)).encode()).hexdigest()[:12]
        rows.append([f"{n:,}", f"{wall:.2f}", f"{cpu:.2f}", len(found),
                     f"{covered / n:.1%}", digest])  # fmt: skip
        for topic in found[: args.show]:
            print(f"  {n:,}: {topic.count:>6,}  {', '.join(topic.words)}")
    print(table(["papers", "wall s", "CPU s", "topics", "covered", "digest"], rows))


if __name__ == "__main__":
    main()
