"""Regenerate the figures in BENCHMARKS.md: one command runs the areas' scripts and rewrites
their tables, keeping the prose around them.

Each area's figures sit between two markers in BENCHMARKS.md:

    <!-- figures: quality -->
    ...a line saying when and how they were measured, then the table...
    <!-- end figures -->

`report.py` runs the scripts of the areas it is asked for (all of those it knows how to run
when none is named), turns their output into that block, and replaces the block between the
area's markers; every other block stays as it is, with the date it was measured (the 500,000
builds take too long to re-run with the rest). The areas whose scripts answer in JSON are in
report_rows.py and report_builds.py (those two, minutes long, only when named); in a table
with a `when` column only some rows are re-run, the rest kept with their date.

    python benchmarks/report.py [--areas quality known-item triage ...] [--quick] [--dry-run]
"""

from __future__ import annotations

import argparse
import datetime
import re
import statistics
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import corpus
import report_builds
import report_rows
from measure import load_average, table

HERE = Path(__file__).resolve().parent
BENCHMARKS = HERE.parent / "BENCHMARKS.md"
END = "<!-- end figures -->"
_START = re.compile(r"<!-- figures: ([a-z0-9-]+) -->")


class ReportError(Exception):
    """BENCHMARKS.md lacks an area's markers, or a script's output could not be read."""


# --- rewriting BENCHMARKS.md -----------------------------------------------------------------


def areas_in(text: str) -> list[str]:
    """The areas whose markers `text` holds, in order."""
    return _START.findall(text)


def replace_block(text: str, area: str, block: str) -> str:
    """`text` with what stands between `area`'s markers replaced by `block` (the markers and
    everything outside them kept). Raises `ReportError` when the markers are missing or the
    area's end marker is not found after its start."""
    start = f"<!-- figures: {area} -->"
    begin = text.find(start)
    if begin < 0:
        raise ReportError(f"BENCHMARKS.md has no {start!r} marker")
    inside = begin + len(start)
    end = text.find(END, inside)
    if end < 0 or _START.search(text, inside, end):
        raise ReportError(f"the {area!r} figures have no {END!r} after their start")
    return f"{text[:inside]}\n{block.strip()}\n{text[end:]}"


def block_of(text: str, area: str) -> str:
    """What stands between `area`'s markers ("" when they are missing)."""
    start = f"<!-- figures: {area} -->"
    begin = text.find(start)
    end = text.find(END, begin)
    return "" if begin < 0 or end < 0 else text[begin + len(start) : end].strip()


# --- reading the scripts' tables -------------------------------------------------------------


def markdown_tables(output: str) -> list[list[list[str]]]:
    """The Markdown tables in a script's output, each as its rows of cells (the header row
    first, the separator row left out)."""
    tables: list[list[list[str]]] = []
    current: list[list[str]] = []
    for line in [*output.splitlines(), ""]:
        if line.startswith("|"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if not all(set(cell) <= set("-:") for cell in cells):
                current.append(cells)
        elif current:
            tables.append(current)
            current = []
    return tables


def _rows_by_first_cell(found: list[list[str]]) -> dict[str, dict[str, str]]:
    header, *rows = found
    return {row[0]: dict(zip(header, row, strict=False)) for row in rows}


# --- the areas ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Area:
    """How to measure one area: the scripts' arguments (one run each) and how their outputs
    make the block."""

    runs: Callable[[bool], list[list[str]]]
    block: Callable[[list[str]], str]


#: The distractor draws the quality area measures: the first is the main table's, and the
#: MRR of each draw, with their mean, shows how far one draw moves the figures.
DISTRACTOR_SEEDS = tuple(corpus.DEFAULT_SEED + draw for draw in range(4))


def _quality_runs(quick: bool) -> list[list[str]]:
    seeds = DISTRACTOR_SEEDS[:1] if quick else DISTRACTOR_SEEDS
    distracted = ["typing_quality.py", "--no-cost", "--distractors", "2600"]
    return [
        ["typing_quality.py", "--no-cost"],
        *([*distracted, "--distractor-seed", str(seed)] for seed in seeds),
    ]


QUALITY_COLUMNS = ["clean MRR", "(a) cut MRR", "(b) typo MRR", "(c) blank %", "title MRR"]


def _quality_tables(output: str, corpus_name: str) -> dict[str, dict[str, str]]:
    tables = markdown_tables(output)
    if not tables:
        raise ReportError(f"typing_quality.py printed no table for {corpus_name}")
    return _rows_by_first_cell(tables[0])


def _quality_block(outputs: list[str]) -> str:
    rows = []
    for corpus_name, output in zip(("163 papers", "+ 2,600 distractors"), outputs, strict=False):
        for engine, values in _quality_tables(output, corpus_name).items():
            rows.append(
                [corpus_name, engine, *(values.get(column, "") for column in QUALITY_COLUMNS)]
            )
    headers = ["corpus", "engine", "3-word MRR", "cut last word", "one typo", "blank states %"]
    main = table([*headers, "full-title MRR"], rows)
    return f"{main}\n\n{_draws_table(outputs[1:])}"


def _draws_table(outputs: list[str]) -> str:
    """3-word and full-title MRR of each distractor draw, and their mean, by engine."""
    found: dict[str, list[tuple[float, float]]] = {}
    for seed, output in zip(DISTRACTOR_SEEDS, outputs, strict=False):
        for engine, values in _quality_tables(output, f"seed {seed}").items():
            pair = (float(values["clean MRR"]), float(values["title MRR"]))
            found.setdefault(engine, []).append(pair)
    rows = []
    for engine, pairs in found.items():
        draws = " / ".join(f"{clean:.3f}" for clean, _ in pairs)
        titles = " / ".join(f"{title:.3f}" for _, title in pairs)
        mean_clean = statistics.fmean(clean for clean, _ in pairs)
        mean_title = statistics.fmean(title for _, title in pairs)
        rows.append([engine, draws, f"{mean_clean:.4f}", titles, f"{mean_title:.4f}"])
    headers = ["+ 2,600 distractors", "3-word MRR by draw", "mean", "full-title MRR by draw"]
    return table([*headers, "mean"], rows)


def _known_item_runs(quick: bool) -> list[list[str]]:
    engines = ["--engines", "whoosh", "tantivy", "bm25s"]
    return [["known_item.py", *engines, *(["--quick"] if quick else [])]]


def _known_item_block(outputs: list[str]) -> str:
    tables = markdown_tables(outputs[0])
    if not tables:
        raise ReportError("known_item.py printed no table")
    header, *rows = tables[0]
    return table(header, rows)


AREAS: dict[str, Area] = {
    "quality": Area(_quality_runs, _quality_block),
    "known-item": Area(_known_item_runs, _known_item_block),
}


# The areas whose scripts answer in JSON; the build areas take minutes, so they are run only
# when named.
JSON_AREAS = {**report_rows.AREAS, **report_builds.AREAS}
BY_NAME_ONLY = set(report_builds.AREAS)


def measure(name: str, quick: bool, old: str = "") -> str:
    """Run `name`'s scripts; its block: when, the load, the command, then the table (`old`:
    the block as it stood, whose rows a `report_rows` area may keep)."""
    area = AREAS[name] if name in AREAS else JSON_AREAS[name]
    outputs = []
    commands = area.runs(quick)
    for arguments in commands:
        done = subprocess.run(
            [sys.executable, str(HERE / arguments[0]), *arguments[1:]],
            capture_output=True,
            text=True,
            cwd=HERE,
            check=False,
        )
        if done.returncode != 0:
            raise ReportError(f"{arguments[0]} failed: {done.stderr.strip()[-300:]}")
        outputs.append(done.stdout)
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    rerun = "; ".join(f"`{' '.join(arguments)}`" for arguments in commands)
    if isinstance(area, report_rows.RowsArea):
        results = list(zip(commands, outputs, strict=True))
        try:
            block = area.block(results, old, when[:16])
        except (report_rows.AreaError, KeyError, TypeError, ValueError) as error:
            raise ReportError(f"{name}: the scripts' figures could not be read: {error}") from None
        load = report_rows.loads(results)
        header = f"{when}, load {load} (`report.py --areas {name}`: {rerun})"
        return f"{report_rows.wrapped(header)}\n\n{block}"
    header = f"{when}, load {load_average()} (`report.py --areas {name}`: {rerun})"
    return f"{header}\n\n{area.block(outputs)}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    known = sorted([*AREAS, *JSON_AREAS])
    parser.add_argument(
        "--areas", nargs="+", choices=known, help="default: all but many-files and bounds"
    )
    parser.add_argument("--quick", action="store_true", help="the scripts' quick runs")
    parser.add_argument("--dry-run", action="store_true", help="print the blocks only")
    parser.add_argument("--file", type=Path, default=BENCHMARKS, help="the file to rewrite")
    args = parser.parse_args()
    text = args.file.read_text(encoding="utf-8")
    try:
        default = [area for area in areas_in(text) if area in known and area not in BY_NAME_ONLY]
        for name in args.areas or default:
            block = measure(name, args.quick, block_of(text, name))
            print(f"--- {name}\n{block}\n")
            print(report_rows.kept_rows_note(block), end="")
            text = replace_block(text, name, block)
    except ReportError as error:
        print(f"report.py: {error}", file=sys.stderr)
        return 1
    for area in areas_in(text):
        if area not in (args.areas or default):
            print(f"kept as measured before: {area} ({report_rows.dated(block_of(text, area))})")
    if not args.dry_run:
        args.file.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
