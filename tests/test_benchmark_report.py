"""benchmarks/report.py rewrites the figures between an area's markers and nothing else."""

from __future__ import annotations

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
