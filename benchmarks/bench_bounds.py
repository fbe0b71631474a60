"""Peak memory of `paperterm index` on a record of any size, and on many tiny rows.

    python benchmarks/bench_bounds.py huge [--mb 200]           # one abstract of MB megabytes, JSON
    python benchmarks/bench_bounds.py rows [--rows 1000000]     # tiny JSON Lines rows, tantivy

Writes the source into a temporary folder, builds a fresh index from it, and prints the
peak RSS of the build process (`/usr/bin/time -v`'s "Maximum resident set size", from
`getrusage`) and the highest sum of the RSS of the build and its worker processes, sampled
every 0.25 s from /proc (`--json`: the same figures as one JSON object).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from measure import load_average

WORDS = "learning models graph neural network attention data training robust "


def write_huge(path: Path, megabytes: int) -> None:
    size = megabytes * 1_000_000
    abstract = (WORDS * (size // len(WORDS) + 1))[:size]
    record = {"title": "A huge abstract", "abstract": abstract, "authors": ["Ann Lee"]}
    path.write_text(json.dumps([record]), encoding="utf-8")


def write_rows(path: Path, rows: int) -> None:
    with open(path, "w", encoding="utf-8") as out:
        for i in range(rows):
            row = {
                "id": f"r{i}",
                "title": f"Paper {i}",
                "abstract": f"Tiny abstract {i} about graphs.",
            }
            out.write(json.dumps(row) + "\n")


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = Path(f"/proc/{name}/stat").read_text()
            except OSError:
                continue
            kids.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(name))
    return kids


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def measure(command: list[str]) -> tuple[float, int, int]:
    """(wall seconds, peak RSS MB of the largest process, peak summed RSS MB of the tree)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    peak_sum = 0
    while process.poll() is None:
        kids, tree, todo = _children(), [], [process.pid]
        while todo:
            pid = todo.pop()
            tree.append(pid)
            todo += kids.get(pid, [])
        peak_sum = max(peak_sum, sum(_rss_kb(pid) for pid in tree))
        time.sleep(0.25)
    largest = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return time.perf_counter() - started, largest // 1024, peak_sum // 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("kind", choices=("huge", "rows"))
    parser.add_argument("--mb", type=int, default=200)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        if args.kind == "huge":
            source, engine = root / "huge.json", []
            write_huge(source, args.mb)
        else:
            source, engine = root / "rows.jsonl", ["--engine", "tantivy"]
            write_rows(source, args.rows)
        (root / "empty.toml").write_text("", encoding="utf-8")
        command = [sys.executable, "-m", "paperterm.tui.cli", "--config", str(root / "empty.toml")]
        command += [*engine, "--data-dir", str(root / "data"), "--source", str(source), "index"]
        wall, largest, summed = measure(command)
        size = source.stat().st_size / 1e6
        if args.json:
            figures = {"load": load_average(), "kind": args.kind, "source_mb": size, "wall_s": wall}
            figures.update(largest_mb=largest, summed_mb=summed, mb=args.mb, rows=args.rows)
            print(json.dumps(figures))
            return
        print(f"{args.kind}: {size:.0f} MB source, {wall:.1f} s, peak RSS {largest} MB "
              f"(largest process), {summed} MB (build + workers, sampled)")  # fmt: skip


if __name__ == "__main__":
    main()
