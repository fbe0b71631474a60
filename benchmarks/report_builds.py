"""The build areas of BENCHMARKS.md that report.py can re-run: updates over many small files
(`many-files`) and bounded records (`bounds`). Both take minutes at full size, so report.py
runs them only when they are named; `--quick` makes them small (a smoke run).
"""

from __future__ import annotations

from typing import Any

from measure import table
from report_rows import AreaError, Results, RowsArea, answers, merge_rows

MANY_FILES = 10_000
QUICK_MANY_FILES = 300


def many_files_runs(quick: bool) -> list[list[str]]:
    files = QUICK_MANY_FILES if quick else MANY_FILES
    return [["bench_many_files.py", "--files", str(files), "--json"]]


def many_files_block(results: Results, old: str, when: str) -> str:
    """A rebuild, then each one-file change: wall and CPU seconds, and the change's CPU as
    a share of the rebuild's (the target: a tenth)."""
    rows = []
    for one in answers(results, "bench_many_files.py"):
        steps = {step["step"]: step for step in one["steps"]}
        if "rebuild" not in steps:
            raise AreaError("bench_many_files.py printed no rebuild")
        rebuild = steps["rebuild"]["cpu_s"]
        for name in ("rebuild", "touch", "edit", "add"):
            step = steps[name]
            share = "" if name == "rebuild" else f"{step['cpu_s'] / rebuild:.3f}"
            rows.append([name, f"{step['wall_s']:.2f}", f"{step['cpu_s']:.2f}", share])
        files = f"{one['files']:,} one-paper files"
    return table([f"step, {files}", "wall s", "CPU s", "CPU of a rebuild"], rows)


HUGE_MB, QUICK_HUGE_MB = 200, 5
ROWS, QUICK_ROWS = 1_000_000, 20_000


def bounds_runs(quick: bool) -> list[list[str]]:
    mb, rows = (QUICK_HUGE_MB, QUICK_ROWS) if quick else (HUGE_MB, ROWS)
    return [
        ["bench_bounds.py", "huge", "--mb", str(mb), "--json"],
        ["bench_bounds.py", "rows", "--rows", str(rows), "--json"],
    ]


BOUNDS_HEADERS = ["source", "peak RSS", "wall s", "when"]


def bounds_block(results: Results, old: str, when: str) -> str:
    """The two sources the script writes, in the place of their rows; rows it cannot
    write (another shape of record) kept with their date."""
    fresh: dict[str, list[str]] = {}
    for one in answers(results, "bench_bounds.py"):
        what, peak = _bounds_row(one)
        fresh[what] = [what, peak, f"{one['wall_s']:.1f}", when]
    return table(BOUNDS_HEADERS, merge_rows(old, fresh))


def _bounds_row(one: dict[str, Any]) -> tuple[str, str]:
    if one["kind"] == "huge":
        what = f"one {one['mb']:,} MB ASCII abstract, one-line JSON"
        return what, f"{one['largest_mb']:,} MB"
    what = f"{one['rows']:,} tiny JSON Lines rows, tantivy (summed)"
    return what, f"{one['summed_mb']:,} MB"


AREAS: dict[str, RowsArea] = {
    "many-files": RowsArea(many_files_runs, many_files_block),
    "bounds": RowsArea(bounds_runs, bounds_block),
}
