"""Issue 10: the tag and note dialogs save changes, not the whole value they opened with, so
what the CLI or another reader saved while a dialog was open stays; the message is true."""

from __future__ import annotations

from pathlib import Path

from reader_helpers import settle

from paperterm.index.library.bookmarks import NOTE_SEPARATOR, BookmarkStore
from paperterm.tui.screens.dialogs import NoteScreen, TagsScreen


def elsewhere(data_dir: Path) -> BookmarkStore:
    """Another process's view of the bookmarks file (the CLI, a second reader)."""
    store = BookmarkStore.in_dir(data_dir)
    store.load()
    return store


def said(app) -> list[str]:
    return [notification.message for notification in app._notifications]


async def open_dialog(pilot, key: str, kind: type) -> None:
    await pilot.press(key)
    await pilot.pause()
    assert isinstance(pilot.app.screen, kind)


async def test_tags_added_by_the_cli_while_the_dialog_is_open_are_kept(reader, data_dir):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        paper = app.main.paper_list.current
        await pilot.press("t", *"mine", "enter")
        await pilot.pause()
        await open_dialog(pilot, "t", TagsScreen)  # it shows "mine"
        elsewhere(data_dir).add_tags(paper.id, ["theirs"])  # while it is open
        app.screen.query_one("#tags-input").value = "mine, more"
        await pilot.press("enter")
        await pilot.pause()
        assert elsewhere(data_dir).get(paper.id).tags == ("mine", "theirs", "more")
        assert app.state.bookmarks.get(paper.id).tags == ("mine", "theirs", "more")
        assert said(app)[-1] == "Tags saved, merged with changes made elsewhere: mine, theirs, more"


async def test_a_note_changed_elsewhere_while_the_dialog_is_open_is_kept(reader, data_dir):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        paper = app.main.paper_list.current
        await pilot.press("n", *"first", "ctrl+s")
        await pilot.pause()
        await open_dialog(pilot, "n", NoteScreen)
        elsewhere(data_dir).set_note(paper.id, "theirs")
        app.screen.query_one("TextArea").text = "mine"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert elsewhere(data_dir).get(paper.id).note == f"theirs{NOTE_SEPARATOR}mine"
        assert said(app)[-1] == "The note was changed elsewhere meanwhile: kept both, theirs first"


async def test_a_note_saved_after_a_remove_elsewhere_says_so(reader, data_dir):
    """The old reader said "Note saved" and saved nothing."""
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        paper = app.main.paper_list.current
        await pilot.press("b")
        await pilot.pause()
        await open_dialog(pilot, "n", NoteScreen)
        elsewhere(data_dir).remove(paper.id)
        app.screen.query_one("TextArea").text = "worth keeping"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert elsewhere(data_dir).get(paper.id).note == "worth keeping"
        assert said(app)[-1] == (
            "The bookmark had been removed elsewhere: added it back with this note"
        )
