"""A file read in stretches gives what its whole reading gives: for any cut at any place a
format's boundary finder gives (found whatever the blocks the file is fed in), the
stretches' papers and problems, in order, are the whole parse's."""

from __future__ import annotations

import functools
import json
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_bibtex_stream import _TEXT as BIBTEX_TEXT

from paperterm.index.papers import PAPER_FIELDS, Paper, paper_tuple
from paperterm.index.problems import Problem
from paperterm.index.sources import (
    acl_xml,
    bibtex,
    bibtex_stretches,
    json_records,
    stretches,
    table,
    table_stretches,
    text_list,
)
from paperterm.index.sources.acl_stretches import FORMAT as ACL
from paperterm.index.sources.bibtex_stretches import FORMAT as BIBTEX
from paperterm.index.sources.files import DEFAULT_READ, ReadAs
from paperterm.index.sources.json_stretches import FORMAT as JSON
from paperterm.index.sources.stretches import NOTHING, StretchFormat
from paperterm.index.sources.text_stretches import FORMAT as TEXT
from paperterm.index.sources.text_stretches import TextBoundaries

Result = tuple[list[tuple], list[str]]


def places(form: StretchFormat, data: bytes, block: int) -> tuple[list[int], bool]:
    """The places the format's finder gives, fed `data` `block` bytes at a time, and
    whether it finds the file one to cut."""
    finder = form.boundaries()
    found: list[int] = []
    for position in range(0, len(data), block):
        found += finder.feed(data[position : position + block], position)
    return found, finder.usable()


def stretched(form: StretchFormat, path: Path, cuts: list[int]) -> Result:
    """The papers and problems of the file's stretches between `cuts`, joined as a build
    joins them (a stretch's "nothing found" only when no stretch found anything)."""
    data = path.read_bytes()
    starts = [0, *cuts]
    ends = [*cuts, len(data)]
    papers: list[tuple] = []
    problems: list[str] = []
    nothing: list[str] = []
    with open(path, "rb") as handle:
        for start, end in zip(starts, ends, strict=True):
            span = (start, end, data.count(b"\n", 0, start) + 1)
            for found in form.read(path, handle, span, None):
                if isinstance(found, Problem):
                    said = nothing if found.message in NOTHING and not found.line else problems
                    said.append(str(found))
                else:
                    assert isinstance(found, Paper)
                    papers.append(paper_tuple(found))
    if not papers and not problems:
        problems = nothing[-1:]
    return papers, problems


def whole(parse, path: Path) -> Result:
    papers, problems = parse(path, path.read_bytes().decode("utf-8-sig"), None)
    return [paper_tuple(paper) for paper in papers], [str(problem) for problem in problems]


@contextmanager
def blocks_of(size: int) -> Iterator[None]:
    """Stretch readers read the file `size` bytes at a time."""
    saved = stretches.BLOCK, bibtex_stretches.BLOCK
    stretches.BLOCK = bibtex_stretches.BLOCK = size
    try:
        yield
    finally:
        stretches.BLOCK, bibtex_stretches.BLOCK = saved


def check(form: StretchFormat, name: str, text: str, parse, block: int, picks: list[int]):
    """Every place found in blocks of `block` bytes is one found in one block; the file cut
    at the places `picks` chooses, read `block` bytes at a time, reads as the whole file."""
    with tempfile.TemporaryDirectory() as folder, blocks_of(block):
        path = Path(folder) / name
        path.write_bytes(text.encode("utf-8"))
        data = path.read_bytes()
        found, usable = places(form, data, block)
        assert usable == places(form, data, max(1, len(data)))[1]
        if not usable or not found:
            return usable  # (the places found before a finder knows it are none to use)
        assert found == places(form, data, max(1, len(data)))[0]
        assert found == sorted(set(found))
        cuts = sorted({found[pick % len(found)] for pick in picks} - {0})
        assert stretched(form, path, cuts) == whole(parse, path)
        return usable


# --- text lists ---------------------------------------------------------------------------

_LINE = st.sampled_from(
    [
        "ICML 2024 论文列表",
        "A short name",
        "We propose *Velo*, a $\\mathbf{x}_t$ method.",
        "It works.",
        "  indented  line ",
        "\t",
        "",
        "   ",
        "\u3000",
        "\f",
        "a" * 130,
    ]
)
_END = st.sampled_from(["\n", "\n", "\r\n", "\r"])
_TEXT_LIST = st.tuples(
    st.sampled_from(["", "\ufeff", "\n"]),
    st.lists(st.tuples(_LINE, _END), max_size=30),
).map(lambda t: t[0] + "".join(line + end for line, end in t[1]))


@settings(max_examples=400, deadline=None)
@given(text=_TEXT_LIST, block=st.integers(1, 30), picks=st.lists(st.integers(0, 99), max_size=5))
@example(text="Name\n\nfirst one.\n\nsecond one.\n", block=3, picks=[0, 1])
@example(text="\n\nName\n\n\nonly.\n", block=1, picks=[0, 1, 2])
def test_a_text_list_in_stretches_is_read_as_whole(text, block, picks):
    check(TEXT, "x.txt", text, text_list.parse, block, picks)


def test_a_text_list_with_a_lone_carriage_return_is_not_cut():
    data = b"Name\n\nfirst.\r\rsecond.\n\nthird.\n"
    assert places(TEXT, data, 4)[1] is False
    assert places(TEXT, data.replace(b"\r\r", b"\r\n\r\n"), 4)[1] is True


def test_a_text_list_is_cut_after_blank_lines_only():
    data = b"Name\n\none\ntwo\n \t\nthree\n\nfour\n"
    assert places(TEXT, data, 2)[0] == [6, data.index(b"three"), data.index(b"four")]
    finder = TextBoundaries()
    assert finder.feed(b"a\n", 0) == [] and finder.feed(b"\nb", 2) == [3]


# --- JSON arrays ----------------------------------------------------------------------------

_STRING = st.sampled_from(
    ["graph", "a [b] {c}", 'say "hi"', "back\\slash\\", "}, {", "é ☃ \u2028", "]", '\\"', ""]
)
_VALUE = st.recursive(
    st.one_of(_STRING, st.integers(-5, 10**6), st.none(), st.booleans(), st.floats(0, 1)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(_STRING, inner, max_size=3)
    ),
    max_leaves=6,
)
_RECORD = st.fixed_dictionaries(
    {"title": _STRING, "abstract": _STRING},
    optional={"id": _STRING, "authors": st.lists(_STRING, max_size=3), "extra": _VALUE},
)
_ELEMENT = st.one_of(_RECORD, _RECORD, _RECORD, _VALUE)


def _dumped(document, indent, ascii_only: bool) -> str:
    return json.dumps(document, indent=indent, ensure_ascii=ascii_only)


_JSON_TEXT = st.builds(
    lambda elements, shape, indent, ascii_only, before: (
        before
        + _dumped(
            elements if shape == "array" else {shape: elements, "count": len(elements)},
            indent,
            ascii_only,
        )
    ),
    st.lists(_ELEMENT, max_size=12),
    st.sampled_from(["array", "papers", "items", "records"]),
    st.sampled_from([None, 0, 1, 2, "\t"]),
    st.booleans(),
    st.sampled_from(["", " \n", "\ufeff"]),
)


@settings(max_examples=400, deadline=None)
@given(text=_JSON_TEXT, block=st.integers(1, 40), picks=st.lists(st.integers(0, 99), max_size=5))
@example(text='[{"title": "a"}, 12, {"title": "b"}]', block=1, picks=[0, 1])
@example(text='{"papers": [{"title": "[x"}, {"abstract": "}"}]}', block=2, picks=[1])
def test_a_json_array_in_stretches_is_read_as_whole(text, block, picks):
    assert check(JSON, "x.json", text, json_records.parse, block, picks)


def test_an_object_with_other_record_lists_is_not_cut():
    for text in (
        '{"items": [{"title": "a"}], "papers": [{"title": "b"}, {"title": "c"}]}',
        '{"meta": {"papers": []}, "papers": [{"title": "b"}, {"title": "c"}]}',
        '{"papers": [{"title": "b"}, {"title": "c"}]} {"papers": []}',
        '"x" [{"title": "b"}, {"title": "c"}]',
    ):
        assert places(JSON, text.encode(), 3)[1] is False, text


def test_a_json_array_is_cut_at_its_elements_only():
    text = b'[{"a": [{"b": 1}]}, {"c": "{[\\"]}"}, [2], 3]'
    assert places(JSON, text, 5)[0] == [1, text.index(b'{"c"'), text.index(b"[2]")]


# --- BibTeX ---------------------------------------------------------------------------------


@settings(max_examples=400, deadline=None)
@given(text=BIBTEX_TEXT, block=st.integers(1, 40), picks=st.lists(st.integers(0, 99), max_size=4))
@example(
    text="@misc{k, title = {a}}\n@string{m = {x}}\n@misc{j, title = m}\n@misc{k, title = {b}}\n",
    block=4,
    picks=[1, 2],
)
def test_bibtex_in_stretches_is_read_as_whole(text, block, picks):
    check(BIBTEX, "x.bib", text, bibtex.parse, block, picks)


def test_a_key_repeated_in_a_later_stretch_is_skipped_as_in_the_whole_file():
    text = "@misc{k, title = {a}}\n@misc{other, title = {b}}\n\n@misc{k, title = {c}}\n"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.bib"
        path.write_text(text, encoding="utf-8")
        papers, problems = stretched(BIBTEX, path, [text.index("@misc{k, title = {c")])
    assert [paper[0] for paper in papers] == ["k", "other"]
    assert problems == [f"{path}:4: duplicate key 'k' (first at line 1); entry skipped"]


# --- CSV and TSV tables ---------------------------------------------------------------------

_CELL = st.sampled_from(
    [
        "Graph kernels",
        'a "quoted" word',
        '"whole, quoted"',
        '"two\nlines"',
        '"a ""b"" c"',
        '"x"y',
        "",
        "é ☃",
        "Ada Lovelace; Alan Turing",
        '"\r\n"',
        "tab\there",
        "semi;colon",
    ]
)
_HEADERS = st.sampled_from(
    [
        "title,abstract,authors",
        "Title,Author,Abstract Note,Url",
        "\ufeffname,summary",
        "id,title",
        '"title","abstract"',
    ]
)
_ROW_END = st.sampled_from(["\n", "\n", "\r\n"])


@st.composite
def _tables(draw, delimiter: str) -> str:
    header = draw(_HEADERS).replace(",", delimiter)
    rows = draw(st.lists(st.lists(_CELL, min_size=1, max_size=4), max_size=12))
    end = draw(_ROW_END)
    body = "".join(delimiter.join(row) + draw(_ROW_END) for row in rows)
    if draw(st.booleans()):
        body = body.rstrip("\r\n")
    return (header + end if draw(st.booleans()) else "") + body


def _table_check(name: str, text: str, read_as: ReadAs, block: int, picks: list[int]):
    head = text.lstrip("\ufeff")
    form = table_stretches.format_of(Path(name), head, read_as)
    parse = functools.partial(table.parse, read_as=read_as)
    reader = functools.partial(form.read, read_as=read_as)
    check(replace(form, read=reader), name, text, parse, block, picks)


@settings(max_examples=300, deadline=None)
@given(text=_tables(","), block=st.integers(1, 40), picks=st.lists(st.integers(0, 99), max_size=5))
@example(text='title,abstract\n"a\nb",x\n"c",d\n', block=3, picks=[0, 1, 2])
@example(text='title,abstract\n"x"y,"z\n",w\nlast,one\n', block=2, picks=[0, 1, 2])
def test_a_csv_table_in_stretches_is_read_as_whole(text, block, picks):
    if text.lstrip("\ufeff").split("\n", 1)[0].lower().startswith(("title", "name", '"title"')):
        _table_check("x.csv", text, DEFAULT_READ, block, picks)
    columns = ReadAs("csv", columns=("title", "", "abstract"))
    _table_check("x.csv", text, columns, block, picks)


@settings(max_examples=200, deadline=None)
@given(text=_tables("\t"), block=st.integers(1, 40), picks=st.lists(st.integers(0, 99), max_size=5))
def test_a_tsv_table_with_columns_in_stretches_is_read_as_whole(text, block, picks):
    columns = ReadAs("tsv", columns=("title", "authors", "abstract"), separator=";")
    _table_check("x.tsv", text, columns, block, picks)


def test_a_table_is_cut_at_rows_only():
    data = b'title,abstract\n"a\nb",x\n"x"y,"z\n",w\nlast,one\n'
    form = table_stretches.format_of(Path("x.csv"), data.decode())
    assert places(form, data, 3)[0] == [
        15,
        data.index(b'"x"y'),
        data.index(b"last"),
        len(data),
    ]


def test_a_table_with_a_lone_carriage_return_or_a_nul_is_not_cut():
    form = table_stretches.format_of(Path("x.csv"), "title,abstract\n")
    assert places(form, b"title,abstract\na,b\rc\nd,e\n", 4)[1] is False
    assert places(form, b"title,abstract\na,b\x00\nd,e\n", 4)[1] is False
    assert places(form, b"title,abstract\na,b\r\nd,e\n", 4)[1] is True


# --- ACL Anthology XML ----------------------------------------------------------------------

_XML_TEXT = st.sampled_from(
    [
        "Graph kernels",
        "<fixed-case>BERT</fixed-case> and <tex-math>x^2</tex-math>",
        "a &lt;paper&gt; &amp; more",
        "<i>italic</i> words",
        "two\nlines",
        "é ☃",
        "",
    ]
)
_BETWEEN = st.sampled_from(["", "\n", "\n  ", "<!-- a note -->", "\n<!-- x -->\n"])


@st.composite
def _paper_xml(draw, number: int) -> str:
    authors = "".join(
        f"<author><first>Ada</first><last>L{n}</last>"
        + (draw(st.sampled_from(["", "<affiliation>Uni</affiliation>"])))
        + "</author>"
        for n in range(draw(st.integers(0, 2)))
    )
    title = draw(_XML_TEXT)
    abstract = draw(_XML_TEXT)
    parts = [f"<title>{title}</title>" if title or draw(st.booleans()) else ""]
    parts.append(authors)
    parts.append(f"<abstract>{abstract}</abstract>" if abstract else "")
    parts.append(draw(st.sampled_from(["", f"<url>2024.x-{number}</url>", "<award>Best</award>"])))
    sep = draw(_BETWEEN)
    return f'<paper id="{number}">{sep}' + sep.join(parts) + "</paper>"


@st.composite
def _acl_documents(draw) -> str:
    volumes = []
    for volume in range(draw(st.integers(0, 3))):
        meta = draw(
            st.sampled_from(
                [
                    "",
                    "<meta><booktitle>Proc. of <fixed-case>ACL</fixed-case></booktitle>"
                    "<year>2024</year></meta>",
                    "<meta>\n<booktitle>Findings</booktitle>\n</meta>",
                ]
            )
        )
        count = draw(st.integers(0, 4))
        papers = [draw(_paper_xml(number)) for number in range(1, count + 1)]
        between = draw(_BETWEEN)
        late_meta = draw(st.sampled_from(["", "", "", "<meta><year>1999</year></meta>"]))
        body = meta + between + between.join(papers) + late_meta
        volumes.append(f'<volume id="v{volume}">{between}{body}{between}</volume>')
    head = draw(st.sampled_from(["", '<?xml version="1.0" encoding="UTF-8"?>\n', "\ufeff"]))
    trouble = draw(
        st.sampled_from(
            ["", "", "", "<!-- <paper id='x'> -->", "<![CDATA[<volume x>]]>", "<paper-x/>"]
        )
    )
    event = draw(
        st.sampled_from(
            ["", "<event id='e'><colocated><volume-id>v0</volume-id></colocated></event>"]
        )
    )
    inner = draw(_BETWEEN).join(volumes)
    spot = draw(st.integers(0, len(inner)))
    if trouble and spot < len(inner) and inner[spot - 1 : spot] == ">":
        inner = inner[:spot] + trouble + inner[spot:]
    return f'{head}<collection id="2024.x">\n{inner}\n{event}</collection>\n'


@settings(max_examples=300, deadline=None)
@given(
    text=_acl_documents(), block=st.integers(1, 60), picks=st.lists(st.integers(0, 99), max_size=5)
)
def test_acl_xml_in_stretches_is_read_as_whole(text, block, picks):
    check(ACL, "x.xml", text, acl_xml.parse, block, picks)


def test_acl_xml_is_cut_at_the_papers_of_volumes_only():
    text = (
        '<?xml version="1.0"?>\n<collection id="c"><volume id="1"><meta><year>2024</year>'
        '</meta><!-- <paper id="n"> --><paper id="1"><title>a</title></paper>\n'
        '<paper id="2"><title>b</title></paper></volume></collection>\n'
    )
    data = text.encode()
    assert places(ACL, data, 5) == (
        [data.index(b'<paper id="1"'), data.index(b'<paper id="2"')],
        False,
    )
    plain = data.replace(b'<!-- <paper id="n"> -->', b"<!-- note -->")
    assert places(ACL, plain, 5) == (
        [plain.index(b'<paper id="1"'), plain.index(b'<paper id="2"')],
        True,
    )


def test_acl_xml_with_a_doctype_is_not_cut():
    text = (
        '<!DOCTYPE collection [<!ENTITY a "aaaa">]><collection id="c"><volume id="1">'
        '<paper id="1"><title>&a;</title></paper><paper id="2"/></volume></collection>'
    )
    assert places(ACL, text.encode(), 7) == ([], False)


def test_a_later_stretch_takes_its_volume_s_meta():
    text = (
        '<collection id="2024.x"><volume id="main"><meta><booktitle>Main</booktitle>'
        "<year>2024</year></meta>\n"
        + "".join(f'<paper id="{n}"><title>T{n}</title></paper>\n' for n in (1, 2, 3))
        + "</volume></collection>\n"
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.xml"
        path.write_text(text, encoding="utf-8")
        papers, problems = stretched(ACL, path, [text.index('<paper id="3"')])
        expected = whole(acl_xml.parse, path)[0]
    assert problems == []
    assert [paper[0] for paper in papers] == ["2024.x-main.1", "2024.x-main.2", "2024.x-main.3"]
    assert papers == expected
    assert {paper[PAPER_FIELDS.index("venue")] for paper in papers} == {"Main"}
