"""Titles in the ranking, with each engine: a title the source gave lifts its paper, for a
query of any length, while a headline derived from an untitled paper's abstract is neither
boosted as a title nor counted again beside the text it comes from."""

from __future__ import annotations

import json

import pytest
from engine_choice import engine_config

from paperterm.index.papers import Paper
from paperterm.index.search.searcher import Searcher
from paperterm.index.search.whoosh.index import documents_digest, paper_document
from paperterm.index.session import Session

PAPERS = [
    {
        "title": "Sparse Graph Kernels",
        "abstract": "We study a long list of things: proteins, molecules, networks, "
        "learning, optimisation, inference, sampling and estimation, among a great many "
        "other topics and methods.",
    },
    {
        "abstract": "Kernels on sparse graph structures, studied in a short note.",
    },
    {
        "abstract": "Zebra stripes as camouflage. We measure how zebra herds confuse "
        "predators in open grassland.",
    },
    {
        "title": "Herd Motion",
        "abstract": "How herds of zebra and other grazing animals move across grassland.",
    },
    {
        "title": "Optical Flow for Electrode Tracking",
        "abstract": "Electrodes are tracked in X-ray sequences with optical flow: the flow "
        "between adjacent frames is estimated, and the flow maps guide the tracker.",
    },
    {
        "abstract": "Polyps are segmented in colonoscopy videos by an innovative network that "
        "follows the flow of the scene, so that segmentations agree across frames.",
    },
]


@pytest.fixture(scope="module")
def searcher(engine: str, tmp_path_factory: pytest.TempPathFactory) -> Searcher:
    folder = tmp_path_factory.mktemp(f"titles-{engine}")
    source = folder / "papers.json"
    source.write_text(json.dumps(PAPERS), encoding="utf-8")
    opened, _ = Session.create(folder / "data", [source], engine_config(engine)).open()
    return Searcher(opened.ix, opened.papers, opened.vocabulary())


def _texts(searcher: Searcher, query: str) -> list[str]:
    return [hit.paper.text for hit in searcher.search(query, limit=None, snippets=False).hits]


def test_a_derived_headline_is_not_indexed_as_a_boosted_title(searcher):
    untitled = next(paper for paper in searcher.papers if paper.text.startswith("Zebra"))
    assert untitled.title_derived and "zebra" in untitled.title.lower()
    assert searcher.engine.df("all", "zebra") == 2
    assert searcher.engine.df("given_title", "zebra") == 0
    assert searcher.engine.df("given_title", "herd") == 1


def test_title_queries_still_find_a_derived_headline(searcher):
    """`title:` searches the titles shown, derived or not (without boosting the derived)."""
    assert _texts(searcher, "title:zebra")[0].startswith("Zebra stripes")
    assert _texts(searcher, "title:zeb")[0].startswith("Zebra stripes")


def test_a_real_title_lifts_its_paper_for_three_words(searcher):
    """Three words list every paper with any of them by score: the paper titled with them
    (and a long abstract without them) ranks above a short abstract holding them once."""
    found = _texts(searcher, "sparse graph kernels")
    assert found[0].startswith("We study a long list")
    assert found[1].startswith("Kernels on sparse")


def test_a_title_holding_one_word_of_three_ranks_below_an_abstract_holding_all(searcher):
    """A title lifts its paper by the share of the query's words it holds: one of three
    lifts it a ninth as much as all three, so the paper holding every word comes first."""
    found = _texts(searcher, "flow innovative frames")
    assert found[0].startswith("Polyps are segmented")
    assert found[1].startswith("Electrodes are tracked")


def test_whether_a_title_is_derived_changes_the_documents_digest():
    """A part is kept by its documents' digest: the title field differs with derivation."""
    paper = Paper(id="p", collection="c", abstract="Zebra stripes.", title="Zebra stripes")
    given = documents_digest([paper])
    paper.title_derived = True
    assert documents_digest([paper]) != given


def test_a_derived_headline_is_not_counted_again_in_the_searched_text():
    paper = Paper(id="p", collection="c", abstract="Zebra stripes.", text="Zebra stripes.")
    paper.title, paper.title_derived = "Zebra stripes", True
    assert "Zebra stripes" not in paper_document(paper)["all"][:2]
    paper.title_derived = False
    assert paper_document(paper)["all"][1] == "Zebra stripes"
