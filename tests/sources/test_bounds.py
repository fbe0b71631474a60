"""Bounded records: a value over its documented size is cut, with a warning naming the
record (file:line), whatever the source's format; a build's memory does not grow with
one record's size."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperterm.index.papers import Paper
from paperterm.index.sources import bounds
from paperterm.index.sources.bounds import (
    ABSTRACT_LIMIT,
    FIELD_LIMIT,
    LINK_LIMIT,
    LIST_LIMIT,
    SHORT_LIMIT,
    TITLE_LIMIT,
    bound,
)
from paperterm.index.sources.loader import Reading, load_file

HUGE = ABSTRACT_LIMIT + 12_345


def words(size: int) -> str:
    return ("graph walks on sparse data " * (size // 27 + 1))[:size].strip() + "x"


def test_an_abstract_over_the_limit_is_cut_with_a_warning_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    records = [{"title": "Small", "abstract": "Fine."}, {"title": "Big", "abstract": words(HUGE)}]
    path.write_text("[\n" + ",\n".join(json.dumps(r) for r in records) + "\n]", encoding="utf-8")
    papers, problems = load_file(path)
    assert [len(paper.abstract) for paper in papers] == [5, ABSTRACT_LIMIT]
    [problem] = problems
    assert (problem.path, problem.line) == (str(path), 3)
    assert "too large" in problem.message and "abstract" in problem.message
    assert f"{ABSTRACT_LIMIT:,}" in problem.message


def test_json_lines_read_by_a_build_are_bounded_too(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    rows = [
        {"title": "t" * (TITLE_LIMIT * 3), "abstract": "A short one."},
        {"title": "Fine", "abstract": "Also short."},
        {"title": "Many", "abstract": words(HUGE), "authors": ["Ann Lee"] * (LIST_LIMIT + 5)},
    ]
    path.write_text("\n".join(json.dumps(row) for row in rows) + "\n", encoding="utf-8")
    reading = Reading(path)
    papers = list(reading.papers())
    assert len(papers[0].title) <= TITLE_LIMIT
    assert len(papers[2].abstract) == ABSTRACT_LIMIT and len(papers[2].authors) == LIST_LIMIT
    assert [(p.line, "title" in p.message) for p in reading.problems] == [(1, True), (3, False)]
    assert "authors" in reading.problems[1].message


def test_a_text_list_paragraph_is_bounded(tmp_path: Path) -> None:
    path = tmp_path / "list.txt"
    path.write_text(f"My list\n\nShort one.\n\n{words(HUGE)}\n", encoding="utf-8")
    papers, problems = load_file(path)
    assert len(papers) == 2 and len(papers[1].abstract) <= ABSTRACT_LIMIT
    assert [(problem.line, "too large" in problem.message) for problem in problems] == [(5, True)]


def test_links_over_the_limit_are_dropped_and_fields_cut() -> None:
    paper = Paper(
        id="p",
        collection="c",
        abstract="a",
        links=["https://ok.org/a", "https://x.org/" + "y" * LINK_LIMIT],
        fields={"author": "z" * (FIELD_LIMIT + 1)},
        source="f.bib",
        line=7,
    )
    problem = bound(paper)
    assert paper.links == ["https://ok.org/a"]
    assert len(paper.fields["author"]) == FIELD_LIMIT
    assert problem is not None and str(problem).startswith("f.bib:7: record 'p' too large")


@settings(max_examples=60, deadline=None)
@given(
    sizes=st.tuples(*[st.integers(0, 3) for _ in range(5)]),
    keep=st.booleans(),
)
def test_bound_leaves_small_records_alone_and_cuts_any_value_over(
    sizes: tuple[int, ...], keep: bool
) -> None:
    """Each value is empty, small, at its limit or over it (sizes 0-3); whatever the mix,
    afterwards every value is within its limit, and a warning came exactly when one was
    over."""

    def text(level: int, limit: int) -> str:
        return ["", "short", "w" * limit, "w" * (limit + 1)][level]

    abstract, title, author, session, field = sizes
    paper = Paper(
        id="p",
        collection="c",
        abstract=text(abstract, ABSTRACT_LIMIT),
        title=text(title, TITLE_LIMIT),
        authors=[text(author, SHORT_LIMIT)] if keep else [],
        session=text(session, SHORT_LIMIT),
        fields={"pages": text(field, FIELD_LIMIT)},
    )
    over = 3 in (abstract, title, session, field) or (keep and author == 3)
    before = Paper(**{name: getattr(paper, name) for name in Paper.__dataclass_fields__})
    problem = bound(paper)
    assert (problem is not None) == over
    assert len(paper.abstract) <= ABSTRACT_LIMIT and len(paper.title) <= TITLE_LIMIT
    assert all(len(name) <= SHORT_LIMIT for name in paper.authors)
    assert len(paper.session) <= SHORT_LIMIT and len(paper.fields["pages"]) <= FIELD_LIMIT
    if not over:
        assert paper == before


def test_the_limits_are_documented_in_the_module() -> None:
    doc = bounds.__doc__ or ""
    for figure in ("1,000,000", "2,000", "10,000", "200,000", "256 KiB"):
        assert figure in doc


PEAK = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
"""


@pytest.mark.slow
def test_a_huge_abstract_does_not_blow_up_a_builds_memory(tmp_path: Path) -> None:
    """One 60 MB abstract: the build's peak stays within a few times the file (it read
    4.17 GB for 200 MB before records were bounded: 21 times the file)."""
    path = tmp_path / "huge.json"
    size = 60_000_000
    path.write_text(json.dumps([{"title": "Huge", "abstract": words(size)}]), encoding="utf-8")
    (tmp_path / "empty.toml").write_text("", encoding="utf-8")
    command = [sys.executable, "-m", "paperterm.tui.cli", "--config", str(tmp_path / "empty.toml")]
    command += ["--data-dir", str(tmp_path / "data"), "--source", str(path), "index"]
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(PEAK), *command],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    peak_mb = int(done.stdout.split()[-1])
    assert peak_mb < 6 * size / 1e6, peak_mb
