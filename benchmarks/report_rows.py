"""The areas of BENCHMARKS.md whose scripts answer in JSON (`--json`), and how their answers
become each area's table; report.py runs them beside the quality areas.

An area here is the scripts to run (each script's arguments, small sizes with `quick`) and
a `block` that turns their outputs, with the area's block as it stood, into the new table.
A table whose rows come from runs too long to repeat with the rest (`targets`: the builds
and the 500,000 corpus) has a `when` column: the rows re-run get today's date, the others
are kept as they stand, with the date they were measured.
"""

from __future__ import annotations

import json
import re
import tempfile
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from measure import table

SIZES = [2610, 50_000]
QUICK_SIZES = [2610]
READER_SIZES = [2600, 50_000]
QUICK_READER_SIZES = [2600]

Results = list[tuple[list[str], str]]


class AreaError(Exception):
    """A script's output could not be read, or holds no figures the table needs."""


@dataclass(frozen=True)
class RowsArea:
    """One area: its scripts' arguments (one run each) and how their outputs, with the
    block as it stood, make the new block."""

    runs: Callable[[bool], list[list[str]]]
    block: Callable[[Results, str, str], str]


# --- reading the scripts' answers -------------------------------------------------------------


def answer(output: str, script: str) -> dict[str, Any]:
    """The JSON object a script printed with `--json` (its last line of output)."""
    lines = [line for line in output.splitlines() if line.strip()]
    try:
        found = json.loads(lines[-1])
    except (IndexError, json.JSONDecodeError):
        raise AreaError(f"{script} printed no JSON object") from None
    if not isinstance(found, dict):
        raise AreaError(f"{script} printed JSON that is not an object")
    return found


def answers(results: Results, script: str) -> list[dict[str, Any]]:
    """The answers of every run of `script`, in the order they ran."""
    return [answer(output, script) for arguments, output in results if arguments[0] == script]


def by_papers(found: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Answers of one paper count each (`papers` in them), keyed by that count."""
    return {int(one["papers"]): one for one in found}


def markdown_rows(output: str) -> list[list[str]]:
    """The rows of the first Markdown table in `output` (header first, no rule row)."""
    rows: list[list[str]] = []
    for line in output.splitlines():
        if line.startswith("|"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if not all(set(cell) <= set("-:") for cell in cells):
                rows.append(cells)
        elif rows:
            break
    return rows


def loads(results: Results) -> str:
    """The load averages the scripts saw (their JSON's `load`, or a "load average N" line
    of a script that answers in tables), as a range ("1.2-3.4")."""
    seen = []
    for _, output in results:
        found = _quiet_answer(output)
        if found is not None:
            seen += [float(found["load"])] if _LOAD.fullmatch(str(found.get("load"))) else []
        else:
            seen += [float(load) for load in _SAID_LOAD.findall(output)]
    if not seen:
        return "unknown"
    low, high = f"{min(seen):.1f}", f"{max(seen):.1f}"
    return low if low == high else f"{low}-{high}"


_LOAD = re.compile(r"\d+(\.\d+)?")
_SAID_LOAD = re.compile(r"load average (\d+\.\d+)")


def _quiet_answer(output: str) -> dict[str, Any] | None:
    try:
        return answer(output, "")
    except AreaError:
        return None


def ms(value: float) -> str:
    """A duration in milliseconds: two decimals under 10, one under 100, none above."""
    return f"{value:.2f}" if value < 10 else f"{value:.1f}" if value < 100 else f"{value:.0f}"


def wrapped(header: str, width: int = 92) -> str:
    """A block's first line, wrapped as the prose around it is."""
    return textwrap.fill(header, width, break_long_words=False, break_on_hyphens=False)


def verdict(met: bool) -> str:
    return "met" if met else "not met"


def sizes_row(
    what: str, sizes: Sequence[int], cell: Callable[[int], str], target: str = ""
) -> list[str]:
    """A row with one cell per size (empty where `cell` raises `KeyError`: not run)."""
    cells = []
    for n in sizes:
        try:
            cells.append(cell(n))
        except KeyError:
            cells.append("")
    return [what, *cells, target]


# --- triage ---------------------------------------------------------------------------------


def triage_runs(quick: bool) -> list[list[str]]:
    sizes = QUICK_SIZES if quick else SIZES
    counts = [str(n) for n in sizes]
    runs = [
        ["bench_facets.py", "--sizes", *counts, "--runs", "5" if quick else "30", "--json"],
        ["bench_topics.py", "--sizes", *counts, "--json"],
        ["bench_watch.py", "--n", counts[-1], "--json"],
    ]
    runs.append(["bench_agenda.py", "--n", *counts, "--json"])
    runs.append(["bench_watch_marks.py", "--n", *counts, "--json"])
    return runs


def triage_block(results: Results, old: str, when: str) -> str:
    """One row per figure, one column per corpus size, and the target where there is one."""
    facets = {}
    for one in answers(results, "bench_facets.py"):
        facets.update({int(n): figures for n, figures in one["sizes"].items()})
    topics = {}
    for one in answers(results, "bench_topics.py"):
        topics.update(by_papers(one["rows"]))
    watch = by_papers(answers(results, "bench_watch.py"))
    agenda = by_papers(
        [one for found in answers(results, "bench_agenda.py") for one in found["sizes"]]
    )
    marks = by_papers(
        [one for found in answers(results, "bench_watch_marks.py") for one in found["sizes"]]
    )
    small, large = SIZES
    rows = [
        sizes_row(
            "facet counts (`bench_facets.py`), wall p50 / p95 ms (CPU p50)",
            SIZES,
            lambda n: f"{_p50_p95(facets[n]['count_ms'])} ({ms(facets[n]['count_cpu_ms']['p50'])})",
            _at(facets, small, lambda f: f["count_ms"]["p95"] <= 100, "p95 <= 100 ms at 2,610"),
        ),
        sizes_row(
            "facet narrowing to status Oral and unread, wall p50 / p95 ms",
            SIZES,
            lambda n: _p50_p95(facets[n]["narrow_ms"]),
            _all(facets, lambda f: f["narrow_ms"]["p95"] <= 50, "p95 <= 50 ms (a keystroke)"),
        ),
        sizes_row(
            "topics (`bench_topics.py`), wall / CPU s, topics, covered",
            SIZES,
            lambda n: _topics(topics[n]),
            _topics_target(topics),
        ),
        sizes_row(
            "watch lists (`bench_watch.py`): build the matcher / match every paper, CPU s",
            SIZES,
            lambda n: f"{watch[n]['matcher_cpu_s']:.2f} / {watch[n]['match_cpu_s']:.2f}",
        ),
        sizes_row(
            "agenda screen's build over 2,000 kept papers (`bench_agenda.py`), CPU best of 5",
            SIZES,
            lambda n: f"{ms(agenda[n]['agenda_cpu_ms'])} ms, {agenda[n]['sessions']} sessions",
            "over a frame: built in a worker",
        ),
        sizes_row(
            "authors' index for `a`: once per corpus / one look-up, CPU",
            SIZES,
            lambda n: (
                f"{agenda[n]['authors_index_cpu_s']:.2f} s / {agenda[n]['look_up_cpu_ms']:.3f} ms"
            ),
            "built in a worker on the first `a`",
        ),
        sizes_row(
            "watch marks (`bench_watch_marks.py`): find the watched papers, CPU",
            SIZES,
            lambda n: f"{marks[n]['find_cpu_s']:.2f} s, {marks[n]['watched']:,} watched",
            "in a worker, after the first frame",
        ),
        sizes_row(
            "the same: mark one row at 100 columns / watched words in one abstract, CPU us",
            SIZES,
            lambda n: f"{marks[n]['mark_row_us']:.1f} / {marks[n]['word_spans_us']:.1f}",
        ),
    ]
    return table(["what", f"{small:,} papers", f"{large:,} papers", "target"], rows)


def _p50_p95(summary: dict[str, float]) -> str:
    return f"{ms(summary['p50'])} / {ms(summary['p95'])}"


def _topics(row: dict[str, Any]) -> str:
    return (
        f"{row['wall_s']:.1f} / {row['cpu_s']:.1f} s, {row['topics']} topics, {row['covered']:.0%}"
    )


def _at(found: dict[int, Any], n: int, test: Callable[[Any], bool], target: str) -> str:
    return f"{target}: {verdict(test(found[n]))}" if n in found else target


def _all(found: dict[int, Any], test: Callable[[Any], bool], target: str) -> str:
    return f"{target}: {verdict(all(test(f) for f in found.values()))}" if found else target


def _topics_target(topics: dict[int, dict[str, Any]]) -> str:
    limits = {2610: 10.0, 50_000: 60.0}
    met = all(
        row["wall_s"] <= limits.get(n, 60.0) and row["covered"] >= 0.95 for n, row in topics.items()
    )
    target = "<= 10 s at 2,610, <= 60 s at 50,000, >= 95% covered"
    return f"{target}: {verdict(met)}" if topics else target


# --- keystroke-cost ---------------------------------------------------------------------------


def few_matches_folder(papers: int) -> Path:
    """Where bench_few_matches.py keeps its corpus and index between runs."""
    return Path(tempfile.gettempdir()) / f"paperterm-few-matches-{papers}"


def keystroke_cost_runs(quick: bool) -> list[list[str]]:
    papers = 2600 if quick else 50_000
    folder = str(few_matches_folder(papers))
    return [
        ["typing_quality.py", "--no-quality", "--quick"],
        ["bench_few_matches.py", folder, "--papers", str(papers), "--json"],
    ]


COST_HEADERS = ["in-process CPU ms per keystroke state", "papers", "states"]


def keystroke_cost_block(results: Results, old: str, when: str) -> str:
    """typing_quality.py's in-process row, then bench_few_matches.py's two settings (the
    range over its two passes each)."""
    rows = []
    for arguments, output in results:
        if arguments[0] == "typing_quality.py":
            rows.append(_typing_cost_row(output))
    for one in answers(results, "bench_few_matches.py"):
        for shipped, what in (
            (False, "any-word ranking off, limit 50, snippets (`bench_few_matches.py`)"),
            (True, "the same, as shipped"),
        ):
            passes = [run for run in one["runs"] if run["any_word"] is shipped]
            if not passes:
                raise AreaError("bench_few_matches.py printed no pass")
            figures = [_spread([run[key] for run in passes]) for key in ("mean", "p95", "max")]
            rows.append([what, f"{one['papers']:,}", str(one["states"]), *figures])
    return table([*COST_HEADERS, "mean", "p95", "max"], rows)


def _typing_cost_row(output: str) -> list[str]:
    found = markdown_rows(output)
    if not found:
        raise AreaError("typing_quality.py printed no table")
    header, *rows = found
    papers = "2,600"
    for line in output.splitlines():
        if "keystroke states at" in line:
            papers = f"{int(line.split(' abstracts')[0].split()[-1]):,}"
    for row in rows:
        if row[0].startswith("in-process"):
            cells = dict(zip(header, row, strict=False))
            what = "every state of the clean queries, limit 10 (`typing_quality.py`)"
            return [what, papers, cells["queries"], *(cells[key] for key in ("mean", "p95", "max"))]
    raise AreaError("typing_quality.py printed no in-process row")


def _spread(values: list[float]) -> str:
    low, high = ms(min(values)), ms(max(values))
    return low if low == high else f"{low}-{high}"


# --- the reader: targets and facets-typing ----------------------------------------------------


def reader_sizes(quick: bool) -> list[str]:
    return [str(n) for n in (QUICK_READER_SIZES if quick else READER_SIZES)]


def targets_runs(quick: bool) -> list[list[str]]:
    sizes = reader_sizes(quick)
    fast = ["--quick"] if quick else []
    return [
        ["bench_reader.py", "startup", "keystroke", "first", "--sizes", *sizes, *fast, "--json"],
        ["bench_reader.py", "keystroke", "--size", "120x40", "--sizes", *sizes, *fast, "--json"],
    ]


TARGET_HEADERS = ["target", "measured", "", "when"]


def targets_block(results: Results, old: str, when: str) -> str:
    """The reader's rows measured now, in the place of the rows of the same targets; every
    other row kept as it stands, with the date it was measured."""
    fresh: dict[str, list[str]] = {}
    for one in answers(results, "bench_reader.py"):
        echo = one.get("echo") or {}
        for n, parts in one["sizes"].items():
            fresh.update(_reader_rows(int(n), parts, echo, when))
    return table(TARGET_HEADERS, merge_rows(old, fresh))


def _reader_rows(
    n: int, parts: dict[str, Any], echo: dict[str, float], when: str
) -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    if "startup" in parts:
        start = parts["startup"]
        what = f"{n:,}: warm start <= 1.3x a bare Textual app"
        measured = f"{start['ratio']:.2f}x (CPU at the first frame {start['cpu_ratio']:.2f}x)"
        rows[what] = [what, measured, verdict(start["ratio"] <= 1.3), when]
    keys = parts.get("keystroke")
    if keys:
        terminal = keys.get("terminal", "80x24")
        what = f"{n:,}: keystroke to results on the terminal, p95 <= 50 ms"
        if terminal != "80x24":
            what += f", {terminal}"
        measured = f"{keys['p95']:.1f} ms"
        if echo:
            measured += f" (a bare Input's echo {echo['p95']:.1f})"
        if keys.get("missed"):
            measured += f", {keys['missed']} keys missed"
        rows[what] = [what, measured, verdict(keys["p95"] <= 50), when]
    first = parts.get("first")
    if first:
        what = f"{n:,}: first launch, rows on screen <= 1 s"
        shown = first["rows_s"]
        met = isinstance(shown, int | float) and shown <= 1
        rows[what] = [what, f"{shown} s", verdict(met), when]
    return rows


def merge_rows(old: str, fresh: dict[str, list[str]]) -> list[list[str]]:
    """The old table's rows in their order, each replaced by the fresh row of the same
    first cell when there is one; a fresh row the old table lacked goes after the last row
    of its size (the first cell's words before ":"), or last."""
    found = markdown_rows(old)
    kept = found[1:] if found else []
    merged = [fresh.get(row[0], row) for row in kept]
    seen = {row[0] for row in kept}
    for what, row in fresh.items():
        if what in seen:
            continue
        size = what.split(":")[0]
        same = [at for at, other in enumerate(merged) if other[0].split(":")[0] == size]
        merged.insert(same[-1] + 1 if same else len(merged), row)
    return merged


def facets_typing_runs(quick: bool) -> list[list[str]]:
    sizes = reader_sizes(quick)
    fast = ["--quick"] if quick else []
    return [
        [
            "bench_reader.py",
            "keystroke",
            "--facets",
            "--size",
            "120x40",
            "--sizes",
            *sizes,
            *fast,
            "--json",
        ]
    ]


def facets_typing_block(results: Results, old: str, when: str) -> str:
    """Key to results, p95, without and with the facets sidebar, in the same run."""
    rows = []
    for one in answers(results, "bench_reader.py"):
        for n, parts in one["sizes"].items():
            plain, shown = parts["keystroke"], parts["keystroke_facets"]
            added = shown["p95"] - plain["p95"]
            figures = [f"{value:.1f}" for value in (plain["p95"], shown["p95"])]
            rows.append([f"{int(n):,}", *figures, f"{added:+.1f}", verdict(shown["p95"] <= 50)])
    headers = ["papers", "p95 ms, no sidebar", "p95 ms, sidebar shown", "added", "<= 50 ms"]
    return table(headers, rows)


# --- saying what was kept -------------------------------------------------------------------

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}( \d{2}:\d{2})?")


def dated(block: str) -> str:
    """The date (and time, when given) a block's first line gives, or "undated"."""
    first = block.strip().splitlines()[0] if block.strip() else ""
    found = _DATE.search(first)
    return f"measured {found.group()}" if found else "undated"


def kept_rows_note(block: str) -> str:
    """For a table with a `when` column, which rows were re-run (dated as the block) and
    which kept with their date, one line each; "" for any other table."""
    found = markdown_rows(block)
    if not found or "when" not in found[0]:
        return ""
    column = found[0].index("when")
    today = dated(block).removeprefix("measured ")
    rerun = [row[0] for row in found[1:] if row[column] == today]
    kept = [f"{row[0]} ({row[column]})" for row in found[1:] if row[column] != today]
    note = f"re-run ({today}): {'; '.join(rerun) or 'none'}\n"
    return note + (f"kept: {'; '.join(kept)}\n" if kept else "")


AREAS: dict[str, RowsArea] = {
    "triage": RowsArea(triage_runs, triage_block),
    "keystroke-cost": RowsArea(keystroke_cost_runs, keystroke_cost_block),
    "targets": RowsArea(targets_runs, targets_block),
    "facets-typing": RowsArea(facets_typing_runs, facets_typing_block),
}
