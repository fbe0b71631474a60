"""Facet counts (index/library/facets.py) over a whole corpus, against the 100 ms budget.

For each size, a `corpus.py` corpus is given conference fields drawn with a fixed seed
(status, type, session or only a start, topic, track, a second collection for some), a
bookmark with tags on one paper in ten, decisions on one in five and reads on one in three;
`count_facets` runs `--runs` times over all of it (the reader's worst case: an empty query),
and so does `facet_ids` for two values chosen in the reader's facets sidebar (status Oral
and unread), the narrowing `allowed_ids` does. Prints wall p50, p95 and max and CPU p50 of
the counts, and wall p50 / p95 of the narrowing, in milliseconds (`--json`: one JSON object,
`sizes` mapping each size to `count_ms`, `count_cpu_ms` and `narrow_ms` summaries).

    python benchmarks/bench_facets.py [--sizes 2610 50000] [--runs 30] [--json]
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import replace
from datetime import datetime, timezone

from bench_topics import corpus_papers
from measure import machine, people_output, print_json, summary_ms, table

from paperterm.index.library.bookmarks import Bookmark
from paperterm.index.library.facet_table import FacetTable
from paperterm.index.library.facets import count_facets, facet_ids
from paperterm.index.papers import Paper

BUDGET_MS = 100
WHEN = datetime(2025, 1, 1, tzinfo=timezone.utc)


def conference(papers: list[Paper], seed: int = 29) -> list[Paper]:
    rng = random.Random(seed)
    shaped = []
    for paper in papers:
        status = rng.choice(["Poster"] * 8 + ["Spotlight", "Oral"])
        timed_only = rng.random() < 0.1
        shaped.append(
            replace(
                paper,
                status=status,
                type=status,
                session="" if timed_only else f"Poster Session {rng.randint(1, 6)}",
                start=f"2024-07-{rng.randint(23, 26)}T11:30:00+02:00",
                topic=f"Topic {rng.randint(1, 40)}",
                track=rng.choice(["Main", "Position"]),
                collections=[paper.collection, *(["Extra"] if rng.random() < 0.2 else [])],
            )
        )
    return shaped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[2610, 50_000])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    with people_output(args.json):
        sizes = measure(args.sizes, args.runs)
    if args.json:
        print_json({"runs": args.runs, "sizes": sizes})


def measure(sizes: list[int], runs: int) -> dict[str, dict[str, object]]:
    """Print the table; each size's summaries (in ms), keyed by the size."""
    print(f"machine: {machine()}")
    rows, table_rows = [], []
    results: dict[str, dict[str, object]] = {}
    for n in sizes:
        papers = conference(corpus_papers(n))
        marks = {
            p.id: Bookmark(p.id, WHEN, tags=(f"tag{i % 7}",)) for i, p in enumerate(papers[::10])
        }
        decisions = {p.id: ("keep", "maybe", "skip")[i % 3] for i, p in enumerate(papers[::5])}
        read = {p.id: WHEN for p in papers[::3]}
        seconds, cpu = [], []
        for _ in range(runs):
            started, cpu_started = time.perf_counter(), time.process_time()
            count_facets(papers, marks, decisions, read)
            seconds.append(time.perf_counter() - started)
            cpu.append(time.process_time() - cpu_started)
        narrowing = []
        chosen = [("status", "Oral"), ("read", "unread")]
        for _ in range(runs):
            started = time.perf_counter()
            facet_ids(papers, chosen, marks, decisions, read)
            narrowing.append(time.perf_counter() - started)
        table_rows.append(bench_table(papers, marks, decisions, read, runs))
        ms, cpu_ms, narrow_ms = summary_ms(seconds), summary_ms(cpu), summary_ms(narrowing)
        results[str(n)] = {"count_ms": ms, "count_cpu_ms": cpu_ms, "narrow_ms": narrow_ms}
        verdict = "met" if ms["p95"] <= BUDGET_MS else "MISSED"
        rows.append([f"{n:,}", f"{ms['p50']:.1f}", f"{ms['p95']:.1f}", f"{ms['max']:.1f}",
                     f"{cpu_ms['p50']:.1f}", verdict,
                     f"{narrow_ms['p50']:.1f} / {narrow_ms['p95']:.1f}"])  # fmt: skip
    headers = ["papers", "p50 ms", "p95 ms", "max ms", "CPU p50 ms", f"p95 <= {BUDGET_MS} ms",
               "narrow p50 / p95 ms"]  # fmt: skip
    print(table(headers, rows))
    print(table(["papers", "table made wall / CPU ms", "count all p50 / p95 ms",
                 "count 1 in 10 p50 / p95 ms"], table_rows))  # fmt: skip
    return results


def bench_table(papers: list[Paper], marks, decisions, read, runs: int) -> list[str]:
    """The facet table's row: made once, then counted `runs` times over all and one in ten."""
    started, cpu_started = time.perf_counter(), time.process_time()
    made = FacetTable.of(papers, pause=_pause)
    build = (time.perf_counter() - started) * 1000, (time.process_time() - cpu_started) * 1000
    found = []
    for positions in (None, range(0, len(papers), 10)):
        seconds = []
        for _ in range(runs):
            started = time.perf_counter()
            made.count(positions, marks, decisions, read, pause=_pause)
            seconds.append(time.perf_counter() - started)
        ms = summary_ms(seconds)
        found.append(f"{ms['p50']:.1f} / {ms['p95']:.1f}")
    return [f"{len(papers):,}", f"{build[0]:.0f} / {build[1]:.0f}", *found]


def _pause() -> None:
    time.sleep(0)


if __name__ == "__main__":
    main()
