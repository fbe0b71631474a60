"""Issue 10: an editing dialog's result is saved as changes, merged with what another process
saved while the dialog was open, and the message says what really happened."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperterm.index.library.bookmarks import NOTE_SEPARATOR, BookmarkStore
from paperterm.index.library.edits import save_note, save_tags


def store_at(path: Path) -> BookmarkStore:
    store = BookmarkStore(path)
    store.load()
    return store


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "bookmarks.toml"


@pytest.fixture
def mine(path: Path) -> BookmarkStore:
    """This reader's store, with paper `p` bookmarked and tagged `a`, noted "first"."""
    store = store_at(path)
    store.add("p", "A paper")
    store.add_tags("p", ["a"])
    store.set_note("p", "first")
    return store


def test_tags_added_elsewhere_meanwhile_are_kept(mine: BookmarkStore, path: Path) -> None:
    shown = mine.get("p").tags  # the dialog opens with ("a",)
    store_at(path).add_tags("p", ["theirs"])  # the CLI, while the dialog is open
    message = save_tags(mine, "p", "A paper", shown, ["a", "mine"])
    assert store_at(path).get("p").tags == ("a", "theirs", "mine")
    assert message == "Tags saved, merged with changes made elsewhere: a, theirs, mine"


def test_only_the_tags_removed_in_the_dialog_go(mine: BookmarkStore, path: Path) -> None:
    shown = mine.get("p").tags
    store_at(path).add_tags("p", ["theirs"])
    save_tags(mine, "p", "A paper", shown, [])
    assert store_at(path).get("p").tags == ("theirs",)


def test_tags_saved_without_anything_else_going_on(mine: BookmarkStore, path: Path) -> None:
    assert save_tags(mine, "p", "A paper", mine.get("p").tags, ["a", "b"]) == "Tags saved"
    assert store_at(path).get("p").tags == ("a", "b")


def test_tags_on_a_bookmark_removed_meanwhile(mine: BookmarkStore, path: Path) -> None:
    shown = mine.get("p").tags
    store_at(path).remove("p")
    assert save_tags(mine, "p", "A paper", shown, ["a"]) == (
        "Not saved: the bookmark was removed elsewhere (its tags went with it)"
    )
    assert store_at(path).get("p") is None
    message = save_tags(mine, "p", "A paper", shown, ["a", "new"])
    assert message == "The bookmark had been removed elsewhere: added it back with these tags"
    assert store_at(path).get("p").tags == ("new",)  # only what this dialog added


def test_tags_on_a_paper_that_was_not_bookmarked_bookmark_it(path: Path) -> None:
    store = store_at(path)
    assert save_tags(store, "q", "Another  paper", None, ["x"]) == "Tags saved"
    mark = store_at(path).get("q")
    assert (mark.title, mark.tags) == ("Another paper", ("x",))


def test_a_note_unchanged_elsewhere_is_replaced(mine: BookmarkStore, path: Path) -> None:
    assert save_note(mine, "p", "A paper", "first", "second\r\nline ") == "Note saved"
    assert store_at(path).get("p").note == "second\nline"


def test_a_note_changed_elsewhere_meanwhile_is_kept_with_ours(
    mine: BookmarkStore, path: Path
) -> None:
    store_at(path).set_note("p", "theirs")
    message = save_note(mine, "p", "A paper", "first", "mine")
    assert store_at(path).get("p").note == f"theirs{NOTE_SEPARATOR}mine"
    assert message == "The note was changed elsewhere meanwhile: kept both, theirs first"


def test_clearing_a_note_changed_elsewhere_keeps_theirs(mine: BookmarkStore, path: Path) -> None:
    store_at(path).set_note("p", "theirs")
    assert save_note(mine, "p", "A paper", "first", "") == (
        "Note kept: it was changed elsewhere after you opened it"
    )
    assert store_at(path).get("p").note == "theirs"


def test_a_dialog_saved_unchanged_keeps_a_note_changed_elsewhere(mine, path) -> None:
    store_at(path).set_note("p", "theirs")
    save_note(mine, "p", "A paper", "first", "first")
    assert store_at(path).get("p").note == "theirs"


def test_a_note_for_a_bookmark_removed_meanwhile_brings_it_back(mine, path) -> None:
    """ "Note saved" would be a lie, and dropping the text the user just wrote a loss."""
    store_at(path).remove("p")
    message = save_note(mine, "p", "A paper", "first", "my thoughts")
    assert message == "The bookmark had been removed elsewhere: added it back with this note"
    mark = store_at(path).get("p")
    assert (mark.title, mark.note) == ("A paper", "my thoughts")


def test_an_empty_note_for_a_bookmark_removed_meanwhile_saves_nothing(mine, path) -> None:
    store_at(path).remove("p")
    message = save_note(mine, "p", "A paper", "first", "")
    assert message == "Not saved: the bookmark was removed elsewhere, and the note was empty"
    assert store_at(path).get("p") is None
