"""Links: finding URLs in text, the one link list every source builds, the primary link."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from paperterm.index.links import Known, find_links, paper_links, primary_link
from paperterm.index.papers import Paper


def test_links_are_found_in_order_without_trailing_punctuation():
    text = (
        "Code at https://github.com/deeplearning-wisc/picle. See (https://a.org/wiki/B_(c)) "
        "and https://github.com/deeplearning-wisc/picle again, or http://x.io/y?z=1&w=2;"
    )
    assert find_links(text) == [
        "https://github.com/deeplearning-wisc/picle",
        "https://a.org/wiki/B_(c)",
        "http://x.io/y?z=1&w=2",
    ]


def test_brackets_end_a_link():
    assert find_links("[link=https://evil]click[/link]") == ["https://evil"]
    assert find_links("see [https://q.io/r] and [x](https://m.d/e)") == [
        "https://q.io/r",
        "https://m.d/e",
    ]


def test_latex_escapes_in_a_url_are_undone_not_cut():
    assert find_links(r"code: https://github.com/x/dr\_3slice\_ct.") == [
        "https://github.com/x/dr_3slice_ct"
    ]
    assert find_links(r"https://a.org/50\%/\#top and \url{") == ["https://a.org/50%/#top"]


def test_one_order_for_every_record():
    known = Known(
        urls=["https://proc.org/a.html", " https://proc.org/a.pdf ", "", "ftp://old.org/a"],
        openreview="AbC123",
        doi="10.1/x",
        arxiv_id="2401.00001",
        text="Code: https://github.com/a/b. Page: https://proc.org/a.html.",
    )
    assert paper_links(known) == [
        "https://proc.org/a.html",
        "https://proc.org/a.pdf",
        "https://openreview.net/forum?id=AbC123",
        "https://doi.org/10.1/x",
        "https://arxiv.org/abs/2401.00001",
        "https://github.com/a/b",
    ]
    assert paper_links(Known(openreview="https://openreview.net/forum?id=Q")) == [
        "https://openreview.net/forum?id=Q"
    ]
    assert paper_links(Known()) == []


def test_links_built_so_far_keep_their_order_when_the_text_adds_more():
    record = paper_links(Known(urls=["https://p.org/a"], doi="10.1/x"))
    assert paper_links(Known(urls=record, text="see https://doi.org/10.1/x and https://c.org")) == [
        "https://p.org/a",
        "https://doi.org/10.1/x",
        "https://c.org",
    ]


def test_primary_link():
    assert primary_link(Paper("x", "C", "t", links=["https://a.org/1", "https://b.org"])) == (
        "https://a.org/1"
    )
    assert primary_link(Paper("x", "C", "t", doi="10.1/xyz", arxiv_id="2401.00001")) == (
        "https://doi.org/10.1/xyz"
    )
    assert primary_link(Paper("x", "C", "t", arxiv_id="2401.00001")) == (
        "https://arxiv.org/abs/2401.00001"
    )
    assert primary_link(Paper("x", "C", "t")) == ""


@given(st.text())
def test_links_never_include_spaces_or_brackets(text):
    for link in find_links(text):
        assert link.lower().startswith(("http://", "https://"))
        assert not any(ch.isspace() or ch in "[]<>" for ch in link)
