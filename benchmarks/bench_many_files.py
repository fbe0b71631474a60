"""Many small files: a source folder of N one-paper text files (synthetic abstracts from
`corpus.py`), and what bringing its index up to date costs after each kind of change.

  first     the first build into an empty data dir
  rebuild   a full rebuild (`paperterm index --rebuild`)
  touch     one file touched (its mtime moved, its content the same)
  edit      one file's abstract changed
  add       one file added to the folder

Each step is a fresh `Session` (as a new `paperterm` process makes) opening the index,
building what changed (`Session.open`); wall and CPU time (the build's worker processes'
too) until the new index is returned are printed, and each update's share of the full
rebuild (the target: touching or editing one file costs at most a tenth of it). The
generation a build drops is removed by a thread after the switch: the time until that is
done is printed apart ("removal"). `--profile STEP` prints that step's top
functions by cumulative time. `--json`: the table goes to stderr and stdout holds one JSON
object, `steps` holding each step's `wall_s`, `cpu_s`, `papers` and `removal_s`.

    python benchmarks/bench_many_files.py [--files 10000] [--engine whoosh|tantivy]
                                          [--keep DIR] [--profile STEP] [--json]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import corpus
from measure import fresh_bytecode, machine, people_output, print_json, table

from paperterm.index.config import Config
from paperterm.index.search.generation_files import wait_for_removals
from paperterm.index.session import Session


def write_files(folder: Path, count: int) -> list[Path]:
    """`count` seed-format files of one abstract each."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number, item in enumerate(corpus.make_abstracts(count + 1)[:count]):
        path = folder / f"paper-{number:05d}.txt"
        path.write_text(f"{item.collection}\n\n{item.text}\n", encoding="utf-8")
        paths.append(path)
    return paths


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def step(
    data: Path, folder: Path, engine: str, *, rebuild: bool = False, profile: bool = False
) -> tuple[float, float, int, float]:
    """(wall seconds, CPU seconds, papers) of opening the index, building what changed, and
    the seconds the removal of the generation it dropped took after that."""
    config = Config(engine=engine, include_seeds=False)
    profiler = cProfile.Profile() if profile else None
    cpu, started = cpu_seconds(), time.perf_counter()
    if profiler is not None:
        profiler.enable()
    session = Session.create(data, [folder], config)
    opened, _ = session.open(rebuild=rebuild)
    if profiler is not None:
        profiler.disable()
    wall, used = time.perf_counter() - started, cpu_seconds() - cpu
    papers = opened.meta.papers
    opened.close()
    removal = time.perf_counter()
    wait_for_removals()
    removal = time.perf_counter() - removal
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)
    return wall, used, papers, removal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--engine", default="whoosh", choices=["whoosh", "tantivy"])
    parser.add_argument("--keep", type=Path, help="work in this folder and leave it")
    parser.add_argument("--profile", choices=["first", "rebuild", "touch", "edit", "add"])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    with people_output(args.json):
        steps = measure(args)
    if args.json:
        print_json({"files": args.files, "engine": args.engine, "steps": steps})


def measure(args: argparse.Namespace) -> list[dict[str, object]]:
    """Run and print the steps; each step's figures, for `--json`."""
    fresh_bytecode()
    root = args.keep or Path(tempfile.mkdtemp(prefix="paperterm-many-"))
    root.mkdir(parents=True, exist_ok=True)
    folder, data = root / "papers", root / "data"
    shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(data, ignore_errors=True)
    try:
        paths = write_files(folder, args.files)
        middle = paths[len(paths) // 2]
        extra = corpus.make_abstracts(args.files + 1)[-1]

        def touch() -> None:
            later = middle.stat().st_mtime_ns + 5_000_000_000
            os.utime(middle, ns=(later, later))

        def edit() -> None:
            text = middle.read_text(encoding="utf-8").rstrip("\n")
            middle.write_text(f"{text} An edited sentence closes it.\n", encoding="utf-8")

        def add() -> None:
            added = folder / f"paper-{args.files:05d}.txt"
            added.write_text(f"{extra.collection}\n\n{extra.text}\n", encoding="utf-8")

        steps: list[tuple[str, Callable[[], None] | None, bool]] = [
            ("first", None, False),
            ("rebuild", None, True),
            ("touch", touch, False),
            ("edit", edit, False),
            ("add", add, False),
        ]
        rows = []
        figures: list[dict[str, object]] = []
        results: dict[str, float] = {}
        for name, change, rebuild in steps:
            if change is not None:
                change()
            wall, cpu, papers, removal = step(
                data, folder, args.engine, rebuild=rebuild, profile=args.profile == name
            )
            results[name] = wall
            share = "" if name in ("first", "rebuild") else f"{wall / results['rebuild']:.3f}"
            cpu_share = "" if not share else f"{cpu / results['rebuild CPU']:.3f}"
            results[f"{name} CPU"] = cpu
            figures.append(
                {"step": name, "papers": papers, "wall_s": wall, "cpu_s": cpu, "removal_s": removal}
            )
            rows.append(
                [name, papers, f"{wall:.2f}", f"{cpu:.2f}", share, cpu_share, f"{removal:.2f}"]
            )
            print(f"{name}: {wall:.2f} s wall, {cpu:.2f} s CPU", file=sys.stderr)
        print(f"{args.files:,} one-paper files, engine {args.engine}")
        print(machine())
        headers = ["step", "papers", "wall s", "CPU s", "of rebuild", "CPU of rebuild"]
        print(table([*headers, "removal s"], rows))
        return figures
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
