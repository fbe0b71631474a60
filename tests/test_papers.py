"""The shared record: stable ids and the JSON form."""

from paperterm.index.papers import Paper, content_id


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


def test_content_ids_remembered_are_those_made_anew():
    """`content_id` remembers the ids it made lately (a build asks again for each record's):
    past what it keeps, and asked again in any order, each is its text's."""
    from paperterm.index import papers

    texts = [
        f"Abstract  number {number}.\n"
        for number in range(papers.content_id.cache_info().maxsize * 2 + 7)
    ]
    first = [papers.content_id(text) for text in texts]
    again = [papers.content_id(text) for text in reversed(texts)][::-1]
    made = [papers.digest_id(papers.normalize_for_id(text)) for text in texts]
    assert first == again == made
    cached = papers.content_id.cache_info()
    assert cached.currsize <= cached.maxsize
