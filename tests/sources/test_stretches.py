"""A file read in stretches gives what its whole reading gives: for any cut at any place a
format's boundary finder gives (found whatever the blocks the file is fed in), the
stretches' papers and problems, in order, are the whole parse's."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_bibtex_stream import _TEXT as BIBTEX_TEXT

from paperterm.index.papers import Paper, paper_tuple
from paperterm.index.problems import Problem
from paperterm.index.sources import bibtex, bibtex_stretches, json_records, stretches, text_list
from paperterm.index.sources.bibtex_stretches import FORMAT as BIBTEX
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
        assert found == places(form, data, max(1, len(data)))[0]
        assert found == sorted(set(found))
        if not usable or not found:
            return usable
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
