"""The reading loop in the reader (issue 13): read state, its keys, undo, sorts, the status."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from reader_helpers import (
    INSTANT,
    flat,
    row_ids,
    said,
    screen_text,
    settle,
    status_line,
    type_text,
)
from test_reader_views import sidebar

from paperterm.index.config import Config
from paperterm.index.library.bookmarks import BookmarkStore
from paperterm.index.library.reading import ReadingStore, mark_read
from paperterm.index.session import Session
from paperterm.tui.cli.main import main
from paperterm.tui.rows import BOOKMARK_MARK as MARKER
from paperterm.tui.rows import ROW_LINES
from paperterm.tui.rows import UNREAD_MARK as UNREAD
from paperterm.tui.screens.dialogs import ConfirmScreen
from paperterm.tui.screens.read import ReadScreen
from paperterm.tui.state import Timing


def read_on_disk(app) -> set[str]:
    store = ReadingStore.in_dir(app.session.data_dir)
    store.load()
    return set(store.entries)


def preread(data_dir, ids) -> None:
    store = ReadingStore.in_dir(data_dir)
    store.load()
    store.apply(mark_read(ids))


async def test_every_paper_starts_unread_and_the_status_counts_them(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        lines = screen_text(app).splitlines()
        assert all(line.startswith(f" {UNREAD} ") for line in lines[1:8])
        assert status_line(app).startswith(" 38 papers · 38 unread · 1/38 · index ready")
        await pilot.press("j", "j")
        await settle(pilot)
        assert "3/38" in status_line(app)
        assert read_on_disk(app) == set()  # moving over rows marks nothing


async def test_space_marks_read_and_moves_to_the_next_unread_paper(reader, data_dir):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        preread(data_dir, [ids[1]])  # read elsewhere: space skips it
        app.poll_reading()
        await settle(pilot)
        await pilot.press("space")
        await settle(pilot)
        assert app.main.paper_list.current.id == ids[2]
        assert read_on_disk(app) == {ids[0], ids[1]}
        first = screen_text(app).splitlines()[1]
        assert first.startswith("   ")  # read: no unread mark
        assert status_line(app).startswith(" 38 papers · 36 unread · 3/38")


async def test_space_at_the_end_of_the_view_says_so(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("G", "space")
        await settle(pilot)
        assert app.main.paper_list.cursor == 37
        assert "No more unread papers in this view after this one" in said(app)
        assert app.main.paper_list.current.id in read_on_disk(app)


async def test_space_in_the_search_box_types_a_space(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", "l", "o", "n", "g", "space", "c")
        await settle(pilot)
        assert app.main.search_input.value == "long c"
        assert read_on_disk(app) == set()


async def test_r_toggles_read(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        current = app.main.paper_list.current
        await pilot.press("r")
        await settle(pilot)
        assert read_on_disk(app) == {current.id}
        assert "read 20" in flat(screen_text(app))  # the detail pane says when
        await pilot.press("r")
        await settle(pilot)
        assert read_on_disk(app) == set()
        assert "unread" in flat(screen_text(app))


async def test_U_shows_unread_only_and_keeps_read_rows_until_the_view_changes(reader, data_dir):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        await pilot.press("space", "space", "space", "r")
        await settle(pilot)
        assert app.main.paper_list.current.id == ids[3]
        await pilot.press("U")
        await settle(pilot)
        assert row_ids(app) == ids[4:]
        assert app.main.paper_list.current.id == ids[4]  # the next unread after the cursor
        assert status_line(app).startswith(" 34 of 38 papers · 34 unread · unread only · 1/34")
        await pilot.press("space")
        await settle(pilot)
        assert row_ids(app) == ids[4:]  # read rows stay (dimmed) until the view changes
        assert "33 unread" in status_line(app)
        await pilot.press("U")
        await settle(pilot)
        assert row_ids(app) == ids
        assert app.main.paper_list.current.id == ids[5]


async def test_R_asks_then_marks_the_whole_view_read(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await type_text(pilot, "transformer")
        await settle(pilot)
        await pilot.press("escape")
        in_view = row_ids(app)
        assert 0 < len(in_view) < 38
        await pilot.press("R")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert f"Mark the {len(in_view)} unread papers in view read? (y: yes" in flat(
            screen_text(app)
        )
        box, text = app.screen.query_one("#confirm-box"), app.screen.query_one("#confirm-text")
        assert text.size.width <= box.content_size.width  # wrapped in the box, not cut
        assert text.size.height >= 2
        await pilot.press("n")  # any other key: no
        await settle(pilot)
        assert read_on_disk(app) == set()
        await pilot.press("R", "y")
        await settle(pilot)
        assert read_on_disk(app) == set(in_view)
        assert "0 unread" in status_line(app)
        await pilot.press("R")
        await pilot.pause()
        assert "Every paper in view is read already" in said(app)


async def test_u_undoes_reading_and_bookmark_changes_several_levels_deep(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        await pilot.press("space", "space", "b", "r")
        await settle(pilot)
        assert read_on_disk(app) == {ids[0], ids[1], ids[2]}
        marks = BookmarkStore.in_dir(app.session.data_dir)
        await pilot.press("u")  # the `r` on the third paper
        await settle(pilot)
        assert read_on_disk(app) == {ids[0], ids[1]}
        await pilot.press("u")  # the bookmark
        await settle(pilot)
        marks.load()
        assert not marks.is_bookmarked(ids[2])
        assert any(m.startswith("Undone: bookmarked") for m in said(app))
        await pilot.press("u", "u")  # both spaces
        await settle(pilot)
        assert read_on_disk(app) == set()
        await pilot.press("u")
        await pilot.pause()
        assert said(app)[-1] == "Nothing to undo"


async def test_undo_puts_a_removed_bookmark_back_with_its_tags_and_note(reader, data_dir):
    store = BookmarkStore.in_dir(data_dir)
    store.load()
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        current = app.main.paper_list.current
        store.add(current.id, "kept")
        store.add_tags(current.id, ["to-read"])
        store.set_note(current.id, "a note")
        app.poll_bookmarks()
        await pilot.press("b")  # removes it
        await settle(pilot)
        await pilot.press("u")
        await settle(pilot)
        store.load()
        mark = store.get(current.id)
        assert mark is not None and mark.tags == ("to-read",) and mark.note == "a note"
        assert screen_text(app).splitlines()[1].startswith(MARKER)


async def test_opening_full_screen_marks_read_and_brackets_move_through_the_view(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        await pilot.press("enter", "enter")  # the detail, then full screen
        await settle(pilot)
        assert isinstance(app.screen, ReadScreen)
        assert read_on_disk(app) == {ids[0]}
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert app.screen.row.id == ids[1]
        await pilot.press("right_square_bracket", "left_square_bracket")
        await settle(pilot)
        assert app.screen.row.id == ids[1]
        assert read_on_disk(app) == {ids[0], ids[1], ids[2]}
        await pilot.press("left_square_bracket", "left_square_bracket")
        await settle(pilot)
        assert "This is the first paper in the view" in said(app)
        await pilot.press("escape")
        await settle(pilot)
        assert app.main.paper_list.current.id == ids[0]  # the list followed


async def test_space_in_the_full_view_reads_on_to_the_next_unread_paper(reader, data_dir):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        preread(data_dir, [ids[1], *ids[3:]])
        app.poll_reading()
        await settle(pilot)
        await pilot.press("f")
        await settle(pilot)
        await pilot.press("space")
        await settle(pilot)
        assert app.screen.row.id == ids[2]  # the read one in between is skipped
        await pilot.press("space")
        await settle(pilot)
        assert isinstance(app.screen, ReadScreen) and app.screen.row.id == ids[2]
        assert "No more unread papers in this view after this one" in said(app)
        assert read_on_disk(app) == set(ids)


async def test_resting_on_a_row_marks_it_read_when_the_config_says_so(reader):
    app = reader(config=Config(mark_on_dwell_ms=20))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)  # waits for the dwell too (the screen says it is pending)
        ids = row_ids(app)
        assert read_on_disk(app) == {ids[0]}
        await type_text(pilot, "jj")  # passing over the second row does not mark it
        await settle(pilot)
        assert read_on_disk(app) == {ids[0], ids[2]}


async def test_s_cycles_the_sorts_with_relevance_only_while_searching(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        corpus = row_ids(app)
        await pilot.press("s")
        await settle(pilot)
        assert "sort: title" in status_line(app)
        titles = [row.paper.title.casefold() for row in app.main.paper_list.rows]
        assert titles == sorted(titles)
        await pilot.press("s")  # unread first
        await settle(pilot)
        assert "sort: unread" in status_line(app)
        await pilot.press("s", "s", "s")  # newest, like my bookmarks, back to the start
        await settle(pilot)
        assert app.main.sort == "relevance" and row_ids(app) == corpus
        assert "sort:" not in status_line(app)  # without a search, relevance is corpus order
        await pilot.press("slash")
        await type_text(pilot, "transformer")
        await settle(pilot)
        ranked = row_ids(app)
        assert ranked != sorted(ranked, key=corpus.index)  # best match first
        await pilot.press("escape", "s")
        await settle(pilot)
        assert app.main.sort == "corpus" and row_ids(app) == sorted(ranked, key=corpus.index)
        assert "sort: corpus order" in status_line(app)
        await pilot.press("s")
        await settle(pilot)
        assert app.main.sort == "title" and row_ids(app) != ranked


async def test_unread_first_puts_read_papers_last(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        await pilot.press("space", "space")
        await settle(pilot)
        app.main.set_sort("unread")
        await settle(pilot)
        assert row_ids(app) == [*ids[2:], ids[0], ids[1]]


async def test_like_my_bookmarks_ranks_unread_papers_and_says_why(reader):
    app = reader()
    async with app.run_test(size=(80, 40)) as pilot:
        await settle(pilot)
        by_title = {row.paper.title: row.id for row in app.main.paper_list.rows}
        caduceus = next(i for t, i in by_title.items() if t.startswith("Caduceus"))
        screen = app.main
        screen.paper_list.move_to(row_ids(app).index(caduceus))
        await pilot.press("b")
        await settle(pilot)
        screen.set_sort("like")
        await settle(pilot)
        assert "sort: like my bookmarks" in status_line(app)
        assert "(ranking…)" not in status_line(app)
        first = screen.paper_list.rows[0]
        assert first.id != caduceus  # the bookmark itself goes last with the read ones
        assert row_ids(app)[-1] == caduceus
        screen.paper_list.move_to(0)
        await settle(pilot)
        reasons = app.state.like_reasons(first.id)
        assert reasons
        assert f"like your bookmarks: {', '.join(reasons)}" in flat(screen_text(app))
        assert app.state.like_reasons(caduceus) == []  # the bookmark itself: no reason
        screen.set_sort("title")  # another order: the reasons go
        await settle(pilot)
        screen.paper_list.move_to(row_ids(app).index(first.id))
        await settle(pilot)
        assert "like your bookmarks" not in flat(screen_text(app))


async def test_s_builds_the_like_vectors_only_when_that_sort_is_chosen(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("b", "s", "s")  # a bookmark; title, then unread first
        await settle(pilot)
        assert "sort: unread first" in status_line(app)
        assert app.state.vectors is None  # no paper read for a sort not chosen
        await pilot.press("s", "s")  # newest, then like my bookmarks
        await settle(pilot)
        assert "sort: like my bookmarks" in status_line(app)
        assert "(ranking…)" not in status_line(app)
        assert app.state.vectors is not None


async def test_a_reading_state_changed_elsewhere_shows_after_a_poll(reader, data_dir):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        preread(data_dir, ids[:5])  # as `paperterm read` does
        app.poll_reading()
        await settle(pilot)
        assert status_line(app).startswith(" 38 papers · 33 unread")
        assert screen_text(app).splitlines()[1].startswith("   ")


async def test_a_damaged_reading_file_is_read_only_and_left_alone(reader, data_dir):
    path = data_dir / "reading.toml"
    path.write_text("version = 1\n[read]\nabc = 12\n", encoding="utf-8")
    app = reader()
    async with app.run_test(size=(120, 24)) as pilot:
        await settle(pilot)
        assert f"{path}:3: read.'abc' must be a TOML date-time" in flat(screen_text(app))
        assert "reading state read-only" in status_line(app)
        await pilot.press("space")
        await settle(pilot)
        assert any("read-only until the file is fixed" in m for m in said(app))
        assert path.read_text(encoding="utf-8") == "version = 1\n[read]\nabc = 12\n"
        path.write_text("version = 1\n", encoding="utf-8")
        app.poll_reading()
        await settle(pilot)
        assert "read-only" not in status_line(app)
        await pilot.press("space")
        await settle(pilot)
        assert len(read_on_disk(app)) == 1


async def test_a_failed_reading_save_is_kept_counted_and_retried(reader, data_dir, monkeypatch):
    from paperterm.index import user_files

    real = user_files.atomic_write_bytes

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(user_files, "atomic_write_bytes", disk_full)
    app = reader()
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        await pilot.press("space", "space")
        await settle(pilot)
        assert "2 reading changes not saved" in status_line(app)
        assert sum("Reading state not saved: No space left" in m for m in said(app)) == 1
        assert " 36 unread" in status_line(app)  # shown as read meanwhile
        monkeypatch.setattr(user_files, "atomic_write_bytes", real)
        app.poll_reading()
        await settle(pilot)
        assert "not saved" not in status_line(app)
        assert len(read_on_disk(app)) == 2


async def test_unread_only_with_everything_read_says_so(reader, data_dir):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        preread(data_dir, row_ids(app))
        app.poll_reading()
        await settle(pilot)
        await pilot.press("U")
        await settle(pilot)
        assert row_ids(app) == []
        text = flat(screen_text(app))
        assert "Every paper in this view is read. Press U to list them all." in text
        assert "0 of 38 papers · 0 unread · unread only" in text


async def test_paperterm_read_shows_in_an_open_reader_at_its_own_poll(
    reader, data_dir, monkeypatch
):
    """`paperterm read` in another terminal; the reader's own poll (every 2 s, the default)
    picks it up: the marks, the status line and the sidebar's counts change."""
    config = data_dir.parent / "config.toml"
    config.write_text("", encoding="utf-8")
    monkeypatch.setenv("PAPERTERM_DATA_DIR", str(data_dir))
    monkeypatch.setenv("PAPERTERM_CONFIG", str(config))
    poll = Timing.from_config(Config()).bookmark_poll
    assert poll is not None and poll <= 2
    app = reader(timing=INSTANT._replace(bookmark_poll=poll))
    polled = asyncio.Event()
    changed = app.reading_changed

    def reading_changed() -> None:
        changed()
        polled.set()

    monkeypatch.setattr(app, "reading_changed", reading_changed)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("v")
        await settle(pilot)
        ids = row_ids(app)
        assert main(["read", *ids[:3]]) == 0
        assert read_on_disk(app) == set(ids[:3])
        await asyncio.wait_for(polled.wait(), timeout=60)  # a guard, not a timing assert
        await settle(pilot)
        assert status_line(app).startswith(" 38 papers · 35 unread · 1/38")
        firsts = screen_text(app).splitlines()[1 : 1 + 4 * ROW_LINES : ROW_LINES]
        rows = [line.split("│")[1] for line in firsts]  # the list's rows' first lines
        assert [UNREAD in row for row in rows] == [False, False, False, True]
        assert sidebar(app)[0] == "▸ All papers 35/38"


async def test_like_my_bookmarks_is_not_left_ranking_when_the_first_build_ends(
    gated_reader, monkeypatch
):
    """The first build's index replaces the papers listed while it ran, with the same ids:
    the ranking made meanwhile stands (it was lost, and "ranking…" stayed until a restart)."""
    built = Session.build

    def build_without_listing_again(self, *args, listener=None, **kwargs):
        # The gated build listed the papers already; a build lists them once.
        listener = None if listener is None else replace(listener, papers=None)
        return built(self, *args, listener=listener, **kwargs)

    monkeypatch.setattr(Session, "build", build_without_listing_again)
    app, session = gated_reader()
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot, index=False)
        await pilot.press("b")
        app.main.set_sort("like")
        await settle(pilot, index=False)
        assert app.state.ranking is not None
        session.gate.set()
        await settle(pilot)
        assert app.state.index_state == "ready"
        assert "sort: like my bookmarks" in status_line(app)
        assert "(ranking…)" not in status_line(app)


async def test_papers_read_in_an_unread_only_view_stay_until_it_is_left(reader):
    """Peeking: a paper read while unread-only is on stays (dimmed) when the list is computed
    again, a search typed and cleared included, until the filters change."""
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        await pilot.press("U")
        await settle(pilot)
        await pilot.press("space", "space")
        await settle(pilot)
        await pilot.press("slash")
        await type_text(pilot, "a")
        await settle(pilot)
        await pilot.press("backspace")
        await settle(pilot)
        assert row_ids(app) == ids  # the list was computed again: both read papers stay
        assert "36 unread" in status_line(app)
        await pilot.press("escape", "U", "U")  # out of the view and back in
        await settle(pilot)
        assert row_ids(app) == ids[2:]
