from hypothesis import given
from hypothesis import strategies as st

from paperterm.index.papers import Paper, content_id, find_links


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


def test_content_id_ignores_case_width_and_wrapping():
    assert content_id("Alpha  beta\nGAMMA") == content_id("alpha beta gamma")
    assert content_id("alpha beta") != content_id("alpha beta gamma")
    assert len(content_id("x")) == 12


def test_json_round_trip_keeps_every_field():
    paper = Paper(
        id="k1",
        collection="C",
        abstract="a",
        text="a",
        title="T",
        name="N",
        links=["https://x.y"],
        authors=["Ada Lovelace"],
        year=2024,
        doi="10.1/x",
        arxiv_id="2401.00001",
        collections=["C", "D"],
    )
    record = paper.to_json()
    assert record["collections"] == ["C", "D"] and record["authors"] == ["Ada Lovelace"]
    assert Paper.from_json(record).to_json() == record


@given(st.text())
def test_links_never_include_spaces_or_brackets(text):
    for link in find_links(text):
        assert link.lower().startswith(("http://", "https://"))
        assert not any(ch.isspace() or ch in "[]<>" for ch in link)
