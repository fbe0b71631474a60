"""Which papers a view may show (index/library/filters.py): shared by the reader and the CLI."""

from __future__ import annotations

import pytest
from sample_marks import MARKS, PAPERS, WHEN

from paperterm.index.library.filters import (
    ALL,
    Filters,
    UnknownView,
    ViewKey,
    all_tags,
    allowed_ids,
    like_seeds,
    resolve_view,
)
from paperterm.index.library.searches import SavedSearch

ALPHA = ViewKey("collection", "Alpha")


def test_nothing_restricts_an_unfiltered_view():
    assert allowed_ids(PAPERS, MARKS, Filters()) is None


def test_bookmarks_only_includes_missing_ones():
    assert allowed_ids(PAPERS, MARKS, Filters(bookmarks_only=True)) == {"a1", "c3", "gone"}


def test_collection_view_uses_every_collection_of_a_paper():
    assert allowed_ids(PAPERS, MARKS, Filters(view=ALPHA)) == {"a1", "b2"}
    both = allowed_ids(PAPERS, MARKS, Filters(bookmarks_only=True, view=ALPHA))
    assert both == {"a1"}


def test_tags_need_all_and_compare_without_case():
    assert allowed_ids(PAPERS, MARKS, Filters(), tags=["read"]) == {"a1", "gone"}
    assert allowed_ids(PAPERS, MARKS, Filters(), tags=["read", "ssl"]) == {"a1"}
    assert allowed_ids(PAPERS, MARKS, Filters(), tags=["nope"]) == set()


def test_excluded_tags_drop_tagged_papers_only():
    assert allowed_ids(PAPERS, MARKS, Filters(), excluded_tags=["ssl"]) == {"b2"}
    kept = allowed_ids(PAPERS, MARKS, Filters(bookmarks_only=True), excluded_tags=["READ"])
    assert kept == {"c3"}


def test_a_tag_view_is_its_bookmarks_and_combines_with_query_tags():
    view = Filters(view=ViewKey("tag", "READ"))
    assert allowed_ids(PAPERS, MARKS, view) == {"a1", "gone"}
    assert allowed_ids(PAPERS, MARKS, view, tags=["ssl"]) == {"a1"}


def test_unread_only_drops_read_papers_within_the_view():
    read = {"a1": WHEN}
    assert allowed_ids(PAPERS, MARKS, Filters(unread_only=True), read=read) == {"b2", "c3"}
    alpha = Filters(unread_only=True, view=ALPHA)
    assert allowed_ids(PAPERS, MARKS, alpha, read=read) == {"b2"}


def test_a_saved_search_view_is_the_ids_its_query_found():
    view = Filters(view=ViewKey("search", "mine"))
    assert allowed_ids(PAPERS, MARKS, view, search_ids=["c3", "a1"]) == {"a1", "c3"}
    assert allowed_ids(PAPERS, MARKS, view) == set()  # not found yet: nothing, not everything


@pytest.mark.parametrize("text", ["all", "collection:ICML 2024", "tag:to-read", "search:a:b"])
def test_a_view_key_reads_back_as_written(text):
    assert str(ViewKey.parse(text)) == text


@pytest.mark.parametrize("text", ["", "collection:", "tags:x", "nothing", "tag: "])
def test_what_is_no_view_key(text):
    assert ViewKey.parse(text) is None


SEARCHES = [SavedSearch("Alpha", "first"), SavedSearch("dna", "DNA")]


def test_a_bare_view_name_is_a_search_then_a_collection_then_a_tag():
    tags = all_tags(MARKS)
    assert tags == ["Read", "ssl"]
    assert resolve_view("Alpha", ["Alpha", "Beta"], tags, SEARCHES) == ViewKey("search", "Alpha")
    assert resolve_view("collection:Alpha", ["Alpha"], tags, SEARCHES) == ALPHA
    assert resolve_view("beta", ["Alpha", "Beta"], tags, SEARCHES) == ViewKey("collection", "Beta")
    assert resolve_view("read", ["Alpha"], tags, SEARCHES) == ViewKey("tag", "Read")
    assert resolve_view("all", [], [], []) == ALL


def test_an_unknown_view_names_the_views_there_are():
    with pytest.raises(UnknownView, match=r"no view named 'Alpah' \(did you mean 'Alpha'\?\)"):
        resolve_view("Alpah", ["Alpha"], [], [])
    with pytest.raises(UnknownView, match="views: all, tag:Read, tag:ssl"):
        resolve_view("tag:nope", ["Alpha"], all_tags(MARKS), SEARCHES)


def test_like_my_bookmarks_starts_from_all_bookmarks_or_one_tags():
    assert like_seeds(MARKS, ALL) == ["a1", "c3", "gone"]
    assert like_seeds(MARKS, ViewKey("tag", "SSL")) == ["a1", "c3"]


def test_a_tag_being_typed_keeps_bookmarks_with_a_tag_that_starts_so():
    assert allowed_ids(PAPERS, MARKS, Filters(), tag_prefixes=["re"]) == {"a1", "gone"}
    assert allowed_ids(PAPERS, MARKS, Filters(), tags=["ssl"], tag_prefixes=["R"]) == {"a1"}
    assert allowed_ids(PAPERS, MARKS, Filters(), tag_prefixes=["x"]) == set()


def test_the_watched_view_is_written_watched_and_holds_the_ids_given():
    from paperterm.index.library.filters import WATCHED, list_title

    assert str(WATCHED) == "watched"
    assert ViewKey.parse("watched") == WATCHED
    assert WATCHED.label == "watched papers"
    assert list_title(WATCHED, unread=True) == "Watched · unread"
    first = PAPERS[0].id
    assert allowed_ids(PAPERS, MARKS, Filters(view=WATCHED), search_ids=[first]) == {first}
    assert allowed_ids(PAPERS, MARKS, Filters(view=WATCHED)) == set()
    assert resolve_view("watched", [], [], []) == WATCHED
