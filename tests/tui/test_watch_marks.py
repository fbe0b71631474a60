"""The watch list's marks (tui/watch_marks.py): the papers found, the words' places in a
text (folded as index/planning/watch.py folds: accents and case dropped, whole words), and
the rows' cells split around what is watched."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from paperterm.index.papers import Paper
from paperterm.index.planning.watch import WatchList, fold
from paperterm.tui.rows import RowText, row_cells
from paperterm.tui.watch_marks import (
    ROLE,
    find_marks,
    folded_with_places,
    text_spans,
    words_pattern,
)


def paper(paper_id: str, title: str, authors: list[str], abstract: str = "") -> Paper:
    return Paper(id=paper_id, title=title, abstract=abstract, authors=authors, collection="test")


PAPERS = [
    paper("a", "Graph Diffusion", ["Ada Lovelace", "Jürgen Müller"]),
    paper("b", "Tabular Priors", ["Jurgen Muller"]),
    paper("c", "Sparse Attention", ["Alan Turing", "Ada Lovelace"]),
    paper("d", "Robust Agents", ["Barbara Liskov"], "a diffusion model of errors"),
    paper("e", "Shortest Paths", ["Edsger Dijkstra"], "diffusions and graphs"),
]


def spans_text(pattern_words: list[str], text: str) -> list[str]:
    return [text[a:b] for a, b in text_spans(words_pattern(pattern_words), text)]


def test_a_word_matches_whatever_its_accents_and_case():
    assert spans_text(["Müller"], "Muller, MÜLLER and Müller met Mueller") == [
        "Muller",
        "MÜLLER",
        "Müller",
    ]
    assert spans_text(["muller"], "Jürgen Müller") == ["Müller"]


def test_a_word_matches_whole_words_only():
    assert spans_text(["graph"], "Graph graphs subgraph graph-based graph.") == [
        "Graph",
        "graph",
        "graph",
    ]


def test_a_phrase_matches_across_white_space_and_wins_over_its_first_word():
    text = "a diffusion\n  model, a diffusion process"
    assert spans_text(["diffusion", "diffusion model"], text) == [
        "diffusion\n  model",
        "diffusion",
    ]


def test_a_decomposed_accent_stays_with_its_letter():
    text = "Mu\u0308ller and cafe\u0301"
    assert spans_text(["müller", "café"], text) == ["Mu\u0308ller", "cafe\u0301"]


@given(st.text(max_size=40))
def test_places_point_at_the_characters_folded(text):
    folded, places = folded_with_places(text)
    assert len(folded) == len(places)
    assert places == sorted(places)
    assert all(0 <= place < len(text) for place in places)
    assert folded == "".join(fold(char) for char in text)


@given(st.text(min_size=1, max_size=12), st.text(max_size=40))
def test_every_span_folds_to_the_watched_word(word, text):
    pattern = words_pattern([word])
    for start, end in text_spans(pattern, text):
        assert " ".join(fold(text[start:end]).split()) == " ".join(fold(word).split())


def test_find_marks_follows_the_matcher():
    marks = find_marks(WatchList(authors=("Jürgen Müller",), words=("diffusion",)), PAPERS)
    assert marks.ids == ["a", "b", "d"]  # "diffusions" in e is another word
    assert marks.first_author == {"b"}
    assert marks.other_author == {"a"}
    assert marks.author_positions(PAPERS[0]) == {1: "author:Jürgen Müller"}


def test_nothing_watched_marks_nothing():
    marks = find_marks(WatchList(), PAPERS)
    assert marks.ids == []
    cells = row_cells(RowText("a", "Graph Diffusion", "Lovelace et al. 2025"), 80)
    assert marks.mark_row("a", cells) == cells


def watched_texts(cells) -> list[str]:
    return [text for text, role in cells if role == ROLE]


def test_a_row_marks_its_title_words_and_its_byline():
    marks = find_marks(WatchList(authors=("Ada Lovelace",), words=("diffusion",)), PAPERS)
    first = row_cells(RowText("a", "Graph Diffusion", "Lovelace et al. 2025"), 80)
    marked = marks.mark_row("a", first)
    assert watched_texts(marked) == ["Diffusion", "Lovelace"]
    assert "".join(text for text, _ in marked) == "".join(text for text, _ in first)
    other = row_cells(RowText("c", "Sparse Attention", "Turing et al. 2025"), 80)
    assert watched_texts(marks.mark_row("c", other)) == ["et al."]
    alone = row_cells(RowText("b", "Tabular Priors", "Muller 2025"), 80)
    assert watched_texts(marks.mark_row("b", alone)) == []


def test_a_comfortable_rows_people_mark_each_watched_author_they_name():
    three = paper("f", "Long Proofs", ["Alan Turing", "Jürgen Müller", "Ada Lovelace"])
    cells = [("Alan Turing, Jürgen Müller et al.", "byline")]
    marks = find_marks(WatchList(authors=("Jurgen Muller",)), [*PAPERS, three])
    assert watched_texts(marks.mark_row("f", cells, three)) == ["Jürgen Müller"]
    marks = find_marks(WatchList(authors=("Ada Lovelace",)), [*PAPERS, three])
    assert watched_texts(marks.mark_row("f", cells, three)) == ["et al."]
    marks = find_marks(WatchList(authors=("Alan Turing", "Ada Lovelace")), [*PAPERS, three])
    marked = marks.mark_row("f", cells, three)
    assert watched_texts(marked) == ["Alan Turing", "et al."]
    assert "".join(text for text, _ in marked) == cells[0][0]


@given(
    st.text(max_size=60),
    st.lists(st.text(min_size=1, max_size=10), max_size=3),
    st.booleans(),
    st.integers(min_value=0, max_value=120),
)
def test_marking_a_row_keeps_its_text_and_width(title, words, first, width):
    marks = find_marks(WatchList(words=tuple(words)), [])
    if first:
        marks.first_author = frozenset({"x"})
    else:
        marks.other_author = frozenset({"x"})
    cells = row_cells(RowText("x", title, "Lovelace et al. 2025"), width)
    marked = marks.mark_row("x", cells)
    assert "".join(text for text, _ in marked) == "".join(text for text, _ in cells)
    assert all(text for text, role in marked if role == ROLE)
