"""The record path's CPU per abstract: a source file's records read, rendered and keyed.

What a build's worker does to each record besides deriving its name and title and indexing
it (`preparing.prepare` without `enrich`'s name and headline): parse the record (JSON Lines
line by line, other formats whole: `loader.Reading`), render its display text
(`enrich.render`), its merge keys (`preparing._keyed`) and its links. Timed by
`time.process_time` a phase at a time, the fastest of R rounds (the display cache cleared
before each); run it with the code before and after a change, alternately:

    python benchmarks/bench_records.py FILE... [--rounds R]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from measure import machine

from paperterm.index.links import Known, paper_links
from paperterm.index.papers import Paper
from paperterm.index.search.records import no_collection
from paperterm.index.sources import preparing
from paperterm.index.sources.loader import Reading
from paperterm.index.text.display import display_text


def one_round(files: list[Path]) -> tuple[int, dict[str, float]]:
    display_text.cache_clear()
    times = {"read": 0.0, "keys": 0.0, "links": 0.0}
    count = 0
    with no_collection():
        for path in files:
            start = time.process_time()
            papers: list[Paper] = list(Reading(path).papers())
            read = time.process_time()
            for paper in papers:
                preparing._keyed(paper, list(paper.links))
            keyed = time.process_time()
            for paper in papers:
                paper_links(Known(urls=paper.links, text=paper.text))
            linked = time.process_time()
            times["read"] += read - start
            times["keys"] += keyed - read
            times["links"] += linked - keyed
            count += len(papers)
    return count, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    best: dict[str, float] = {}
    count = 0
    for _ in range(args.rounds):
        count, times = one_round(args.files)
        for phase, seconds in times.items():
            best[phase] = min(best.get(phase, seconds), seconds)
    total = sum(best.values())
    phases = ", ".join(f"{phase} {seconds / count * 1e6:.1f}" for phase, seconds in best.items())
    print(
        f"machine: {machine()}; {len(args.files)} files, {count:,} records: "
        f"{total / count * 1e6:.1f} us CPU a record ({phases})"
    )


if __name__ == "__main__":
    main()
