"""The reader's controllers without a terminal: search requests and debounce, the sort's
waits and "like" seeds, places and jumps, the status line's parts, and the library's
changes (bookmarks, reading state, undo, exports) told to a fake face."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperterm.index.config import Config
from paperterm.index.library.bookmarks import BookmarkStore
from paperterm.index.library.filters import ALL, Filters, ViewKey
from paperterm.index.library.place import Place
from paperterm.index.library.sorting import SORTS
from paperterm.index.papers import Paper
from paperterm.tui.controllers import views as view_rules
from paperterm.tui.controllers.library import LibraryControl
from paperterm.tui.controllers.search import SearchControl, View, ViewRequest
from paperterm.tui.controllers.sorting import SortControl
from paperterm.tui.controllers.status_line import ListFacts, status_parts
from paperterm.tui.state import JUMP_DEPTH, ReaderState, Timing
from paperterm.tui.view import PaperRows, Row


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def make_state(tmp_path: Path, clock: Clock | None = None, debounce: float = 0.1) -> ReaderState:
    timing = Timing(debounce=debounce, bookmark_poll=None, clock=clock or Clock())
    state = ReaderState(Config(), BookmarkStore.in_dir(tmp_path), lambda key: f"<{key}>", timing)
    papers = [
        Paper(id="p1", collection="A", abstract="x", title="Zebra", year=2020),
        Paper(id="p2", collection="A", abstract="y", title="Apple", year=2023),
        Paper(id="p3", collection="B", abstract="z", title="Mango", year=2021),
    ]
    state.corpus_loaded(papers, [], building=False)
    return state


class Face:
    """Stands for the app: records what it is told."""

    def __init__(self) -> None:
        self.said: list[tuple[str, str]] = []
        self.bookmarks = 0
        self.reading = 0
        self.saves = 0

    def say(self, message: str, severity: str = "information", timeout=None) -> None:
        self.said.append((message, severity))

    def bookmarks_changed(self) -> None:
        self.bookmarks += 1

    def reading_changed(self) -> None:
        self.reading += 1

    def save_reading(self) -> None:
        self.saves += 1


# --- search -------------------------------------------------------------------------------


def test_the_first_key_runs_at_once_and_a_burst_waits_for_the_debounce(tmp_path):
    clock = Clock()
    control = SearchControl(make_state(tmp_path, clock, debounce=0.1))
    assert control.typed() <= 0 and control.generation == 1
    control.start_run(bump=False)
    clock.now += 0.03
    assert control.typed() == pytest.approx(0.07)
    assert control.generation == 2
    clock.now += 0.2
    assert control.typed() <= 0


def test_a_request_reads_the_filters_and_a_saved_search_view_waits_for_the_index(tmp_path):
    state = make_state(tmp_path)
    control = SearchControl(state)
    prepared = control.prepare("")
    assert prepared is not None and not prepared.has_clauses and prepared.allowed is None
    assert not control.filtered
    control.filters = Filters(view=ViewKey("collection", "B"))
    prepared = control.prepare("")
    assert prepared is not None and prepared.allowed == {"p3"} and control.filtered
    state.searches.save_search("mine", "zebra")
    control.filters = Filters(view=ViewKey("search", "mine"))
    control.generation = 4
    assert control.prepare("") is None
    assert control.waiting_for_index and control.applied == 4
    assert not control.saved_search_gone()


def test_a_deleted_saved_search_view_goes_back_to_all_papers(tmp_path):
    control = SearchControl(make_state(tmp_path))
    control.filters = Filters(unread_only=True, view=ViewKey("search", "gone"))
    assert control.saved_search_gone()
    assert control.filters == Filters(unread_only=True, view=ALL)


def test_the_empty_list_says_why(tmp_path):
    state = make_state(tmp_path)
    control = SearchControl(state)
    control.view = View([], 0, suggestion="transformer")
    assert control.empty_message("tranformer ") == [
        "No papers match “tranformer”.",
        "Did you mean: transformer?",
        "Press Enter in the search box to search for it.",
    ]
    control.filters = Filters(unread_only=True)
    assert control.empty_message("") == [
        "Every paper in this view is read.",
        "Press <unread_only> to list them all.",
    ]
    assert control.empty_message("tag:ml ") == ["No bookmark has the tag ml."]
    assert control.empty_message("tag:ml") == ["No bookmark has a tag that starts with ml."]
    state.set_papers([])
    state.index_state = "indexing"
    assert control.empty_message("") == ["Reading the sources…"]


def test_the_restored_paper_takes_the_cursor_once(tmp_path):
    control = SearchControl(make_state(tmp_path))
    control.restore_id = "p3"
    assert control.keep_on_show("p1") == "p3"
    assert control.keep_on_show("p1") == "p1"


def test_the_note_says_why_search_waits(tmp_path):
    state = make_state(tmp_path)
    control = SearchControl(state)
    control.waiting_for_index = True
    state.index_percent = 40
    assert control.note_parts(lambda: "x") == ["search starts when the index is ready (40%)"]
    state.index_state, state.index_error = "failed", "disk full"
    assert control.note_parts(lambda: "x") == ["search is off: disk full"]
    control.waiting_for_index = False
    state.searchable = 1200
    assert control.note_parts(lambda: "x") == ["searching the 1,200 papers indexed so far"]
    assert control.note_parts(lambda: "tag:ml ") == []


# --- sorting ------------------------------------------------------------------------------


def test_rows_come_in_the_sort_order_and_the_whole_corpus_is_kept(tmp_path):
    state = make_state(tmp_path)
    sorting = SortControl(state)
    rows = sorting.rows(None, "title")
    assert [row.id for row in rows] == ["p2", "p3", "p1"]
    assert sorting.rows(None, "title") is rows
    assert [row.id for row in sorting.rows({"p1", "p3"}, "newest")] == ["p3", "p1"]
    hits = [Row("p1", state.by_id["p1"]), Row("p2", state.by_id["p2"])]
    assert [row.id for row in sorting.sorted(hits, "title")] == ["p2", "p1"]
    sorting.like_seeds = ("p1",)
    sorting.papers_refreshed()
    assert sorting.all_rows == {} and sorting.like_seeds == ("p1",)
    sorting.rows(None, "title")
    sorting.papers_changed()
    assert sorting.all_rows == {} and sorting.like_seeds is None


def test_a_sort_wait_starts_one_worker_per_job_and_takes_only_its_own(tmp_path):
    state = make_state(tmp_path)
    sorting = SortControl(state)
    request = ViewRequest(1, "", None, "p1")
    job = sorting.job("title", whole=True)
    assert sorting.begin_wait(job, request, None, "p1")
    assert not sorting.begin_wait(sorting.job("title", whole=True), request, None, "p1")
    assert sorting.waiting_sort() == "title"
    sorting.wait_from_here(request, "p2")
    other = sorting.job("newest", whole=True)
    assert sorting.take(other) is None and sorting.wait is not None
    wait = sorting.take(job)
    assert wait is not None and wait.cursor_id == "p2" and wait.request.keep_id == "p2"
    assert sorting.wait is None and not sorting.end_wait()


def test_a_like_ranking_for_old_seeds_is_dropped(tmp_path):
    state = make_state(tmp_path)
    sorting = SortControl(state)
    state.bookmarks.add("p1", "Zebra")
    seeds = sorting.like_due(Filters())
    assert seeds == ("p1",)
    sorting.rank_like(seeds)
    assert sorting.like_due(Filters()) is None and state.ranking is None
    assert not sorting.like_ranked(("p2",), object())  # type: ignore[arg-type]
    ranking = object()
    assert sorting.like_ranked(("p1",), ranking)  # type: ignore[arg-type]
    assert state.ranking is ranking
    assert sorting.effective(searching=False) == "corpus"
    sorting.sort = "like"
    assert sorting.effective(searching=False) == "like" and state.like_order


# --- views, places, moves -----------------------------------------------------------------


def test_a_place_round_trips_and_a_gone_collection_shows_all(tmp_path):
    state = make_state(tmp_path)
    filters = Filters(True, False, ViewKey("collection", "B"))
    place = view_rules.place_of(filters, "zebra", "title", "p3")
    assert view_rules.restored(state, place) == (filters, "title")
    gone = place._replace(view=str(ViewKey("collection", "C")), sort="nonsense")
    assert view_rules.restored(state, gone) == (Filters(True, False, ALL), "relevance")


def test_the_jump_list_skips_repeats_and_places_without_a_paper():
    jumps: list[Place] = []
    view_rules.push_jump(jumps, Place(paper=""))
    view_rules.push_jump(jumps, Place(paper="p1"))
    view_rules.push_jump(jumps, Place(paper="p1"))
    assert jumps == [Place(paper="p1")]
    for i in range(JUMP_DEPTH + 5):
        view_rules.push_jump(jumps, Place(paper=f"q{i}"))
    assert len(jumps) == JUMP_DEPTH and jumps[-1] == Place(paper=f"q{JUMP_DEPTH + 4}")


def test_moving_to_the_next_unread_paper(tmp_path):
    state = make_state(tmp_path)
    rows = PaperRows(state.papers)
    ids, read = rows.ids, {"p2"}
    assert view_rules.neighbour_index(ids, rows.__getitem__, 0, 1, True, read) == 2
    assert view_rules.neighbour_index(ids, rows.__getitem__, 0, 1, False, read) == 1
    assert view_rules.neighbour_index(ids, rows.__getitem__, 2, 1, True, read) is None
    assert view_rules.next_unread_id(ids, {"p2", "p3"}, 1) == "p1"
    assert view_rules.unread_in_view(rows, read) == ["p1", "p3"]
    assert view_rules.next_zoom("detail") == "both"


def test_saving_a_search_under_a_config_search_name_is_refused(tmp_path):
    state = make_state(tmp_path)
    notice, kept = view_rules.save_search(state, "  my   search ", "zebra")
    assert kept and notice.text == "Saved the search as the view 'my search'"
    assert [s.name for s in state.saved_searches] == ["my search"]


# --- status line --------------------------------------------------------------------------


def test_the_status_line_says_the_sort_it_waits_for(tmp_path):
    state = make_state(tmp_path)
    facts = ListFacts(3, 3, 3, 0, False, Filters(unread_only=True), "title", False, "newest")
    texts = [part.text for part in status_parts(state, facts)]
    assert texts[:3] == ["3 papers", "3 unread", "unread only"]
    assert f"sorting by {SORTS['newest']}…" in texts
    state.index_state = "ready"
    facts = facts._replace(waiting_sort=None)
    texts = [part.text for part in status_parts(state, facts)]
    assert f"sort: {SORTS['title']}" in texts and texts[-1] == "index ready"


# --- library ------------------------------------------------------------------------------


def test_a_bookmark_toggles_and_undo_takes_it_back(tmp_path):
    state = make_state(tmp_path)
    face = Face()
    library = LibraryControl(state, tmp_path, face)
    row = Row("p1", state.by_id["p1"])
    assert library.toggle_bookmark(row)
    assert state.bookmarks.is_bookmarked("p1") and face.said[-1] == ("Bookmarked", "information")
    library.undo()
    assert not state.bookmarks.is_bookmarked("p1")
    assert face.said[-1] == ("Undone: bookmarked Zebra", "information")
    assert face.bookmarks == 2
    library.undo()
    assert face.said[-1] == ("Nothing to undo", "information")


def test_reading_changes_show_at_once_and_are_saved_by_the_worker(tmp_path):
    state = make_state(tmp_path)
    state.load_library()
    face = Face()
    library = LibraryControl(state, tmp_path, face)
    assert library.change_reading(["p1", "p1", "p2"], True, "read two")
    assert state.reading.is_read("p1") and state.reading.is_read("p2")
    assert face.reading == 1 and face.saves == 1
    assert library.change_reading(["p1"], True, "again")  # nothing to change
    assert face.saves == 1
    assert library.save_reading() == (None, False)
    library.toggle_read(Row("p1", state.by_id["p1"]))
    assert not state.reading.is_read("p1")
    library.undo()
    assert state.reading.is_read("p1") and face.said[-1] == ("Undone: unread Zebra", "information")


def test_an_export_of_the_view_is_written_to_the_data_dir(tmp_path):
    state = make_state(tmp_path)
    face = Face()
    library = LibraryControl(state, tmp_path, face)
    rows = [Row("p2", state.by_id["p2"])]
    library.export_view("markdown", rows, Filters(), "apple")
    written = (tmp_path / "view-export.md").read_text(encoding="utf-8")
    assert "Apple" in written and face.said[-1][0].startswith("Exported 1 paper(s) to ")
    (tmp_path / "bookmarks-export.md").mkdir()
    library.export_bookmarks("markdown")
    assert face.said[-1][1] == "error" and "cannot write the export" in face.said[-1][0]


@given(
    read=st.lists(st.booleans(), min_size=1, max_size=12),
    start=st.integers(-1, 12),
    step=st.sampled_from([1, -1]),
    unread=st.booleans(),
)
def test_the_neighbour_is_the_nearest_row_that_way(read, start, step, unread):
    """From a row (or just outside the list), `step` rows on; with `unread`, to the nearest
    unread paper that way (never a bookmark whose paper is gone)."""
    start = min(start, len(read))
    ids = [f"p{i}" for i in range(len(read))]
    done = {paper_id for paper_id, is_read in zip(ids, read, strict=True) if is_read}
    rows = [
        Row(paper_id, None if paper_id == "p3" else Paper(paper_id, "A", "")) for paper_id in ids
    ]
    found = view_rules.neighbour_index(ids, rows.__getitem__, start, step, unread, done)
    wanted = [
        i
        for i in range(len(ids))
        if (i - start) * step > 0 and (not unread or (ids[i] not in done and i != 3))
    ]
    nearest = min(wanted, key=lambda i: abs(i - start)) if wanted else None
    assert found == nearest
