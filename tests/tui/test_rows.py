"""List rows without Textual (tui/rows.py): what a row says, and that it fills its width to
the cell, whatever the script; comfortable rows keep a title under 140 cells whole from 100
cells on."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len

from paperterm.index.papers import Paper
from paperterm.index.search.hits import Matcher
from paperterm.tui.rows import (
    BOOKMARK_MARK,
    DECISION_MARKS,
    MARKS_WIDTH,
    ROW_LINES,
    UNREAD_MARK,
    RowText,
    byline,
    day,
    people,
    row_cells,
    row_lines,
    row_text,
    snippet_cells,
    wrap_title,
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


# --- comfortable rows ------------------------------------------------------------------

ICML = RowText(
    "x",
    "Stop Regressing: Training Value Functions via Classification for Scalable Deep "
    "Reinforcement Learning Across Atari, Robotics and Chess",
    "Farrow et al. 2024",
    "ICML 2024",
    people="Jesse Farrow, Quentin Vuillemot et al.",
    affiliation="Google DeepMind",
    badge="Oral",
    when="Oral 6B Reinforcement Learning",
)


def lines_of(row: RowText, width: int, **flags) -> list[str]:
    return [text_of(line) for line in row_lines(row, width, **flags)]


def title_shown(row: RowText, width: int, **flags) -> str:
    """The title as the row's title cells show it (one or two lines)."""
    cells = [cell for line in row_lines(row, width, **flags) for cell in line]
    return " ".join(text.strip() for text, role in cells if role == "title")


def words(text: str) -> str:
    return "".join(text.split())


def test_a_comfortable_row_wraps_the_title_then_the_dim_line():
    lines = lines_of(ICML, 100, bookmarked=True, unread=True, decision="keep")
    assert lines[0].startswith(f"{BOOKMARK_MARK}{UNREAD_MARK}✓ Stop Regressing: ")
    assert lines[0].rstrip().endswith("Deep Reinforcement")  # broken between words
    assert lines[1] == "    Learning Across Atari, Robotics and Chess".ljust(100)
    assert lines[2].strip() == (
        "Jesse Farrow, Quentin Vuillemot et al. · Google DeepMind · Oral · "
        "Oral 6B Reinforcement Learning"
    )
    assert len(lines) == ROW_LINES and all(cell_len(line) == 100 for line in lines)


def test_a_one_line_title_leaves_a_blank_line_under_the_dim_line():
    row = ICML._replace(title="Tabular Transformers Are Not Enough")
    lines = lines_of(row, 120)
    assert lines[0].rstrip() == "    Tabular Transformers Are Not Enough"
    assert lines[1].startswith("    Jesse Farrow") and lines[2] == " " * 120


# Titles of up to 139 cells that wrap badly: long words, CJK (2 cells each), combining
# marks (none), a word longer than a line.
NEVER_CUT_TITLES = [
    ICML.title,  # 134
    "A" * 139,
    " ".join(["Supercalifragilisticexpialidocious"] * 4)[:139],
    "大規模言語モデル" * 8 + "ab",  # 64 CJK characters, 130 cells
    "大" * 69,  # 138 cells
    ("Q\u0303-x\u0304 " * 30)[:170],  # 170 characters, 140 - 30 of them combining
    "Position: " + "x" * 60 + " " + "y" * 68,
]


@pytest.mark.parametrize("width", [100, 120, 200])
@pytest.mark.parametrize("title", NEVER_CUT_TITLES)
def test_a_title_under_140_cells_is_never_cut_from_100_cells_on(title, width):
    title = title.strip()
    assert cell_len(title) < 140
    row = RowText("x", title, people="A B")
    lines = lines_of(row, width)
    assert all(cell_len(line) == width for line in lines)
    assert words(title_shown(row, width)) == words(title)
    assert "…" not in "".join(lines)


def test_cjk_and_combining_marks_are_counted_in_cells():
    cjk = "大" * 60  # 120 cells: two lines at 100 (96 cells each for the title)
    first, second = wrap_title(cjk, 96)
    assert (first, second) == ("大" * 48, "大" * 12)
    marked = "e\u0301" * 96  # 192 characters in 96 cells: one line
    assert wrap_title(marked, 96) == (marked,)


def test_a_title_too_long_for_two_lines_ends_in_an_ellipsis_after_a_word():
    title = " ".join(["transformer"] * 30)
    first, second = wrap_title(title, 56)
    assert cell_len(first) <= 56 and cell_len(second) <= 56
    assert second.endswith("transformer…")
    assert title_shown(RowText("x", title), 60).endswith("…")


def test_the_dim_line_shows_what_is_known():
    bare = lines_of(RowText("x", "T", people="Ada Lovelace"), 120)[1].strip()
    assert bare == "Ada Lovelace"
    row = RowText("x", "T", people="A B", affiliation="MIT", badge="Spotlight", when="Tue 23 Jul")
    assert lines_of(row, 120)[1].strip() == "A B · MIT · Spotlight · Tue 23 Jul"
    row = row._replace(collection="ICML 2024")
    assert "ICML 2024" not in lines_of(row, 120)[1]
    assert lines_of(row, 120, show_collection=True)[1].strip().endswith("· ICML 2024")


def test_a_long_dim_line_leaves_out_collection_then_session_then_affiliation():
    row = ICML._replace(collection="ICML 2024 Conference Papers")
    line = lines_of(row, 59, show_collection=True)[2]
    assert cell_len(line) == 59
    assert line.strip() == "Jesse Farrow, Quentin Vuillemot et al. · Oral"
    wide = lines_of(row, 200, show_collection=True)[1].strip()  # a one-line title
    assert wide.endswith("· Oral 6B Reinforcement Learning · ICML 2024 Conference Papers")
    alone = lines_of(RowText("x", "T", people="A" * 80, badge="Oral"), 60)[1]
    assert alone.rstrip().endswith("A…") and cell_len(alone) == 60


@pytest.mark.parametrize(("decision", "mark"), sorted(DECISION_MARKS.items()))
def test_the_decision_has_its_own_mark_in_both_densities(decision, mark):
    assert text_of(row_cells(ICML, 80, decision=decision))[:MARKS_WIDTH] == f"  {mark} "
    assert lines_of(ICML, 120, decision=decision)[0][:MARKS_WIDTH] == f"  {mark} "
    assert {mark for mark in DECISION_MARKS.values()} == {"✓", "?", "✗"}
    assert all(cell_len(mark) == 1 for mark in DECISION_MARKS.values())


def test_row_text_gives_the_dim_line_its_parts():
    paper = Paper(
        "k",
        "ICML 2024",
        "abstract",
        title="T",
        authors=["Ada Lovelace", "Charles Babbage", "Alan Turing"],
        affiliations=["University of London", "Cambridge"],
        year=2024,
        status="Spotlight",
        session="Poster Session 3",
        start="2024-07-24T11:30:00+02:00",
    )
    text = row_text(Row("k", paper))
    assert text.people == "Ada Lovelace, Charles Babbage et al."
    assert (text.affiliation, text.badge, text.when) == (
        "University of London",
        "Spotlight",
        "Poster Session 3",
    )
    paper.session = ""
    assert row_text(Row("k", paper)).when == "Wed 24 Jul"  # the day, else the year
    paper.start, paper.status, paper.affiliations = "", "Poster", []
    assert row_text(Row("k", paper))[5:] == ("Ada Lovelace, Charles Babbage et al.", "", "", "2024")


def test_people_and_day():
    assert people(["A B"]) == "A B" and people(["A B", "C D"]) == "A B, C D"
    assert people([]) == "" and people(["A", "B", "C"]) == "A, B et al."
    assert day("2025-12-03T11:00:00-08:00") == "Wed 3 Dec"
    assert day("soon") == "soon"


_TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=160).map(
    lambda text: " ".join(text.split())
)


@settings(max_examples=300, deadline=None)
@given(
    title=_TEXT,
    names=st.lists(_TEXT, max_size=4),
    extra=st.tuples(_TEXT, _TEXT, _TEXT, _TEXT),
    width=st.integers(100, 240),
    collection=st.booleans(),
)
def test_any_comfortable_row_fills_its_width_and_keeps_a_short_title(
    title, names, extra, width, collection
):
    affiliation, badge, when, coll = extra
    row = RowText(
        "x", title, "", coll, people=people(names), affiliation=affiliation, badge=badge, when=when
    )
    lines = lines_of(row, width, bookmarked=True, decision="maybe", show_collection=collection)
    assert len(lines) == ROW_LINES
    assert [cell_len(line) for line in lines] == [width] * ROW_LINES
    if cell_len(title) < 140:
        assert words(title_shown(row, width)) == words(title)


@settings(max_examples=300, deadline=None)
@given(title=_TEXT, room=st.integers(1, 120))
def test_a_title_of_up_to_twice_the_room_less_one_is_never_cut(title, room):
    lines = wrap_title(title, room)
    assert 1 <= len(lines) <= 2 and all(cell_len(line) <= room for line in lines)
    if cell_len(title) <= 2 * room - 1:
        assert words("".join(lines)) == words(title)
    elif cell_len(title) > 2 * room:
        assert lines[-1].endswith("…")
