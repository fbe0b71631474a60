"""The generic JSON reader takes the conference fields under `Paper`'s own names."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from paperterm.index.papers import CONFERENCE_FIELDS
from paperterm.index.sources import json_records

_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)


def test_each_conference_key_fills_its_field():
    record = {
        "title": "T",
        "abstract": "A.",
        "authors": ["Ada Lovelace", "Alan Turing"],
        "affiliations": ["UCL", ""],
        "author_ids": ["~Ada1", "~Alan1"],
        "venue": "ICML 2024",
        "status": "Oral",
        "type": "Poster",
        "track": "Main",
        "topic": "Theory",
        "keywords": "a, b ,c",
        "tldr": "Short.",
        "session": "Poster Session 3",
        "room": "Hall C",
        "start": "2024-07-23T11:30:00+02:00",
        "end": "2024-07-23T13:00:00+02:00",
        "poster": 1001,
        "openreview": "AbC",
    }
    papers, problems = json_records.parse(Path("x.json"), json.dumps([record]), None)
    assert problems == []
    (paper,) = papers
    assert {name: getattr(paper, name) for name in CONFERENCE_FIELDS} == {
        "affiliations": ["UCL", ""],
        "author_ids": ["~Ada1", "~Alan1"],
        "venue": "ICML 2024",
        "status": "Oral",
        "type": "Poster",
        "track": "Main",
        "topic": "Theory",
        "keywords": ["a", "b", "c"],
        "tldr": "Short.",
        "session": "Poster Session 3",
        "room": "Hall C",
        "start": "2024-07-23T11:30:00+02:00",
        "end": "2024-07-23T13:00:00+02:00",
        "poster": "1001",
    }
    assert paper.fields["openreview"] == "AbC"


@given(st.dictionaries(st.sampled_from(CONFERENCE_FIELDS), _VALUES))
def test_any_values_give_text_and_lists_of_text(values):
    text = json.dumps([{"title": "T", "abstract": "A.", **values}])
    (paper,), _ = json_records.parse(Path("x.json"), text, None)
    for name in CONFERENCE_FIELDS:
        value = getattr(paper, name)
        if isinstance(value, list):
            assert all(isinstance(item, str) for item in value)
        else:
            assert isinstance(value, str)
