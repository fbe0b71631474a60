"""Facet counts over a set of papers (index/library/facets.py)."""

from __future__ import annotations

from datetime import datetime, timezone

from hypothesis import given
from hypothesis import strategies as st

from paperterm.index.library.bookmarks import Bookmark
from paperterm.index.library.facets import FACETS, count_facets
from paperterm.index.papers import Paper

WHEN = datetime(2025, 1, 1, tzinfo=timezone.utc)


def paper(pid: str, **fields: object) -> Paper:
    return Paper(id=pid, collection="conf", abstract="a", **fields)  # type: ignore[arg-type]


def test_each_facet_counts_its_values_most_first():
    papers = [
        paper("a", status="Oral", type="Oral", session="Orals 1", topic="RL", track="Main"),
        paper("b", status="Poster", session="Posters", topic="RL", collections=["x", "y"]),
        paper("c", status="Poster", start="2025-12-05T10:00:00-08:00"),
        paper("d"),
    ]
    marks = {"a": Bookmark("a", WHEN, tags=("later", "rl")), "b": Bookmark("b", WHEN)}
    found = count_facets(papers, marks, {"a": "keep", "c": "skip"}, {"a", "c"})
    assert list(found) == list(FACETS)
    assert found["status"] == {"Poster": 2, "Oral": 1}
    assert list(found["status"]) == ["Poster", "Oral"]
    assert found["type"] == {"Oral": 1}
    assert found["session"] == {"2025-12-05": 1, "Orals 1": 1, "Posters": 1}
    assert found["topic"] == {"RL": 2}
    assert found["track"] == {"Main": 1}
    assert found["collection"] == {"conf": 3, "x": 1, "y": 1}
    assert found["tag"] == {"later": 1, "rl": 1}
    assert found["decision"] == {"keep": 1, "maybe": 0, "skip": 1, "none": 2}
    assert found["read"] == {"read": 2, "unread": 2}


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["", "Oral", "Poster"]),
            st.sampled_from([None, "keep", "maybe", "skip"]),
            st.booleans(),
        ),
        max_size=30,
    )
)
def test_decision_and_read_always_add_up_to_the_total(rows):
    papers = [paper(f"p{i}", status=status) for i, (status, _, _) in enumerate(rows)]
    decisions = {f"p{i}": d for i, (_, d, _) in enumerate(rows) if d}
    read = {f"p{i}" for i, (_, _, r) in enumerate(rows) if r}
    found = count_facets(papers, {}, decisions, read)
    assert sum(found["decision"].values()) == len(papers)
    assert sum(found["read"].values()) == len(papers)
    assert sum(found["status"].values()) == sum(1 for status, _, _ in rows if status)
