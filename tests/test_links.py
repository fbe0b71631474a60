"""Links: finding URLs in text, the one link list every source builds, the primary link."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from paperterm.index import links
from paperterm.index.links import (
    Known,
    arxiv_id,
    find_links,
    is_code_link,
    paper_links,
    pmlr_links,
    primary_link,
    safe_url,
    split_links,
)
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
        "https://openreview.net/pdf?id=AbC123",
        "https://doi.org/10.1/x",
        "https://arxiv.org/abs/2401.00001",
        "https://arxiv.org/pdf/2401.00001",
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


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2401.01234", "2401.01234"),
        ("2401.01234v3", "2401.01234"),
        ("arXiv:0704.0001v1", "0704.0001"),
        ("hep-ph/0703001", "hep-ph/0703001"),
        ("math.GT/0309136v2", "math.GT/0309136"),
        ("https://arxiv.org/abs/2312.09999v12", "2312.09999"),
        ("http://arxiv.org/pdf/hep-th/9901001v1.pdf", "hep-th/9901001"),
        ("10.1/xyz", ""),
        ("not an id", ""),
    ],
)
def test_arxiv_ids_new_and_old_style_with_versions(value, expected):
    assert arxiv_id(value) == expected


def test_arxiv_abs_and_pdf_keep_the_version_they_are_given():
    assert paper_links(Known(arxiv_id="hep-th/9901001v2")) == [
        "https://arxiv.org/abs/hep-th/9901001v2",
        "https://arxiv.org/pdf/hep-th/9901001v2",
    ]
    assert paper_links(Known(arxiv_id="not-an-id")) == []


def test_pmlr_page_and_pdf_from_volume_and_key():
    assert pmlr_links("250", "xu2024") == [
        "https://proceedings.mlr.press/v250/xu2024.html",
        "https://proceedings.mlr.press/v250/xu2024/xu2024.pdf",
    ]
    assert pmlr_links("", "xu2024") == [] and pmlr_links("250", "") == []
    assert pmlr_links("v250", "k") == []  # not a volume number
    # A key is a path segment: nothing in it can leave the volume's folder.
    assert pmlr_links("1", "a/../b c")[0] == "https://proceedings.mlr.press/v1/a%2F..%2Fb%20c.html"


def test_dois_are_quoted_into_their_link():
    assert paper_links(Known(doi="10.1002/(SICI)1097<3>")) == [
        "https://doi.org/10.1002/(SICI)1097%3C3%3E"
    ]


def test_own_links_come_before_code_and_data_links():
    paper = Paper(
        "x",
        "C",
        "a",
        text="Code: https://github.com/a/b and data https://zenodo.org/r/1, "
        "project https://a.github.io/p, preprint https://arxiv.org/abs/2401.00001.",
        links=paper_links(
            Known(
                urls=["https://github.com/a/b"],  # a record whose only url is its code
                pmlr_volume="1",
                key="k",
                text="Code: https://github.com/a/b and data https://zenodo.org/r/1, "
                "project https://a.github.io/p, preprint https://arxiv.org/abs/2401.00001.",
            )
        ),
    )
    own, other = split_links(paper)
    assert own == [
        "https://proceedings.mlr.press/v1/k.html",
        "https://proceedings.mlr.press/v1/k/k.pdf",
        "https://arxiv.org/abs/2401.00001",
    ]
    assert other == [
        "https://github.com/a/b",
        "https://zenodo.org/r/1",
        "https://a.github.io/p",
    ]
    assert primary_link(paper) == "https://proceedings.mlr.press/v1/k.html"
    # Without a page of its own, the link it mentions is still the one to open.
    seed = Paper(
        "s", "C", "a", text="See https://github.com/x/y.", links=["https://github.com/x/y"]
    )
    assert split_links(seed) == ([], ["https://github.com/x/y"])
    assert primary_link(seed) == "https://github.com/x/y"


def test_code_and_data_hosts():
    for url in (
        "https://github.com/a/b",
        "https://gitlab.inria.fr/x",
        "https://huggingface.co/datasets/x",
        "https://doi.org/10.5281/zenodo.123",
        "https://www.kaggle.com/c/x",
    ):
        assert is_code_link(url), url
    for url in ("https://doi.org/10.1/x", "https://arxiv.org/abs/1", "https://example.org"):
        assert not is_code_link(url), url


def test_safe_urls_are_web_urls_of_printable_ascii():
    assert safe_url(" https://a.org/x?y=1 ") == "https://a.org/x?y=1"
    for bad in (
        "javascript:alert(1)",
        "file:///etc/passwd",
        "https://a.org/\x1b]8;;x",
        "https://a b",
        "https://é.org",
        "https://",
    ):
        assert safe_url(bad) == "", bad


@given(st.text())
def test_links_never_include_spaces_or_brackets(text):
    for link in find_links(text):
        assert link.lower().startswith(("http://", "https://"))
        assert not any(ch.isspace() or ch in "[]<>" for ch in link)


_URL_PIECES = ["http", "s", "://", "HTTPS", "x", " ", ".", "\\_", "(", ")", "/", "é"]


@given(st.lists(st.sampled_from(_URL_PIECES)).map("".join))
def test_urls_are_found_as_by_one_pass_over_the_whole_text(text):
    """`urls_in` starts its pass just before the first "://" (a word character before
    "http" still keeps it from being a URL)."""
    whole = []
    for match in links._URL.finditer(text):
        found = match.group(0)
        url = found.rstrip(links._URL_TRAIL)
        if url.count("(") > url.count(")") and found[len(url) : len(url) + 1] == ")":
            url += ")"
        if len(url) > len("https://"):
            whole.append((match.start(), match.start() + len(url), links.unescape_url(url)))
    assert list(links.urls_in(text)) == whole


_URL_PIECES = st.sampled_from(
    ["http", "https", "HTTPS", "://", ":", "/", "a", "x.org", " ", "(", ")", ".", "\\_", "é", "_"]
)


@given(st.lists(_URL_PIECES, max_size=30).map("".join))
@example("see https://a.org/x?u=https://b.org and http://c.d.")
@example("xhttp://a.b https://x.yhttps://z ://http://x")
def test_urls_are_matched_where_the_pattern_would_find_them(text):
    """`_url_matches` tries the pattern only before each "://": it finds what the pattern
    finds trying every position."""
    found = [(m.start(), m.end()) for m in links._url_matches(text)]
    assert found == [(m.start(), m.end()) for m in links._URL.finditer(text)]


_URL_PIECES = ["https://", "http://", "ftp://", "x.org/a", "\\_b", " ", "/p.pdf", "arxiv.org"]


@given(
    st.lists(st.lists(st.sampled_from(_URL_PIECES)).map("".join), max_size=4),
    st.lists(st.sampled_from([*_URL_PIECES, "see ", ":", "//", "."])).map("".join),
)
def test_links_with_the_texts_are_a_papers_links(links, text):
    """`with_text_links` (enrich's, which goes over the links alone when the text has no
    URL) gives what `paper_links` gives."""
    from paperterm.index.links import with_text_links

    assert with_text_links(links, text) == paper_links(Known(urls=links, text=text))
