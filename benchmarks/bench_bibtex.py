"""BibTeX vs plain text: first-use index build of the same 2,600 abstracts in both formats.

`corpus.py` writes the same synthetic abstracts as seed-format text files and as PMLR-like
BibTeX (`@InProceedings` with title, author, abstract, url). Each is built into a fresh data
dir through `Session.open` (median of 3, formats interleaved; `--quick`: 1): its wall time
and CPU time (its worker processes' included); then the same files are parsed in one process
(`load_sources`: reading, splitting, cleaning fields, enrich). The BibTeX build indexes more
text (titles and authors), so the parse ratio is the fairer comparison of the formats; the
total is what a user waits for. `--profile` adds a cProfile of one BibTeX parse.

Target: BibTeX build within 2x of plain text.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import resource
import statistics
import tempfile
from pathlib import Path

import corpus
from measure import machine, table, timed

from paperterm.index.config import Config
from paperterm.index.session import Session
from paperterm.index.sources.files import SourceSpec
from paperterm.index.sources.loader import load_sources

N = 2600
TARGET_RATIO = 2.0
PHASES = ("total", "cpu", "load+parse+enrich")


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (a build's workers)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def build_once(folder: Path, data: Path) -> dict[str, float]:
    """A first build of `folder` into `data`, then the same files parsed in one process."""
    started = _cpu()
    total, (opened, problems) = timed(Session.create(data, [folder], Config()).open)
    cpu = _cpu() - started
    if problems:
        raise SystemExit(f"corpus problems: {problems[:3]}")
    parse, _ = timed(lambda: load_sources([SourceSpec(folder)]))
    papers = len(opened.papers)
    opened.close()
    return {"total": total, "cpu": cpu, "papers": papers, "load+parse+enrich": parse}


def profile_parse(folder: Path) -> str:
    profiler = cProfile.Profile()
    profiler.runcall(load_sources, [SourceSpec(folder)])
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("cumulative").print_stats(15)
    stats.sort_stats("tottime").print_stats(10)
    return out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one build per format")
    parser.add_argument("--profile", action="store_true", help="cProfile one BibTeX parse")
    args = parser.parse_args()
    repeats = 1 if args.quick else 3
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="paperterm-bench-") as tmp:
        work = Path(tmp)
        abstracts = corpus.make_abstracts(N)
        folders = {"text": work / "text", "bibtex": work / "bibtex"}
        corpus.write_text(folders["text"], abstracts)
        corpus.write_bibtex(folders["bibtex"], abstracts)
        sizes = {
            kind: sum(p.stat().st_size for p in folder.iterdir()) / 1e6
            for kind, folder in folders.items()
        }
        # Interleaved (text, bibtex, text, ...) so that load from other work on the machine
        # falls on both formats alike.
        runs: dict[str, list[dict[str, float]]] = {kind: [] for kind in folders}
        for i in range(repeats):
            for kind, folder in folders.items():
                run = build_once(folder, work / f"data-{kind}-{i}")
                if run["papers"] != N:
                    raise SystemExit(f"{kind}: {run['papers']} papers indexed, expected {N}")
                runs[kind].append(run)
        results = {
            kind: {key: statistics.median(r.get(key, 0.0) for r in done) for key in PHASES}
            for kind, done in runs.items()
        }
        profile = profile_parse(folders["bibtex"]) if args.profile else ""

    text, bib = results["text"], results["bibtex"]
    print(f"\n{N} abstracts, median of {repeats} fresh builds per format, seconds")
    rows = [
        [kind, f"{sizes[kind]:.1f}", *(results[kind][key] for key in PHASES)]
        for kind in ("text", "bibtex")
    ]
    rows.append(["bibtex / text", "", *(bib[k] / text[k] if text[k] else 0.0 for k in PHASES)])
    print(
        table(
            ["format", "MB", "build", "its CPU (workers too)", "parse in one process"],
            rows,
        )
    )
    ratio = bib["total"] / text["total"]
    print(
        f"\ntarget: BibTeX build within {TARGET_RATIO}x of text: {ratio:.2f}x "
        f"({'met' if ratio <= TARGET_RATIO else 'MISSED'}); "
        f"CPU time {bib['cpu'] / text['cpu']:.2f}x; "
        f"parsing alone {bib['load+parse+enrich'] / text['load+parse+enrich']:.2f}x"
    )
    if profile:
        print("\ncProfile of loading the BibTeX corpus:\n" + profile)


if __name__ == "__main__":
    main()
