"""Facet counts over a set of papers (index/library/facets.py)."""

from __future__ import annotations

from datetime import datetime, timezone

from hypothesis import given
from hypothesis import strategies as st

from paperterm.index.library.bookmarks import Bookmark
from paperterm.index.library.facets import FACETS, count_facets, facet_ids
from paperterm.index.library.filters import Filters, allowed_ids
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


FACET_PAPERS = st.lists(
    st.tuples(
        st.sampled_from(["", "Oral", "Poster"]),
        st.sampled_from(["", "Session A", "Session B"]),
        st.lists(st.sampled_from(["x", "y", "z"]), max_size=2, unique=True),
        st.sampled_from([None, "keep", "skip"]),
        st.booleans(),
        st.lists(st.sampled_from(["later", "rl"]), max_size=2, unique=True),
    ),
    max_size=20,
)


def facet_world(rows):
    papers = [
        paper(f"p{i}", status=status, session=session, collections=collections or ["conf"])
        for i, (status, session, collections, _, _, _) in enumerate(rows)
    ]
    decisions = {f"p{i}": row[3] for i, row in enumerate(rows) if row[3]}
    read = {f"p{i}" for i, row in enumerate(rows) if row[4]}
    marks = {f"p{i}": Bookmark(f"p{i}", WHEN, tags=tuple(row[5])) for i, row in enumerate(rows)}
    return papers, marks, decisions, read


@given(FACET_PAPERS)
def test_choosing_a_value_keeps_as_many_papers_as_it_counts(rows):
    papers, marks, decisions, read = facet_world(rows)
    found = count_facets(papers, marks, decisions, read)
    for facet, values in found.items():
        for value, count in values.items():
            assert len(facet_ids(papers, [(facet, value)], marks, decisions, read)) == count


@given(FACET_PAPERS, st.data())
def test_values_chosen_together_keep_the_papers_with_each(rows, data):
    papers, marks, decisions, read = facet_world(rows)
    found = count_facets(papers, marks, decisions, read)
    pairs = [(facet, value) for facet, values in found.items() for value in values]
    chosen = data.draw(st.lists(st.sampled_from(pairs), max_size=3)) if pairs else []
    expected = {paper.id for paper in papers}
    for pair in chosen:
        expected &= facet_ids(papers, [pair], marks, decisions, read)
    assert facet_ids(papers, chosen, marks, decisions, read) == expected


def test_an_unknown_facet_keeps_nothing():
    assert facet_ids([paper("a", status="Oral")], [("colour", "red")], {}, {}, ()) == set()


def test_allowed_ids_applies_the_facets_with_the_other_filters():
    papers = [
        paper("a", status="Oral"),
        paper("b", status="Oral"),
        paper("c", status="Poster"),
    ]
    oral = Filters(facets=(("status", "Oral"),))
    assert oral.active
    assert allowed_ids(papers, {}, oral) == {"a", "b"}
    unread_oral = oral._replace(unread_only=True)
    assert allowed_ids(papers, {}, unread_oral, read={"a"}) == {"b"}
    kept = oral._replace(facets=(("status", "Oral"), ("decision", "keep")))
    assert allowed_ids(papers, {}, kept, decisions={"b": "keep", "c": "keep"}) == {"b"}


class RowsOnly(list):
    """Papers whose ids come from their rows (as a `PaperList`'s): reading a paper fails."""

    def __init__(self, ids):
        super().__init__()
        self.ids = tuple(ids)

    def __iter__(self):
        raise AssertionError("a paper was read")


def test_library_facets_narrow_from_the_ids_without_reading_a_paper():
    papers = RowsOnly(["a", "b", "c"])
    marks = {"a": Bookmark("a", WHEN, tags=("later",)), "gone": Bookmark("gone", WHEN)}
    chosen = [("read", "unread"), ("decision", "none"), ("tag", "later")]
    assert facet_ids(papers, chosen, marks, {"b": "keep"}, {"c"}) == {"a"}
    assert facet_ids(papers, [("decision", "keep")], marks, {"b": "keep", "x": "keep"}, ()) == {"b"}
