"""Per-query CPU time of `bench_index.py`'s query mix on one built index, for comparing two
versions of the code (A/B): run this file with each tree's Python, alternating, on an index
each tree built in its own data dir.

    python benchmarks/bench_query_ab.py build DATA CORPUS     # a first launch into DATA
    python benchmarks/bench_query_ab.py time DATA CORPUS --rounds 5 --label new > out.json

`time` prints one JSON line: per query, the first run's CPU seconds (nothing cached, as
`bench_index.py` runs it), the warm rounds' CPU seconds (after a warm-up round), and the
same rounds split into the engine's part (`search(..., snippets=False)`) and the whole.
`compare` reads such lines (several runs of each label) and prints a table per query.

    python benchmarks/bench_query_ab.py compare old1.json new1.json old2.json ...
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

from bench_index import LIMIT, QUERIES, forget_terms
from measure import load_average, percentile, table

from paperterm.index.config import Config
from paperterm.index.search.searcher import Searcher
from paperterm.index.search.whoosh import scorer as whoosh_scorer
from paperterm.index.session import Session

#: What each run holds: first runs, warm rounds with snippets, warm rounds without.
KEYS = ("first", "warm", "engine")


def _session(data: Path, corpus: Path) -> Session:
    return Session.create(data, [corpus], Config())


def build(data: Path, corpus: Path) -> None:
    started = time.perf_counter()
    _session(data, corpus).open()
    print(f"built {data} in {time.perf_counter() - started:.1f} s")


def _cpu(call: object) -> float:
    started = time.process_time()
    call()  # type: ignore[operator]
    return time.process_time() - started


def measure(data: Path, corpus: Path, rounds: int, label: str) -> dict[str, object]:
    opened = _session(data, corpus).open_existing()
    if opened is None:
        raise SystemExit(f"{data}: no current index for {corpus}")
    searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
    queries = [query for _, query, _ in QUERIES]
    load = [load_average()]
    cache = whoosh_scorer.CACHE_POSTINGS
    whoosh_scorer.CACHE_POSTINGS = 0
    first: dict[str, float] = {}
    for query in queries:
        forget_terms(searcher)
        first[query] = _cpu(lambda q=query: searcher.search(q, limit=LIMIT, snippets=True))
    whoosh_scorer.CACHE_POSTINGS = cache
    for query in queries:
        searcher.search(query, limit=LIMIT, snippets=True)
    warm: dict[str, list[float]] = defaultdict(list)
    engine: dict[str, list[float]] = defaultdict(list)
    for _ in range(rounds):
        for query in queries:
            warm[query].append(_cpu(lambda q=query: searcher.search(q, limit=LIMIT, snippets=True)))
            engine[query].append(
                _cpu(lambda q=query: searcher.search(q, limit=LIMIT, snippets=False))
            )
    load.append(load_average())
    return {"label": label, "first": first, "warm": warm, "engine": engine, "load": load}


def compare(files: list[Path]) -> None:
    runs: dict[str, list[dict]] = defaultdict(list)
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("{"):
                run = json.loads(line)
                runs[run["label"]].append(run)
    labels = sorted(runs)
    queries = [query for _, query, _ in QUERIES]

    def samples(label: str, key: str, query: str) -> list[float]:
        found: list[float] = []
        for run in runs[label]:
            value = run[key][query]
            found.extend(value if isinstance(value, list) else [value])
        return [1000 * v for v in found]

    rows = []
    for kind, query, _ in QUERIES:
        row: list[object] = [kind, query]
        for key in KEYS:
            for label in labels:
                row.append(statistics.median(samples(label, key, query)))
        rows.append(row)
    for key in KEYS:
        row = ["all", key]
        for label in labels:
            every = [v for q in queries for v in samples(label, key, q)]
            row.append(f"{statistics.fmean(every):.2f} / {percentile(every, 95):.2f}")
        rows.append(row)
    headers = ["kind", "query"]
    headers += [f"{key} {label}" for key in KEYS for label in labels]
    print("CPU ms, median per query over all runs' samples")
    print(table(headers, rows[: len(QUERIES)]))
    print("\nAll queries, CPU ms mean / p95")
    summary = [[key, *row[2:]] for key, row in zip(KEYS, rows[len(QUERIES) :], strict=True)]
    print(table(["runs", *labels], summary))
    for label in labels:
        loads = [f"{a}-{b}" for a, b in (run["load"] for run in runs[label])]
        print(f"{label}: {len(runs[label])} runs, load {', '.join(loads)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("build", "time", "compare"))
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--label", default="run")
    args = parser.parse_args()
    if args.mode == "compare":
        compare(args.paths)
    elif args.mode == "build":
        build(*args.paths)
    else:
        data, corpus = args.paths
        print(json.dumps(measure(data, corpus, args.rounds, args.label)))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
