"""A large BibTeX file read whole against a chunk of entries at a time (issue 15).

Each way runs in a process of its own (its peak memory its own): `loader.Reading` reads the
file as a build does (parse, render; each paper dropped once counted), once with the file
parsed whole (the threshold for chunks set past its size) and once in chunks. Prints CPU
seconds, peak RSS and what was read (papers, problems, the digest: both ways must agree).

    python benchmarks/corpus.py /tmp/bib --n 200000 --format bibtex
    cat /tmp/bib/*.bib > /tmp/big.bib
    python benchmarks/bench_bibtex_stream.py /tmp/big.bib
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
from pathlib import Path

from measure import machine, peak_rss_mb, table

from paperterm.index.search.records import no_collection
from paperterm.index.sources import loader

WAYS = ("whole", "chunks")


def child(path: Path, way: str) -> dict[str, object]:
    if way == "whole":
        loader.BIBTEX_STREAM_BYTES = 1 << 62
    reading = loader.Reading(path)
    papers = 0
    with no_collection():  # as in a build
        for _ in reading.papers():
            papers += 1
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "way": way,
        "papers": papers,
        "problems": len(reading.problems),
        "digest": reading.digest,
        "cpu s": round(usage.ru_utime + usage.ru_stime, 2),
        "peak MB": round(peak_rss_mb(), 1),
        "us/entry": round((usage.ru_utime + usage.ru_stime) / max(1, papers) * 1e6, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bib", type=Path)
    parser.add_argument("--child", choices=WAYS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.bib, args.child)))
        return
    print(machine())
    print(f"{args.bib}: {args.bib.stat().st_size / 1e6:.1f} MB")
    rows = []
    for way in WAYS:
        out = subprocess.run(
            [sys.executable, __file__, str(args.bib), "--child", way],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        rows.append(json.loads(out.splitlines()[-1]))
    headers = list(rows[0])
    print(table(headers, [[row[name] for name in headers] for row in rows]))
    same = {(row["papers"], row["problems"], row["digest"]) for row in rows}
    print("both ways read the same" if len(same) == 1 else "THE WAYS DIFFER")
    print(machine())


if __name__ == "__main__":
    main()
