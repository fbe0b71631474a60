"""Name detection's CPU per abstract (`names.analyse`, uncached), on the records of files.

The records are read and rendered as a build's worker reads them (`load_file`: their
display text is decoded then); only the analysis a derived name takes is timed, by
`time.process_time`, best of `--repeat` passes over them all.

    python benchmarks/bench_names.py FILE... [--repeat 3] [--profile OUT.prof]
"""

from __future__ import annotations

import argparse
import cProfile
import time
from pathlib import Path

from measure import machine

from paperterm.index.sources.loader import load_file
from paperterm.index.text import names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", type=Path, help="write a cProfile of one pass here")
    args = parser.parse_args()
    pairs = [
        (paper.abstract, paper.text)
        for path in args.files
        for paper in load_file(path.resolve())[0]
        if paper.abstract
    ]
    analyse = names.analyse.__wrapped__  # every abstract analysed, none from the cache
    if args.profile is not None:
        profile = cProfile.Profile()
        profile.enable()
        for abstract, text in pairs:
            analyse(abstract, text)
        profile.disable()
        profile.dump_stats(args.profile)
    best = float("inf")
    for _ in range(args.repeat):
        cpu = time.process_time()
        for abstract, text in pairs:
            analyse(abstract, text)
        best = min(best, time.process_time() - cpu)
    print(
        f"machine: {machine()}; {len(pairs):,} abstracts: names CPU {best:.3f} s "
        f"({best / len(pairs) * 1e6:.1f} us an abstract, best of {args.repeat})"
    )


if __name__ == "__main__":
    main()
