"""The agenda and the authors' index in the reader (`A`, `a`): CPU time per build.

A `corpus.py` corpus of `--n` papers (default 50,000; several sizes in turn) given a week of
sessions: every paper a poster session of 80 papers (five a day, two hours each, two rooms,
so sessions clash), a poster position, times with an offset. `--kept` of them (default
2,000, spread over the corpus) are kept. Prints the CPU time, best of `--runs`, of the
agenda screen's build (`chosen_papers`, `build_agenda`, `agenda_lines`: what its worker
does) and of the authors' index over the whole corpus (`AuthorIndex`, built once per corpus
on the first `a`), and one `papers_of` look-up (`--json`: one JSON object, `sizes` listing
each size's figures).

    python benchmarks/bench_agenda.py [--n 50000 ...] [--kept 2000] [--runs 5] [--json]
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from datetime import datetime, timedelta, timezone

from bench_topics import corpus_papers
from measure import machine, people_output, print_json

from paperterm.index.papers import Paper
from paperterm.index.planning.agenda import build_agenda
from paperterm.index.planning.authors import AuthorIndex, paper_authors
from paperterm.tui.controllers.agenda import agenda_lines, chosen_papers

SESSION_SIZE = 80
ZONE = timezone(timedelta(hours=-8))
MONDAY = datetime(2025, 12, 1, 9, 0, tzinfo=ZONE)


def scheduled(papers: list[Paper]) -> list[Paper]:
    out = []
    for index, paper in enumerate(papers):
        number = index // SESSION_SIZE
        day, slot = divmod(number // 2 % 25, 5)
        start = MONDAY + timedelta(days=day, hours=2 * slot, minutes=30 * (number % 2))
        out.append(
            replace(
                paper,
                session=f"Poster Session {number + 1}",
                room=f"Hall {'AB'[number % 2]}",
                start=start.isoformat(),
                end=(start + timedelta(hours=2)).isoformat(),
                poster=f"#{index % SESSION_SIZE + 1}",
            )
        )
    return out


def best(runs: int, work: object) -> float:
    times = []
    for _ in range(runs):
        started = time.process_time()
        work()  # type: ignore[operator]
        times.append(time.process_time() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, nargs="+", default=[50_000])
    parser.add_argument("--kept", type=int, default=2_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    with people_output(args.json):
        results = [measure(n, args.kept, args.runs) for n in args.n]
    if args.json:
        print_json({"sizes": results})


def measure(n: int, kept: int, runs: int) -> dict[str, object]:
    """Print the figures; them, for `--json`."""
    papers = scheduled(corpus_papers(n))
    by_id = {paper.id: paper for paper in papers}
    step = max(len(papers) // kept, 1)
    decisions = {paper.id: "keep" for paper in papers[::step][:kept]}
    print(f"machine: {machine()}")

    def agenda() -> None:
        built = build_agenda(chosen_papers(decisions, by_id, False))
        agenda_lines(built, decisions)

    built = build_agenda(chosen_papers(decisions, by_id, False))
    agenda_s = best(runs, agenda)
    clashes = sum(s.clash for s in built.sessions)
    print(
        f"agenda of {len(decisions):,} kept papers of {n:,} "
        f"({len(built.sessions)} sessions, {clashes} in a clash): {agenda_s * 1000:.1f} ms CPU"
    )
    started = time.process_time()
    index = AuthorIndex(papers)
    indexed = time.process_time() - started
    author = paper_authors(papers[len(papers) // 2])[0]
    look_up = best(runs, lambda: index.papers_of(author))
    print(f"authors' index over {n:,} papers: {indexed:.2f} s CPU")
    print(f"papers_of one author: {look_up * 1000:.3f} ms CPU")
    return {
        "papers": n,
        "kept": len(decisions),
        "sessions": len(built.sessions),
        "clashes": clashes,
        "agenda_cpu_ms": agenda_s * 1000,
        "authors_index_cpu_s": indexed,
        "look_up_cpu_ms": look_up * 1000,
    }


if __name__ == "__main__":
    main()
