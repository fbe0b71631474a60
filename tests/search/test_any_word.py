"""Searching a few hand-written papers with each engine: the any-word fallback lists every
paper holding any word of the query (by score, never one dropped), a query of three words
or more ranks by score the papers with any of them, and math written with super- or
subscripts is found by its plain letters."""

from __future__ import annotations

import json

import pytest
from engine_choice import engine_config

from paperterm.index.search.plan import BEST_MATCH_NOTE
from paperterm.index.search.searcher import Searcher
from paperterm.index.session import Session

PAPERS = [
    {
        "title": "Online Newton Method for Bandit Convex Optimisation",
        "abstract": "We give an online Newton method for bandit convex optimisation, with a "
        "regret bound that grows with the square root of the horizon.",
    },
    {
        "title": "Planning by Search",
        "abstract": "This extended abstract is the workshop version of our planning work.",
    },
    {
        "title": "Graph Networks",
        "abstract": "An extended abstract on graph networks, in its workshop version.",
    },
    {
        "title": "Protein Folding",
        "abstract": "Folding proteins with language models trained on sequences.",
    },
    {
        "title": "S²IP-LLM: Semantic Space Informed Prompt Learning",
        "abstract": "We propose S²IP-LLM, which aligns time series with the semantic space of "
        "a language model; it also reads x₁ and H₂O and the energy E=mc².",
    },
    {
        "title": "Rare Lung Findings",
        "abstract": "Scans show the rare lung condition.Radiologists seldom meet it.",
    },
    {
        "title": "A Survey of Many Fields",
        "abstract": "A long survey of many methods across numerous fields and communities: "
        "it mentions bandit problems, online settings and protein design in passing, among "
        "a great many other topics, with broad coverage of everything written so far.",
    },
]


@pytest.fixture(scope="module")
def searcher(engine: str, tmp_path_factory: pytest.TempPathFactory) -> Searcher:
    folder = tmp_path_factory.mktemp(f"any-word-{engine}")
    source = folder / "papers.json"
    source.write_text(json.dumps(PAPERS), encoding="utf-8")
    opened, _ = Session.create(folder / "data", [source], engine_config(engine)).open()
    return Searcher(opened.ix, opened.papers, opened.vocabulary())


def _title(searcher: Searcher, query: str) -> list[str]:
    return [hit.paper.title for hit in searcher.search(query, limit=None, snippets=False).hits]


def test_a_pasted_title_with_words_its_paper_lacks_finds_it_first(searcher):
    pasted = "Online Newton Method for Bandit Convex Optimisation Extended Abstract"
    found = _title(searcher, pasted)
    assert found[0] == "Online Newton Method for Bandit Convex Optimisation"


def test_the_fallback_keeps_a_paper_holding_a_minority_of_the_words(searcher):
    """One or two of six words, none with all: every paper with any is listed, by score."""
    results = searcher.search("newton bandit extended abstract workshop version ", limit=None)
    titles = [hit.paper.title for hit in results.hits]
    assert results.notes == [BEST_MATCH_NOTE]
    assert sorted(titles) == [
        "A Survey of Many Fields",
        "Graph Networks",
        "Online Newton Method for Bandit Convex Optimisation",
        "Planning by Search",
    ]
    scores = [hit.score for hit in results.hits]
    assert scores == sorted(scores, reverse=True) and results.total == 4


def test_two_of_three_words_written_often_rank_above_all_three_in_passing(searcher):
    """The survey holds all three words once in a long abstract; the Newton paper two of
    them in its title and its short abstract: it ranks first, and the protein paper, with
    one, is listed too."""
    results = searcher.search("bandit online protein ", limit=None, snippets=False)
    titles = [hit.paper.title for hit in results.hits]
    assert titles[0] == "Online Newton Method for Bandit Convex Optimisation"
    assert set(titles[1:]) == {"A Survey of Many Fields", "Protein Folding"}
    assert results.notes == []


@pytest.mark.parametrize(
    "query", ["S2IP", "s2ip-llm", "S2IP-LLM", "x1", "H2O", "mc2", "S²IP-LLM", "h₂o"]
)
def test_super_and_subscripts_are_found_by_their_plain_letters(searcher, query):
    results = searcher.search(query + " ", limit=None, snippets=False)
    assert [hit.paper.title for hit in results.hits] == [PAPERS[4]["title"]]
    assert results.suggestion == "" and results.corrected == ""


def test_the_plain_letters_highlight_the_written_scripts(searcher):
    results = searcher.search("s2ip h2o ", limit=1)
    text = results.hits[0].paper.text
    assert {text[start:end] for start, end in results.matcher.spans(text)} == {"S²IP", "H₂O"}


@pytest.mark.parametrize("query", ["condition", "radiologists", "lung condition radiologists"])
def test_a_sentence_glued_to_the_one_before_is_found_by_either_word(searcher, query):
    assert _title(searcher, query)[0] == "Rare Lung Findings"
    found = searcher.search(query, limit=1, snippets=False).hits[0].paper
    assert "condition. Radiologists" in found.text
