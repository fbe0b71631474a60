"""Index build, warm open and query latency (Whoosh, via paperterm), with SQLite FTS5 as a peer.

For each corpus size (2,600 and 50,000 synthetic abstracts from `corpus.py`; `--quick`: 2,600
only) three child processes run, so each phase's peak RSS is its own:

  build   first-use `Session.open` into an empty data dir: find files, parse, enrich, write
          the Whoosh index and the papers file (2,600: median of 3 fresh builds; 50,000: one).
  search  warm start (`Session.open_existing`, which also loads the papers file), then the query
          mix below through `Searcher.search(q, limit=20, snippets=True)`, timed from outside
          per call: 10 rounds (2 above 10,000 abstracts) after one warm-up round.
  fts5    the same records into a stdlib SQLite FTS5 table (porter tokenizer, bm25 with the
          same field weights, `snippet()`), then the same queries (fuzzy ones have no FTS5
          form and are skipped there); both count the total matches, as the CLI shows it.

Targets (at 2,600): build <= 5 s, search with snippets <= 15 ms mean.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import corpus
from measure import machine, peak_rss_mb, summary_ms, table, timed

from paperterm.index import session as session_module
from paperterm.index.config import Config
from paperterm.index.search import store as store_module
from paperterm.index.search.searcher import Searcher
from paperterm.index.search.store import load_papers
from paperterm.index.session import Session
from paperterm.index.sources import loader as loader_module

SIZES = (2600, 50_000)
QUICK_SIZES = (2600,)
BUILD_TARGET_S = 5.0
SEARCH_TARGET_MS = 15.0
LIMIT = 20

#: (kind, paperterm query, FTS5 query or None when FTS5 has no equivalent)
QUERIES: list[tuple[str, str, str | None]] = [
    ("1 word", "attention", "attention"),
    ("1 word", "segmentation", "segmentation"),
    ("1 word", "diffusion", "diffusion"),
    ("1 word", "robustness", "robustness"),
    ("1 word", "learning", "learning"),
    ("1 word", "privacy", "privacy"),
    ("2 words", "language models", "language models"),
    ("2 words", "image segmentation", "image segmentation"),
    ("2 words", "reinforcement learning", "reinforcement learning"),
    ("2 words", "domain generalization", "domain generalization"),
    ("2 words", "uncertainty estimation", "uncertainty estimation"),
    ("3 words", "large language models", "large language models"),
    ("3 words", "graph neural networks", "graph neural networks"),
    ("3 words", "medical image registration", "medical image registration"),
    ("3 words", "sparse mixture experts", "sparse mixture experts"),
    ("phrase", '"language models"', '"language models"'),
    ("phrase", '"neural networks"', '"neural networks"'),
    ("phrase", '"state of the art"', '"state of the art"'),
    ("phrase", '"data augmentation"', '"data augmentation"'),
    ("prefix", "segment*", "segment*"),
    ("prefix", "transform*", "transform*"),
    ("prefix", "optim*", "optim*"),
    ("prefix", "gener*", "gener*"),
    ("fuzzy", "transfomer~", None),
    ("fuzzy", "segmentaton~", None),
    ("fuzzy", "robusness~", None),
]


# --- child: build ------------------------------------------------------------------------


class PhaseTimer:
    """Wraps module-level functions the build calls, adding up the time spent in each."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self._undo: list[Callable[[], None]] = []

    def wrap(self, module: object, name: str, label: str) -> None:
        original = getattr(module, name)

        def wrapper(*args, **kwargs):
            started = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                self.seconds[label] += time.perf_counter() - started

        setattr(module, name, wrapper)
        self._undo.append(lambda: setattr(module, name, original))

    def restore(self) -> None:
        for undo in reversed(self._undo):
            undo()
        self._undo.clear()


def build_once(corpus_dir: Path, data_dir: Path) -> dict[str, float]:
    timer = PhaseTimer()
    timer.wrap(session_module, "load_sources", "load+parse+enrich")
    # Display text (render) and derived links, names and titles (enrich).
    timer.wrap(loader_module, "render", "enrich")
    timer.wrap(loader_module, "enrich", "enrich")
    timer.wrap(store_module, "write_documents", "whoosh write")
    timer.wrap(store_module, "save_papers", "papers file")
    try:
        session = Session.create(data_dir, [corpus_dir], Config())
        cpu_started = time.process_time()
        total, (opened, problems) = timed(session.open)
        cpu = time.process_time() - cpu_started
    finally:
        timer.restore()
    if problems:
        raise SystemExit(f"corpus problems: {problems[:3]}")
    phases = timer.seconds
    other = total - phases["load+parse+enrich"] - phases["whoosh write"] - phases["papers file"]
    return {"total": total, "cpu": cpu, "papers": len(opened.papers), "other": other, **phases}


def child_build(corpus_dir: Path, work: Path, repeats: int) -> dict[str, object]:
    runs = [build_once(corpus_dir, work / f"data-{i}") for i in range(repeats)]
    median = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    return {"build": median, "data_dir": str(work / f"data-{repeats - 1}"), "rss": peak_rss_mb()}


# --- child: warm open and search ---------------------------------------------------------


Samples = dict[str, list[float]]


def run_mix(
    search: Callable[[str], object], queries: list[str], rounds: int
) -> tuple[Samples, Samples]:
    """Wall and CPU seconds of each call, per query. CPU time is what the query costs when
    other work on the machine competes for the cores (the wall time includes waiting)."""
    for query in queries:  # warm-up: first-touch costs are the open's, not the query's
        search(query)
    wall: Samples = {query: [] for query in queries}
    cpu: Samples = {query: [] for query in queries}
    for _ in range(rounds):
        for query in queries:
            cpu_started = time.process_time()
            wall[query].append(timed(lambda q=query: search(q))[0])
            cpu[query].append(time.process_time() - cpu_started)
    return wall, cpu


def child_search(corpus_dir: Path, data_dir: Path, rounds: int) -> dict[str, object]:
    session = Session.create(data_dir, [corpus_dir], Config())
    first_open, opened = timed(session.open_existing)
    if opened is None:
        raise SystemExit("the index built by the build phase is not current")
    searcher_s, searcher = timed(lambda: Searcher(opened.ix, opened.papers, opened.vocabulary()))
    rss_open = peak_rss_mb()
    reopen = [
        timed(Session.create(data_dir, [corpus_dir], Config()).open_existing)[0] for _ in range(3)
    ]
    totals: dict[str, int] = {}

    def search(query: str) -> None:
        results = searcher.search(query, limit=LIMIT, snippets=True)
        totals[query] = results.total

    samples, cpu = run_mix(search, [q for _, q, _ in QUERIES], rounds)
    searcher.close()
    return {
        "open_s": first_open,
        "reopen_s": statistics.median(reopen),
        "searcher_s": searcher_s,
        "rss_open": rss_open,
        "samples": samples,
        "cpu": cpu,
        "totals": totals,
        "rss": peak_rss_mb(),
    }


# --- child: SQLite FTS5 ------------------------------------------------------------------

FTS_COLUMNS = ("name", "title", "abstract", "authors", "collection")
#: bm25 weights in column order (id, then FTS_COLUMNS): the Whoosh field boosts.
FTS_RANK = "bm25(0.0, 4.0, 2.5, 1.0, 1.5, 0.5)"


def fts_build(db: Path, papers_file: Path) -> tuple[sqlite3.Connection, float, int]:
    papers = load_papers(papers_file)
    started = time.perf_counter()
    con = sqlite3.connect(db)
    con.execute(
        f"CREATE VIRTUAL TABLE papers USING fts5(id UNINDEXED, {', '.join(FTS_COLUMNS)}, "
        "tokenize = 'porter unicode61')"
    )
    con.execute("INSERT INTO papers(papers, rank) VALUES ('rank', ?)", (FTS_RANK,))
    with con:
        con.executemany(
            "INSERT INTO papers VALUES (?, ?, ?, ?, ?, ?)",
            (
                (p.id, p.name, p.title, p.text, " ; ".join(p.authors), " ; ".join(p.collections))
                for p in papers
            ),
        )
    return con, time.perf_counter() - started, len(papers)


def fts_search(con: sqlite3.Connection, query: str) -> tuple[list[tuple], int]:
    """Top hits with snippets and the total; like paperterm, all words first, then any."""
    rows, total = _fts_run(con, query)
    words = query.split()
    if total == 0 and len(words) > 1 and not query.startswith('"'):
        rows, total = _fts_run(con, " OR ".join(words))
    return rows, total


def _fts_run(con: sqlite3.Connection, match: str) -> tuple[list[tuple], int]:
    rows = con.execute(
        "SELECT id, rank, snippet(papers, 3, '**', '**', '…', 28) FROM papers "
        "WHERE papers MATCH ? ORDER BY rank LIMIT ?",
        (match, LIMIT),
    ).fetchall()
    total = con.execute("SELECT count(*) FROM papers WHERE papers MATCH ?", (match,)).fetchone()
    return rows, total[0]


def child_fts(data_dir: Path, work: Path, rounds: int) -> dict[str, object]:
    folder = store_module.Store(data_dir).current_generation()
    assert folder is not None
    con, build_s, count = fts_build(work / "fts.db", folder / store_module.PAPERS_FILE)
    rss_build = peak_rss_mb()
    totals: dict[str, int] = {}

    def search(query: str) -> None:
        totals[query] = fts_search(con, query)[1]

    samples, cpu = run_mix(search, [f for _, _, f in QUERIES if f is not None], rounds)
    reopen_s, _ = timed(
        lambda: sqlite3.connect(work / "fts.db").execute("SELECT count(*) FROM papers").fetchone()
    )
    con.close()
    return {
        "build_s": build_s,
        "papers": count,
        "reopen_s": reopen_s,
        "rss_build": rss_build,
        "samples": samples,
        "cpu": cpu,
        "totals": totals,
        "rss": peak_rss_mb(),
        "sqlite": sqlite3.sqlite_version,
    }


# --- parent ------------------------------------------------------------------------------


def run_child(*args: str) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", *args], check=True, capture_output=True, text=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def by_kind(samples: dict[str, list[float]], pick: int) -> dict[str, list[float]]:
    """Latency samples grouped by query kind (`pick`: 1 for paperterm, 2 for FTS5)."""
    grouped: dict[str, list[float]] = defaultdict(list)
    for row in QUERIES:
        if row[pick] is not None and row[pick] in samples:
            grouped[row[0]].extend(samples[row[pick]])
            grouped["all"].extend(samples[row[pick]])
    return grouped


def measure_size(n: int, rounds: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="paperterm-bench-") as tmp:
        work = Path(tmp)
        pool = corpus.sentence_pool()
        corpus.write_text(work / "corpus", corpus.make_abstracts(n, pool=pool))
        repeats = 3 if n <= 10_000 else 1
        built = run_child("build", str(n), tmp, str(repeats))
        searched = run_child("search", str(n), tmp, built["data_dir"], str(rounds))
        fts = run_child("fts", str(n), tmp, built["data_dir"], str(rounds))
    return {
        "n": n,
        "built": built,
        "searched": searched,
        "fts": fts,
        "repeats": repeats,
        "rounds": rounds,
    }


def report(results: list[dict]) -> None:
    print(f"\nmachine: {machine()}; SQLite {results[0]['fts']['sqlite']}")
    rounds = ", ".join(f"{r['rounds']} at {r['n']}" for r in results)
    print(f"queries: {len(QUERIES)} in the mix; timed rounds after a warm-up round: {rounds}\n")
    rows = []
    for r in results:
        b = r["built"]["build"]
        rows.append(
            [
                r["n"],
                b["total"],
                b["cpu"],
                b["load+parse+enrich"],
                b["enrich"],
                b["whoosh write"],
                b["papers file"],
                b["other"],
                r["built"]["rss"],
                r["fts"]["build_s"],
                r["fts"]["rss_build"],
            ]
        )
    print(
        f"First-use build, seconds (median of {results[0]['repeats']} fresh builds at 2,600;"
        " one at 50,000)"
    )
    print(
        table(
            [
                "abstracts",
                "total",
                "CPU",
                "parse",
                "(enrich)",
                "whoosh write",
                "papers file",
                "other",
                "peak MB",
                "FTS5 insert",
                "FTS5 peak MB",
            ],
            rows,
        )
    )
    rows = []
    for r in results:
        s = r["searched"]
        rows.append(
            [
                r["n"],
                s["open_s"] * 1000,
                s["reopen_s"] * 1000,
                s["searcher_s"] * 1000,
                s["rss_open"],
                r["fts"]["reopen_s"] * 1000,
            ]
        )
    print("\nWarm open, ms (open_existing = fingerprint + open Whoosh + load the papers file)")
    print(
        table(
            [
                "abstracts",
                "first open",
                "reopen median",
                "Searcher()",
                "peak MB after open",
                "FTS5 connect+count",
            ],
            rows,
        )
    )
    rows = []
    for r in results:
        ours = by_kind(r["searched"]["samples"], 1)
        ours_cpu = by_kind(r["searched"]["cpu"], 1)
        peer = by_kind(r["fts"]["samples"], 2)
        peer_cpu = by_kind(r["fts"]["cpu"], 2)
        for kind in ["all", *dict.fromkeys(q[0] for q in QUERIES)]:
            a = summary_ms(ours[kind])
            row = [r["n"], kind, a["p50"], a["p95"], a["mean"], a["max"]]
            row.append(summary_ms(ours_cpu[kind])["mean"])
            if kind in peer:
                f = summary_ms(peer[kind])
                row += [f["p50"], f["p95"], f["mean"], summary_ms(peer_cpu[kind])["mean"]]
            else:
                row += ["n/a"] * 4
            rows.append(row)
    print("\nQuery latency with snippets, limit 20, ms (wall; CPU mean: the process's own time)")
    print(
        table(
            [
                "abstracts",
                "queries",
                "p50",
                "p95",
                "mean",
                "max",
                "CPU mean",
                "FTS5 p50",
                "FTS5 p95",
                "FTS5 mean",
                "FTS5 CPU mean",
            ],
            rows,
        )
    )
    rows = []
    for r in results:
        for kind, ours, peer in QUERIES:
            a = summary_ms(r["searched"]["samples"][ours])
            f = summary_ms(r["fts"]["samples"][peer]) if peer else None
            rows.append(
                [
                    r["n"],
                    kind,
                    ours,
                    r["searched"]["totals"][ours],
                    a["mean"],
                    r["fts"]["totals"][peer] if peer else "n/a",
                    f["mean"] if f else "n/a",
                ]
            )
    print("\nPer query: matches and mean ms")
    print(
        table(["abstracts", "kind", "query", "matches", "mean", "FTS5 matches", "FTS5 mean"], rows)
    )
    small = next((r for r in results if r["n"] == 2600), None)
    if small:
        build = small["built"]["build"]
        mean = summary_ms(by_kind(small["searched"]["samples"], 1)["all"])["mean"]
        cpu = summary_ms(by_kind(small["searched"]["cpu"], 1)["all"])["mean"]
        print(
            f"\ntargets at 2,600: build {build['total']:.2f} s, CPU {build['cpu']:.2f} s "
            f"(<= {BUILD_TARGET_S} s: {'met' if build['total'] <= BUILD_TARGET_S else 'MISSED'})"
            f"; search mean {mean:.2f} ms, CPU {cpu:.2f} ms "
            f"(<= {SEARCH_TARGET_MS} ms: {'met' if mean <= SEARCH_TARGET_MS else 'MISSED'})"
        )


def child_main(argv: list[str]) -> None:
    mode, _n, work = argv[0], argv[1], Path(argv[2])
    if mode == "build":
        result = child_build(work / "corpus", work, int(argv[3]))
    elif mode == "search":
        result = child_search(work / "corpus", Path(argv[3]), int(argv[4]))
    else:
        result = child_fts(Path(argv[3]), work, int(argv[4]))
    print(json.dumps(result))


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child_main(sys.argv[2:])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="2,600 abstracts only")
    parser.add_argument("--sizes", type=int, nargs="+", help="corpus sizes to measure")
    parser.add_argument(
        "--rounds", type=int, help="timed rounds of the mix (default 10; 2 above 10,000)"
    )
    args = parser.parse_args()
    sizes = args.sizes or (QUICK_SIZES if args.quick else SIZES)
    results = []
    for n in sizes:
        started = time.perf_counter()
        rounds = args.rounds or (10 if n <= 10_000 else 2)
        results.append(measure_size(n, rounds))
        print(f"measured {n} abstracts in {time.perf_counter() - started:.0f} s", flush=True)
    report(results)


if __name__ == "__main__":
    main()
