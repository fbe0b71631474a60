"""Filters on a conference's fields, in both engines: `status:`, `type:`, `session:`,
`topic:`, `track:`, `aff:`, `keyword:`, case-insensitive, a phrase in quotes."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_choice import ENGINES, engine_config

from paperterm.index.search.searcher import Searcher
from paperterm.index.session import Session

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "conference.json"


@pytest.fixture(scope="module", params=ENGINES)
def searcher(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Searcher:
    data = tmp_path_factory.mktemp(f"conference-{request.param}")
    opened, _ = Session.create(data, [FIXTURE], engine_config(request.param)).open()
    return Searcher(opened.ix, opened.papers, opened.vocabulary())


def found(searcher: Searcher, query: str) -> set[str]:
    return {hit.paper.id for hit in searcher.search(query, limit=10).hits}


@pytest.mark.parametrize(
    ("query", "ids"),
    [
        ("status:oral", {"vs-101"}),
        ("STATUS:Oral ", {"vs-101"}),
        ("type:poster", {"vs-102"}),
        ("type:tutorial", {"vs-103"}),
        ('session:"Poster Session 3"', {"vs-101"}),
        ('session:"poster session 1"', {"vs-102"}),
        ("session:poster", {"vs-101", "vs-102"}),
        ("topic:generative", {"vs-101"}),
        ('topic:"tabular data"', {"vs-102"}),
        ("aff:yale", {"vs-102"}),
        ('aff:"University of London"', {"vs-101"}),
        ('keyword:"flow matching"', {"vs-101"}),
        ("keywords:priors", {"vs-102"}),
        ("graphs status:oral", {"vs-101"}),
        ("session:poster -status:oral", {"vs-102"}),
    ],
)
def test_filters_take_the_conference_fields(searcher, query, ids):
    assert found(searcher, query) == ids


def test_a_filter_being_typed_completes_from_its_own_field(searcher):
    assert found(searcher, "status:ora") == {"vs-101"}
    assert found(searcher, "aff:yal") == {"vs-102"}


def test_a_filter_is_never_dropped_for_most_of_the_words(searcher):
    assert found(searcher, "graphs status:oral") == {"vs-101"}
    assert found(searcher, "status:poster graphs") == set()
    assert found(searcher, "status:spotlight") == set()
