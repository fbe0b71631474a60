"""List rows without Textual (tui/rows.py): what a row says, and that it fills its width to
the cell, whatever the script."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len

from paperterm.index.papers import Paper
from paperterm.index.search.hits import Matcher
from paperterm.tui.rows import (
    BOOKMARK_MARK,
    UNREAD_MARK,
    RowText,
    byline,
    row_cells,
    row_text,
    snippet_cells,
)
from paperterm.tui.view import Row

LONG = "Scaling Smart: Accelerating Large Language Model Pre-Training with Small Model Init"
TITLES = [
    LONG,
    "大規模言語モデルによる論文要約 🚀 and Café",
    "N\u0303andu\u0301 Transformers: Combining Marks in e\u0301 and a\u0308",
    "Short",
    "👩‍🔬 Lab notes ⚗️ ∑ 𝒪(n)",
]


def text_of(cells) -> str:
    return "".join(text for text, _ in cells)


@pytest.mark.parametrize("title", TITLES)
@pytest.mark.parametrize("width", [3, 10, 39, 40, 41, 59, 60, 61, 80, 100, 120, 200])
def test_a_row_is_exactly_its_width_in_cells(title, width):
    row = RowText("x", title, "Samragh et al. 2024", "ENLSP-IV 2024 论文")
    for flags in ({}, {"bookmarked": True, "unread": True, "show_collection": True}):
        assert cell_len(text_of(row_cells(row, width, **flags))) == width


@settings(max_examples=300, deadline=None)
@given(
    title=st.text(max_size=80),
    by=st.text(max_size=30),
    collection=st.text(max_size=30),
    width=st.integers(0, 160),
)
def test_any_text_fills_its_width_exactly(title, by, collection, width):
    # one_line made these safe: no control characters or line ends reach a row.
    clean = [" ".join("".join(c for c in t if c.isprintable()).split()) for t in (title, by)]
    row = RowText("x", clean[0], clean[1], " ".join(collection.split()))
    cells = row_cells(row, width, show_collection=True)
    assert cell_len(text_of(cells)) == width


def test_the_title_comes_first_then_byline_then_collection():
    row = RowText("x", "Compilers Without Abstracts", "Hopper 2024", "TOYW 2024")
    line = text_of(row_cells(row, 80, bookmarked=True, show_collection=True))
    assert line.startswith(f"{BOOKMARK_MARK}   Compilers Without Abstracts ")
    assert line.endswith("Hopper 2024 · TOYW 2024")
    assert "TOYW" not in text_of(row_cells(row, 80, show_collection=False))


def test_a_long_title_keeps_its_share_and_the_byline_shortens():
    row = RowText("x", LONG, "Samragh et al. 2024", "ENLSP-IV 2024")
    at_80 = text_of(row_cells(row, 80, show_collection=True))
    assert at_80.endswith("Samragh et al. 2024")  # no room left for the collection
    at_60 = text_of(row_cells(row, 60))
    assert at_60.endswith("  Samragh 2024")  # "et al." goes first
    assert "Scaling Smart: Accelerating Large Languag" in at_60  # >= 70% of the row
    at_40 = text_of(row_cells(row, 40))
    assert at_40.endswith("  2024")  # then the author
    assert "2024" not in text_of(row_cells(row, 39))  # below 40 cells: the title alone


def test_marks_have_fixed_slots():
    row = RowText("x", "T")
    assert text_of(row_cells(row, 10))[:4] == "    "
    assert text_of(row_cells(row, 10, bookmarked=True))[:4] == f"{BOOKMARK_MARK}   "
    assert text_of(row_cells(row, 10, unread=True))[:4] == f" {UNREAD_MARK}  "
    missing = RowText("x", "Gone (missing)", missing=True)
    cells = row_cells(missing, 20)
    assert cells[0][0].startswith(BOOKMARK_MARK) and cells[3][1] == "missing"


def test_byline_is_first_author_et_al_and_year():
    assert byline(["Ada Lovelace", "Charles Babbage"], 2024) == "Lovelace et al. 2024"
    assert byline(["Jan-Willem van de Meent"], None) == "van de Meent"
    assert byline(["Martin Luther King Jr."], 1963) == "King Jr. 1963"
    assert byline([], 2024) == "2024" and byline([], None) == ""


def test_row_text_shows_the_title_as_published():
    paper = Paper(
        "k",
        "MIDL 2024",
        "abstract",
        title="Limits of Approximating the Median Treatment Effect",
        name="MTE",
        authors=["A B", "C D"],
        year=2024,
    )
    assert row_text(Row("k", paper)) == RowText(
        "k",
        "Limits of Approximating the Median Treatment Effect",
        "B et al. 2024",
        "MIDL 2024",
        people="A B, C D",
        when="2024",
    )
    assert row_text(Row("gone", None, "Old title")) == RowText(
        "gone", "Old title (missing)", missing=True
    )


def test_snippet_marks_the_matched_words_and_fits():
    matcher = Matcher({"transform"}, {"transformers"}, ())
    text = "A short paper about transformers and attention. The transformer layers are probed."
    for width in (4, 20, 40, 80, 120):
        cells = snippet_cells(text, matcher, width)
        assert cell_len(text_of(cells)) == width
    cells = snippet_cells(text, matcher, 80)
    assert [t for t, role in cells if role == "match"] == ["transformers", "transformer"]
    assert text_of(cells).startswith("    A short paper about")
