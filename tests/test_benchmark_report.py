"""benchmarks/report.py rewrites the figures between an area's markers and nothing else."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import report

DOCUMENT = """# Benchmarks

Prose before.

## Quality

Why these queries.

<!-- figures: quality -->
2026-12-05, load 1 (old)

| a | b |
|---|---|
| 1 | 2 |
<!-- end figures -->

Prose after, which explains the table.

<!-- figures: known-item -->
kept figures
<!-- end figures -->
"""


def test_an_area_s_block_is_replaced_and_the_prose_kept():
    rewritten = report.replace_block(DOCUMENT, "quality", "new line\n\n| a |\n|---|\n| 9 |")
    assert "| 1 | 2 |" not in rewritten and "| 9 |" in rewritten
    before, after = DOCUMENT.split("<!-- figures: quality -->")
    assert rewritten.startswith(before + "<!-- figures: quality -->\nnew line")
    assert rewritten.endswith(after[after.index("<!-- end figures -->") :])
    assert "kept figures" in rewritten


def test_rewriting_twice_gives_the_same_file():
    once = report.replace_block(DOCUMENT, "known-item", "fresh")
    assert report.replace_block(once, "known-item", "fresh") == once
    assert report.areas_in(once) == ["quality", "known-item"]


def test_a_missing_or_unclosed_marker_is_an_error_naming_the_area():
    with pytest.raises(report.ReportError, match="topics"):
        report.replace_block(DOCUMENT, "topics", "x")
    unclosed = DOCUMENT.replace("<!-- end figures -->\n\nProse after", "\nProse after", 1)
    with pytest.raises(report.ReportError, match="quality"):
        report.replace_block(unclosed, "quality", "x")


def test_the_quality_block_is_made_from_the_scripts_tables():
    output = """machine: ...

| engine    | clean MRR | (a) cut MRR | (b) typo MRR | (c) blank % | states | title MRR |
|-----------|----------:|------------:|-------------:|------------:|-------:|----------:|
| paperterm |     0.782 |       0.732 |        0.768 |         0.9 |   3876 |     0.982 |
| bm25s     |      0.77 |       0.638 |        0.648 |        22.9 |   3876 |      0.98 |
targets: ...
"""
    block = report._quality_block([output, output.replace("0.782", "0.559")])
    rows = report.markdown_tables(block)[0]
    assert rows[0][:3] == ["corpus", "engine", "3-word MRR"]
    assert rows[1] == ["163 papers", "paperterm", "0.782", "0.732", "0.768", "0.9", "0.982"]
    assert rows[3][:3] == ["+ 2,600 distractors", "paperterm", "0.559"]
    assert len(rows) == 5


# --- the areas whose scripts answer in JSON ------------------------------------------------------

import json  # noqa: E402

import report_builds  # noqa: E402
import report_rows  # noqa: E402


def _json(**figures: object) -> str:
    return "some people's output\n" + json.dumps({"load": "2.50", **figures}) + "\n"


TRIAGE = [
    (
        ["bench_facets.py", "--sizes", "2610", "50000", "--json"],
        _json(
            sizes={
                "2610": {
                    "count_ms": {"p50": 1.26, "p95": 5.41},
                    "count_cpu_ms": {"p50": 1.1},
                    "narrow_ms": {"p50": 0.4, "p95": 4.5},
                },
                "50000": {
                    "count_ms": {"p50": 86.6, "p95": 107.1},
                    "count_cpu_ms": {"p50": 43.0},
                    "narrow_ms": {"p50": 13.8, "p95": 51.0},
                },
            }
        ),
    ),
    (
        ["bench_topics.py", "--json"],
        _json(
            rows=[
                {"papers": 2610, "wall_s": 6.3, "cpu_s": 1.9, "topics": 36, "covered": 1.0},
                {"papers": 50000, "wall_s": 50.9, "cpu_s": 13.3, "topics": 40, "covered": 0.99},
            ]
        ),
    ),
    (
        ["bench_watch.py", "--n", "50000", "--json"],
        _json(papers=50000, matcher_cpu_s=1.13, match_cpu_s=2.07, matched=9000),
    ),
    (
        ["bench_agenda.py", "--n", "2610", "50000", "--json"],
        _json(
            sizes=[
                {
                    "papers": n,
                    "sessions": sessions,
                    "agenda_cpu_ms": agenda,
                    "authors_index_cpu_s": index,
                    "look_up_cpu_ms": 0.002,
                }
                for n, sessions, agenda, index in ((2610, 28, 20.4, 0.1), (50000, 675, 43.3, 2.0))
            ]
        ),
    ),
    (
        ["bench_watch_marks.py", "--n", "2610", "50000", "--json"],
        _json(
            sizes=[
                {
                    "papers": n,
                    "watched": watched,
                    "find_cpu_s": find,
                    "mark_row_us": 4.0,
                    "word_spans_us": 47.4,
                }
                for n, watched, find in ((2610, 470, 0.12), (50000, 8924, 2.45))
            ]
        ),
    ),
]


def _table(block: str) -> dict[str, list[str]]:
    return {row[0]: row for row in report.markdown_tables(block)[0]}


def test_the_triage_table_has_a_column_per_size_and_says_which_targets_are_met():
    rows = _table(report_rows.triage_block(TRIAGE, "", "2026-12-06"))
    header = rows["what"]
    assert header == ["what", "2,610 papers", "50,000 papers", "target"]
    counts = next(row for what, row in rows.items() if what.startswith("facet counts"))
    assert counts[1:] == ["1.26 / 5.41 (1.10)", "86.6 / 107 (43.0)", "p95 <= 100 ms at 2,610: met"]
    narrowing = next(row for what, row in rows.items() if what.startswith("facet narrowing"))
    assert narrowing[3].endswith("not met")  # 51 ms at 50,000
    topics = next(row for what, row in rows.items() if what.startswith("topics"))
    assert topics[1:3] == ["6.3 / 1.9 s, 36 topics, 100%", "50.9 / 13.3 s, 40 topics, 99%"]
    watch = next(row for what, row in rows.items() if what.startswith("watch lists"))
    assert watch[1:3] == ["", "1.13 / 2.07"]
    agenda = next(row for what, row in rows.items() if what.startswith("agenda"))
    assert agenda[1:3] == ["20.4 ms, 28 sessions", "43.3 ms, 675 sessions"]
    marks = next(row for what, row in rows.items() if what.startswith("watch marks"))
    assert marks[1:3] == ["0.12 s, 470 watched", "2.45 s, 8,924 watched"]


def test_a_quick_triage_leaves_the_larger_size_s_cells_empty():
    quick = [(arguments, output) for arguments, output in TRIAGE if "50000" not in arguments]
    quick.append(
        (
            ["bench_agenda.py", "--n", "2610"],
            _json(sizes=[json.loads(TRIAGE[3][1].splitlines()[1])["sizes"][0]]),
        )
    )
    rows = report.markdown_tables(report_rows.triage_block(quick, "", "2026-12-06"))[0]
    agenda = next(row for row in rows if row[0].startswith("agenda"))
    assert agenda[1:3] == ["20.4 ms, 28 sessions", ""]
    watch = next(row for row in rows if row[0].startswith("watch lists"))
    assert watch[1:] == ["", "", ""]


def test_a_script_that_printed_no_json_is_an_error_naming_it():
    with pytest.raises(report_rows.AreaError, match=r"bench_watch\.py"):
        report_rows.answer("machine: ...\n| a |\n", "bench_watch.py")


def test_the_load_is_the_range_the_scripts_saw():
    results = [(["a.py"], _json()), (["b.py"], _json().replace("2.50", "4.04"))]
    assert report_rows.loads(results) == "2.5-4.0"
    assert report_rows.loads([(["c.py"], "no json")]) == "unknown"
    said = [(["typing_quality.py"], "| a |\ntargets: ...; load average 5.25\n"), *results]
    assert report_rows.loads(said) == "2.5-5.2"


TYPING_COST = """machine: ...
2210 keystroke states at 2600 abstracts; `paperterm search --json -`: 9.1 s wall, ...

| per keystroke state       | queries | mean | p50 |  p95 |  max |
|---------------------------|--------:|-----:|----:|-----:|-----:|
| CLI batch, took_ms (wall) |    2210 | 1.31 | 0.7 |  3.2 | 40.1 |
| in-process, CPU ms        |    2210 | 1.02 | 0.6 | 2.12 | 30.8 |
targets: mean <= 15 ms, max <= 100 ms; load average 1.5
"""


def test_the_keystroke_cost_table_reads_both_scripts():
    passes = [
        {"any_word": shipped, "mean": mean, "p50": 2.0, "p95": p95, "max": 90.0}
        for _ in range(2)
        for shipped, mean, p95 in ((False, 4.93, 10.6), (True, 6.92, 18.6))
    ]
    passes[2] = {**passes[2], "mean": 4.97, "p95": 10.8, "max": 104.0}
    results = [
        (["typing_quality.py", "--no-quality", "--quick"], TYPING_COST),
        (["bench_few_matches.py", "DIR", "--json"], _json(papers=50000, states=3876, runs=passes)),
    ]
    rows = report.markdown_tables(report_rows.keystroke_cost_block(results, "", "today"))[0]
    assert rows[1][1:] == ["2,600", "2210", "1.02", "2.12", "30.8"]
    assert rows[2][1:] == ["50,000", "3876", "4.93-4.97", "10.6-10.8", "90.0-104"]
    assert rows[3][1:] == ["50,000", "3876", "6.92", "18.6", "90.0"]


OLD_TARGETS = """2026-12-05, quiet machine

| target | measured | | when |
|---|---|---|---|
| 2,600: first-launch build <= 2 s | 1.21 s | met | 2026-12-05 |
| 2,600: warm start <= 1.3x a bare Textual app | 1.28x | met | 2026-12-05 |
| 500,000: query with snippets p95 <= 20 ms | 6.7 ms | met | 2026-12-05 |
"""


def _reader(sizes: dict[str, object], echo: dict[str, float] | None = None) -> str:
    return _json(echo=echo or {"p50": 30.0, "p95": 33.8, "max": 40.0}, sizes=sizes)


def test_targets_re_runs_the_reader_rows_and_keeps_the_others_with_their_date():
    startup = {"ratio": 1.31, "cpu_ratio": 1.2}
    keys = {"p95": 36.7, "missed": 0, "terminal": "80x24"}
    wide = {"p95": 44.0, "missed": 2, "terminal": "120x40"}
    results = [
        (
            ["bench_reader.py", "startup", "keystroke", "first", "--json"],
            _reader({"2600": {"startup": startup, "keystroke": keys, "first": {"rows_s": 0.44}}}),
        ),
        (
            ["bench_reader.py", "keystroke", "--size", "120x40"],
            _reader({"2600": {"keystroke": wide}}),
        ),
    ]
    now = "2026-12-07 10:00"
    old = OLD_TARGETS.replace("| 6.7 ms | met | 2026-12-05", "| 6.7 ms | met | 2026-12-07")
    rows = report.markdown_tables(report_rows.targets_block(results, old, now))[0]
    assert [row[0] for row in rows[1:]] == [
        "2,600: first-launch build <= 2 s",
        "2,600: warm start <= 1.3x a bare Textual app",
        "2,600: keystroke to results on the terminal, p95 <= 50 ms",
        "2,600: first launch, rows on screen <= 1 s",
        "2,600: keystroke to results on the terminal, p95 <= 50 ms, 120x40",
        "500,000: query with snippets p95 <= 20 ms",
    ]
    assert rows[1][1:] == ["1.21 s", "met", "2026-12-05"]
    assert rows[2][1:] == ["1.31x (CPU at the first frame 1.20x)", "not met", now]
    assert rows[3][1:] == ["36.7 ms (a bare Input's echo 33.8)", "met", now]
    assert rows[4][1:3] == ["0.44 s", "met"]
    assert rows[5][1] == "44.0 ms (a bare Input's echo 33.8), 2 keys missed"
    assert rows[6][3] == "2026-12-07"
    block = report_rows.targets_block(results, old, now)
    note = report_rows.kept_rows_note(f"{now} UTC, load 1\n\n{block}")
    assert f"re-run ({now}): 2,600: warm start" in note
    assert "kept: 2,600: first-launch build <= 2 s (2026-12-05); 500,000" in note
    assert "p95 <= 20 ms (2026-12-07)" in note  # kept although measured the same day


def test_the_facets_typing_table_compares_the_same_run_with_and_without_the_sidebar():
    parts = {"keystroke": {"p95": 45.0}, "keystroke_facets": {"p95": 67.5}}
    results = [(["bench_reader.py", "keystroke", "--facets"], _reader({"50000": parts}))]
    rows = report.markdown_tables(report_rows.facets_typing_block(results, "", "today"))[0]
    assert rows[1] == ["50,000", "45.0", "67.5", "+22.5", "not met"]


def test_a_kept_area_is_named_with_its_date():
    assert report_rows.dated("2026-12-06 08:50 UTC, load 3") == "measured 2026-12-06 08:50"
    assert report_rows.dated("2026-12-06, load 3") == "measured 2026-12-06"
    assert report_rows.dated("| a |\n|---|") == "undated"
    assert report_rows.kept_rows_note("| a |\n|---|\n| 1 |") == ""


def test_every_area_s_runs_name_a_script_that_exists():
    here = Path(report.__file__).parent
    for name, area in report.JSON_AREAS.items():
        for quick in (True, False):
            for arguments in area.runs(quick):
                assert (here / arguments[0]).exists(), (name, arguments)
    quick_reader = report_rows.AREAS["targets"].runs(True)
    assert all("50000" not in arguments for arguments in quick_reader)


def test_a_json_area_s_block_is_headed_by_the_date_the_scripts_load_and_commands(monkeypatch):
    ran: list[list[str]] = []

    def run(command: list[str], **_: object) -> subprocess.CompletedProcess[str]:
        ran.append(command)
        script = Path(command[1]).name
        output = next(out for arguments, out in TRIAGE if arguments[0] == script)
        return subprocess.CompletedProcess(command, 0, output, "")

    monkeypatch.setattr(report.subprocess, "run", run)
    block = report.measure("triage", True, "")
    header = " ".join(block.split("\n\n")[0].splitlines())
    assert all(len(line) <= 92 for line in block.split("\n\n")[0].splitlines())
    assert re.match(
        r"\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC, load 2\.5 \(`report.py --areas triage`", header
    )
    assert "`bench_facets.py --sizes 2610 --runs 5 --json`" in header
    assert all("50000" not in command for command in ran)
    assert "| what " in block


def test_a_json_area_whose_script_printed_no_json_fails_naming_the_area(monkeypatch):
    def run(command: list[str], **_: object) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(command, 0, "a table only\n", "")

    monkeypatch.setattr(report.subprocess, "run", run)
    with pytest.raises(report.ReportError, match="triage"):
        report.measure("triage", True, "")


def test_the_many_files_table_gives_each_change_s_share_of_a_rebuild():
    steps = [
        {"step": name, "papers": 10000, "wall_s": wall, "cpu_s": cpu, "removal_s": 0.1}
        for name, wall, cpu in (
            ("first", 30.0, 20.0),
            ("rebuild", 24.3, 16.0),
            ("touch", 4.3, 2.0),
            ("edit", 4.44, 2.2),
            ("add", 4.62, 2.16),
        )
    ]
    results = [(["bench_many_files.py", "--json"], _json(files=10000, steps=steps))]
    rows = report.markdown_tables(report_builds.many_files_block(results, "", "today"))[0]
    assert rows[0][0] == "step, 10,000 one-paper files"
    assert [row[0] for row in rows[1:]] == ["rebuild", "touch", "edit", "add"]
    assert rows[1][1:] == ["24.30", "16.00", ""]
    assert rows[2][1:] == ["4.30", "2.00", "0.125"]


OLD_BOUNDS = """2026-12-06, load 6-10

| source | peak RSS | wall s | when |
|---|--:|--:|---|
| one 200 MB ASCII abstract, one-line JSON | 428 MB | 2.6 | 2026-12-06 |
| one 212 MB abstract in paragraphs, non-ASCII | 1.03 GB | 2.8 | 2026-12-06 |
| 1,000,000 tiny JSON Lines rows, tantivy (summed) | 1,812 MB | 60.0 | 2026-12-06 |
"""


def test_bounds_re_runs_the_sources_the_script_writes_and_keeps_the_other():
    huge = {"kind": "huge", "mb": 200, "rows": 1, "wall_s": 2.44, "largest_mb": 430}
    tiny = {"kind": "rows", "mb": 1, "rows": 1000000, "wall_s": 61.0, "summed_mb": 1830}
    results = [
        (["bench_bounds.py", "huge"], _json(**huge, summed_mb=500)),
        (["bench_bounds.py", "rows"], _json(**tiny, largest_mb=900)),
    ]
    rows = report.markdown_tables(report_builds.bounds_block(results, OLD_BOUNDS, "2026-12-07"))[0]
    assert rows[1] == ["one 200 MB ASCII abstract, one-line JSON", "430 MB", "2.4", "2026-12-07"]
    assert rows[2][1:] == ["1.03 GB", "2.8", "2026-12-06"]
    assert rows[3] == [
        "1,000,000 tiny JSON Lines rows, tantivy (summed)",
        "1,830 MB",
        "61.0",
        "2026-12-07",
    ]


def test_the_build_areas_run_only_when_named(tmp_path, monkeypatch, capsys):
    ran: list[str] = []

    def measure(name: str, quick: bool, old: str = "") -> str:
        ran.append(name)
        return "2026-12-07 10:00 UTC, load 1\n\nfresh"

    document = "".join(
        f"<!-- figures: {area} -->\n2026-12-01, old\n<!-- end figures -->\n"
        for area in ("triage", "many-files", "bounds", "single-file")
    )
    (tmp_path / "B.md").write_text(document, encoding="utf-8")
    monkeypatch.setattr(report, "measure", measure)
    monkeypatch.setattr(sys, "argv", ["report.py", "--file", str(tmp_path / "B.md")])
    assert report.main() == 0
    assert ran == ["triage"]
    out = capsys.readouterr().out
    assert "kept as measured before: many-files (measured 2026-12-01)" in out
    assert "kept as measured before: triage" not in out
    assert "kept as measured before: single-file (measured 2026-12-01)" in out
    assert (tmp_path / "B.md").read_text(encoding="utf-8").count("fresh") == 1


def test_with_json_the_people_s_output_goes_to_stderr_and_stdout_holds_one_object(capsys):
    import measure

    with measure.people_output(True):
        print("| papers | p50 ms |")
    measure.print_json({"sizes": {"2610": {"p50": 1.5}}})
    with measure.people_output(False):
        print("a table")
    out, err = capsys.readouterr()
    first, *rest = out.splitlines()
    assert json.loads(first)["sizes"] == {"2610": {"p50": 1.5}}
    assert "load" in json.loads(first)
    assert rest == ["a table"] and err == "| papers | p50 ms |\n"
