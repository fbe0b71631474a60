"""The reading state store (`reading.toml`): its format, merging, damage, staged saves."""

from __future__ import annotations

import tempfile
import threading
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperterm.index import user_files
from paperterm.index.library.op_store import (
    LibraryFileError,
    LibraryReadOnlyError,
    LibrarySaveError,
    restore_of,
)
from paperterm.index.library.reading import (
    MarkRead,
    ReadingStore,
    mark_read,
    mark_unread,
)

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

WHEN = datetime(2024, 5, 1, 12, tzinfo=timezone.utc)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "reading.toml"


def open_store(path: Path) -> ReadingStore:
    store = ReadingStore(path)
    store.load()
    return store


def test_the_file_is_version_2_and_a_read_table_of_ids_and_times(path: Path) -> None:
    store = open_store(path)
    store.apply(MarkRead(("3f2a9c01b7de", "an id with spaces"), WHEN))
    raw = tomllib.loads(path.read_text("utf-8"))
    assert raw == {"version": 2, "read": {"3f2a9c01b7de": WHEN, "an id with spaces": WHEN}}
    assert "\n3f2a9c01b7de = 2024-05-01T12:00:00+00:00\n" in path.read_text("utf-8")
    assert path.stat().st_mode & 0o777 == 0o600


def test_a_paper_read_again_keeps_its_first_time(path: Path) -> None:
    store = open_store(path)
    store.apply(MarkRead(("a",), WHEN))
    store.apply(mark_read(["a", "b"]))
    assert store.read_at("a") == WHEN
    assert store.is_read("b") and store.unread(["a", "b", "c"]) == ["c"]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=20).filter(str.strip), max_size=8))
def test_any_id_round_trips(ids: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "reading.toml"
        store = open_store(path)
        store.apply(MarkRead(tuple(ids), WHEN))
        assert set(open_store(path).entries) == set(ids)


def test_two_stores_merge_their_changes(path: Path) -> None:
    left, right = open_store(path), open_store(path)  # both loaded before either writes
    left.apply(mark_read(["a", "b"]))
    right.apply(mark_read(["c"]))
    right.apply(mark_unread(["a"]))
    assert set(open_store(path).entries) == {"b", "c"}
    assert left.reload_if_changed()
    assert set(left.entries) == {"b", "c"}
    assert not left.reload_if_changed()


def test_entries_of_papers_that_left_the_corpus_and_unknown_keys_are_kept(path: Path) -> None:
    path.parent.mkdir(parents=True)
    path.write_text(
        'version = 1\nnote = "mine"\n[read]\ngone = 2020-01-01T00:00:00Z\n', encoding="utf-8"
    )
    store = open_store(path)
    store.apply(mark_read(["new"]))
    raw = tomllib.loads(path.read_text("utf-8"))
    assert raw["note"] == "mine" and set(raw["read"]) == {"gone", "new"}


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("version = 1\n[read]\nabc = 12\n", ":3: read.'abc' must be a TOML date-time"),
        ("version = 3\n", ":1: version 3 is not supported"),
        ("[read]\nabc = 2020-01-01\n", ":1: missing 'version = 2'"),
        ("version = 1\nread = 3\n", ": 'read' must be a table"),
        ('version = 1\n[read]\nabc = "x', ":3:"),
    ],
)
def test_a_damaged_file_is_named_and_never_overwritten(path: Path, text: str, where: str) -> None:
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    store = ReadingStore(path)
    with pytest.raises(LibraryFileError) as caught:
        store.load()
    assert str(caught.value).startswith(f"{path}{where}")
    assert store.read_only
    with pytest.raises(LibraryReadOnlyError, match="reading state is read-only"):
        store.stage(mark_read(["a"]))
    with pytest.raises(LibraryReadOnlyError):
        store.apply(mark_read(["a"]))
    assert path.read_text(encoding="utf-8") == text
    assert not store.pending


def test_staged_changes_show_at_once_and_are_written_by_save(path: Path) -> None:
    store = open_store(path)
    store.stage(mark_read(["a"]))
    assert store.is_read("a") and not path.exists()
    assert store.unsaved == 0  # staged, not failed
    store.save()
    assert set(open_store(path).entries) == {"a"} and not store.pending


def test_the_entries_are_a_new_dict_only_when_a_save_or_reload_changes_them(path: Path) -> None:
    """A save or a reload that leaves the entries as they were keeps the same dict: what was
    computed for it (the reader's unread and like orders, kept for the dict they are of)
    stays valid. A change is a new dict."""
    store = open_store(path)
    store.stage(mark_read(["a"]))
    staged = store.entries
    store.save()
    assert store.entries is staged
    path.write_bytes(path.read_bytes())  # written again, the same
    assert store.reload_if_changed()
    assert store.entries is staged
    open_store(path).apply(mark_read(["b"]))
    assert store.reload_if_changed()
    assert store.entries is not staged and set(store.entries) == {"a", "b"}


def test_a_change_staged_while_a_save_runs_stays_pending(path: Path, monkeypatch) -> None:
    store = open_store(path)
    store.stage(mark_read(["a"]))
    writing, go_on = threading.Event(), threading.Event()
    real = user_files.atomic_write_bytes

    def slow(*args, **kwargs):
        writing.set()
        go_on.wait(5)
        real(*args, **kwargs)

    monkeypatch.setattr(user_files, "atomic_write_bytes", slow)
    saver = threading.Thread(target=store.save)
    saver.start()
    assert writing.wait(5)
    store.stage(mark_read(["b"]))  # the UI thread is never held up by the save
    assert store.is_read("b")
    go_on.set()
    saver.join(5)
    assert set(open_store(path).entries) == {"a"}
    assert store.is_read("b") and len(store.pending) == 1
    store.save()
    assert set(open_store(path).entries) == {"a", "b"}


def test_a_failed_save_keeps_the_change_and_the_next_save_retries(path, monkeypatch) -> None:
    store = open_store(path)

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(user_files, "atomic_write_bytes", disk_full)
    store.stage(mark_read(["a"]))
    with pytest.raises(LibrarySaveError, match="cannot save reading state: No space left"):
        store.save()
    assert store.is_read("a") and store.unsaved == 1
    monkeypatch.undo()
    store.save()
    assert store.unsaved == 0 and set(open_store(path).entries) == {"a"}


def test_restore_puts_entries_back_as_they_were(path: Path) -> None:
    store = open_store(path)
    store.apply(MarkRead(("a",), WHEN))
    undo = restore_of(store, ["a", "b"])
    store.apply(mark_unread(["a"]), mark_read(["b"]))
    store.apply(undo)
    assert open_store(path).entries == {"a": WHEN}
