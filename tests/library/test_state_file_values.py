"""Odd values TOML can hold in the state files (reading.toml, bookmarks.toml, searches.toml):
each is used, or the file is refused in one line naming file and line; never an
OverflowError or a RecursionError."""

from __future__ import annotations

import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperterm.index.library.bookmarks import BookmarkStore
from paperterm.index.library.op_store import LibraryError, LibraryFileError, OpLogStore
from paperterm.index.library.pending import search_commands
from paperterm.index.library.reading import ReadingStore, mark_read
from paperterm.index.library.searches import DeleteSearch, SaveSearch, SearchesStore

LATE = "9999-12-31T23:59:59-23:59"
EARLY = "0001-01-01T00:00:00+23:59"


def reading_text(when: str) -> str:
    return f"version = 1\n[read]\np001 = 2024-01-01T00:00:00Z\np002 = {when}\n"


def bookmarks_text(when: str) -> str:
    return f'version = 1\n\n[[bookmarks]]\nid = "p002"\nadded = {when}\n'


def searches_text(when: str) -> str:
    return f'version = 1\n\n[[searches]]\nname = "s"\nquery = "q"\nadded = {when}\n'


#: (store class, file name, text with the date, line of the date's entry, what the line says)
FILES = [
    (ReadingStore, "reading.toml", reading_text, 4, "read.'p002': "),
    (BookmarkStore, "bookmarks.toml", bookmarks_text, 3, "bookmark 1: 'added' "),
    (SearchesStore, "searches.toml", searches_text, 3, "search 1: 'added' "),
]


@pytest.mark.parametrize(("store_class", "name", "text_of", "line", "what"), FILES)
@pytest.mark.parametrize("when", [LATE, EARLY])
def test_a_date_out_of_range_is_refused_in_one_line(
    tmp_path: Path, store_class, name, text_of, line, what, when
):
    path = tmp_path / name
    path.write_text(text_of(when), encoding="utf-8")
    store: OpLogStore = store_class(path)
    with pytest.raises(LibraryFileError) as caught:
        store.load()
    assert str(caught.value) == (
        f"{path}:{line}: {what}{when} is out of range (in UTC it falls outside the years 1 to 9999)"
    )
    assert store.read_only
    assert path.read_text(encoding="utf-8") == text_of(when)
    path.write_text(text_of("9999-12-31T23:59:59Z"), encoding="utf-8")  # the last UTC second
    store.load()
    assert not store.read_only


offsets = st.integers(-(24 * 60 - 1), 24 * 60 - 1).map(lambda m: timezone(timedelta(minutes=m)))
#: Any moment, but mostly within a day of the calendar's ends, where offsets overflow.
moments = st.one_of(
    st.datetimes(datetime(1, 1, 1), datetime(1, 1, 2)),
    st.datetimes(datetime(9999, 12, 30), datetime(9999, 12, 31, 23, 59, 59)),
    st.datetimes(datetime(1, 1, 1), datetime(9999, 12, 31, 23, 59, 59)),
)


@settings(max_examples=60, deadline=None)
@given(moments, offsets, st.sampled_from(FILES))
def test_any_offset_date_time_is_used_or_refused_with_a_line(moment, offset, file):
    store_class, name, text_of, line, _ = file
    when = moment.replace(microsecond=0, tzinfo=offset).isoformat()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_text(text_of(when), encoding="utf-8")
        store: OpLogStore = store_class(path)
        try:
            store.load()
        except LibraryFileError as error:
            assert error.line == line and "out of range" in error.why
            with pytest.raises(OverflowError):
                moment.replace(tzinfo=offset).astimezone(timezone.utc)
        else:
            assert len(store.entries) == (2 if name == "reading.toml" else 1)


@pytest.mark.parametrize(("store_class", "name", "text_of", "line", "what"), FILES)
def test_deep_nesting_in_a_state_file_is_refused_in_one_line(
    tmp_path: Path, store_class, name, text_of, line, what
):
    path = tmp_path / name
    path.write_text("version = 1\nextra = " + "[" * 500 + "]" * 500 + "\n", encoding="utf-8")
    with pytest.raises(LibraryFileError) as caught:
        store_class(path).load()
    assert str(caught.value) == f"{path}:2: values are nested more than 100 levels deep"


@pytest.mark.parametrize("depth", [100, 400])
def test_what_loads_also_saves_however_deep_its_kept_values_nest(tmp_path: Path, depth: int):
    """Unknown keys are kept and written back: a file read must never make a save fail."""
    path = tmp_path / "bookmarks.toml"
    path.write_text("version = 1\nextra = " + "[" * depth + "]" * depth + "\n", encoding="utf-8")
    store = BookmarkStore(path)
    try:
        store.load()
    except LibraryFileError as error:
        assert depth > 100 and error.line == 2
        return
    store.add("p001", "A paper")
    again = BookmarkStore(path)
    again.load()
    assert again.is_bookmarked("p001")


def test_staged_changes_a_damaged_file_refuses_are_counted_as_unsaved(tmp_path: Path):
    path = tmp_path / "reading.toml"
    store = ReadingStore(path)
    store.load()
    store.stage(mark_read(["p001"]))
    path.write_text(reading_text(LATE), encoding="utf-8")  # another program, meanwhile
    with pytest.raises(LibraryError, match="out of range"):
        store.save()
    assert store.unsaved == 1 and store.read_only
    path.write_text("version = 1\n", encoding="utf-8")  # fixed
    assert store.reload_if_changed()
    store.save()
    assert store.unsaved == 0
    again = ReadingStore(path)
    again.load()
    assert set(again.entries) == {"p001"}


def test_search_changes_as_commands():
    when = datetime(2024, 1, 1, tzinfo=timezone.utc)
    ops = [SaveSearch("a b", "x -y", when), SaveSearch("a b", "x -y", when), DeleteSearch("c")]
    assert search_commands(ops, ["--data-dir", "/d"]) == [
        "paperterm --data-dir /d searches save -- 'a b' 'x -y'",
        "paperterm --data-dir /d searches delete -- c",
    ]
    assert search_commands([SaveSearch("\x1b[2J", "q", when)]) == [
        "paperterm searches save -- $'\\x1b[2J' q"
    ]
