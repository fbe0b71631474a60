"""`s` onto an order not computed yet (title, newest: ~2 s at 500,000 papers) computes it in
a worker: the status line says "sorting by …", keys are answered meanwhile, and the sorted
list keeps the cursor on its paper.

The worker's steps are held at a gate the test opens, so "a key is answered before the sort
ends" is a fact of the run, not of the machine's speed."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from reader_helpers import INSTANT, row_ids, settle, status_line, type_text, until

from paperterm.index.config import parse_config
from paperterm.index.library.filters import ALL, ViewKey
from paperterm.index.library.place import Place, save_place
from paperterm.index.library.reading import mark_read
from paperterm.index.library.sorting import SORT_RUN, SORTS, SortKeys
from paperterm.index.papers import Paper
from paperterm.index.sources.loader import Corpus

COUNT = 20_000
DNA = parse_config('[[searches]]\nname = "dna"\nquery = "DNA"\n')


def shuffled_titles(count: int = COUNT) -> Corpus:
    """Papers whose title order is far from their corpus order (7919 is prime to 20,000)."""
    papers = [
        Paper(
            id=f"{index:012x}",
            collection="Synthetic",
            abstract=f"Abstract number {index} about topic {index % 97}.",
            text=f"Abstract number {index} about topic {index % 97}.",
            title=f"Paper {(index * 7919) % count:05d} on topic {index % 97}",
        )
        for index in range(count)
    ]
    return Corpus(papers=papers)


class Gate:
    """Holds every sort worker after its first step until `open()`; counts the steps."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.opened = threading.Event()
        self.started = threading.Event()
        self.steps = 0
        real = SortKeys.steps_for

        def held(keys: SortKeys, sort: str, *, whole: bool, **inputs) -> Iterator[None]:
            for step in real(keys, sort, whole=whole, **inputs):
                self.steps += 1
                yield step
                if self.steps == 1:
                    self.started.set()
                    assert self.opened.wait(timeout=60), "the test never opened the gate"

        monkeypatch.setattr(SortKeys, "steps_for", held)

    def open(self) -> None:
        self.opened.set()


def sort_workers(app) -> list:
    return [w for w in app.workers if w.group == "sort" and not w.is_finished]


async def test_sorting_a_large_corpus_by_title_answers_keys_and_keeps_the_cursor(
    gated_reader, monkeypatch
):
    gate = Gate(monkeypatch)
    app, _session = gated_reader(corpus=shuffled_titles())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, index=False)
        screen = app.main
        paper_list = screen.paper_list
        await pilot.press("j", "j")
        await pilot.pause()
        before = [row.id for row in paper_list.rows]
        assert paper_list.cursor == 2

        await pilot.press("s")  # corpus order -> title, whose order is not computed yet
        await until(pilot, gate.started.is_set, "the sort worker started")
        assert sort_workers(app)
        assert "sorting by title…" in status_line(app)
        assert [row.id for row in paper_list.rows] == before  # shown when it is ready

        await pilot.press("j")  # answered while the worker is held
        await pilot.pause()
        assert sort_workers(app), "the sort ended before the key was handled"
        assert paper_list.cursor == 3
        assert screen.detail.row.id == before[3]
        assert "4/20000" in status_line(app)

        gate.open()
        await settle(pilot, index=False)
        rows = list(paper_list.rows)
        titles = [row.paper.title.casefold() for row in rows]
        assert titles == sorted(titles)
        assert [row.id for row in rows] != before
        assert paper_list.current.id == before[3]  # the paper the cursor was moved to
        assert paper_list.cursor == [row.id for row in rows].index(before[3])
        assert "sort: title" in status_line(app) and "sorting" not in status_line(app)
        assert gate.steps > 1


async def test_another_sort_chosen_while_one_is_computed_cancels_it(gated_reader, monkeypatch):
    gate = Gate(monkeypatch)
    app, _session = gated_reader(corpus=shuffled_titles())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, index=False)
        paper_list = app.main.paper_list
        before = [row.id for row in paper_list.rows]
        await pilot.press("s")
        await until(pilot, gate.started.is_set, "the sort worker started")
        worker = sort_workers(app)[0]
        await pilot.press("s")  # title -> unread first: ready at once
        await pilot.pause()
        assert worker.is_cancelled
        assert "sort: unread first" in status_line(app)
        assert [row.id for row in paper_list.rows] == before  # nothing read: corpus order
        gate.open()
        await settle(pilot, index=False)
        assert app.main.sort == "unread" and "sorting" not in status_line(app)
        assert [row.id for row in paper_list.rows] == before


async def test_a_search_sorted_by_title_waits_for_the_titles_in_a_worker(reader, monkeypatch):
    """While searching, the hits are sorted by the titles of every paper, read once: in a
    worker when they are not read yet (the index worker's orders wait for a pause in typing,
    which never ends here)."""
    gate = Gate(monkeypatch)
    app = reader(timing=INSTANT._replace(quiet=1.0, clock=lambda: 1000.0))
    app.state.typed_at = 1000.0  # a key typed just now, by a clock that never moves
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, index=False)
        await pilot.press("slash")
        await type_text(pilot, "learning")
        await settle(pilot, index=False)
        ranked = [row.id for row in app.main.paper_list.rows]
        assert len(ranked) > 2
        await pilot.press("escape")  # to the list: `s` is a key there
        await settle(pilot, index=False)
        await pilot.press("s", "s")  # relevance -> corpus order -> title
        await until(pilot, gate.started.is_set, "the sort worker started")
        assert "sorting by title…" in status_line(app)
        gate.open()
        await settle(pilot, index=False)
        titles = [row.paper.title.casefold() for row in app.main.paper_list.rows]
        assert sorted(row.id for row in app.main.paper_list.rows) == sorted(ranked)
        assert titles == sorted(titles)
        assert "sort: title" in status_line(app)


async def test_a_saved_sort_shows_the_stored_order_at_once_then_sorts(
    gated_reader, tmp_path, monkeypatch
):
    """Start-up with a saved sort by title: the rows are shown at once in the order that is
    ready (corpus order), the status line says "sorting by title…", and when the order comes
    the list is sorted with the cursor on the paper it was on."""
    gate = Gate(monkeypatch)
    corpus = shuffled_titles()
    saved = corpus.papers[5].id
    save_place(tmp_path / "data", Place(sort="title", paper=saved))
    app, _session = gated_reader(corpus=corpus)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, gate.started.is_set, "the sort worker started")
        await until(pilot, lambda: bool(app.main.paper_list.rows), "rows are shown")
        paper_list = app.main.paper_list
        assert [row.id for row in paper_list.rows] == [paper.id for paper in corpus.papers]
        assert paper_list.current.id == saved
        assert "sorting by title…" in status_line(app)
        assert sort_workers(app), "the sort ended before the rows were shown"

        gate.open()
        await settle(pilot, index=False)
        titles = [row.paper.title.casefold() for row in paper_list.rows]
        assert titles == sorted(titles)
        assert paper_list.current.id == saved
        assert "sort: title" in status_line(app) and "sorting" not in status_line(app)


async def test_a_cursor_moved_while_the_saved_sort_is_computed_stays_on_its_paper(
    gated_reader, tmp_path, monkeypatch
):
    gate = Gate(monkeypatch)
    corpus = shuffled_titles()
    save_place(tmp_path / "data", Place(sort="title"))
    app, _session = gated_reader(corpus=corpus)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, gate.started.is_set, "the sort worker started")
        await until(pilot, lambda: bool(app.main.paper_list.rows), "rows are shown")
        paper_list = app.main.paper_list
        app.main.set_focus(paper_list)
        await pilot.press("j", "j", "j")
        await pilot.pause()
        assert paper_list.current.id == corpus.papers[3].id
        gate.open()
        await settle(pilot, index=False)
        titles = [row.paper.title.casefold() for row in paper_list.rows]
        assert titles == sorted(titles)
        assert paper_list.current.id == corpus.papers[3].id


async def test_unread_first_of_a_large_corpus_is_sorted_in_a_worker_for_the_newest_reads(
    gated_reader, monkeypatch
):
    """Unread first depends on what is read: at more than `SORT_RUN` papers it is computed in
    a worker (two passes over 500,000 papers: ~0.2 s), and an order of an older reading
    state is never shown over a newer one."""
    gate = Gate(monkeypatch)
    count = SORT_RUN + 5_000
    app, _session = gated_reader(corpus=shuffled_titles(count))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, index=False)
        screen, reading = app.main, app.state.reading
        ids = [row.id for row in screen.paper_list.rows]
        reading.stage(mark_read(ids[:2]))
        screen.set_sort("unread")
        await until(pilot, gate.started.is_set, "the sort worker started")
        assert "sorting by unread first…" in status_line(app)
        assert [row.id for row in screen.paper_list.rows] == ids  # kept until the order comes

        reading.stage(mark_read([ids[2]]))  # read meanwhile: the held order is stale
        screen.set_sort("unread")
        await until(pilot, lambda: "sorting" not in status_line(app), "the newer order came")
        gate.open()
        await settle(pilot, index=False)
        assert [row.id for row in screen.paper_list.rows] == [*ids[3:], *ids[:3]]
        assert "sort: unread first" in status_line(app)


async def test_a_jump_back_to_a_saved_search_in_relevance_order_ends_the_sort_wait(
    reader, monkeypatch
):
    """A saved search in relevance order is shown in its own order: the title sort that was
    being computed for the view before is not waited for any more (its note goes, its
    worker is cancelled)."""
    gate = Gate(monkeypatch)
    app = reader(config=DNA, timing=INSTANT._replace(quiet=1.0, clock=lambda: 1000.0))
    app.state.typed_at = 1000.0  # the index worker's orders wait for a pause that never ends
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, index=False)
        screen = app.main
        screen.set_view(ViewKey("search", "dna"))
        await settle(pilot, index=False)
        (only,) = row_ids(app)
        screen.set_view(ALL)  # the saved search is the jump back
        await settle(pilot, index=False)
        await pilot.press("s")  # corpus order -> title, held in its worker
        await until(pilot, gate.started.is_set, "the sort worker started")
        (worker,) = sort_workers(app)
        assert "sorting by title…" in status_line(app)

        await pilot.press("ctrl+o")
        await until(pilot, lambda: row_ids(app) == [only], "the saved search is shown")
        assert screen.sort == "relevance"
        assert "sorting" not in status_line(app)
        assert worker.is_cancelled
        gate.open()
        await settle(pilot, index=False)
        assert row_ids(app) == [only]
        assert "sorting" not in status_line(app)


@pytest.mark.parametrize("how", ["saved search", "query"])
async def test_a_view_that_waits_for_the_index_ends_the_sort_wait(gated_reader, monkeypatch, how):
    """A saved search's view or a query before the index is ready waits for the index, not
    for the sort the list was waiting for: its note goes and its worker is cancelled."""
    gate = Gate(monkeypatch)
    app, _session = gated_reader(config=DNA, corpus=shuffled_titles())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, index=False)
        screen = app.main
        await pilot.press("s")  # corpus order -> title, held in its worker
        await until(pilot, gate.started.is_set, "the sort worker started")
        (worker,) = sort_workers(app)
        assert "sorting by title…" in status_line(app)

        if how == "query":
            await pilot.press("slash")
            await type_text(pilot, "topic")
        else:
            screen.set_view(ViewKey("search", "dna"))
        await until(pilot, lambda: screen.waiting_for_index, "the view waits for the index")
        await pilot.pause()
        assert "sorting" not in status_line(app)
        assert worker.is_cancelled
        gate.open()  # the cancelled worker ends at its next step


async def test_a_search_shows_its_hits_at_once_while_their_sort_is_computed(reader, monkeypatch):
    """A search sorted by an order not computed yet (the titles not read) shows its hits at
    once in their relevance order, "sorting by title…" in the status line, and sorts them
    when the order comes, the cursor on the paper it is on then."""
    gate = Gate(monkeypatch)
    app = reader(timing=INSTANT._replace(quiet=1.0, clock=lambda: 1000.0))
    app.state.typed_at = 1000.0  # the index worker's orders wait for a pause that never ends
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, index=False)
        await pilot.press("slash")
        await type_text(pilot, "learning model")
        await settle(pilot, index=False)
        ranked = row_ids(app)
        assert len(ranked) > 2
        await pilot.press(*["backspace"] * len(" model"))
        await settle(pilot, index=False)
        assert len(row_ids(app)) > len(ranked)
        await pilot.press("escape", "s", "s")  # to the list; relevance -> corpus -> title
        await until(pilot, gate.started.is_set, "the sort worker started")

        await pilot.press("slash")
        await type_text(pilot, " model")  # a new search while the sort is held
        await until(pilot, lambda: row_ids(app) == ranked, "the new hits are shown")
        assert "sorting by title…" in status_line(app)
        shown = [row.paper.title.casefold() for row in app.main.paper_list.rows]
        assert shown != sorted(shown)  # not by title yet
        await pilot.press("escape", "j")
        await pilot.pause()
        kept = app.main.paper_list.current.id
        assert kept == ranked[1]

        gate.open()
        await settle(pilot, index=False)
        rows = app.main.paper_list.rows
        titles = [row.paper.title.casefold() for row in rows]
        assert titles == sorted(titles) and sorted(row_ids(app)) == sorted(ranked)
        assert app.main.paper_list.current.id == kept
        assert "sort: title" in status_line(app) and "sorting" not in status_line(app)


async def test_choosing_the_saved_sort_again_keeps_its_worker(gated_reader, tmp_path, monkeypatch):
    """The sort restored from place.toml is an equal string, not the same object, as the
    one a key or the palette chooses: choosing it again while its order is computed is the
    same job, whose worker goes on (it was cancelled and started again)."""
    gate = Gate(monkeypatch)
    count = SORT_RUN + 5_000
    save_place(tmp_path / "data", Place(sort="unread"))
    app, _session = gated_reader(corpus=shuffled_titles(count))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, gate.started.is_set, "the sort worker started")
        await until(pilot, lambda: bool(app.main.paper_list.rows), "rows are shown")
        screen = app.main
        assert screen.sort == "unread"
        assert screen.sort is not next(name for name in SORTS if name == "unread")
        (worker,) = sort_workers(app)
        screen.set_sort("unread")
        await pilot.pause()
        assert not worker.is_cancelled and sort_workers(app) == [worker]
        gate.open()
        await settle(pilot, index=False)
        assert "sort: unread first" in status_line(app) and "sorting" not in status_line(app)
