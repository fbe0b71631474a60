"""Small helpers the benchmark scripts share: timing statistics, peak memory, tables."""

from __future__ import annotations

import contextlib
import json
import math
import os
import platform
import resource
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence


def percentile(values: Sequence[float], share: float) -> float:
    """Nearest-rank percentile (`share` in 0..100) of a non-empty sample."""
    ordered = sorted(values)
    rank = max(1, math.ceil(share / 100 * len(ordered)))
    return ordered[rank - 1]


def summary_ms(seconds: Sequence[float]) -> dict[str, float]:
    """p50, p95, mean and max of a sample of durations, in milliseconds."""
    ms = [s * 1000 for s in seconds]
    return {
        "p50": percentile(ms, 50),
        "p95": percentile(ms, 95),
        "mean": statistics.fmean(ms),
        "max": max(ms),
    }


def timed(call: Callable[[], object]) -> tuple[float, object]:
    started = time.perf_counter()
    value = call()
    return time.perf_counter() - started, value


def peak_rss_mb() -> float:
    """This process's peak resident set size so far (Linux reports KiB, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def fresh_bytecode() -> None:
    """Compile paperterm's modules where their bytecode is missing or stale. A benchmark's
    child processes (build workers, `paperterm search`, the reader) import them anew: with
    PYTHONDONTWRITEBYTECODE set (as on the machine BENCHMARKS.md's numbers come from) an
    editable install never refreshes its caches, so every start compiled again each module
    changed since (~0.2 s of CPU a build worker), which an installed package, compiled by
    pip at install, never pays."""
    import compileall

    import paperterm.index
    import paperterm.tui

    for package in (paperterm.index, paperterm.tui):
        for folder in package.__path__:
            compileall.compile_dir(folder, quiet=1)


def machine() -> str:
    return (
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}, load average {load_average()}"
    )


def load_average() -> str:
    """The 1-minute load average: other work on the machine skews every number here."""
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:
        return "unknown"


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain aligned table (also valid Markdown), numbers right-aligned."""
    cells = [[_cell(value) for value in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(headers)]
    numeric = [all(_is_number(row[i]) for row in rows) for i in range(len(headers))]

    def line(values: Sequence[str]) -> str:
        padded = [
            v.rjust(w) if num else v.ljust(w)
            for v, w, num in zip(values, widths, numeric, strict=True)
        ]
        return "| " + " | ".join(padded) + " |"

    rule = (
        "|"
        + "|".join(
            ("-" * (w + 1) + ":") if n else "-" * (w + 2)
            for w, n in zip(widths, numeric, strict=True)
        )
        + "|"
    )
    return "\n".join([line(headers), rule, *(line(row) for row in cells)])


def _is_number(value: object) -> bool:
    """Numbers, and the "n/a" that stands in for one, are right-aligned."""
    return value == "n/a" or (isinstance(value, int | float) and not isinstance(value, bool))


def _cell(value: object) -> str:
    if isinstance(value, float):
        return (
            f"{value:.3g}"
            if abs(value) < 10
            else f"{value:.1f}"
            if value < 1000
            else f"{value:.0f}"
        )
    return str(value)


@contextlib.contextmanager
def people_output(as_json: bool) -> Iterator[None]:
    """With `as_json`, what a script prints for people goes to stderr, so that its stdout
    holds only the one JSON object `print_json` writes (report.py reads it)."""
    if not as_json:
        yield
        return
    with contextlib.redirect_stdout(sys.stderr):
        yield


def print_json(results: dict[str, object]) -> None:
    """A script's `--json` answer: one JSON object on one line of stdout, with the load."""
    print(json.dumps({"load": load_average(), **results}), flush=True)
