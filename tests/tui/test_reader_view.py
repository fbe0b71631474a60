"""The reader's Textual-free rules: rows, counts, citations, where links open, the search note."""

from __future__ import annotations

import pytest
from sample_marks import MARKS, PAPERS

from paperterm.index.papers import Paper
from paperterm.tui.view import (
    can_open_browser,
    citation,
    count_text,
    fit_note,
    link_or_citation,
    missing_rows,
)


def test_missing_rows_carry_the_stored_title():
    by_id = {p.id: p for p in PAPERS}
    missing = missing_rows(MARKS, by_id, None)
    assert [(r.id, r.missing, r.missing_title) for r in missing] == [
        ("gone", True, "Left the corpus")
    ]
    assert missing_rows(MARKS, by_id, {"a1"}) == []


@pytest.mark.parametrize(
    ("in_view", "total", "filtered", "expected"),
    [
        (38, 38, False, "38 papers"),
        (3, 38, True, "3 of 38 papers"),
        (0, 38, True, "0 of 38 papers"),
        (1, 1, False, "1 paper"),
        (0, 0, False, "0 papers"),
    ],
)
def test_count_text(in_view, total, filtered, expected):
    assert count_text(in_view, total, filtered) == expected


def test_link_first_then_doi_then_arxiv_then_citation():
    paper = Paper("x", "ICML", "t", title="A Study", links=["https://a.org/1", "https://b.org"])
    assert link_or_citation(paper) == ("link", "https://a.org/1")
    paper = Paper("x", "ICML", "t", title="A Study", doi="10.1/xyz")
    assert link_or_citation(paper) == ("link", "https://doi.org/10.1/xyz")
    paper = Paper("x", "ICML", "t", title="A Study", arxiv_id="2401.00001")
    assert link_or_citation(paper) == ("link", "https://arxiv.org/abs/2401.00001")
    bare = Paper("x", "ICML 2024", "t", title="A Study", authors=["A. B", "C. D"], year=2024)
    assert link_or_citation(bare) == ("citation", "A. B, C. D. A Study. ICML 2024, 2024.")


def test_citation_shortens_long_author_lists_and_stays_on_one_line():
    paper = Paper("x", "Coll", "t", title="Why?\nBecause", authors=["A", "B", "C", "D"])
    assert citation(paper) == "A, B, C et al. Why? Because. Coll."


@pytest.mark.parametrize(
    ("environ", "platform", "expected"),
    [
        ({"SSH_CONNECTION": "1 2 3 4", "DISPLAY": ":0"}, "linux", False),
        ({"SSH_TTY": "/dev/pts/1"}, "darwin", False),
        ({}, "linux", False),
        ({"DISPLAY": ":0"}, "linux", True),
        ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", True),
        ({}, "darwin", True),
        ({}, "win32", True),
    ],
)
def test_where_a_browser_can_open(environ, platform, expected):
    assert can_open_browser(environ, platform) is expected


def test_a_huge_abstract_is_cut_in_the_detail_pane():
    from rich.style import Style

    from paperterm.index.papers import Paper
    from paperterm.tui.view import Row
    from paperterm.tui.widgets.detail import DETAIL_MAX_CHARS, paper_text

    text = "word " * 400_000
    paper = Paper(id="big", collection="C", abstract=text, text=text, title="Big")
    styles = {k: Style() for k in ("title", "facts", "warn", "marker", "link", "authors")}
    styles["match"] = Style(bold=True)
    shown = paper_text(Row(paper=paper, id="big"), None, None, styles).plain
    assert len(shown) < DETAIL_MAX_CHARS + 500
    assert "more characters not shown: `paperterm show big` prints them all" in shown


# --- the search note --------------------------------------------------------------------------

CORRECTION = [
    "showing results for “diffusion models for graph segmentation”",
    "search “diffsion” instead: Ctrl+R",
    "no paper has all your words; showing papers with most of them",
]


def _words(lines: list[str]) -> list[str]:
    return " ".join(lines).replace(" · ", " ").replace("…", " ").split()


@pytest.mark.parametrize("width", [80, 40])
def test_the_note_fits_its_width_in_two_lines_and_never_cuts_a_word(width):
    lines = fit_note(CORRECTION, width)
    assert 1 <= len(lines) <= 2
    assert all(len(line) <= width for line in lines), lines
    every = set(" ".join(CORRECTION).split())
    assert all(word in every for word in _words(lines)), lines  # whole words only


def test_at_80_columns_a_correction_reads_whole_and_the_rest_is_abbreviated():
    lines = fit_note(CORRECTION, 80)
    assert lines[0] == "showing results for “diffusion models for graph segmentation”"
    assert lines[1].startswith("search “diffsion” instead: Ctrl+R · no paper has all")
    assert lines[1].endswith("…")
    assert fit_note(CORRECTION[:2], 80) == [CORRECTION[0], CORRECTION[1]]
    assert fit_note(["short", "notes"], 80) == ["short · notes"]


def test_at_40_columns_the_key_to_search_the_original_still_shows():
    lines = fit_note(CORRECTION[:2], 40)
    assert lines == [
        "showing results for “diffusion models…",
        "search “diffsion” instead: Ctrl+R",
    ] or ("Ctrl+R" in " ".join(lines))
    assert "Ctrl+R" in " ".join(lines)


def test_a_word_wider_than_the_line_is_the_one_thing_cut():
    lines = fit_note(["x" * 100], 40)
    assert lines == ["x" * 39 + "…"]
    assert fit_note([], 40) == []
