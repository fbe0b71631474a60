"""The bookmarks store: file shape, operations, merging, damaged files and failed saves."""

from __future__ import annotations

import errno
import os
import re
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperterm.index import atomic, user_files

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

from paperterm.index.library.bookmarks import (
    Add,
    Bookmark,
    BookmarksError,
    BookmarksFileError,
    BookmarksReadOnlyError,
    BookmarksSaveError,
    BookmarkStore,
    ChangeTags,
    Remove,
    SetNote,
    normalize_tags,
)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "bookmarks.toml"


def open_store(path: Path) -> BookmarkStore:
    store = BookmarkStore(path)
    store.load()
    return store


def ids(store: BookmarkStore) -> list[str]:
    return [mark.id for mark in store.bookmarks]


def on_disk(path: Path) -> list[str]:
    """The ids in the file, read independently of the store."""
    return [entry["id"] for entry in tomllib.loads(path.read_text("utf-8"))["bookmarks"]]


def temp_files(path: Path) -> list[Path]:
    return sorted(path.parent.glob("*.tmp"))


# --- the file ---------------------------------------------------------------------------------


def test_missing_file_is_an_empty_store_and_load_writes_nothing(path: Path) -> None:
    store = open_store(path)
    assert store.bookmarks == []
    assert not store.read_only and store.error is None
    assert not path.exists()


def test_file_has_the_contract_shape(path: Path) -> None:
    store = open_store(path)
    store.add("p1", "First paper")
    store.add("p2")
    raw = tomllib.loads(path.read_text("utf-8"))
    assert raw["version"] == 1
    first, second = raw["bookmarks"]
    assert first["id"] == "p1" and first["title"] == "First paper"
    assert isinstance(first["added"], datetime)
    assert first["added"].utcoffset() == timedelta(0)
    assert second == {"id": "p2", "added": second["added"]}  # empty fields left out


def test_bookmark_added_is_aware_utc(path: Path) -> None:
    store = open_store(path)
    before = datetime.now(timezone.utc).replace(microsecond=0)
    store.add("p1")
    added = store.get("p1").added
    assert added.tzinfo is not None and added.utcoffset() == timedelta(0)
    assert before <= added <= datetime.now(timezone.utc)


def test_hand_written_file_is_read_leniently(path: Path) -> None:
    path.parent.mkdir(parents=True)
    path.write_text(
        "version = 1\n"
        "[[bookmarks]]\n"
        'id = "late"\nadded = 2024-03-01T10:00:00+02:00\n'
        "[[bookmarks]]\n"
        'id = "early"\nadded = 2024-01-02\ntags = [" x ", "x", ""]\n'
        "[[bookmarks]]\n"
        'id = "local"\nadded = 2024-02-01T00:00:00\n',
        "utf-8",
    )
    store = open_store(path)
    assert ids(store) == ["early", "local", "late"]  # in added order
    assert store.get("late").added == datetime(2024, 3, 1, 8, 0, tzinfo=timezone.utc)
    assert store.get("early").added == datetime(2024, 1, 2, tzinfo=timezone.utc)
    assert store.get("local").added == datetime(2024, 2, 1, tzinfo=timezone.utc)
    assert store.get("early").tags == ("x",)


def test_empty_file_is_an_empty_store(path: Path) -> None:
    path.parent.mkdir(parents=True)
    path.write_text("", "utf-8")
    store = open_store(path)
    store.add("p1")
    assert on_disk(path) == ["p1"]


def test_unknown_keys_are_kept_when_saving(path: Path) -> None:
    path.parent.mkdir(parents=True)
    path.write_text(
        'version = 1\ntheme = "dark"\n'
        '[[bookmarks]]\nid = "a"\nadded = 2024-01-01T00:00:00Z\nrating = 5\n',
        "utf-8",
    )
    store = open_store(path)
    store.add("b")
    raw = tomllib.loads(path.read_text("utf-8"))
    assert raw["theme"] == "dark"
    assert raw["bookmarks"][0]["rating"] == 5
    assert store.get("a").extra == {"rating": 5}


def test_backup_holds_the_previous_version(path: Path) -> None:
    store = open_store(path)
    store.add("a")
    assert not store.backup_path.exists()  # there was no previous version
    first = path.read_bytes()
    store.add("b")
    assert store.backup_path.read_bytes() == first
    second = path.read_bytes()
    store.remove("a")
    assert store.backup_path.read_bytes() == second
    assert on_disk(path) == ["b"]
    assert temp_files(path) == []


def test_no_write_when_nothing_changes(path: Path) -> None:
    store = open_store(path)
    store.add("a")
    stamp = atomic.file_stamp(path)
    store.add("a")
    store.remove("never-there")
    assert atomic.file_stamp(path) == stamp
    assert not store.backup_path.exists()


def test_a_save_that_changes_nothing_keeps_the_entries(path: Path) -> None:
    store = open_store(path)
    store.add("a")
    shown = store.entries
    store.add("a")  # saved again, nothing changed
    assert store.entries is shown
    store.add("b")
    assert store.entries is not shown and set(store.entries) == {"a", "b"}


def test_existing_file_permissions_are_kept(path: Path) -> None:
    store = open_store(path)
    store.add("a")
    path.chmod(0o640)
    store.add("b")
    assert path.stat().st_mode & 0o777 == 0o640


_text = st.text(st.characters(exclude_categories=["Cs"]), max_size=40)


@settings(max_examples=60, deadline=None)
@given(
    paper_id=_text.filter(lambda s: s.strip()),
    title=_text,
    tags=st.lists(_text, max_size=4),
    note=st.text(max_size=80),
)
def test_any_text_survives_a_save_and_load(
    paper_id: str, title: str, tags: list[str], note: str
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(Path(folder) / "bookmarks.toml")
        store.add(paper_id, title)
        store.add_tags(paper_id, tags)
        store.set_note(paper_id, note)
        again = open_store(store.path)
        assert again.bookmarks == store.bookmarks
        mark = again.get(paper_id)
        assert mark.title == " ".join(title.split())
        assert mark.tags == normalize_tags(tags)
        assert mark.note == note.replace("\r\n", "\n").replace("\r", "\n").strip()


def test_an_id_with_a_carriage_return_comes_back_the_same() -> None:
    """Hypothesis found it: tomli_w wrote the id `0\r\n` as a multi-line string, which reads
    back as `0\n`, and the bookmark could no longer be found by its id."""
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(Path(folder) / "bookmarks.toml")
        store.add("0\r\n", "Title")
        store.set_note("0\r\n", "first line\nsecond line")
        again = open_store(store.path)
        assert again.is_bookmarked("0\r\n")
        assert again.get("0\r\n").note == "first line\nsecond line"
        store.add("plain", "Title")
        store.set_note("plain", "a\nb")
        store.remove("0\r\n")
        assert '"""' in store.path.read_text()  # multi-line notes again once no CR is left


def test_a_tag_is_one_line() -> None:
    """Hypothesis found it: a tag `0\r\n0` came back from the file as `0\n0`."""
    assert normalize_tags(["0\r\n0", " to  read ", "to read", "\n"]) == ("0 0", "to read")
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(Path(folder) / "bookmarks.toml")
        store.add("a", "Title")
        store.add_tags("a", ["0\r\n0"])
        assert open_store(store.path).get("a").tags == ("0 0",)


# --- operations -------------------------------------------------------------------------------


def test_add_and_remove_are_idempotent(path: Path) -> None:
    store = open_store(path)
    store.add("a", "Title")
    added = store.get("a").added
    store.add("a", "Other title")
    assert ids(store) == ["a"]
    assert store.get("a").added == added
    assert store.get("a").title == "Title"
    store.remove("a")
    store.remove("a")
    assert store.bookmarks == [] and on_disk(path) == []


def test_add_fills_a_missing_title(path: Path) -> None:
    store = open_store(path)
    store.add("a")
    store.add("a", "  A  title\nover lines ")
    assert open_store(path).get("a").title == "A title over lines"


def test_toggle(path: Path) -> None:
    store = open_store(path)
    assert store.toggle("a", "T") is True
    assert store.is_bookmarked("a") and on_disk(path) == ["a"]
    assert store.toggle("a") is False
    assert not store.is_bookmarked("a") and on_disk(path) == []


def test_tags_are_normalised_and_idempotent(path: Path) -> None:
    store = open_store(path)
    store.add("a")
    store.add_tags("a", [" ml ", "ssl", "ml", "", "   "])
    assert store.get("a").tags == ("ml", "ssl")
    store.add_tags("a", ["ssl", "new"])
    assert store.get("a").tags == ("ml", "ssl", "new")
    store.remove_tags("a", ["ml", "absent"])
    store.remove_tags("a", ["ml"])
    assert store.get("a").tags == ("ssl", "new")
    store.remove_tags("a", ["ssl", "new"])
    store.add_tags("a", ["z", " z"])
    assert open_store(path).get("a").tags == ("z",)
    store.remove_tags("a", ["z"])
    assert "tags" not in tomllib.loads(path.read_text("utf-8"))["bookmarks"][0]


def test_note_set_and_clear(path: Path) -> None:
    store = open_store(path)
    store.add("a")
    store.set_note("a", '  line one\r\nline "two" \\ end  \n')
    assert open_store(path).get("a").note == 'line one\nline "two" \\ end'
    store.set_note("a", "   ")
    assert store.get("a").note == ""
    assert "note" not in tomllib.loads(path.read_text("utf-8"))["bookmarks"][0]


def test_editing_a_paper_that_is_not_bookmarked_is_an_error(path: Path) -> None:
    store = open_store(path)
    for edit in (
        lambda: store.add_tags("x", ["t"]),
        lambda: store.remove_tags("x", ["t"]),
        lambda: store.set_note("x", "n"),
    ):
        with pytest.raises(BookmarksError, match="x is not bookmarked"):
            edit()
    assert not path.exists()


def test_apply_saves_several_operations_in_one_write(path: Path) -> None:
    store = open_store(path)
    added = datetime(2024, 1, 1, tzinfo=timezone.utc)
    store.apply(Add("a", "A", added), Add("b", "", added), ChangeTags("a", ("t",)), Remove("b"))
    assert not store.backup_path.exists()  # one write: no previous version to back up
    assert store.bookmarks == [Bookmark("a", added, "A", ("t",))]


def test_vanished_papers_are_kept_and_reported(path: Path) -> None:
    store = open_store(path)
    store.add("gone", "A paper that left the corpus")
    store.add("here", "Still here")
    corpus = {"here", "new"}
    assert [mark.id for mark in store.missing(corpus)] == ["gone"]
    store.add("new")
    store.remove("here")
    again = open_store(path)
    assert ids(again) == ["gone", "new"]
    assert again.get("gone").title == "A paper that left the corpus"


# --- several instances ------------------------------------------------------------------------


def test_two_stores_merge_their_changes(path: Path) -> None:
    one, two = open_store(path), open_store(path)
    one.add("a")
    two.add("b")  # two never reloaded, yet keeps a
    assert on_disk(path) == ["a", "b"]
    assert ids(two) == ["a", "b"]
    assert one.changed_on_disk()
    assert one.reload_if_changed() is True
    assert ids(one) == ["a", "b"]
    assert one.reload_if_changed() is False
    assert not two.changed_on_disk()


def test_tag_changes_from_two_stores_merge(path: Path) -> None:
    one = open_store(path)
    one.add("a")
    two = open_store(path)
    one.add_tags("a", ["x"])
    two.add_tags("a", ["y"])
    one.set_note("a", "from one")
    assert open_store(path).get("a").tags == ("x", "y")
    assert open_store(path).get("a").note == "from one"


def test_a_removal_elsewhere_is_not_undone_by_a_stale_edit(path: Path) -> None:
    one = open_store(path)
    one.add("a")
    two = open_store(path)
    one.remove("a")
    two.set_note("a", "stale")  # two still shows a; the edit does not bring it back
    assert on_disk(path) == []
    assert not two.is_bookmarked("a")


def test_hand_edit_is_noticed(path: Path) -> None:
    store = open_store(path)
    assert not store.changed_on_disk()
    store.add("a")
    assert not store.changed_on_disk()
    text = path.read_text("utf-8").replace('id = "a"', 'id = "b"')
    path.write_text(text, "utf-8")
    assert store.reload_if_changed() is True
    assert ids(store) == ["b"]


def test_lock_timeout_is_a_save_error(path: Path) -> None:
    store = BookmarkStore(path, lock_timeout=0.05)
    store.load()
    with atomic.FileLock(store.lock_path), pytest.raises(BookmarksSaveError, match="lock"):
        store.add("a")
    assert store.is_bookmarked("a") and len(store.pending) == 1
    store.save()
    assert on_disk(path) == ["a"] and store.pending == ()


def test_stale_bookmarks_lock_file_is_ignored_but_a_held_one_is_not(tmp_path: Path) -> None:
    store = BookmarkStore.in_dir(tmp_path)
    store.lock_timeout = 0.2
    store.lock_path.write_text("left by a killed process\n")
    store.load()
    store.add("abc", "A title")
    assert BookmarkStore.in_dir(tmp_path).path.read_text().count("[[bookmarks]]") == 1
    # The contrast: a lock that some process does hold makes the save wait, then fail.
    with atomic.FileLock(store.lock_path), pytest.raises(BookmarksSaveError):
        store.add("def", "Another")
    assert store.pending  # kept, and saved once the lock is free
    store.save()
    assert not store.pending


# --- damaged files ----------------------------------------------------------------------------

GOOD_ENTRY = '[[bookmarks]]\nid = "ok"\nadded = 2024-01-01T00:00:00Z\n'

DAMAGED = {
    "bad toml": (
        "version = 1\n\n" + GOOD_ENTRY + 'title = "unterminated\n',
        r":6:\d+: ",
        "",
    ),
    "bad value": ("version = 1\n" + GOOD_ENTRY + "note = nope\n", r":5:\d+: ", "Invalid value"),
    "truncated": ("version = 1\n[[bookmarks", r":2:\d+: ", ""),
    "newer version": ("version = 2\n" + GOOD_ENTRY, r":1: ", "version 2"),
    "no version": (GOOD_ENTRY, r":1: ", "version"),
    "not utf-8": (b"version = 1\n# caf\xe9\n", r":2:6: ", "not UTF-8"),
    "bookmarks not tables": ("version = 1\nbookmarks = 3\n", ": ", "array of tables"),
    "no id": (
        "version = 1\n" + GOOD_ENTRY + "\n[[bookmarks]]\nadded = 2024-01-01T00:00:00Z\n",
        r":6: ",
        "bookmark 2: 'id'",
    ),
    "tags not strings": (
        "version = 1\n" + GOOD_ENTRY + "tags = [1, 2]\n",
        r":2: ",
        "bookmark 1: 'tags' must be a list of strings",
    ),
    "no added": ("version = 1\n[[bookmarks]]\nid = 'x'\n", r":2: ", "bookmark 1: 'added'"),
    "note not string": ("version = 1\n" + GOOD_ENTRY + "note = 3\n", r":2: ", "'note'"),
    "repeated id": ("version = 1\n" + GOOD_ENTRY + GOOD_ENTRY, r":5: ", "repeats bookmark 1"),
}


@pytest.mark.parametrize("case", DAMAGED, ids=list(DAMAGED))
def test_damaged_file_is_reported_and_never_overwritten(path: Path, case: str) -> None:
    content, where, why = DAMAGED[case]
    data = content.encode("utf-8") if isinstance(content, str) else content
    path.parent.mkdir(parents=True)
    path.write_bytes(data)
    store = BookmarkStore(path)
    with pytest.raises(BookmarksFileError) as caught:
        store.load()
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(str(path))
    assert why in message
    assert caught.value.line is not None or where == ": "
    assert re.match(re.escape(str(path)) + where, message), message
    assert store.read_only and store.error is caught.value
    with pytest.raises(BookmarksReadOnlyError, match="read-only"):
        store.add("new")
    with pytest.raises(BookmarksReadOnlyError):
        store.remove("ok")
    assert not store.is_bookmarked("new")
    store.save()  # nothing pending: nothing to do, nothing written
    assert path.read_bytes() == data
    assert not store.backup_path.exists()
    assert temp_files(path) == []


def test_file_damaged_while_running(path: Path) -> None:
    store = open_store(path)
    store.add("a")
    good = path.read_text("utf-8")
    damaged = good + "\n[[bookmarks]]\nid = \n"
    path.write_text(damaged, "utf-8")

    with pytest.raises(BookmarksReadOnlyError, match=r"bookmarks\.toml:\d+:\d+: .*read-only"):
        store.add("b")
    assert path.read_text("utf-8") == damaged
    assert store.read_only
    assert ids(store) == ["a"]  # the last good state is still shown
    assert store.pending == ()  # the refused change is not queued

    assert store.reload_if_changed() is False  # the damage was already reported
    path.write_text(damaged + "\n", "utf-8")
    with pytest.raises(BookmarksFileError):
        store.reload_if_changed()

    path.write_text(good, "utf-8")  # fixed by hand
    assert store.reload_if_changed() is True
    assert not store.read_only and store.error is None
    store.add("b")
    assert on_disk(path) == ["a", "b"]


def test_unreadable_file_is_a_one_line_error(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = open_store(path)
    store.add("a")

    def denied(*args: object, **kwargs: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setattr(user_files.os, "open", denied)  # root reads any file: fake the denial
    with pytest.raises(BookmarksError, match=r"bookmarks\.toml: cannot read bookmarks: Perm"):
        store.load()
    assert not store.read_only


# --- failed saves -----------------------------------------------------------------------------


def _fail_with(code: int):
    def fail(*args: object, **kwargs: object) -> None:
        raise OSError(code, os.strerror(code))

    return fail


@pytest.mark.parametrize("step", ["write", "fsync", "replace"])
def test_disk_full_keeps_the_old_file_and_the_change(
    path: Path, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    store = open_store(path)
    store.add("a")
    before = path.read_bytes()
    with monkeypatch.context() as patch:
        patch.setattr(atomic.os, step, _fail_with(errno.ENOSPC))
        with pytest.raises(BookmarksSaveError) as caught:
            store.add("b")
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: cannot save bookmarks: No space left on device")
    assert path.read_bytes() == before
    assert temp_files(path) == []
    assert store.is_bookmarked("b")  # the change is kept in memory...
    assert store.pending == (store.pending[0],) and isinstance(store.pending[0], Add)
    assert on_disk(path) == ["a"]  # ...and not on disk
    store.save()  # ...and retried
    assert on_disk(path) == ["a", "b"]
    assert store.pending == ()


def test_pending_changes_are_retried_by_the_next_change(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = open_store(path)
    with monkeypatch.context() as patch:
        patch.setattr(atomic.os, "write", _fail_with(errno.ENOSPC))
        with pytest.raises(BookmarksSaveError):
            store.add("a")
        assert len(store.pending) == 1
        with pytest.raises(BookmarksSaveError):
            store.add("b")
        assert len(store.pending) == 2
    assert not path.exists()
    store.add("c")
    assert on_disk(path) == ["a", "b", "c"]
    assert store.pending == ()


def test_pending_changes_survive_a_reload(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = open_store(path)
    with monkeypatch.context() as patch:
        patch.setattr(atomic.os, "replace", _fail_with(errno.ENOSPC))
        with pytest.raises(BookmarksSaveError):
            store.add("mine")
    open_store(path).add("theirs")
    assert store.reload_if_changed() is True
    assert sorted(ids(store)) == ["mine", "theirs"]
    store.save()
    assert sorted(on_disk(path)) == ["mine", "theirs"]


def test_permission_denied_is_a_clear_error(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = open_store(path)
    store.add("a")
    before = path.read_bytes()

    def denied(*args: object, **kwargs: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", str(path.parent))

    with monkeypatch.context() as patch:
        patch.setattr(atomic.tempfile, "mkstemp", denied)
        with pytest.raises(
            BookmarksSaveError, match=r"bookmarks\.toml: cannot save bookmarks: Permission denied"
        ):
            store.set_note("a", "hello")
    assert path.read_bytes() == before
    assert store.get("a").note == "hello"
    store.save()
    assert open_store(path).get("a").note == "hello"


def test_failed_backup_leaves_the_file_alone(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = open_store(path)
    store.add("a")
    before = path.read_bytes()
    with monkeypatch.context() as patch:
        patch.setattr(atomic.os, "link", _fail_with(errno.ENOSPC))
        with pytest.raises(BookmarksSaveError):
            store.apply(SetNote("a", "x"))
    assert path.read_bytes() == before
    assert temp_files(path) == []


def test_stale_temp_files_are_removed_by_the_next_save(path: Path) -> None:
    store = open_store(path)
    store.add("a")
    stale = path.parent / ".bookmarks.toml.abc123.tmp"
    stale.write_text("half a file", "utf-8")
    store.add("b")
    assert not stale.exists()
