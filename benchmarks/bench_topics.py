"""Topics for data that has none (index/planning/topics.py): time and coverage.

For each size, a `corpus.py` corpus (synthetic abstracts with titles) is grouped into topics;
the script prints wall and CPU time, how many topics, the share of papers given one, and a
digest of the result (the same on every run: topics are deterministic). Targets: <= 10 s at
2,610 papers and <= 60 s at 50,000, >= 95% covered.

`--kept`: the reader's background job instead (`topics_process.background_topics`) over an
index built first (not timed) from the corpus as a JSON file: its wall time and CPU time
(this process's and its children's: a large corpus is grouped in a process of its own)
when it groups and keeps the topics, then on a second start, when it reads the kept file.

`--json`: one JSON object, `rows` holding each table row (`wall_s`, `cpu_s`,
`topics`, `covered` as a share, and `step` in `--kept`'s rows).

    python benchmarks/bench_topics.py [--sizes 2610 50000] [--show 5] [--kept] [--json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import tempfile
import time
from pathlib import Path

import corpus
from measure import machine, people_output, print_json, table

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


def cpu_with_children() -> float:
    """CPU time of this process and of its children that ended."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def kept_rows(n: int) -> list[list[object]]:
    """The background job over a built index of `n` papers: grouping, then reading back."""
    from paperterm.index.config import Config
    from paperterm.index.planning.topics_process import background_topics
    from paperterm.index.session import Session

    rows: list[list[object]] = []
    with tempfile.TemporaryDirectory() as folder:
        source = corpus.write_json(Path(folder) / "corpus", corpus.make_abstracts(n))[0]
        for step in ("group and keep", "read kept"):
            session = Session.create(Path(folder) / "data", [source], Config())
            opened, _ = session.open()
            wall, cpu = time.perf_counter(), cpu_with_children()
            kept = background_topics(session, opened, lambda: False)
            wall, cpu = time.perf_counter() - wall, cpu_with_children() - cpu
            found = kept.topics if kept is not None and kept.topics else []
            covered = sum(topic.count for topic in found)
            rows.append([f"{n:,}", step, f"{wall:.2f}", f"{cpu:.2f}", len(found),
                         f"{covered / n:.1%}"])  # fmt: skip
            opened.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[2610, 50_000])
    parser.add_argument("--show", type=int, default=5, help="topics to print per size")
    parser.add_argument("--kept", action="store_true", help="the reader's background job")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    with people_output(args.json):
        print(f"machine: {machine()}")
        if args.kept:
            rows = [row for n in args.sizes for row in kept_rows(n)]
            print(table(["papers", "step", "wall s", "CPU s", "topics", "covered"], rows))
            keys = ["papers", "step", "wall_s", "cpu_s", "topics", "covered"]
        else:
            rows = grouped_rows(args.sizes, args.show)
            print(table(["papers", "wall s", "CPU s", "topics", "covered", "digest"], rows))
            keys = ["papers", "wall_s", "cpu_s", "topics", "covered", "digest"]
    if args.json:
        found = [dict(zip(keys, row, strict=True)) for row in rows]
        print_json({"rows": [_numbers(row) for row in found]})


def grouped_rows(sizes: list[int], show: int) -> list[list[object]]:
    """`topics` over each size's corpus: a table row each (its first topics printed)."""
    rows: list[list[object]] = []
    for n in sizes:
        papers = corpus_papers(n)
        wall, cpu = time.perf_counter(), time.process_time()
        found = topics(papers)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        covered = sum(topic.count for topic in found)
        digest = hashlib.sha256(json.dumps(topics_json(found)).encode()).hexdigest()[:12]
        rows.append([f"{n:,}", f"{wall:.2f}", f"{cpu:.2f}", len(found),
                     f"{covered / n:.1%}", digest])  # fmt: skip
        for topic in found[:show]:
            print(f"  {n:,}: {topic.count:>6,}  {', '.join(topic.words)}")
    return rows


def _numbers(row: dict[str, object]) -> dict[str, object]:
    """A table row's cells as JSON values: sizes and times as numbers, shares as fractions."""
    out = dict(row)
    out["papers"] = int(str(row["papers"]).replace(",", ""))
    out["wall_s"], out["cpu_s"] = float(str(row["wall_s"])), float(str(row["cpu_s"]))
    out["covered"] = float(str(row["covered"]).rstrip("%")) / 100
    return out


if __name__ == "__main__":
    main()
