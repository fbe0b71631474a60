"""Whoosh and tantivy side by side (with SQLite FTS5 as the peer), on the same corpus in the
same run: first-launch build, index size, `paperterm search` start to answer, and the query
mix of `bench_index.py` with snippets.

For each corpus size (synthetic abstracts from `corpus.py`, as seed-format text or, with
`--format jsonl`, arXiv snapshot rows) each phase runs in a child process of its own:

  build   `Session.open` into an empty data dir with the engine (its worker processes'
          CPU time and peak RSS reported apart); the engine folder's size on disk.
  search  warm open, then each query of the mix once ("first run") and timed rounds after a
          warm-up round, `Searcher.search(q, limit=20, snippets=True)`.
  cli     `paperterm search --engine E QUERY` as a fresh process: start to answer, median of 5.
  fts5    the papers in an FTS5 table, the same queries (as in `bench_index.py`).
  agree   both engines' indexes opened in one process, the same random queries (1-3 words
          of the corpus's abstracts, seeded) to both, limit 10: how often they rank the
          same paper first, how much their top 10 overlap, how often they count alike.

With several sizes, the growth from each size to the next is printed per 100,000 abstracts
(build wall time and disk), and the largest size projected to 2.5 million from the growth
between the two largest.

    python benchmarks/bench_engines.py [--sizes N ...] [--rounds R] [--format text|jsonl]
        [--engines whoosh tantivy] [--whoosh-up-to N] [--keep DIR] [--one-file]

`--whoosh-up-to N`: Whoosh only at sizes up to N (its build at 500,000 takes ~10 minutes
of this machine; the projection from the smaller sizes says what it would take).

`--keep DIR`: each corpus is written once, as `DIR/<format>-<size>` (or taken from there:
a symlink to a corpus written before will do), and the data dir the engines build into is
kept too, in `DIR/work-<format>-<size>`: a later run reuses an engine's index and its
build's numbers (`built-<engine>.json`, printed as they were) instead of building it again
(the 500,000-row tantivy build takes ~150-400 s of both cores). Delete that folder after a
change to what the build writes: the search phase stops on an index that is not current.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import subprocess
import sys
import tempfile
import time
from itertools import pairwise
from pathlib import Path

import corpus
from bench_index import (
    LIMIT,
    QUERIES,
    _children_peak_mb,
    _cpu,
    by_kind,
    child_cli,
    fts_build,
    fts_search,
    run_mix,
)
from measure import fresh_bytecode, load_average, machine, peak_rss_mb, summary_ms, table, timed

from paperterm.index.config import Config
from paperterm.index.search.searcher import Searcher
from paperterm.index.search.store import ENGINE_FOLDER, Store
from paperterm.index.search.tantivy import tantivy_installed
from paperterm.index.session import Session
from paperterm.index.sources.files import SourceSpec

SIZES = (2600, 50_000)


def _session(data: Path, sources: list[Path], engine: str) -> Session:
    config = Config()
    config.engine = engine
    return Session.create(data, sources, config)


def child_build(sources: list[Path], data: Path, engine: str) -> dict[str, object]:
    session = _session(data, sources, engine)
    cpu, children = _cpu()
    wall, (opened, _) = timed(session.open)
    cpu_after, children_after = _cpu()
    folder = Path(opened.location) / ENGINE_FOLDER
    files = {(p.stat().st_ino, p.stat().st_size) for p in folder.rglob("*") if p.is_file()}
    disk = sum(size for _, size in files)  # a file hard-linked twice (tantivy) counted once
    return {
        "wall": wall,
        "cpu": cpu_after - cpu,
        "workers_cpu": children_after - children,
        "rss": peak_rss_mb(),
        "workers_rss": _children_peak_mb(),
        "papers": len(opened.papers),
        "parts": len(opened.meta.parts),
        "disk_mb": disk / 1e6,
    }


def child_search(sources: list[Path], data: Path, engine: str, rounds: int) -> dict[str, object]:
    open_s, opened = timed(_session(data, sources, engine).open_existing)
    if opened is None:
        raise SystemExit("the index built by the build phase is not current")
    searcher_s, searcher = timed(lambda: Searcher(opened.ix, opened.papers, opened.vocabulary()))
    totals: dict[str, int] = {}

    def search(query: str) -> None:
        totals[query] = searcher.search(query, limit=LIMIT, snippets=True).total

    wall, cpu, first, first_cpu = run_mix(search, [q for _, q, _ in QUERIES], rounds)
    return {
        "open_s": open_s,
        "searcher_s": searcher_s,
        "first": first,
        "first_cpu": first_cpu,
        "samples": wall,
        "cpu": cpu,
        "totals": totals,
        "rss": peak_rss_mb(),
    }


def child_fts(
    sources: list[Path], data: Path, work: Path, rounds: int, engine: str
) -> dict[str, object]:
    """FTS5 over the papers file of the index `engine` built."""
    folder = Store(data, [SourceSpec(path) for path in sources], engine).current_generation()
    assert folder is not None
    (work / "fts.db").unlink(missing_ok=True)  # a kept work folder's, from a run before
    con, build_s, _ = fts_build(work / "fts.db", folder)
    con.close()
    con = sqlite3.connect(work / "fts.db")  # first runs with SQLite's page cache empty
    totals: dict[str, int] = {}

    def search(query: str) -> None:
        totals[query] = fts_search(con, query)[1]

    wall, _, first, _ = run_mix(search, [f for _, _, f in QUERIES if f is not None], rounds)
    con.close()
    return {
        "build_s": build_s,
        "disk_mb": (work / "fts.db").stat().st_size / 1e6,
        "first": first,
        "samples": wall,
        "totals": totals,
    }


AGREE_QUERIES = 500


def child_agree(sources: list[Path], data: Path) -> dict[str, object]:
    import random

    searchers = []
    for engine in ("whoosh", "tantivy"):
        opened = _session(data, sources, engine).open_existing()
        assert opened is not None
        searchers.append(Searcher(opened.ix, opened.papers, opened.vocabulary()))
    ours, theirs = searchers
    papers = list(ours.papers)[:300]
    pool = [word.strip(".,;:()").lower() for paper in papers for word in paper.text.split()]
    rng = random.Random(5)
    asked = first = total = 0
    overlap = 0.0
    for _ in range(AGREE_QUERIES):
        query = " ".join(rng.choice(pool) for _ in range(rng.randint(1, 3)))
        a = ours.search(query, limit=10, snippets=False)
        b = theirs.search(query, limit=10, snippets=False)
        if not a.ids:
            continue
        asked += 1
        first += a.ids[0] == b.ids[0]
        overlap += len(set(a.ids) & set(b.ids)) / len(a.ids)
        total += a.total == b.total
    return {
        "queries": asked,
        "first": first / asked,
        "overlap": overlap / asked,
        "total": total / asked,
    }


def run_child(*args: str) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", *args], check=True, capture_output=True, text=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure_size(
    n: int, rounds: int, engines: list[str], fmt: str, keep: Path | None, one_file: bool = False
) -> dict:
    with tempfile.TemporaryDirectory(prefix="paperterm-bench-") as tmp:
        kept = "" if keep is None else f"work-{fmt}-{n}" + ("-one-file" if one_file else "")
        work = Path(tmp) if keep is None else keep / kept
        work.mkdir(parents=True, exist_ok=True)
        written = work / "files" if keep is None else keep / f"{fmt}-{n}"
        if not written.is_dir():
            abstracts = corpus.make_abstracts(n)
            per_file = corpus.ARXIV_PER_MONTH if fmt == "jsonl" else corpus.PER_FILE
            corpus.WRITERS[fmt](written, abstracts, per_file)
            del abstracts
        if not (work / "corpus").exists():  # else kept from an earlier run
            _lay_out(written, work / "corpus", one_file)
        load = load_average()
        found: dict[str, dict] = {}
        for engine in engines:
            found[engine] = {
                "built": _built(work, engine, keep is not None),
                "searched": run_child("search", str(work), engine, str(rounds)),
                "cli": run_child("cli", str(work), engine),
            }
        fts = run_child("fts", str(work), engines[-1], str(rounds))
        agree = run_child("agree", str(work), "both") if len(engines) > 1 else None
    return {
        "n": n,
        "engines": found,
        "fts": fts,
        "agree": agree,
        "load": load,
        "load_end": load_average(),
    }


def _lay_out(written: Path, corpus_dir: Path, one_file: bool) -> None:
    """The corpus the build reads: the written files, or (`one_file`, the arXiv snapshot's
    layout) every row in one file."""
    if not one_file:
        corpus_dir.symlink_to(written.absolute())
        return
    files = sorted(path for path in written.iterdir() if path.is_file())
    corpus_dir.mkdir()
    with open(corpus_dir / f"all{files[0].suffix}", "wb") as whole:
        for path in files:
            whole.write(path.read_bytes())


def _built(work: Path, engine: str, kept: bool) -> dict:
    """The build phase's numbers: measured now, or (`kept`) those of the build whose index
    the work folder still holds."""
    record = work / f"built-{engine}.json"
    if kept and record.is_file():
        print(f"{engine}: reusing the index built before in {work}", flush=True)
        return dict(json.loads(record.read_text(encoding="utf-8")))
    built = run_child("build", str(work), engine)
    if kept:
        record.write_text(json.dumps(built), encoding="utf-8")
    return built


def report(results: list[dict], rounds: int) -> None:
    engines = list(dict.fromkeys(engine for r in results for engine in r["engines"]))
    print(f"\nmachine: {machine()}")
    loads = ", ".join(f"{r['load']}-{r['load_end']} at {r['n']}" for r in results)
    print(f"load average (1 min) at the start and end of each size: {loads}\n")
    rows = []
    for r in results:
        for engine, e in r["engines"].items():
            b, s = e["built"], e["searched"]
            peak = f"{b['rss']:.0f} + {b['workers_rss']:.0f}"
            rows.append([r["n"], engine, b["wall"], b["cpu"], b["workers_cpu"], peak, b["parts"]])
            rows[-1] += [b["disk_mb"], s["open_s"] * 1000, s["searcher_s"] * 1000]
            rows[-1].append(e["cli"]["wall"])
        f = r["fts"]
        rows.append([r["n"], "FTS5", f["build_s"], "n/a", "n/a", "n/a", "n/a", f["disk_mb"]])
        rows[-1] += ["n/a"] * 3
    print("First-launch build (s), index size (MB), warm open (ms), command start to answer (s)")
    print("peak MB: the build process's peak RSS + the largest worker's")
    headers = ["abstracts", "engine", "build wall", "CPU", "workers CPU", "peak MB", "parts"]
    headers += ["disk MB", "open ms", "Searcher() ms", "`paperterm search` s"]
    print(table(headers, rows))
    rows = []
    for r in results:
        peer = r["fts"]
        for label, key in (("first run", "first"), ("rounds", "samples")):
            for kind in ["all", *dict.fromkeys(q[0] for q in QUERIES)]:
                row: list[object] = [r["n"], label, kind]
                for engine in engines:
                    if engine not in r["engines"]:
                        row += ["n/a", "n/a"]
                        continue
                    searched = r["engines"][engine]["searched"]
                    found = summary_ms(by_kind(searched[key], 1)[kind])
                    row += [found["mean"], found["p95"]]
                fts = by_kind(peer[key], 2)
                row += [summary_ms(fts[kind])["mean"]] if kind in fts else ["n/a"]
                rows.append(row)
    print(
        f"\nQueries with snippets, limit {LIMIT}, ms: each query's first run, and {rounds} timed "
        "rounds after a warm-up round"
    )
    headers = ["abstracts", "runs", "queries"]
    for engine in engines:
        headers += [f"{engine} mean", f"{engine} p95"]
    print(table([*headers, "FTS5 mean"], rows))
    differ = [
        (r["n"], query)
        for r in results
        for _, query, _ in QUERIES
        if len({e["searched"]["totals"][query] for e in r["engines"].values()}) > 1
    ]
    print(f"\nQueries whose match counts differ between the engines: {differ or 'none'}")
    growth(results)
    rows = [
        [r["n"], a["queries"], 100 * a["first"], 100 * a["overlap"], 100 * a["total"]]
        for r in results
        if (a := r["agree"])
    ]
    if rows:
        print("\nRandom queries of 1-3 words, limit 10: tantivy beside Whoosh (%)")
        headers = ["abstracts", "queries", "same first", "top-10 overlap", "same count"]
        print(table(headers, rows))


PROJECTED = 2_500_000


def growth(results: list[dict]) -> None:
    """Build time and disk per 100,000 more abstracts from each size to the next, and the
    largest size projected to `PROJECTED` from the last growth."""
    rows = []
    series: dict[str, list[tuple[int, float, float]]] = {}
    for r in results:
        for engine, e in r["engines"].items():
            series.setdefault(engine, []).append(
                (r["n"], e["built"]["wall"], e["built"]["disk_mb"])
            )
        series.setdefault("FTS5", []).append((r["n"], r["fts"]["build_s"], r["fts"]["disk_mb"]))
    for engine, points in series.items():
        for (n0, wall0, disk0), (n1, wall1, disk1) in pairwise(points):
            per = (n1 - n0) / 100_000
            wall_per, disk_per = (wall1 - wall0) / per, (disk1 - disk0) / per
            ahead = (PROJECTED - n1) / 100_000
            rows.append([engine, f"{n0:,} -> {n1:,}", wall_per, disk_per])
            rows[-1] += [wall1 + ahead * wall_per, disk1 + ahead * disk_per]
    if rows:
        print(f"\nGrowth per 100,000 abstracts, and the largest size projected to {PROJECTED:,}")
        headers = ["engine", "sizes", "build s / 100k", "disk MB / 100k"]
        headers += [f"build s at {PROJECTED:,}", f"disk MB at {PROJECTED:,}"]
        print(table(headers, rows))


def child_main(argv: list[str]) -> None:
    mode, work, engine = argv[0], Path(argv[1]), argv[2]
    sources = [work / "corpus"]
    data = work / "data"
    if mode == "build":
        result = child_build(sources, data, engine)
    elif mode == "search":
        result = child_search(sources, data, engine, int(argv[3]))
    elif mode == "cli":
        result = child_cli(sources, data, "--engine", engine)
    elif mode == "agree":
        result = child_agree(sources, data)
    else:
        result = child_fts(sources, data, work, int(argv[3]), engine)
    print(json.dumps(result))


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child_main(sys.argv[2:])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--format", choices=("text", "jsonl"), default="text")
    parser.add_argument("--engines", nargs="+", choices=("whoosh", "tantivy"))
    parser.add_argument("--whoosh-up-to", type=int, help="Whoosh only at sizes up to this")
    parser.add_argument(
        "--keep", type=Path, help="write each corpus under this folder once, and reuse it"
    )
    parser.add_argument(
        "--one-file", action="store_true", help="the corpus's files joined into one (as arXiv's)"
    )
    args = parser.parse_args()
    fresh_bytecode()
    engines = args.engines or (["whoosh", "tantivy"] if tantivy_installed() else ["whoosh"])
    results = []
    for n in args.sizes:
        started = time.perf_counter()
        here = [e for e in engines if e != "whoosh" or n <= (args.whoosh_up_to or n)]
        results.append(measure_size(n, args.rounds, here, args.format, args.keep, args.one_file))
        print(json.dumps(results[-1]), flush=True)  # what a later failure would lose
        print(f"measured {n} abstracts in {time.perf_counter() - started:.0f} s", flush=True)
    report(results, args.rounds)


if __name__ == "__main__":
    main()
