"""CPU per abstract of the derived headlines a build keeps: the title and its alternatives.

For each untitled record of the files given, as a build's `enrich` draws them: the first
headline and the next `enrich.ALTERNATIVES` of `headlines.headline_candidates`, timed by
`time.process_time` in this process. The abstract's name analysis (`names.analyse`, which
the headlines share and which `derive_name` runs first) is done before the timed part, a
chunk of records at a time, so that only the headlines are measured. Run it on two
checkouts (PYTHONPATH pointing at a package copy of the other tree) and alternate:

    python benchmarks/bench_headline_cpu.py FILE... [--repeat 3]
"""

from __future__ import annotations

import argparse
import time
from itertools import islice
from pathlib import Path

from measure import machine

from paperterm.index.sources.enrich import ALTERNATIVES
from paperterm.index.sources.loader import Reading
from paperterm.index.text.headlines import headline_candidates
from paperterm.index.text.names import derive_name

#: Records analysed before their headlines are timed: fewer than `names.analyse` caches.
_CHUNK = 48


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    papers = [
        paper
        for path in args.files
        for paper in Reading(path.resolve()).papers()
        if not paper.title and paper.text
    ]
    for paper in papers:
        paper.name = paper.name or derive_name(paper.abstract, paper.text)
    print(machine())
    for _ in range(args.repeat):
        cpu = 0.0
        for first in range(0, len(papers), _CHUNK):
            chunk = papers[first : first + _CHUNK]
            for paper in chunk:
                derive_name(paper.abstract, paper.text)  # the analysis, cached
            start = time.process_time()
            for paper in chunk:
                headlines = headline_candidates(paper.abstract, paper.name, paper.text)
                next(headlines, "")
                list(islice(headlines, ALTERNATIVES))
            cpu += time.process_time() - start
        print(f"{len(papers)} abstracts: {cpu:.3f} s CPU, {cpu / len(papers) * 1e6:.1f} µs each")


if __name__ == "__main__":
    main()
