"""A letter warmed with the reader's limit (`Searcher.warm_typing`) is answered, as a whole
query, from the results kept then: the same answer as a search, without searching again."""

from __future__ import annotations

import string

import pytest

from paperterm.index.search.open_index import OpenIndex
from paperterm.index.search.records import PaperList
from paperterm.index.search.searcher import Searcher

LIMIT = 7


def _answer(results):
    return (
        results.query,
        results.ids,
        [hit.score for hit in results.hits],
        results.total,
        results.notes,
        results.suggestion,
        results.corrected,
        results.corrections,
    )


def _searcher(opened: OpenIndex) -> Searcher:
    return Searcher(opened.ix, opened.papers, opened.vocabulary())


def test_a_warmed_letter_is_answered_as_a_search_is_without_searching(seed_index, monkeypatch):
    fresh = _searcher(seed_index)
    warmed = _searcher(seed_index)
    papers = seed_index.papers
    assert isinstance(papers, PaperList)
    loaded = sum(paper is not None for paper in papers._loaded)
    for letter in string.ascii_lowercase:
        warmed.warm_typing(letter, LIMIT)
    # no paper read: only those of the letter typed are, when it is
    assert sum(paper is not None for paper in papers._loaded) == loaded

    def no_search(*args: object) -> None:
        raise AssertionError("searched again")

    monkeypatch.setattr(warmed.engine, "collect", no_search)
    matched = 0
    for letter in string.ascii_lowercase:
        expected = fresh.search(letter, limit=LIMIT, snippets=False)
        answer = warmed.search(letter, limit=LIMIT, snippets=False)
        assert _answer(answer) == _answer(expected)
        assert answer.hits is not warmed.search(letter, limit=LIMIT, snippets=False).hits
        matched += expected.total > 0
    assert matched > 10  # most letters begin words of the seeds


@pytest.mark.parametrize(
    "how",
    [
        {"limit": LIMIT + 1, "snippets": False},
        {"limit": LIMIT, "snippets": True},
        {"limit": LIMIT, "snippets": False, "exact": True},
        {"limit": LIMIT, "snippets": False, "allowed": "the first paper"},
    ],
)
def test_another_search_of_the_letter_is_searched(seed_index, monkeypatch, how):
    warmed = _searcher(seed_index)
    warmed.warm_typing("l", LIMIT)
    searched: list[object] = []
    collect = warmed.engine.collect

    def counted(*args: object) -> object:
        searched.append(args)
        return collect(*args)

    monkeypatch.setattr(warmed.engine, "collect", counted)
    if "allowed" in how:
        how = {**how, "allowed": {seed_index.papers[0].id}}
    warmed.search("l", **how)
    warmed.search("la", limit=LIMIT, snippets=False)
    assert len(searched) == 2
