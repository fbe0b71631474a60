"""Typo correction, against the made-up index of fake_index.py; then through `Searcher` on
the seeds (the corrected query runs, the original on request)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from fake_index import PAPERS, WORDS, planner

from paperterm.index.search.correction import MAX_LOOKUPS, PASTED_WORDS, RARE_RATIO, Corrector
from paperterm.index.search.query import parse_query


def correct(text: str, words: dict[str, int] = WORDS, papers: int = PAPERS):
    made = replace(planner(words=words), papers=papers)
    return Corrector(made).correct(parse_query(text))


def corrected(text: str, words: dict[str, int] = WORDS, papers: int = PAPERS) -> str | None:
    found = correct(text, words, papers)
    return None if found is None else found.text


def test_a_word_no_paper_has_becomes_its_most_common_neighbour():
    found = correct("grahp transfomer ")
    assert found is not None
    assert found.text == "graph transformer "
    assert found.changes == (("grahp", "graph"), ("transfomer", "transformer"))
    assert [clause.text for clause in found.parsed.clauses] == ["graph", "transformer"]


def test_the_rest_of_the_query_and_the_case_are_kept():
    assert corrected('Grahp -"long context" title:Grpah DIFUSION ') == (
        'Graph -"long context" title:Graph DIFFUSION '
    )
    # A field's words come from that field: no title holds "transformer".
    assert corrected("title:transfomer ") is None


def test_two_edits_only_for_long_words_that_no_paper_has():
    assert corrected("trnsfomer ") == "transformer "  # 9 letters, 2 edits
    assert corrected("gruph ") == "graph "  # 1 edit
    assert corrected("grupp ") is None  # 2 edits are too many for a short word


def test_words_the_index_finds_are_no_typos():
    assert corrected("transformers contexts ") is None  # found through their stems
    assert corrected("complementa ") is None  # finds "complementarity" as a prefix
    assert corrected("graph ") is None


def test_a_rare_word_beside_a_common_neighbour_is_a_typo_of_it():
    rare = {**WORDS, "nueral": 2}
    papers = 4 * RARE_RATIO
    assert corrected("graph nueral ", {**rare, "neural": 2 * RARE_RATIO - 1}, papers) is None
    assert corrected("graph nueral ", {**rare, "neural": 2 * RARE_RATIO}, papers) == (
        "graph neural "
    )
    # In a corpus too small for a neighbour to be RARE_RATIO times as common, never.
    assert (
        corrected("graph nueral ", {**rare, "neural": 2 * RARE_RATIO}, 2 * RARE_RATIO - 1) is None
    )


def test_quoted_equals_fuzzy_prefix_and_short_words_are_left_alone():
    for text in ('"grahp" ', "=grahp ", "grahp~ ", "grah* ", "grp ", "-=grahp "):
        assert corrected(text) is None, text


@pytest.mark.parametrize("text", ["Grahp2 ", "GrAhp ", "gRahp ", "grahp-2 ", "GrahpNet"])
def test_a_token_with_a_digit_or_an_inner_capital_is_never_corrected(text):
    assert corrected(text) is None


def test_the_word_being_typed_is_corrected_only_when_no_word_starts_with_it():
    assert corrected("transf") is None  # a prefix of "transformer"
    found = correct("graph transfomer")
    assert found is not None and found.text == "graph transformer"
    assert found.parsed.clauses[-1].partial  # still being typed


def test_a_few_words_are_looked_up_per_query():
    found = correct("grahp transfomer contxet difusion tunnig ")
    assert found is not None and MAX_LOOKUPS == 3
    assert found.text == "graph transformer context difusion tunnig "


def test_a_pasted_title_is_searched_as_written():
    typed = ["grahp", "transfomer", "for", "graph", "tuning"]
    assert len(typed) == PASTED_WORDS - 1
    assert corrected(" ".join(typed) + " ") == "graph transformer for graph tuning "
    assert corrected(" ".join([*typed, "context"]) + " ") is None


# --- through the searcher ---------------------------------------------------------------------


def test_the_corrected_query_runs_and_says_what_it_changed(seed_searcher):
    results = seed_searcher.search("trasnformer models ", limit=50)
    assert results.corrected == "transformer models "
    assert results.corrections == [("trasnformer", "transformer")]
    assert results.ids == seed_searcher.search("transformer models ", limit=50).ids
    assert results.total > 0


@pytest.mark.parametrize(
    ("text", "exact"), [("trasnformer models ", True), ("=trasnformer models ", False)]
)
def test_the_original_query_on_request(seed_searcher, text, exact):
    results = seed_searcher.search(text, limit=None, exact=exact)
    assert results.corrected == "" and results.corrections == []
    # "trasnformer" matches nothing: the papers with most of the words (here "models").
    assert set(results.ids) == set(seed_searcher.search("models ", limit=None).ids)


def test_words_that_cannot_be_typos_spend_no_look_up():
    """Known words too common for a neighbour to be RARE_RATIO times as common are not looked
    up: a typo after many of them is still corrected."""
    found = correct("graph transformer context long grahp ")
    assert found is not None and found.changes == (("grahp", "graph"),)
