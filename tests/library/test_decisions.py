"""Triage decisions in `reading.toml` (decisions.py): layout, migration from version 1,
merging with the reading state, undo, damage."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperterm.index.library.decisions import (
    DecisionStore,
    decide,
    decision_change,
    undo_changes,
)
from paperterm.index.library.op_store import LibraryFileError, LibraryReadOnlyError
from paperterm.index.library.reading import DECISIONS, ReadingStore, mark_read

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

#: A version 1 file exactly as paperterm wrote it before decisions existed.
VERSION_1 = """\
# paperterm reading state: paper id = when you first read it (UTC); unlisted = unread.
# You may edit this file by hand (comments are not kept when paperterm saves it).

version = 1

[read]
3f2a9c01b7de = 2024-05-01T12:00:00+00:00
"an id with spaces" = 2024-05-02T09:30:00+00:00
"""
FIRST = datetime(2024, 5, 1, 12, tzinfo=timezone.utc)
SECOND = datetime(2024, 5, 2, 9, 30, tzinfo=timezone.utc)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "reading.toml"


def stores(path: Path) -> tuple[DecisionStore, ReadingStore]:
    decisions, reading = DecisionStore(path), ReadingStore(path)
    decisions.load()
    reading.load()
    return decisions, reading


def test_a_version_1_file_migrates_to_2_on_first_write_losing_nothing(path: Path) -> None:
    path.write_text(VERSION_1, encoding="utf-8")
    decisions, reading = stores(path)
    assert decisions.entries == {}
    assert path.read_text("utf-8") == VERSION_1  # reading writes nothing
    decide(decisions, reading, ["new1"], "keep")
    raw = tomllib.loads(path.read_text("utf-8"))
    assert raw["version"] == 2
    assert raw["decision"] == {"new1": "keep"}
    assert raw["read"]["3f2a9c01b7de"] == FIRST
    assert raw["read"]["an id with spaces"] == SECOND
    assert set(raw["read"]) == {"3f2a9c01b7de", "an id with spaces", "new1"}


def test_a_reading_save_keeps_the_decisions(path: Path) -> None:
    decisions, reading = stores(path)
    decide(decisions, reading, ["a", "b"], "maybe")
    other = ReadingStore(path)
    other.load()  # knows nothing of decisions, yet keeps them
    other.apply(mark_read(["c"]))
    again, _ = stores(path)
    assert again.entries == {"a": "maybe", "b": "maybe"}


def test_a_decision_marks_read_and_clear_keeps_the_read(path: Path) -> None:
    decisions, reading = stores(path)
    decide(decisions, reading, ["p"], "skip")
    assert reading.is_read("p") and decisions.decision("p") == "skip"
    decide(decisions, reading, ["p"], None)
    assert reading.is_read("p") and decisions.decision("p") is None


def test_deciding_twice_is_idempotent(path: Path) -> None:
    decisions, reading = stores(path)
    decide(decisions, reading, ["p"], "keep")
    text = path.read_text("utf-8")
    decide(decisions, reading, ["p"], "keep")
    assert path.read_text("utf-8") == text


def test_undo_restores_decision_and_read_state(path: Path) -> None:
    decisions, reading = stores(path)
    decide(decisions, reading, ["kept"], "keep")
    undo = undo_changes(decisions, reading, ["kept", "fresh"])
    decide(decisions, reading, ["kept", "fresh"], "skip")
    assert decisions.entries == {"kept": "skip", "fresh": "skip"}
    decisions.apply(undo[0])
    reading.apply(undo[1])
    assert decisions.entries == {"kept": "keep"}
    assert reading.is_read("kept") and reading.is_unread("fresh")


def test_two_stores_merge_what_each_saved(path: Path) -> None:
    left_d, left_r = stores(path)
    right_d, right_r = stores(path)
    decide(left_d, left_r, ["l"], "keep")
    decide(right_d, right_r, ["r"], "maybe")
    final, reading = stores(path)
    assert final.entries == {"l": "keep", "r": "maybe"}
    assert set(reading.entries) == {"l", "r"}


def test_staged_decisions_save_later(path: Path) -> None:
    decisions, reading = stores(path)
    decide(decisions, reading, ["p"], "keep", stage=True)
    assert decisions.decision("p") == "keep" and not path.exists()
    decisions.save()
    reading.save()
    final, again = stores(path)
    assert final.entries == {"p": "keep"} and again.is_read("p")


def test_unknown_decision_is_refused() -> None:
    with pytest.raises(ValueError):
        decision_change(["p"], "later")


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('version = 2\n[decision]\np = "later"\n', ":3: decision.'p' must be one of"),
        ("version = 2\ndecision = 3\n", ": 'decision' must be a table"),
        ("version = 2\n[read]\np = 2024-01-01T00:00:00Z\n[decision]\np = 1\n", ":5: decision"),
    ],
)
def test_a_damaged_decision_table_is_named_and_never_overwritten(
    path: Path, text: str, where: str
) -> None:
    path.write_text(text, encoding="utf-8")
    for store in (DecisionStore(path), ReadingStore(path)):
        with pytest.raises(LibraryFileError) as caught:
            store.load()
        assert str(caught.value).startswith(f"{path}{where}")
    decisions = DecisionStore(path)
    with pytest.raises(LibraryReadOnlyError):
        decisions.apply(decision_change(["q"], "keep"))
    assert path.read_text("utf-8") == text


def test_counts_include_zeros(path: Path) -> None:
    decisions, reading = stores(path)
    decide(decisions, reading, ["a", "b"], "keep")
    assert decisions.counts() == {"keep": 2, "maybe": 0, "skip": 0}
    assert decisions.counts(["a", "zz"]) == {"keep": 1, "maybe": 0, "skip": 0}


@settings(max_examples=40, deadline=None)
@given(
    st.dictionaries(
        st.text(min_size=1).filter(lambda s: s.strip() and "\x00" not in s),
        st.sampled_from(DECISIONS),
        max_size=8,
    )
)
def test_any_ids_round_trip(
    tmp_path_factory: pytest.TempPathFactory, chosen: dict[str, str]
) -> None:
    path = tmp_path_factory.mktemp("d") / "reading.toml"
    decisions, _ = stores(path)
    for paper_id, decision in chosen.items():
        decisions.apply(decision_change([paper_id], decision))
    again, _ = stores(path)
    assert again.entries == chosen
