"""One large file beside the same records as many small ones: a first build of each, in
the same run.

The same synthetic abstracts (`corpus.py`) are written in each format as one file of N
records and as N / 500 files of 500 (100 files at 50,000): a text list (the seeds'
format), PMLR-like BibTeX, a JSON array (`[{"id", "title", "authors", "abstract", "url"},
...]`, indented as exports are), arXiv JSON Lines, a CSV table with a header row (`id,
title, authors, abstract, url`; the csv module's quoting) and ACL Anthology XML (volumes
of 1,000 papers with a `<meta>`, authors as `<first>`/`<last>`). Each build is a first launch
(`Session.open` into an empty data dir) in a child process of its own; this process
samples the resident memory of that child and of every process under it (the build's
workers, the rows process) every `SAMPLE_S` and reports:

  wall      the child's `Session.open`, in seconds;
  CPU       its CPU time and its workers', in seconds (what the load does not change);
  sum peak  the peak of the summed RSS of the child and its processes (sampled);
  peaks     the sum of each process's own peak RSS (sampled): an upper bound of the above;
  procs     how many processes the build ran at once, at most;
  each      each process's own peak RSS, largest first (the build's process is one);
  sources   the sources the build read (a file cut in stretches: one per stretch).

Wall times depend on the machine's load; its load average is printed.

    python benchmarks/bench_single_file.py [--n 50000] [--formats text bibtex json jsonl
        csv acl] [--layouts one split] [--rounds 1] [--part-postings N]

`--part-postings N` makes every part of the index a worker writes hold about N postings
(the build's `PART_POSTINGS` and `SMALL_PART_POSTINGS`; 1500000: the parts before they
were sized from the bytes to read).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from xml.sax.saxutils import escape

import corpus
from measure import fresh_bytecode, machine, table, timed

from paperterm.index.config import Config
from paperterm.index.session import Session

FORMATS = ("text", "bibtex", "json", "jsonl", "csv", "acl")
LAYOUTS = ("one", "split")
PER_FILE = 500
SAMPLE_S = 0.05
_PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


def write_json(folder: Path, abstracts: list[corpus.Abstract], per_file: int) -> list[Path]:
    """JSON arrays `part-001.json`, ...: `per_file` records each, indented."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number, start in enumerate(range(0, len(abstracts), per_file), start=1):
        path = folder / f"part-{number:03d}.json"
        records = [
            {
                "id": item.key,
                "title": item.title,
                "authors": item.authors,
                "abstract": item.text,
                "url": f"https://example.org/syn/{item.key}.html",
            }
            for item in abstracts[start : start + per_file]
        ]
        path.write_text(json.dumps(records, indent=1, ensure_ascii=False), encoding="utf-8")
        paths.append(path)
    return paths


def write_csv(folder: Path, abstracts: list[corpus.Abstract], per_file: int) -> list[Path]:
    """CSV tables `part-001.csv`, ...: a header row, then `per_file` rows each."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number, start in enumerate(range(0, len(abstracts), per_file), start=1):
        path = folder / f"part-{number:03d}.csv"
        with open(path, "w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["id", "title", "authors", "abstract", "url"])
            for item in abstracts[start : start + per_file]:
                url = f"https://example.org/syn/{item.key}.html"
                writer.writerow([item.key, item.title, "; ".join(item.authors), item.text, url])
        paths.append(path)
    return paths


def _xml(text: str) -> str:
    """Text escaped for XML, without the control characters XML 1.0 has no place for."""
    return escape(re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", "", text))


def write_acl(folder: Path, abstracts: list[corpus.Abstract], per_file: int) -> list[Path]:
    """ACL Anthology XML `part-001.xml`, ...: a collection of volumes of 1,000 papers."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number, start in enumerate(range(0, len(abstracts), per_file), start=1):
        path = folder / f"part-{number:03d}.xml"
        lines = ['<?xml version="1.0" encoding="UTF-8"?>', f'<collection id="2024.syn{number}">']
        for index, item in enumerate(abstracts[start : start + per_file]):
            if index % 1000 == 0:
                lines += ["</volume>"] if index else []
                lines += [f'<volume id="v{index // 1000}">', "<meta>"]
                lines += [f"<booktitle>{_xml(item.collection)}</booktitle>", "<year>2024</year>"]
                lines += ["</meta>"]
            lines += [f'<paper id="{index % 1000 + 1}">', f"<title>{_xml(item.title)}</title>"]
            for author in item.authors:
                first, _, last = author.rpartition(" ")
                lines += [f"<author><first>{_xml(first)}</first><last>{_xml(last)}</last>"]
                lines[-1] += "</author>"
            lines += [f"<abstract>{_xml(item.text)}</abstract>", "</paper>"]
        lines += ["</volume>", "</collection>"]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


WRITERS = {
    "text": corpus.write_text,
    "bibtex": corpus.write_bibtex,
    "json": write_json,
    "jsonl": corpus.write_jsonl,
    "csv": write_csv,
    "acl": write_acl,
}


def write_corpus(work: Path, n: int, formats: list[str]) -> dict[tuple[str, str], Path]:
    """Each format as one file and as files of `PER_FILE`: the folder (or file) to build."""
    pool = corpus.sentence_pool()
    abstracts = corpus.make_abstracts(n, pool=pool, per_file=n)
    made: dict[tuple[str, str], Path] = {}
    for name in formats:
        one = WRITERS[name](work / f"{name}-one", abstracts, n)
        made[(name, "one")] = one[0]
        WRITERS[name](work / f"{name}-split", abstracts, PER_FILE)
        made[(name, "split")] = work / f"{name}-split"
    return made


def _kept_corpus(work: Path, n: int, formats: list[str]) -> dict[tuple[str, str], Path]:
    """`write_corpus`'s files in `work`, written there the first time (`--keep`)."""
    marker = work / f"written-{n}.json"
    done: list[str] = json.loads(marker.read_text()) if marker.exists() else []
    missing = [name for name in formats if name not in done]
    if missing:
        write_corpus(work, n, missing)
        marker.write_text(json.dumps(done + missing))
    made: dict[tuple[str, str], Path] = {}
    for name in formats:
        made[(name, "one")] = next((work / f"{name}-one").iterdir())
        made[(name, "split")] = work / f"{name}-split"
    return made


# --- the child: one build ----------------------------------------------------------------


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the build's workers)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def child_build(source: Path, data: Path) -> dict[str, object]:
    if os.environ.get("BENCH_PART_POSTINGS"):
        from paperterm.index.search import build

        build.PART_POSTINGS = int(os.environ["BENCH_PART_POSTINGS"])
        build.SMALL_PART_POSTINGS = build.PART_POSTINGS  # every part of that size
    session = Session.create(data, [source], Config())
    cpu = _cpu()
    wall, (opened, _) = timed(session.open)
    return {
        "wall": wall,
        "cpu": _cpu() - cpu,
        "papers": len(opened.papers),
        "sources": len(opened.meta.sources),
        "parts": len(opened.meta.parts),
        "problems": len(opened.meta.problems),
    }


# --- the parent: memory of the child's process tree --------------------------------------


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm", "rb") as handle:
            return int(handle.read().split()[1]) * _PAGE_KB
    except (OSError, IndexError, ValueError):
        return 0


def _tree(root: int) -> list[int]:
    """`root` and every process under it."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(b")") + 2 :].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def measure(source: Path, data: Path) -> dict[str, object]:
    """One build in a child process, its process tree's memory sampled as it runs."""
    child = subprocess.Popen(
        [sys.executable, __file__, "--child", str(source), str(data)],
        stdout=subprocess.PIPE,
        text=True,
    )
    summed = most = 0
    peaks: dict[int, int] = {}
    while child.poll() is None:
        pids = _tree(child.pid)
        sizes = {pid: _rss_kb(pid) for pid in pids}
        summed = max(summed, sum(sizes.values()))
        most = max(most, sum(1 for size in sizes.values() if size))
        for pid, size in sizes.items():
            peaks[pid] = max(peaks.get(pid, 0), size)
        time.sleep(SAMPLE_S)
    out, _ = child.communicate()
    if child.returncode:
        raise SystemExit(f"build of {source} failed ({child.returncode})")
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    each = sorted((round(peak / 1024) for peak in peaks.values() if peak), reverse=True)
    result.update(sum_mb=summed / 1024, peaks_mb=sum(peaks.values()) / 1024, procs=most)
    result["each_mb"] = each
    return result


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        print(json.dumps(child_build(Path(sys.argv[2]), Path(sys.argv[3]))))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=50_000, help="records (default 50,000)")
    parser.add_argument("--formats", nargs="+", choices=FORMATS, default=list(FORMATS))
    parser.add_argument("--layouts", nargs="+", choices=LAYOUTS, default=list(LAYOUTS))
    parser.add_argument("--rounds", type=int, default=1, help="builds of each (default 1)")
    parser.add_argument("--part-postings", type=int, help="the build's PART_POSTINGS")
    parser.add_argument("--keep", type=Path, help="write the corpus here (kept, reused)")
    args = parser.parse_args()
    if args.part_postings:
        os.environ["BENCH_PART_POSTINGS"] = str(args.part_postings)
    fresh_bytecode()
    print(machine(), flush=True)
    rows = []
    with tempfile.TemporaryDirectory(prefix="paperterm-bench-single-") as tmp:
        work = args.keep or Path(tmp)
        made = _kept_corpus(work, args.n, args.formats) if args.keep else None
        made = made or write_corpus(work, args.n, args.formats)
        data_folder = Path(tmp)
        for name in args.formats:
            for layout in args.layouts:
                source = made[(name, layout)]
                size = sum(p.stat().st_size for p in [source] if p.is_file()) or sum(
                    p.stat().st_size for p in source.iterdir()
                )
                for round_ in range(args.rounds):
                    result = measure(source, data_folder / f"data-{name}-{layout}-{round_}")
                    files = 1 if layout == "one" else len(list(source.iterdir()))
                    rows.append(
                        [
                            name,
                            f"{files} file{'s' if files > 1 else ''}",
                            round(size / 1e6, 1),
                            result["papers"],
                            result["sources"],
                            round(float(result["wall"]), 1),  # type: ignore[arg-type]
                            round(float(result["cpu"]), 1),  # type: ignore[arg-type]
                            round(float(result["sum_mb"]), 0),  # type: ignore[arg-type]
                            round(float(result["peaks_mb"]), 0),  # type: ignore[arg-type]
                            result["procs"],
                            "+".join(str(mb) for mb in result["each_mb"]),  # type: ignore[attr-defined]
                        ]
                    )
                    print(rows[-1], flush=True)
    headers = ["format", "layout", "MB", "papers", "sources", "wall s", "CPU s", "sum peak MB"]
    headers += ["peaks MB", "procs", "each peak MB"]
    print(f"\n{args.n} records, first build of each; {machine()}")
    print(table(headers, rows))


if __name__ == "__main__":
    main()
