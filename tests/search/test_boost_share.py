"""The any-word ranking's boosts, weighed by the share of the query's words their field holds
in each paper."""

from __future__ import annotations

import pytest

from paperterm.index.search.boost_share import boost_share, shared_boosts
from paperterm.index.search.plan import Term


@pytest.mark.parametrize(
    ("held", "words", "share"),
    [(1, 3, 1 / 9), (2, 3, 4 / 9), (3, 3, 1.0), (4, 3, 1.0), (1, 1, 1.0)],
)
def test_a_field_holding_a_share_of_the_words_adds_that_share_squared(held, words, share):
    assert boost_share(held, words) == pytest.approx(share)


def test_shared_boosts_weigh_each_field_by_the_words_it_holds_in_each_paper():
    """Paper 1's title holds two of the three words, paper 2's one (and its name one)."""
    boosts = (Term("given_title", "graph"), Term("given_title", "kernel"), Term("name", "graph"))
    found = [{1: 2.0, 2: 2.0}, {1: 3.0}, {2: 1.0}]
    shared = shared_boosts(boosts, found, 3)
    assert shared == [
        {1: pytest.approx(2.0 * 4 / 9), 2: pytest.approx(2.0 / 9)},
        {1: pytest.approx(3.0 * 4 / 9)},
        {2: pytest.approx(1.0 / 9)},
    ]
    assert found == [{1: 2.0, 2: 2.0}, {1: 3.0}, {2: 1.0}]  # new dicts
    assert shared_boosts(boosts, found, 1) == found
