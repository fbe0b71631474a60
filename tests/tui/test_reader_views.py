"""The views sidebar, saved searches, where the reader was, and jumping back (issue 13)."""

from __future__ import annotations

import threading

from reader_helpers import (
    flat,
    reader_of,
    row_ids,
    said,
    screen_text,
    settle,
    status_line,
    type_text,
    until,
)

from paperterm.index.config import parse_config
from paperterm.index.library.bookmarks import BookmarkStore
from paperterm.index.library.filters import ViewKey
from paperterm.index.library.place import PLACE_FILENAME
from paperterm.index.library.reading import ReadingStore, mark_read
from paperterm.index.library.searches import SearchesStore
from paperterm.index.search.records import PaperList
from paperterm.tui.screens.dialogs import NameScreen
from paperterm.tui.screens.read import ReadScreen
from paperterm.tui.widgets.views import ViewsPane

DNA = parse_config('[[searches]]\nname = "dna"\nquery = "DNA"\n')


def sidebar(app) -> list[str]:
    views = app.main.query_one(ViewsPane)
    return [
        " ".join(str(views.get_option_at_index(i).prompt).split())
        for i in range(views.option_count)
    ]


async def test_v_shows_the_views_with_live_unread_counts(reader, data_dir):
    marks = BookmarkStore.in_dir(data_dir)
    marks.load()
    app = reader(config=DNA)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        ids = row_ids(app)
        marks.add(ids[0], "first")
        marks.add_tags(ids[0], ["to-read"])
        app.poll_bookmarks()
        await pilot.press("v")
        await settle(pilot)
        views = app.main.query_one(ViewsPane)
        assert app.focused is views
        assert sidebar(app) == [
            "▸ All papers 38/38",
            "Collections",
            "ICML 2024 Papers 19/19",
            "ICML 2024 论文列… 19/19",  # cut to the sidebar's width
            "Tags",
            "to-read 1/1",
            "Searches",
            "dna 1/1",
        ]
        await pilot.press("tab")  # the list, then back to the views
        assert app.focused is app.main.paper_list
        await pilot.press("space")
        await settle(pilot)
        assert sidebar(app)[0] == "▸ All papers 37/38"
        assert sidebar(app)[5] == "to-read 0/1"
        # A change made elsewhere (`paperterm read`) shows at the next poll.
        other = ReadingStore.in_dir(data_dir)
        other.load()
        other.apply(mark_read(ids[20:22]))
        app.poll_reading()
        await settle(pilot)
        assert sidebar(app)[0] == "▸ All papers 35/38"
        assert sidebar(app)[3] == "ICML 2024 论文列… 17/19"
        await pilot.press("v")
        await settle(pilot)
        assert not views.display


async def test_choosing_a_view_narrows_the_list_and_ctrl_o_goes_back(reader):
    app = reader(config=DNA)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("j", "j", "j")
        before = app.main.paper_list.current.id
        await pilot.press("v", "down", "down", "enter")  # the second collection
        await settle(pilot)
        assert app.main.filters.view == ViewKey("collection", "ICML 2024 论文列表")
        assert app.focused is app.main.paper_list
        assert status_line(app).startswith(
            " 19 of 38 papers · 19 unread · collection: ICML 2024 论文列表"
        )
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert app.main.filters.view == ViewKey()
        assert app.main.paper_list.current.id == before


async def test_a_saved_search_from_the_config_is_a_view(reader):
    app = reader(config=DNA)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.main.set_view(ViewKey("search", "dna"))
        await settle(pilot)
        (only,) = app.main.paper_list.rows
        assert only.paper.title.startswith("Caduceus")
        assert "1 of 38 papers · 1 unread · search: dna" in status_line(app)


async def test_S_saves_the_search_as_a_view_in_the_data_dir(reader, data_dir):
    app = reader()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("S")
        await pilot.pause()
        assert "Type a search first" in said(app)[-1]
        await pilot.press("slash")
        await type_text(pilot, "vision transformer")
        await settle(pilot)
        found = set(row_ids(app))
        await pilot.press("escape", "S")
        await pilot.pause()
        assert isinstance(app.screen, NameScreen)
        await pilot.press("ctrl+u")
        await type_text(pilot, "ViT papers")
        await pilot.press("enter")
        await settle(pilot)
        store = SearchesStore.in_dir(data_dir)
        store.load()
        assert store.entries["ViT papers"].query == "vision transformer"
        await pilot.press("x", "v")  # clear the search; the views
        await settle(pilot)
        assert sidebar(app)[-2:] == ["Searches", f"ViT papers {len(found)}/{len(found)}"]
        app.main.set_view(ViewKey("search", "ViT papers"))
        await settle(pilot)
        assert set(row_ids(app)) == found


async def test_quitting_and_reopening_returns_to_the_same_place(reader, data_dir):
    app = reader(config=DNA)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("space", "space", "U", "s")  # unread only, sorted by title
        await settle(pilot)
        await pilot.press("slash")
        await type_text(pilot, "model")
        await settle(pilot)
        await pilot.press("enter", "j", "j")
        await settle(pilot)
        place = app.main.place()
        assert place.query == "model" and place.unread_only and place.sort == "title"
        rows = row_ids(app)
        await pilot.press("q")
    assert (data_dir / PLACE_FILENAME).exists()

    again = reader(config=DNA)
    async with again.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = again.main
        assert screen.search_input.value == "model"
        assert screen.filters.unread_only and screen.sort == "title"
        assert row_ids(again) == rows
        assert screen.paper_list.current.id == place.paper
        assert screen.detail.row.id == place.paper


async def test_another_corpus_starts_with_an_empty_search_box(reader, data_dir, tmp_path):
    """The place saved over the seeds is not the other corpus's: its query is not restored,
    and what is typed there is the whole query; the sort and filters carry over."""
    app = reader()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("s", "slash")  # sorted by title
        await type_text(pilot, "model")
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("q")
    other = tmp_path / "other.json"
    other.write_text('[{"title": "Weaving", "abstract": "Punched cards for looms."}]', "utf-8")
    again = reader_of([other], data_dir)
    async with again.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = again.main
        assert screen.search_input.value == "" and screen.sort == "title"
        await pilot.press("slash")
        await type_text(pilot, "loom")
        await settle(pilot)
        assert screen.search_input.value == "loom"
        assert [row.paper.title for row in screen.paper_list.rows] == ["Weaving"]


async def test_a_damaged_place_file_is_ignored_with_a_warning(reader, data_dir):
    (data_dir / PLACE_FILENAME).write_text("version = 1\nsort = 3\nquery = 'x\n", "utf-8")
    app = reader()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert len(app.main.paper_list.rows) == 38
        assert "1 warning" in status_line(app)
        assert any(PLACE_FILENAME in warning for warning in app.state.warnings)


async def test_ctrl_o_returns_to_the_paper_before_a_search(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("j", "j", "j", "j")
        before = app.main.paper_list.current.id
        await pilot.press("slash")
        await type_text(pilot, "DNA")
        await settle(pilot)
        await pilot.press("enter")  # to the results
        await settle(pilot)
        assert app.main.paper_list.current.id != before
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert app.main.search_input.value == ""
        assert app.main.paper_list.current.id == before
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert said(app)[-1] == "Nowhere to jump back to"


async def test_ctrl_o_after_following_a_related_paper(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        first = app.main.paper_list.current.id
        await pilot.press("f")
        await settle(pilot)
        reader_screen = app.screen
        related = reader_screen.query_one("#related")
        reader_screen.set_focus(related)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ReadScreen) and app.screen.followed
        followed = app.screen.row.id
        assert followed != first
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert app.screen is reader_screen and app.screen.row.id == first


async def test_the_palette_offers_unread_only_the_sorts_and_the_saved_searches(reader):
    app = reader(config=DNA)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert {
            "Show only unread papers (toggle) · U",
            "Views: collections, tags, saved searches · v",
            "Sort: title",
            "Saved search: dna",
            "Save the search as a view · S",
        } <= set(titles)
        assert "unread only" not in flat(screen_text(app))


async def test_the_palette_exports_the_view_as_a_reading_list(reader, data_dir):
    app = reader()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await type_text(pilot, "transformer")
        await settle(pilot)
        await pilot.press("escape", "U")
        await settle(pilot)
        titles = [row.paper.title for row in app.main.paper_list.rows]
        await pilot.press("ctrl+p")
        await type_text(pilot, "Export the view as Markdown")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        exported = (data_dir / "view-export.md").read_text(encoding="utf-8")
        assert exported.startswith("# All papers · search: transformer · unread\n")
        assert [line[3:] for line in exported.splitlines() if line.startswith("## ")] == titles
        assert any("view-export.md" in message for message in said(app))
        for kind, suffix in (("bibtex", "bib"), ("ris", "ris"), ("csv", "csv")):
            app.export_view(kind)
            assert titles[0][:20] in (data_dir / f"view-export.{suffix}").read_text("utf-8")


def _id_tables_made(monkeypatch) -> list[bool]:
    """For each id -> place table a row store makes from now on: whether on the UI thread."""
    built_on: list[bool] = []
    real = PaperList._id_table

    def spy(self):
        built_on.append(threading.current_thread() is threading.main_thread())
        return real(self)

    monkeypatch.setattr(PaperList, "_id_table", spy)
    return built_on


async def test_a_saved_search_view_finds_its_papers_places_off_the_ui_thread(reader, monkeypatch):
    """A saved search's view lists its papers by their places in the corpus: the id ->
    place table (500,000 entries: ~0.1 s) is the row store's (made once, in the worker that
    finds the searches' papers if not before), not another made on the UI thread when the
    view is first shown."""
    built_on = _id_tables_made(monkeypatch)
    app = reader(config=DNA)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert isinstance(app.state.papers, PaperList)
        made_before = len(built_on)
        app.main.set_view(ViewKey("search", "dna"))
        await settle(pilot)
        (only,) = app.main.paper_list.rows
        assert only.paper.title.startswith("Caduceus")
        assert app.state.sort_keys.position is app.state.papers.positions
        assert len(built_on) == made_before == 1  # made once, at start-up (a kept paper)


async def test_the_id_table_is_made_once_off_the_ui_thread(reader, monkeypatch):
    """The row store's id -> place table (500,000 entries: ~0.1-0.2 s of CPU), which the
    cursor's paper and a search's look-ups need, is made in the worker that loads the
    library, not on the UI thread when the cursor's paper is first looked for."""
    built_on = _id_tables_made(monkeypatch)
    app = reader()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert isinstance(app.state.papers, PaperList)
        await pilot.press("slash")
        await type_text(pilot, "learning")
        await settle(pilot)
        assert len(row_ids(app)) > 1
        await pilot.press("escape", "j")
        await settle(pilot)
        assert built_on == [False]


async def test_a_first_builds_papers_come_with_their_id_table(gated_reader, monkeypatch):
    """After a first launch's build the reader shows the index's papers, a row store of
    its own: its id -> place table is made in the index worker before the papers are
    handed over, not left to the first look-up on the UI thread (while the worker waits
    for the search lock, held here, to warm the searcher)."""
    from paperterm.tui.state import ReaderState

    made: list[bool] = []
    real = ReaderState.index_ready

    def spy(self, opened, searcher, warnings):
        made.append(isinstance(opened.papers, PaperList) and opened.papers._index is not None)
        return real(self, opened, searcher, warnings)

    monkeypatch.setattr(ReaderState, "index_ready", spy)
    app, session = gated_reader()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, index=False)
        lock = app.state.search_lock
        assert lock.acquire(blocking=False)
        try:
            session.gate.set()
            await until(pilot, lambda: bool(made), "the index's papers are handed over")
        finally:
            lock.release()
        await settle(pilot)
        assert made == [True]
