"""Bookmarks in the reader: toggle, filter, tags, notes, missing papers, damage, reloads."""

from __future__ import annotations

import re

from reader_helpers import INSTANT, flat, screen_text, settle, type_text, until

from paperterm.index.library.bookmarks import BookmarkStore
from paperterm.tui.rows import BOOKMARK_MARK as MARKER
from paperterm.tui.screens.dialogs import NoteScreen, TagsScreen


def on_disk(app) -> BookmarkStore:
    store = BookmarkStore.in_dir(app.session.data_dir)
    store.load()
    return store


async def test_b_toggles_a_bookmark_saved_at_once_with_a_marker(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        current = app.main.paper_list.current
        await pilot.press("b")
        await pilot.pause()
        saved = on_disk(app)
        assert saved.is_bookmarked(current.id)
        assert saved.get(current.id).title == current.paper.title
        first_row = screen_text(app).splitlines()[1]
        assert first_row.startswith(MARKER)
        assert "★ bookmarked" in screen_text(app)
        await pilot.press("b")
        await pilot.pause()
        assert not on_disk(app).is_bookmarked(current.id)
        assert not screen_text(app).splitlines()[1].startswith(MARKER)


async def test_bookmarks_only_view_with_counts_and_missing_papers(reader, data_dir):
    store = BookmarkStore.in_dir(data_dir)
    store.load()
    store.add("0123456789ab", "A paper that left the corpus")
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.main
        await pilot.press("j", "j", "b")
        kept = screen.paper_list.current
        await pilot.press("B")
        await settle(pilot)
        ids = [row.id for row in screen.paper_list.rows]
        assert ids == [kept.id, "0123456789ab"]
        text = screen_text(app)
        assert "2 of 38 papers" in text
        assert "bookmarks only" in text
        assert "A paper that left the corpus (missing)" in text
        await pilot.press("j")
        await settle(pilot)
        assert "no longer in the corpus" in screen_text(app)
        # Unbookmarking in this view removes the row and keeps the cursor in place.
        await pilot.press("b")
        await settle(pilot)
        assert [row.id for row in screen.paper_list.rows] == [kept.id]
        await pilot.press("B")
        await settle(pilot)
        assert len(screen.paper_list.rows) == 38


async def test_bookmarks_only_when_there_are_none(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("B")
        await settle(pilot)
        text = screen_text(app)
        assert "No bookmarks yet." in text
        assert "0 of 38 papers" in text


async def test_escape_clears_the_bookmarks_filter_after_the_query(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("b", "B", "slash", *"zzz", "escape")
        await settle(pilot)
        screen = app.main
        assert screen.filters.bookmarks_only and screen.search_input.value == "zzz"
        await pilot.press("escape")
        await settle(pilot)
        assert screen.filters.bookmarks_only and screen.search_input.value == ""
        await pilot.press("escape")
        await settle(pilot)
        assert not screen.filters.bookmarks_only
        assert len(screen.paper_list.rows) == 38


async def test_t_edits_tags_and_tag_search_filters(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.main
        await pilot.press("j")
        tagged = screen.paper_list.current
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, TagsScreen)
        await type_text(pilot, "to-read, Genomics")
        await pilot.press("enter")
        await pilot.pause()
        assert on_disk(app).get(tagged.id).tags == ("to-read", "Genomics")
        assert "tags: to-read, Genomics" in screen_text(app)
        await pilot.press("slash")
        await type_text(pilot, "tag:genomics")
        await settle(pilot)
        assert [row.id for row in screen.paper_list.rows] == [tagged.id]
        assert "1 of 38 papers" in screen_text(app)
        screen.search_input.value = "-tag:to-read"
        await settle(pilot)
        assert len(screen.paper_list.rows) == 37
        screen.search_input.value = "tag:nothing "
        await settle(pilot)
        assert "No bookmark has the tag nothing." in screen_text(app)
        screen.search_input.value = "tag:no"  # still typing it: a tag that starts so
        await settle(pilot)
        assert "No bookmark has a tag that starts with no." in screen_text(app)
        screen.search_input.value = "tag:geno"
        await settle(pilot)
        assert [row.id for row in screen.paper_list.rows] == [tagged.id]


async def test_tags_dialog_cancels_with_escape_and_saves_with_ctrl_s(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        current = app.main.paper_list.current
        await pilot.press("t", *"x", "escape")
        await pilot.pause()
        assert not app.state.bookmarks.is_bookmarked(current.id)
        await pilot.press("t", *"y", "ctrl+s")
        await pilot.pause()
        assert on_disk(app).get(current.id).tags == ("y",)


async def test_n_edits_the_note_with_ctrl_s_the_button_or_cancels(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        current = app.main.paper_list.current
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NoteScreen)
        await type_text(pilot, "first line")
        await pilot.press("enter")
        await type_text(pilot, "[red]second")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert on_disk(app).get(current.id).note == "first line\n[red]second"
        assert "[red]second" in screen_text(app)
        await pilot.press("n", *" more", "escape")
        await pilot.pause()
        assert on_disk(app).get(current.id).note == "first line\n[red]second"
        await pilot.press("n", "ctrl+u")
        await pilot.pause()
        app.screen.query_one("TextArea").text = "replaced"
        await pilot.click("#note-save")
        await pilot.pause()
        assert on_disk(app).get(current.id).note == "replaced"


async def test_a_damaged_bookmarks_file_is_read_only_with_a_visible_warning(reader, data_dir):
    path = data_dir / "bookmarks.toml"
    path.write_text('version = 1\n\n[[bookmarks]]\nid = "abc\n', encoding="utf-8")
    app = reader()
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        joined = "".join(line.strip() for line in text.splitlines())
        assert re.search(rf"{re.escape(str(path))}:4:\d+:", joined)
        assert "bookmarks read-only" in text
        assert len(app.main.paper_list.rows) == 38
        await pilot.press("b")
        await pilot.pause()
        assert any("read-only" in n.message for n in app._notifications)
        assert path.read_text(encoding="utf-8").endswith('id = "abc\n')
        # Fixed by hand: the next poll picks it up and the warning goes.
        path.write_text("version = 1\n", encoding="utf-8")
        app.poll_bookmarks()
        await pilot.pause()
        assert "bookmarks read-only" not in screen_text(app)
        await pilot.press("b")
        assert on_disk(app).is_bookmarked(app.main.paper_list.current.id)


async def test_changes_by_another_process_show_up_after_a_poll(reader, data_dir):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        other = BookmarkStore.in_dir(data_dir)
        other.load()
        first = app.main.paper_list.rows[0]
        other.add(first.id, first.paper.title)
        app.poll_bookmarks()
        await pilot.pause()
        assert screen_text(app).splitlines()[1].startswith(MARKER)


async def test_the_app_polls_the_bookmarks_file_by_itself(reader, data_dir):
    app = reader(timing=INSTANT._replace(bookmark_poll=0.01))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        other = BookmarkStore.in_dir(data_dir)
        other.load()
        first = app.main.paper_list.rows[0]
        other.add(first.id, first.paper.title)
        await until(pilot, lambda: app.state.bookmarks.is_bookmarked(first.id), "a poll")
        await pilot.pause()
        assert screen_text(app).splitlines()[1].startswith(MARKER)


async def test_export_writes_each_format_into_the_data_dir(reader, data_dir):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("b")
        title = app.main.paper_list.current.paper.title
        for kind, suffix in (("bibtex", "bib"), ("markdown", "md"), ("json", "json")):
            app.export_bookmarks(kind)
            exported = (data_dir / f"bookmarks-export.{suffix}").read_text(encoding="utf-8")
            assert title.split(":")[0] in exported
        await pilot.pause()
        assert any("bookmarks-export.json" in n.message for n in app._notifications)


async def test_a_failed_save_is_kept_and_retried_at_exit(reader, data_dir):
    blocker = data_dir / "bookmarks.toml"
    blocker.mkdir()  # the file cannot be read or replaced while a folder is in its place
    app = reader()
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        assert "cannot read bookmarks" in flat(screen_text(app))
        assert "bookmarks not saved" in screen_text(app)
        current = app.main.paper_list.current
        await pilot.press("b")
        await pilot.pause()
        assert app.state.bookmarks.pending
        assert any(n.message.startswith("Not saved:") for n in app._notifications)
        assert "1 bookmark change not saved" in screen_text(app)
        assert screen_text(app).splitlines()[1].startswith(MARKER)
        blocker.rmdir()
        await pilot.press("q")
    assert app.return_code == 0
    assert on_disk(app).is_bookmarked(current.id)


async def test_a_search_that_finds_nothing_in_a_narrowed_view_names_what_narrowed_it(reader):
    app = reader()
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        screen = app.main
        marked = screen.paper_list.current.paper
        assert "diffusion" not in marked.text.lower() and "diffusion" not in marked.title.lower()
        await pilot.press("b", "B", "slash", *"diffusion")
        await settle(pilot)
        assert screen.paper_list.rows == []
        text = screen_text(app)
        assert "No bookmarked papers match “diffusion”." in text
        assert "No papers match" not in text
        await pilot.press("escape", "U")  # out of the box; unread only too
        await settle(pilot)
        assert screen.search_input.value == "diffusion"
        assert "No unread bookmarked papers match “diffusion”." in screen_text(app)
        assert app.state.searcher.search("diffusion").total  # the seeds' papers have it
