"""A build worker's CPU per abstract, on a slice of a corpus, in this process.

What a first-launch build's worker processes do (`build_workers.work`: read, prepare, keep
the records, write the engine's parts) over the files given, timed by `time.process_time`
(this process and its threads: tantivy's indexing threads too). A full 500,000 build takes
both cores for minutes; a few of its 50 files tell its CPU per abstract as well.

    python benchmarks/bench_worker.py FILE... [--engine tantivy] [--profile OUT.prof] [--keep DIR]

`--keep DIR`: the worker's output (each source's record file, the engine's parts) is kept in
DIR (a new folder), to compare with another tree's (`cmp DIR/sources/*`).
"""

from __future__ import annotations

import argparse
import cProfile
import tempfile
import time
from pathlib import Path

from measure import machine

from paperterm.index.search.build_parts import BYTES_PER_POSTING, FIRST_PART_PAPERS, MAX_PARTS
from paperterm.index.search.build_workers import work
from paperterm.index.search.generation_meta import SourceFile
from paperterm.index.search.source_records import cache_name, read_header
from paperterm.index.search.store import ENGINE_FOLDER, SOURCES_FOLDER


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--engine", default="tantivy")
    parser.add_argument("--profile", type=Path, help="write a cProfile of the run here")
    parser.add_argument("--keep", type=Path, help="keep the worker's output in this new folder")
    args = parser.parse_args()
    files = [SourceFile(0, path.resolve()) for path in args.files]
    total = sum(path.stat().st_size for path in args.files)
    # The postings of a part as a 500,000 build sets them (`build_parts.postings_per_part`).
    sizes = (FIRST_PART_PAPERS, total * 50 // BYTES_PER_POSTING // (MAX_PARTS // 2))
    said: list[tuple[object, ...]] = []
    with tempfile.TemporaryDirectory() as scratch:
        tmp = str(args.keep or scratch)
        (Path(tmp) / SOURCES_FOLDER).mkdir(parents=True)
        (Path(tmp) / ENGINE_FOLDER).mkdir()
        profile = cProfile.Profile() if args.profile else None
        cpu, wall = time.process_time(), time.perf_counter()
        if profile is not None:
            profile.enable()
        work(args.engine, files, tmp, sizes, said.append)
        if profile is not None:
            profile.disable()
            profile.dump_stats(args.profile)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        papers = sum(
            read_header(Path(tmp) / SOURCES_FOLDER / cache_name(file), file)[0]["count"]
            for file in files
        )
    print(
        f"machine: {machine()}; {args.engine}, {len(files)} files, {papers:,} abstracts: "
        f"CPU {cpu:.2f} s ({cpu / papers * 1e6:.0f} us an abstract), wall {wall:.2f} s"
    )


if __name__ == "__main__":
    main()
