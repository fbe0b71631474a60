"""Sorting a view, "like my bookmarks", saved searches and the place file (issue 13)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperterm.index.config import ConfigError, parse_config
from paperterm.index.library import sorting
from paperterm.index.library.affinity import TermVectors
from paperterm.index.library.bookmarks import BookmarkStore
from paperterm.index.library.op_store import LibraryFileError
from paperterm.index.library.place import PLACE_FILENAME, Place, load_place, save_place
from paperterm.index.library.reading import ReadingStore, mark_read
from paperterm.index.library.searches import SavedSearch, SearchesStore, all_searches
from paperterm.index.library.sorting import SORTS, SortKeys, effective_sort, next_sort
from paperterm.index.papers import Paper

PAPERS = [
    Paper("p1", "C", "x", title="beta", year=2023, arxiv_id="2301.00002"),
    Paper("p2", "C", "x", title="Alpha", year=2024, arxiv_id="2401.00001"),
    Paper("p3", "C", "x", title="gamma"),
    Paper("p4", "C", "x", title="alpha two", year=2024, arxiv_id="2402.00001"),
]
IDS = [p.id for p in PAPERS]


def order(sort: str, **kwargs) -> list[str]:
    return SortKeys(PAPERS).order(list(reversed(IDS)), str, sort, **kwargs)


def test_each_sort():
    assert order("corpus") == IDS
    assert order("relevance") == list(reversed(IDS))  # as the search gave them
    assert order("title") == ["p2", "p4", "p1", "p3"]
    assert order("unread", read={"p4": 1}) == ["p3", "p2", "p1", "p4"]
    assert order("newest") == ["p4", "p2", "p1", "p3"]
    scores = {"p1": 0.5, "p2": 0.9, "p3": 0.1}
    assert order("like", scores=scores, read={"p2"}, bookmarked={"p3"}) == ["p1", "p4", "p3", "p2"]
    with pytest.raises(ValueError, match="unknown sort"):
        order("sideways")


def test_the_cycle_has_relevance_and_corpus_order_apart_only_while_searching():
    assert list(SORTS) == ["relevance", "corpus", "title", "unread", "newest", "like"]
    assert [next_sort(s, False) for s in ("relevance", "corpus", "like")] == [
        "title",
        "title",
        "relevance",
    ]
    assert next_sort("relevance", True) == "corpus"
    assert effective_sort("relevance", False) == "corpus"
    assert effective_sort("relevance", True) == "relevance"


def abstract(*words: str) -> Paper:
    text = " ".join(words)
    return Paper(text.replace(" ", "-")[:12], "C", text, text=text, title="")


def test_like_my_bookmarks_ranks_by_shared_rare_words_and_says_which():
    seeds = [
        abstract("protein", "folding", "with", "diffusion", "models"),
        abstract("protein", "structure", "prediction", "models"),
    ]
    near = abstract("proteins", "folded", "by", "language", "models")
    far = abstract("image", "segmentation", "models")
    unrelated = abstract("graph", "coloring", "heuristics")
    vectors = TermVectors([*seeds, near, far, unrelated])
    ranking = vectors.rank([p.id for p in seeds])
    assert ranking.scores[near.id] > ranking.scores[far.id] > 0
    assert unrelated.id not in ranking.scores
    assert vectors.reasons(near.id, ranking.centroid)[:2] == ["proteins", "folded"]
    assert vectors.rank([]).scores == {}
    only = vectors.rank([seeds[0].id], candidates={far.id})
    assert set(only.scores) == {far.id}


def test_saved_searches_store_and_config(tmp_path: Path):
    store = SearchesStore.in_dir(tmp_path)
    store.load()
    store.save_search("  my   dna ", "DNA -review")
    store.save_search("mine", "x")
    store.delete("mine")
    again = SearchesStore.in_dir(tmp_path)
    again.load()
    assert [(s.name, s.query) for s in again.entries.values()] == [("my dna", "DNA -review")]
    configured = [SavedSearch("my dna", "config wins")]
    assert [s.query for s in all_searches(configured, again)] == ["config wins"]
    (tmp_path / "searches.toml").write_text(
        'version = 1\n[[searches]]\nname = "a"\nquery = 3\n', encoding="utf-8"
    )
    with pytest.raises(LibraryFileError, match=r"searches\.toml:2: search 1: 'query'"):
        again.load()


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('[[searches]]\nname = "a"\n', "<config>:1: searches[1]: needs a query"),
        ('[[searches]]\nquery = "a"\n', "<config>:1: searches[1]: needs a name"),
        (
            '[[searches]]\nname = "a"\nquery = "x"\n[[searches]]\nname = "a"\nquery = "y"\n',
            "<config>:4: searches[2].name: 'a' is used twice",
        ),
        (
            '[[searches]]\nname = "a"\nqeury = "x"\n',
            "searches.qeury: unknown key (did you mean 'query'?)",
        ),
        (
            "[reading]\nmark_on_dwell_ms = -1\n",
            "<config>:2: reading.mark_on_dwell_ms: must be between",
        ),
        ("[reading]\nmark_on_dwel = 5\n", "reading.mark_on_dwel: unknown key"),
    ],
)
def test_config_checks_saved_searches_and_reading(text: str, error: str):
    with pytest.raises(ConfigError) as caught:
        parse_config(text)
    assert error in str(caught.value)


def test_config_reads_saved_searches_and_the_dwell():
    config = parse_config(
        '[reading]\nmark_on_dwell_ms = 800\n[[searches]]\nname = "a"\nquery = "b"\n'
    )
    assert config.mark_on_dwell_ms == 800
    assert config.searches == [SavedSearch("a", "b")]


def test_the_place_round_trips_and_a_damaged_one_is_ignored_with_warnings(tmp_path: Path):
    assert load_place(tmp_path) == (Place(), [])
    place = Place(view="tag:to-read", query='a "b"', sort="title", unread_only=True, paper="x")
    save_place(tmp_path, place)
    assert load_place(tmp_path) == (place, [])
    path = tmp_path / PLACE_FILENAME
    path.write_text('version = 1\nsort = "sideways"\nquery = 3\npaper = "p"\n', "utf-8")
    loaded, warnings = load_place(tmp_path)
    assert loaded == Place(paper="p")
    assert len(warnings) == 2 and all(str(path) in w for w in warnings)
    path.write_text("version = ", "utf-8")
    assert load_place(tmp_path)[0] == Place()
    path.write_bytes(b"\xff")
    assert "not UTF-8" in load_place(tmp_path)[1][0]


def test_a_place_in_other_sources_keeps_only_its_sort_and_filters(tmp_path: Path):
    place = Place(view="tag:x", query="dna", sort="title", unread_only=True, paper="p", sources="a")
    save_place(tmp_path, place)
    assert load_place(tmp_path, "a") == (place, [])
    assert load_place(tmp_path, "b") == (Place(sort="title", unread_only=True), [])
    save_place(tmp_path, place._replace(sources=""))  # a place of any sources
    assert load_place(tmp_path, "b")[0].query == "dna"


def test_the_row_density_is_kept_in_any_sources_and_a_bad_one_warns(tmp_path: Path):
    place = Place(query="dna", sources="a", density="compact")
    save_place(tmp_path, place)
    assert load_place(tmp_path, "a") == (place, [])
    assert load_place(tmp_path, "b") == (Place(density="compact"), [])
    path = tmp_path / PLACE_FILENAME
    path.write_text('version = 1\ndensity = "cosy"\npaper = "p"\n', "utf-8")
    loaded, warnings = load_place(tmp_path)
    assert loaded == Place(paper="p")  # the default density, the rest kept
    assert warnings == [f"{path}: density 'cosy' ignored (densities: comfortable, compact)"]
    path.write_text("version = 1\ndensity = 2\n", "utf-8")
    assert load_place(tmp_path) == (Place(), [f"{path}: density ignored (not a str)"])


@pytest.mark.parametrize("sort", list(SORTS))
def test_the_whole_corpus_in_order_is_the_corpus_sorted(sort):
    keys = SortKeys(PAPERS)
    extra = {"read": {"p2"}, "bookmarked": {"p4"}, "scores": {"p1": 0.2, "p3": 0.7}}
    whole = [PAPERS[i].id for i in keys.ordered(sort, **extra)]
    expected = keys.order(list(IDS), str, "corpus" if sort == "relevance" else sort, **extra)
    assert whole == expected
    assert keys.ordered(sort, **extra) == keys.ordered(sort, **extra)  # cached or recomputed alike


@pytest.mark.parametrize("sort", ["title", "newest"])
def test_orders_prepared_in_advance_are_the_orders(sort):
    prepared = SortKeys(PAPERS)
    prepared.prepare()
    assert [PAPERS[i].id for i in prepared.ordered(sort)] == keys_order(sort)


def keys_order(sort: str) -> list[str]:
    return SortKeys(PAPERS).order(list(IDS), str, sort)


@settings(max_examples=200, deadline=None)
@given(keys=st.lists(st.sampled_from(["a", "b", "B", "c", ""]), max_size=40), reverse=st.booleans())
def test_sorting_in_runs_is_one_stable_sort(keys, reverse):
    """Run by run, then merged: the same positions as one stable sort, ties included."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sorting, "SORT_RUN", 3)
        patch.setattr(sorting, "MERGE_STEP", 2)
        steps = sorting.sorted_in_runs(keys, reverse=reverse)
        try:
            while True:
                next(steps)
        except StopIteration as done:
            result = done.value
    assert result == sorted(range(len(keys)), key=keys.__getitem__, reverse=reverse)


@pytest.mark.parametrize("sort", ["title", "newest"])
def test_orders_prepared_a_step_at_a_time_are_the_orders_with_ties(sort, monkeypatch):
    """Runs of 2 papers over 7 with equal titles and years: ties keep the corpus order,
    as one sort by the key `order` gives would."""
    monkeypatch.setattr(sorting, "SORT_RUN", 2)
    papers = [
        Paper(f"q{i}", "C", "x", title=title, year=year, arxiv_id=arxiv)
        for i, (title, year, arxiv) in enumerate(
            [
                ("Beta", 2023, "a"),
                ("alpha", None, ""),
                ("beta", 2023, "a"),
                ("Alpha", 2024, "b"),
                ("alpha  ", None, ""),
                ("gamma", 2024, "b"),
                ("beta", 2022, "c"),
            ]
        )
    ]
    prepared = SortKeys(papers)
    steps = list(prepared.prepare_steps())
    assert len(steps) > 4  # it stops between steps (the reader's worker waits there)
    expected = SortKeys(papers).order([p.id for p in papers], str, sort)
    assert [papers[i].id for i in prepared.ordered(sort)] == expected


@pytest.mark.parametrize("sort", list(SORTS))
def test_a_sort_is_ready_once_its_steps_ran_and_then_costs_no_pass(sort, monkeypatch):
    """`ready` tells the reader whether a sort would read every paper on its thread; the
    steps `steps_for` gives make it ready, and computing them once is enough."""
    monkeypatch.setattr(sorting, "SORT_RUN", 2)
    for whole in (True, False):
        keys = SortKeys(PAPERS)
        # unread and like (above SORT_RUN papers, 2 here): a pass over every paper
        fixed = sort in ("title", "newest") or (whole and sort in ("unread", "like"))
        assert keys.ready(sort, whole=whole) is not fixed
        steps = list(keys.steps_for(sort, whole=whole))
        assert bool(steps) is fixed
        assert keys.ready(sort, whole=whole)
        assert list(keys.steps_for(sort, whole=whole)) == []  # nothing left to compute
        if whole:
            expected = keys.order(list(IDS), str, "corpus" if sort == "relevance" else sort)
            assert [PAPERS[i].id for i in keys.ordered(sort)] == expected
        else:
            assert keys.order(list(reversed(IDS)), str, sort) == order(sort)


def test_one_fixed_order_computed_leaves_the_other_to_compute():
    keys = SortKeys(PAPERS)
    list(keys.order_steps("title"))
    assert keys.ready("title", whole=True) and not keys.ready("newest", whole=True)
    assert keys.ready("newest", whole=False)  # the dates are read with the titles
    list(keys.order_steps("newest"))
    assert [PAPERS[i].id for i in keys.ordered("newest")] == keys_order("newest")


def test_the_unread_and_like_orders_of_a_large_corpus_are_computed_for_their_inputs():
    """Above `SORT_RUN` papers the unread and like orders are computed a step at a time (the
    reader's worker) and kept for the reading state, bookmarks and scores they are of: equal
    but newer dicts are a newer state, so not ready."""
    count = sorting.SORT_RUN + 10
    papers = [Paper(id=f"p{i:06d}", collection="C", abstract="a", text="a") for i in range(count)]
    keys = SortKeys(papers)
    read = {"p000003": 1, "p000001": 1}
    bookmarked = {"p000004": 1}
    scores = {"p000007": 0.5, "p000009": 0.9, "p000003": 0.8}
    inputs = {"read": read, "bookmarked": bookmarked, "scores": scores}
    for sort in ("unread", "like"):
        assert not keys.ready(sort, whole=True, **inputs)
        assert keys.ready(sort, whole=False, **inputs)  # a search's hits: sorted at once
        steps = sum(1 for _ in keys.steps_for(sort, whole=True, **inputs))
        assert steps > 1
        assert keys.ready(sort, whole=True, **inputs)
        assert list(keys.steps_for(sort, whole=True, **inputs)) == []
        assert not keys.ready(sort, whole=True, **{**inputs, "read": dict(read)})
    ids = [paper.id for paper in papers]
    unread = keys.ordered("unread", **inputs)
    assert [ids[i] for i in unread[:2]] == ["p000000", "p000002"]
    assert [ids[i] for i in unread[-2:]] == ["p000001", "p000003"]
    like = [ids[i] for i in keys.ordered("like", **inputs)]
    assert like[:3] == ["p000009", "p000007", "p000000"]
    assert like[-3:] == ["p000001", "p000003", "p000004"]
    assert like == keys.order(ids, str, "like", **inputs)


def test_the_unread_and_like_orders_stay_ready_after_saves_that_changed_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The orders are kept for the reading state and bookmarks they are of (by identity):
    a save of the same entries does not make them stale."""
    monkeypatch.setattr(sorting, "SORT_RUN", 2)
    reading = ReadingStore.in_dir(tmp_path)
    bookmarks = BookmarkStore.in_dir(tmp_path)
    reading.load()
    bookmarks.load()
    reading.stage(mark_read(["p1"]))
    bookmarks.add("p2")
    keys = SortKeys(PAPERS)
    for sort in ("unread", "like"):
        inputs = {"read": reading.entries, "bookmarked": bookmarks.entries, "scores": None}
        list(keys.steps_for(sort, whole=True, **inputs))
        assert keys.ready(sort, whole=True, **inputs)
    reading.save()
    bookmarks.add("p2")
    for sort in ("unread", "like"):
        inputs = {"read": reading.entries, "bookmarked": bookmarks.entries, "scores": None}
        assert keys.ready(sort, whole=True, **inputs)


def test_a_small_corpus_is_sorted_unread_first_at_once():
    keys = SortKeys([Paper(id=f"p{i}", collection="C", abstract="a", text="a") for i in range(5)])
    assert keys.ready("unread", whole=True, read={"p1": 1})
    assert [keys.ids[i] for i in keys.ordered("unread", read={"p1": 1})][-1] == "p1"
