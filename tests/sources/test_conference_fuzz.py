"""Hypothesis: the conference parsers and the shape detection never raise, whatever JSON-ish,
XML-ish or CSV-ish text they are given: what they cannot read is a problem."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from paperterm.index.papers import Paper
from paperterm.index.problems import Problem
from paperterm.index.sources import (
    acl_xml,
    json_fields,
    openreview,
    papercopilot,
    site_json,
    table,
)
from paperterm.index.sources.detect import choose
from paperterm.index.sources.files import ReadAs

_KEYS = st.sampled_from(
    [
        "title", "name", "abstract", "authors", "author", "speakers/authors", "aff", "authorids",
        "status", "decision", "eventtype", "type", "results", "notes", "content", "value",
        "forum", "id", "virtualsite_url", "session", "room_name", "starttime", "keywords",
        "poster_position", "paper_url", "pdf", "url", "site", "track", "year", "venue", "x",
    ]
)  # fmt: skip
_SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
_JSON = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=6),
    max_leaves=20,
)
_JSON_PARSERS = (site_json, openreview, papercopilot, json_fields)


def _checked(found: tuple[list[Paper], list[Problem]]) -> None:
    papers, problems = found
    assert all(isinstance(paper, Paper) for paper in papers)
    assert all(isinstance(problem, Problem) and "\n" not in str(problem) for problem in problems)


@settings(max_examples=150, deadline=None)
@given(_JSON, st.booleans())
def test_json_parsers_never_raise(value: object, cut: bool) -> None:
    text = json.dumps(value)
    if cut:
        text = text[: len(text) // 2]
    path = Path("fuzz.json")
    for module in _JSON_PARSERS:
        _checked(module.parse(path, text, None, ReadAs(fields=(("title", "x.0"),))))
    assert isinstance(choose(path, text), str)


_TAGS = st.sampled_from(
    ["collection", "volume", "meta", "paper", "title", "abstract", "author", "first", "last",
     "affiliation", "url", "doi", "award", "fixed-case", "tex-math", "b", "i", "booktitle",
     "year", "rss", "x"]
)  # fmt: skip


@st.composite
def _xml(draw: st.DrawFn, depth: int = 0) -> str:
    tag = draw(_TAGS)
    attributes = draw(st.sampled_from(["", ' id="1"', ' id="short"', " id=''"]))
    inner = draw(st.text(alphabet="ab <&>;$\\", max_size=8))
    if depth < 3:
        inner += "".join(draw(st.lists(_xml(depth + 1), max_size=3)))
    return f"<{tag}{attributes}>{inner}</{tag}>"


@settings(max_examples=150, deadline=None)
@given(_xml(), st.booleans())
def test_the_acl_parser_never_raises(text: str, cut: bool) -> None:
    text = f"<collection id='2024.x'>{text}</collection>" if "collection" not in text else text
    if cut:
        text = text[: len(text) // 2]
    path = Path("fuzz.xml")
    _checked(acl_xml.parse(path, text, None))
    assert isinstance(choose(path, text), str)


def test_the_acl_parser_refuses_entities() -> None:
    bomb = '<?xml version="1.0"?><!DOCTYPE c [<!ENTITY a "aaaa">]><collection>&a;</collection>'
    papers, problems = acl_xml.parse(Path("bomb.xml"), bomb, None)
    assert papers == [] and "refused" in str(problems[0])


_CELL = st.text(alphabet='ab,;\t"\n \\', max_size=10)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.lists(_CELL, min_size=1, max_size=6), max_size=5),
    st.sampled_from(["\t", ","]),
    st.lists(st.sampled_from(["title", "abstract", "authors", "", "year", "url"]), max_size=6),
    st.booleans(),
)
def test_the_table_parser_never_raises(rows, delimiter, columns, header) -> None:
    lines = [delimiter.join(row) for row in rows]
    if header:
        lines.insert(0, delimiter.join(["Title", "Author", "Abstract Note"]))
    text = "\n".join(lines)
    fmt = "tsv" if delimiter == "\t" else "csv"
    path = Path(f"fuzz.{fmt}")
    _checked(table.parse(path, text, None, ReadAs(fmt, tuple(columns))))
    assert isinstance(choose(path, text, ReadAs(fmt, tuple(columns))), str)
