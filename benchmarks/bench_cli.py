"""`paperterm search QUERY`: wall time from start to answer, and where the start-up goes.

A 2,600-abstract corpus is generated and indexed once (warm index), then each command runs
as a fresh subprocess: the median of 10 runs (`--quick`: 5). For reference, the same for
`python -c pass` (interpreter start) and `python -c "import textual"` (what the CLI avoids
by importing Textual only for the reader). Then one run under `python -X importtime`: the
10 imports with the largest cumulative time, and the import time per top-level package.

Target: `paperterm search` <= 1 s.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import corpus
from measure import fresh_bytecode, load_average, machine, table

N = 2600
QUERY = "large language models"
TARGET_S = 1.0
_IMPORT_LINE = re.compile(r"^import time:\s+(\d+) \|\s+(\d+) \| (\s*)(\S+)$")


def paperterm_command() -> list[str]:
    script = Path(sys.executable).with_name("paperterm")
    return [str(script)] if script.exists() else [sys.executable, "-m", "paperterm.tui.cli.main"]


def wall_times(command: list[str], env: dict[str, str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
    return times


def import_profile(command: list[str], env: dict[str, str]) -> list[tuple[int, int, int, str]]:
    """(self µs, cumulative µs, depth, module) for every import of one run."""
    args = command[1:] if command[0] == sys.executable else command
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *args],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    rows = []
    for line in done.stderr.splitlines():
        match = _IMPORT_LINE.match(line)
        if match:
            own, cumulative, indent, name = match.groups()
            rows.append((int(own), int(cumulative), len(indent) // 2, name))
    return rows


def owners(imports: list[tuple[int, int, int, str]]) -> dict[str, int]:
    """Self time (µs) summed per owner: a paperterm module owns only itself; any other module
    belongs to the top-level package of its topmost non-paperterm ancestor, so the standard
    library modules whoosh pulls in (urllib, asyncio, ...) count as whoosh's."""
    # importtime prints a module after everything it imported (post-order), one level
    # deeper per nesting step; rebuild each module's parent from that.
    pending: list[tuple[int, int]] = []  # (depth, index) of modules still awaiting a parent
    parent: dict[int, int] = {}
    for index, (_, _, depth, _) in enumerate(imports):
        while pending and pending[-1][0] > depth:
            parent[pending.pop()[1]] = index
        pending.append((depth, index))
    owner: dict[int, str] = {}
    totals: dict[str, int] = defaultdict(int)
    for index in reversed(range(len(imports))):  # parents come after children
        name = imports[index][3]
        up = parent.get(index)
        if name.split(".")[0] == "paperterm":
            owner[index] = name
        elif up is not None and not owner[up].startswith("paperterm"):
            owner[index] = owner[up]
        else:
            owner[index] = name.split(".")[0]
        totals[owner[index]] += imports[index][0]
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="5 runs instead of 10")
    args = parser.parse_args()
    fresh_bytecode()
    runs = 5 if args.quick else 10
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="paperterm-bench-") as tmp:
        work = Path(tmp)
        corpus.write_text(work / "corpus", corpus.make_abstracts(N))
        (work / "config.toml").write_text("", encoding="utf-8")
        env = {
            **os.environ,
            "PAPERTERM_CONFIG": str(work / "config.toml"),
            "PAPERTERM_DATA_DIR": str(work / "data"),
            "NO_COLOR": "1",
        }
        search = [*paperterm_command(), "search", "--source", str(work / "corpus"), QUERY]
        started = time.perf_counter()
        subprocess.run(search, env=env, check=True, stdout=subprocess.DEVNULL)
        print(
            f"first run (builds the index of {N} abstracts): "
            f"{time.perf_counter() - started:.2f} s\n"
        )
        commands = {
            f"paperterm search {QUERY!r} (warm)": search,
            "python -c pass": [sys.executable, "-c", "pass"],
            "python -c 'import paperterm.tui.cli.main'": [
                sys.executable,
                "-c",
                "import paperterm.tui.cli.main",
            ],
            "python -c 'import whoosh.index, whoosh.searching'": [
                sys.executable,
                "-c",
                "import whoosh.index, whoosh.searching",
            ],
            "python -c 'import textual'": [sys.executable, "-c", "import textual"],
            "python -c 'import textual.app'": [sys.executable, "-c", "import textual.app"],
        }
        rows = []
        medians = {}
        for label, command in commands.items():
            times = wall_times(command, env, runs)
            medians[label] = statistics.median(times)
            rows.append([label, medians[label] * 1000, min(times) * 1000, max(times) * 1000])
        print(f"Wall time, ms ({runs} runs each)")
        print(table(["command", "median", "min", "max"], rows))
        imports = import_profile(search, env)

    total_us = sum(own for own, _, _, _ in imports)
    print(
        f"\nImports during `paperterm search` (python -X importtime): {len(imports)} modules, "
        f"{total_us / 1000:.0f} ms in total (importtime itself adds overhead)"
    )
    top = sorted(imports, key=lambda row: row[1], reverse=True)[:10]
    print(
        table(
            ["module (nesting)", "cumulative ms", "self ms"],
            [["  " * depth + name, cum / 1000, own / 1000] for own, cum, depth, name in top],
        )
    )
    ranked = sorted(owners(imports).items(), key=lambda item: item[1], reverse=True)[:10]
    print(
        "\nImport time by owner, ms, top 10 (a paperterm module's own time; a third-party "
        "package with everything it imports that is not paperterm)"
    )
    print(
        table(
            ["owner", "ms", "share"],
            [[name, us / 1000, f"{100 * us / total_us:.0f}%"] for name, us in ranked],
        )
    )
    textual = any(name == "textual" for _, _, _, name in imports)
    print(f"textual imported by `paperterm search`: {'YES' if textual else 'no'}")
    wall = medians[next(iter(commands))]
    print(
        f"\ntarget: paperterm search <= {TARGET_S} s: {wall:.2f} s "
        f"({'met' if wall <= TARGET_S else 'MISSED'}); load average {load_average()}"
    )


if __name__ == "__main__":
    main()
