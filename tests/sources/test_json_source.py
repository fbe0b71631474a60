"""JSON / JSON-lines parsing: arrays, wrapped arrays, the arXiv snapshot's rows, bad lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from loading import as_loaded
from locations import FIXTURES

from paperterm.index.papers import content_id
from paperterm.index.sources import json_records as json_source
from paperterm.index.sources.loader import load_file

ARRAY = FIXTURES / "papers.json"
SNAPSHOT = FIXTURES / "arxiv_snapshot.jsonl"


def parse(path: Path, text: str | None = None, collection: str | None = None):
    if text is None:
        text = path.read_text(encoding="utf-8")
    return as_loaded(json_source.parse(path, text, collection))


def test_array_fixture():
    papers, problems = parse(ARRAY)
    assert len(papers) == 4
    weaving, engines, arxiv, untitled = papers
    assert weaving.title == "Weaving Patterns with Punched Cards"
    assert weaving.abstract == "Jacquard looms read *punched cards*; we read them back."
    assert weaving.authors == ["Joseph Jacquard", "Ada Lovelace", "Charles Babbage"]
    assert (weaving.year, weaving.collection) == (1804, "Loom Letters")
    assert weaving.links == ["https://example.org/jacquard"]
    assert weaving.id == content_id(weaving.abstract)

    assert engines.abstract == "We scale difference engines to 10^6 cogs."  # from "summary"
    assert engines.authors == ["Charles Babbage", "Ada Lovelace"]
    assert (engines.id, engines.doi, engines.year) == ("10.5555/DE.1843", "10.5555/DE.1843", 1843)
    assert engines.collection == "papers"  # no collection field: the file stem
    assert engines.links == [
        "https://example.org/de",
        "https://example.org/de.pdf",
        "https://doi.org/10.5555/DE.1843",
    ]

    assert (arxiv.id, arxiv.arxiv_id, arxiv.year) == ("2401.01234", "2401.01234", 2024)
    assert untitled.title  # derived from the abstract by enrich
    assert untitled.authors == ["Anonymous", "Nobody"]

    text = ARRAY.read_text(encoding="utf-8").split("\n")
    for paper in papers:
        assert text[paper.line - 1].strip() == "{"
    assert [(p.line, p.message) for p in problems] == [
        (
            _line_of(text, '"authors": "No Content"') - 1,
            "record has neither title nor abstract; skipped",
        ),
        (_line_of(text, '"not an object"'), "record is not a JSON object; skipped"),
    ]


def _line_of(lines: list[str], needle: str) -> int:
    return next(number for number, line in enumerate(lines, start=1) if needle in line)


def test_arxiv_snapshot_rows_load_as_they_are():
    papers, problems = parse(SNAPSHOT)
    assert [p.id for p in papers] == ["2401.01234", "0704.0042", "math/0601001", "2312.09999"]
    assert [(p.line, p.message.split(":")[0]) for p in problems] == [(4, "not valid JSON")]
    assert [p.line for p in papers] == [1, 2, 3, 5]
    probes, noether, tops, wire = papers
    assert probes.title == "Sparse ℓ₁ Probes for Analytical Engines"  # display renders math
    assert probes.authors == ["Ada Lovelace", "Charles Babbage", "René Descartes"]
    assert probes.year == 2024
    assert probes.abstract.startswith("We probe analytical engines with sparse $\\ell_1$ penalties")
    assert "the mill stores more than the store. Our probes are cheap.\n\nIn a second" in (
        probes.abstract
    )
    assert "Descartes' {\\it m\\'ethode} and release code" in probes.abstract
    assert "Descartes' méthode and release code" in probes.text
    assert probes.links == [
        "https://arxiv.org/abs/2401.01234",
        "https://arxiv.org/pdf/2401.01234",
        "https://example.org/probes",
    ]
    assert probes.collection == "arxiv_snapshot"
    assert (noether.doi, noether.year, noether.authors) == (
        "10.5555/toy.2007.42",
        2007,
        ["E. Noether"],
    )
    assert "https://doi.org/10.5555/toy.2007.42" in noether.links
    assert tops.arxiv_id == "math/0601001"
    assert tops.authors == ["S. Kovalevskaya", "K. Weierstrass"]
    assert wire.title == "Nanoseconds: A 30% Shorter Wire"
    assert wire.abstract == "A nanosecond of wire is about 30 cm; we make it 30\\% shorter."
    assert wire.text == "A nanosecond of wire is about 30 cm; we make it 30% shorter."


def test_snapshot_named_json_is_read_as_json_lines():
    """The Kaggle arXiv snapshot file is JSON lines named `.json`."""
    papers, problems = parse(FIXTURES / "arxiv-metadata.json", SNAPSHOT.read_text("utf-8"))
    assert len(papers) == 4
    assert [p.line for p in problems] == [4]


def test_wrapped_list_and_single_object():
    records = [{"title": "A"}, {"title": "B", "abstract": "Bee."}]
    for key in ("papers", "items", "records"):
        text = json.dumps({"name": "x", key: records}, indent=1)
        papers, problems = parse(Path("w.json"), text)
        assert [p.title for p in papers] == ["A", "B"]
        assert problems == []
    papers, problems = parse(Path("one.json"), '{"title": "Alone", "abstract": "Just me."}')
    assert [p.title for p in papers] == ["Alone"]


def test_wrapped_list_records_have_their_lines():
    text = '{"papers": [\n {"title": "A"},\n\n {"title": "B"}\n]}\n'
    papers, _ = parse(Path("w.json"), text)
    assert [p.line for p in papers] == [2, 4]


def test_array_syntax_error_keeps_earlier_records():
    text = '[\n {"title": "Good"},\n {"title": "Bad",, }\n, {"title": "Lost"}]'
    papers, problems = parse(Path("a.json"), text)
    assert [p.title for p in papers] == ["Good"]
    assert len(problems) == 1
    assert problems[0].line == 3
    assert problems[0].message.startswith("not valid JSON")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty file"),
        ("42", "no papers found: expected an array of objects or JSON lines"),
        ('{"name": "no list"}', "no papers found: expected an array of objects or JSON lines"),
        ("[]", "no papers found"),
    ],
)
def test_files_without_papers_are_reported(text, message):
    papers, problems = parse(Path("e.json"), text)
    assert papers == []
    assert [p.message for p in problems] == [message]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("A, B and C", ["A", "B", "C"]),
        ("A and B", ["A", "B"]),
        ("Smith, John and Doe, Jane", ["John Smith", "Jane Doe"]),
        (["Ada Lovelace", "Charles Babbage"], ["Ada Lovelace", "Charles Babbage"]),
        (
            [{"name": "Ada Lovelace"}, {"given": "Charles", "family": "Babbage"}],
            ["Ada Lovelace", "Charles Babbage"],
        ),
        ([{"first": "Ren\\'e", "last": "Descartes"}], ["René Descartes"]),
        (None, []),
    ],
)
def test_author_forms(value, expected):
    record = {"title": "T", "authors": value}
    papers, _ = parse(Path("a.jsonl"), json.dumps(record))
    assert papers[0].authors == expected


@pytest.mark.parametrize(
    ("record", "paper_id", "arxiv_id"),
    [
        ({"id": "http://arxiv.org/abs/2401.01234v2"}, "2401.01234", "2401.01234"),
        ({"id": "arXiv:2312.00001"}, "2312.00001", "2312.00001"),
        ({"id": "hep-th/9901001v1"}, "hep-th/9901001", "hep-th/9901001"),
        ({"doi": "doi:10.1000/XYZ", "id": "W123"}, "10.1000/XYZ", ""),
        ({"id": "W123"}, "W123", ""),
        ({"id": 17}, "17", ""),
    ],
)
def test_ids(record, paper_id, arxiv_id):
    papers, _ = parse(Path("i.jsonl"), json.dumps({"title": "T", "abstract": "A.", **record}))
    assert (papers[0].id, papers[0].arxiv_id) == (paper_id, arxiv_id)


def test_jsonl_bad_lines_and_non_objects():
    text = '{"title": "One"}\n\n[1, 2]\n{"title": \n{"title": "Two"}\n'
    papers, problems = parse(Path("l.ndjson"), text)
    assert [(p.title, p.line) for p in papers] == [("One", 1), ("Two", 5)]
    assert [(p.line, p.message.split(";")[0].split(":")[0]) for p in problems] == [
        (3, "record is not a JSON object"),
        (4, "not valid JSON"),
    ]


def test_explicit_collection_wins_over_venue():
    papers, _ = parse(ARRAY, collection="Mine")
    assert {p.collection for p in papers} == {"Mine"}


def test_json_lone_surrogates_become_replacement_characters(tmp_path):
    path = tmp_path / "lone.json"
    path.write_text(
        '[{"id": "x\\ud800", "title": "T \\udfff", "abstract": "A \\ud83e lone half.",'
        ' "authors": "Eve \\udc00 and Bob", "url": "https://e.org/\\ud800"}]'
    )
    papers, problems = load_file(path)
    assert problems == []
    (paper,) = papers
    for text in (paper.id, paper.title, paper.abstract, *paper.authors, *paper.links):
        text.encode("utf-8")  # no lone surrogate left
    assert paper.title == "T \ufffd" and paper.authors == ["Eve \ufffd", "Bob"]


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        (
            [["Lovelace", "Ada", ""], ["Babbage", "Charles", "Jr"], ["Lovelace", "Ada", ""]],
            ["Ada Lovelace", "Charles Babbage Jr", "Ada Lovelace"],
        ),
        ([["Gödel", "K.", "", "extra"], ["Gödel", "K."]], ["K. Gödel", "K. Gödel"]),
        ([["Curie", "", ""], ["", "Marie"], ["Solo"], []], ["Curie", "Marie", "Solo"]),
        ([[1, "x"], [True, "x"], [1, "x"]], ["x 1", "x", "x 1"]),
        ([[True, "x"], [1, "x"]], ["x", "x 1"]),
        ([[["nested"], "x"], ["Ren\\'e", "D."]], ["x", "D. René"]),
    ],
)
def test_authors_parsed_rows(rows, expected):
    """arXiv rows, [last, first, suffix], named on their own path (`_listed_author`) as any
    other list of author names would be (`_author_name`)."""
    record = {"title": "T", "abstract": "A.", "authors_parsed": rows}
    papers, _ = parse(Path("rows.jsonl"), json.dumps(record))
    assert papers[0].authors == expected
    assert papers[0].authors == [
        name for name in (json_source.plain(json_source._author_name(row)) for row in rows) if name
    ]


_ROW_PARTS = st.one_of(
    st.text(max_size=8),
    st.sampled_from(["Ada", "Lovelace", "Ren\\'e", " two  words ", "Jr.", "$x$", "Gödel"]),
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.lists(st.text(max_size=3), max_size=2),
)


@given(st.lists(_ROW_PARTS, max_size=5))
def test_a_row_is_named_as_any_author_item(row):
    assert json_source._listed_author(row) == json_source.plain(json_source._author_name(row))


_RECORD_TEXT = st.sampled_from([
    '{"title": "A", "abstract": "Alpha text."}', '{"title": "B"}', '{"abstract": "Only this."}',
    "3", '"x"', "{}", '{"title": "C",, }', "[1]", '{"title": "D", "year": 2024}', "",
])  # fmt: skip


@given(
    st.lists(_RECORD_TEXT, max_size=8),
    st.sampled_from([",\n", ", ", ",\n\n  ", ",,"]),
    st.booleans(),
)
def test_an_array_read_record_by_record_is_the_file_read_whole(tmp_path_factory, records, sep, end):
    """A build reads a .json array a record at a time (`Reading`): the same papers, lines
    and problems as the file parsed whole (`load_file`)."""
    from paperterm.index.sources.loader import Reading

    path = tmp_path_factory.mktemp("array") / "papers.json"
    path.write_text("[\n" + sep.join(records) + ("\n]\n" if end else ""), encoding="utf-8")
    papers, problems = load_file(path)
    reading = Reading(path)
    assert list(reading.papers()) == papers and reading.complete
    assert [(p.line, p.message) for p in reading.problems] == [
        (p.line, p.message) for p in problems
    ]


def test_an_arrays_first_paper_comes_before_the_rest_is_decoded(tmp_path, monkeypatch):
    from paperterm.index.sources.loader import Reading

    path = tmp_path / "papers.json"
    records = [{"title": f"T{n}", "abstract": f"Abstract number {n}."} for n in range(50)]
    path.write_text(json.dumps(records, indent=2), encoding="utf-8")
    made = []
    from_record = json_source._from_record
    monkeypatch.setattr(
        json_source, "_from_record", lambda *args: made.append(args[1]) or from_record(*args)
    )
    found = Reading(path).papers()
    assert next(found).title == "T0" and len(made) == 1
    assert [paper.line for paper in found] == made[1:] and len(made) == 50
