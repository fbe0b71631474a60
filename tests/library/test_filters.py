"""Which papers a view may show: the reader's filters and the query's tags (shared by the
reader and `paperterm search`)."""

from __future__ import annotations

from sample_marks import MARKS, PAPERS

from paperterm.index.library.filters import Filters, allowed_ids


def test_nothing_restricts_an_unfiltered_view():
    assert allowed_ids(PAPERS, MARKS, Filters()) is None


def test_bookmarks_only_includes_missing_ones():
    assert allowed_ids(PAPERS, MARKS, Filters(bookmarks_only=True)) == {"a1", "c3", "gone"}


def test_collection_filter_uses_every_collection_of_a_paper():
    assert allowed_ids(PAPERS, MARKS, Filters(collection="Alpha")) == {"a1", "b2"}
    both = allowed_ids(PAPERS, MARKS, Filters(bookmarks_only=True, collection="Alpha"))
    assert both == {"a1"}


def test_tags_need_all_and_compare_without_case():
    assert allowed_ids(PAPERS, MARKS, Filters(), tags=["read"]) == {"a1", "gone"}
    assert allowed_ids(PAPERS, MARKS, Filters(), tags=["read", "ssl"]) == {"a1"}
    assert allowed_ids(PAPERS, MARKS, Filters(), tags=["nope"]) == set()


def test_excluded_tags_drop_tagged_papers_only():
    assert allowed_ids(PAPERS, MARKS, Filters(), excluded_tags=["ssl"]) == {"b2"}
    kept = allowed_ids(PAPERS, MARKS, Filters(bookmarks_only=True), excluded_tags=["READ"])
    assert kept == {"c3"}


def test_a_tag_being_typed_keeps_bookmarks_with_a_tag_that_starts_so():
    assert allowed_ids(PAPERS, MARKS, Filters(), tag_prefixes=["re"]) == {"a1", "gone"}
    assert allowed_ids(PAPERS, MARKS, Filters(), tags=["ssl"], tag_prefixes=["R"]) == {"a1"}
    assert allowed_ids(PAPERS, MARKS, Filters(), tag_prefixes=["x"]) == set()
