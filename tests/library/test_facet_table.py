"""The facet table (index/library/facet_table.py): its counts are `count_facets`' counts,
for any papers and any list of them, without reading a paper once it is made."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone

from hypothesis import given
from hypothesis import strategies as st

from paperterm.index.library.bookmarks import Bookmark
from paperterm.index.library.facet_table import CHUNK, FacetTable, table_positions
from paperterm.index.library.facets import count_facets, facet_ids, table_of
from paperterm.index.papers import Paper

WHEN = datetime(2025, 1, 1, tzinfo=timezone.utc)
SOME = st.sampled_from(["", "A", "B"])

PAPER = st.builds(
    lambda status, kind, session, start, topic, track, collections: dict(
        status=status,
        type=kind,
        session=session,
        start=start,
        topic=topic,
        track=track,
        collections=collections,
    ),
    SOME,
    SOME,
    SOME,
    st.sampled_from(["", "2024-07-23T11:30:00+02:00", "2024-07-24"]),
    SOME,
    SOME,
    st.lists(st.sampled_from(["x", "y", "z"]), max_size=3),
)


@st.composite
def worlds(draw: st.DrawFn) -> tuple:
    """Papers (ids may repeat), some positions of them (repeats too), and the library."""
    fields = draw(st.lists(PAPER, min_size=1, max_size=12))
    papers = [
        Paper(id=f"p{draw(st.integers(0, 14))}", collection="x", abstract="a", **kept)
        for kept in fields
    ]
    positions = draw(st.lists(st.integers(0, len(papers) - 1), max_size=20))
    ids = sorted({paper.id for paper in papers} | {"gone"})
    marks = {
        i: Bookmark(i, WHEN, tags=tuple(draw(st.lists(st.sampled_from(["t", "u"]), max_size=2))))
        for i in draw(st.lists(st.sampled_from(ids), unique=True))
    }
    decisions = draw(st.dictionaries(st.sampled_from(ids), st.sampled_from(["keep", "skip"])))
    read = set(draw(st.lists(st.sampled_from(ids))))
    topics = draw(st.none() | st.dictionaries(st.sampled_from(ids), st.sampled_from(["T", "U"])))
    return papers, positions, marks, decisions, read, topics


def in_order(counts: dict[str, dict[str, int]]) -> list[tuple[str, list[tuple[str, int]]]]:
    """The counts with their order (most first, then by value) made part of the value."""
    return [(facet, list(values.items())) for facet, values in counts.items()]


@given(worlds())
def test_the_tables_counts_are_count_facets_counts(world):
    papers, positions, marks, decisions, read, topics = world
    table = FacetTable.of(papers)
    expected = count_facets([papers[i] for i in positions], marks, decisions, read, topics=topics)
    found = table.count(positions, marks, decisions, read, topics=topics)
    assert in_order(found) == in_order(expected)
    everything = count_facets(papers, marks, decisions, read, topics=topics)
    assert in_order(table.count(None, marks, decisions, read, topics=topics)) == in_order(
        everything
    )


class Counting(Sequence[Paper]):
    """Papers that count how many times one is read."""

    def __init__(self, papers: list[Paper]) -> None:
        self.papers = papers
        self.reads = 0

    def __len__(self) -> int:
        return len(self.papers)

    def __getitem__(self, index):  # type: ignore[override]
        self.reads += 1
        return self.papers[index]


def test_counting_reads_no_paper_and_pauses_between_chunks():
    papers = Counting(
        [
            Paper(
                id=f"p{i}",
                collection="c",
                abstract="a",
                status=("Oral", "Poster")[i % 2],
                collections=["c"],
            )
            for i in range(CHUNK + 5)
        ]
    )
    pauses: list[int] = []
    table = FacetTable.of(papers, pause=lambda: pauses.append(1))
    assert papers.reads == len(papers) and len(pauses) == 2
    papers.reads = 0
    pauses.clear()
    counts = table.count(None, {}, {}, set(), pause=lambda: pauses.append(1))
    assert papers.reads == 0 and len(pauses) == 2
    assert counts["status"] == {"Poster": (CHUNK + 5) // 2, "Oral": (CHUNK + 6) // 2}
    assert counts["collection"] == {"c": CHUNK + 5}


def test_positions_of_ids_or_none_when_one_is_not_in_the_table():
    table = FacetTable.of(
        [Paper(id="a", collection="c", abstract="x"), Paper(id="b", collection="c", abstract="y")]
    )
    assert table_positions(table, ["b", "a", "b"]) == [1, 0, 1]
    assert table_positions(table, ["a", "gone"]) is None


CHOICES = st.lists(
    st.tuples(
        st.sampled_from(["status", "type", "session", "topic", "track", "collection", "read"]),
        st.sampled_from(["", "A", "B", "x", "y", "2024-07-24", "read", "unread"]),
    ),
    max_size=3,
)


@given(worlds(), CHOICES)
def test_narrowing_from_the_table_keeps_what_reading_the_papers_keeps(world, chosen):
    papers, _, marks, decisions, read, topics = world
    expected = facet_ids(list(papers), chosen, marks, decisions, read, topics=topics)
    table = FacetTable.of(papers)
    assert table_of(papers) is table and table_of(list(papers)) is None
    assert facet_ids(papers, chosen, marks, decisions, read, topics=topics) == expected


def test_narrowing_from_the_table_reads_no_paper():
    papers = Counting(
        [Paper(id=f"p{i}", collection="c", abstract="a", status="Oral" * (i % 2)) for i in range(9)]
    )
    table = FacetTable.of(papers)
    papers.reads = 0
    assert facet_ids(papers, [("status", "Oral")], {}, {}, set()) == {"p1", "p3", "p5", "p7"}
    assert papers.reads == 0
    del table
    assert table_of(papers) is None
