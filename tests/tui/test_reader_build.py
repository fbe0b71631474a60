"""The reader over a built index reads only the papers it shows; on a first launch it lists
papers as they are read and searches what is indexed so far."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path

import pytest
from generated import write_generated_corpus
from reader_helpers import reader_of, screen_text, settle, type_text, until

from paperterm.index.config import Config
from paperterm.index.library.sorting import SortKeys
from paperterm.index.search import build as build_module
from paperterm.index.search.records import PaperList
from paperterm.index.session import Session


@pytest.fixture(scope="module")
def built_2000(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """2,000 generated papers and their index, built once; each test reads a copy."""
    root = tmp_path_factory.mktemp("built-2000")
    corpus, data = root / "corpus", root / "data"
    write_generated_corpus(corpus, 2000)
    Session.create(data, [corpus], Config()).open()
    return corpus, data


def _copy(data: Path, tmp_path: Path) -> Path:
    shutil.copytree(data / "index", tmp_path / "data" / "index")
    return tmp_path / "data"


def _loaded(papers: PaperList) -> int:
    return sum(paper is not None for paper in papers._loaded)


async def test_a_warm_start_reads_only_the_papers_on_screen(tmp_path, built_2000):
    corpus, data = built_2000
    app = reader_of([corpus], _copy(data, tmp_path))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        papers = app.state.papers
        assert isinstance(papers, PaperList) and len(papers) == 2000
        assert "2000 papers · 2000 unread · 1/2000 · index ready" in screen_text(app)
        assert _loaded(papers) <= 40  # the rows on screen, the one in the detail pane
        await pilot.press("G")
        await settle(pilot)
        assert _loaded(papers) <= 80
        assert app.main.paper_list.current.id == papers.ids[-1]


async def test_sorts_and_counts_over_a_built_index_read_only_the_papers_shown(tmp_path, built_2000):
    # Issue 13's sorts, unread counts and sidebar counts take ids, titles and years from
    # the rows file: over 2,000 papers they read no more papers than the screen shows.
    corpus, data = built_2000
    app = reader_of([corpus], _copy(data, tmp_path))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        papers = app.state.papers
        assert isinstance(papers, PaperList)
        await pilot.press("s")  # title
        await settle(pilot)
        by_title = list(app.main.paper_list.ids)
        await pilot.press("space", "space", "s", "v")  # two read; unread first; the sidebar
        await settle(pilot)
        # three orders' screens (~28 rows each), the details and related papers: not 2,000
        assert _loaded(papers) <= 150
        read = app.state.reading.entries
        assert len(read) == 2
        assert "1998 unread" in screen_text(app)
        in_memory = SortKeys(list(papers))
        assert by_title == [in_memory.ids[i] for i in in_memory.ordered("title")]
        expected = [in_memory.ids[i] for i in in_memory.ordered("unread", read=read)]
        assert list(app.main.paper_list.ids) == expected


async def test_a_first_launch_lists_what_is_read_and_searches_what_is_indexed(
    tmp_path, monkeypatch
):
    corpus = tmp_path / "corpus"
    write_generated_corpus(corpus, 1200, per_file=100)
    monkeypatch.setattr(build_module, "PARALLEL_BYTES", 0)  # worker processes, even so small
    monkeypatch.setattr(build_module, "FIRST_PART_PAPERS", 100)
    held = threading.Event()
    release = threading.Event()
    publish = build_module.Builder._publish_partial

    def publish_then_hold(self, *args):
        publish(self, *args)
        if not held.is_set():
            held.set()
            release.wait(60)  # the build waits here while the test searches

    monkeypatch.setattr(build_module.Builder, "_publish_partial", publish_then_hold)
    app = reader_of([corpus], tmp_path / "data")
    try:
        async with app.run_test(size=(110, 30)) as pilot:
            await until(pilot, lambda: app.state.searchable > 0, "an index of the first part")
            state = app.state
            assert state.index_state == "indexing"
            assert 0 < state.searchable < 1200
            assert 0 < len(state.papers) <= 1200
            assert f"indexing {state.index_done:,} of " in screen_text(app)
            await pilot.press("slash")
            await type_text(pilot, "generated")
            await settle(pilot, index=False)
            shown = app.main.view
            assert shown.in_view == state.searchable  # every paper is "Generated"
            assert f"searching the {state.searchable:,} papers indexed so far" in screen_text(app)
            release.set()
            await settle(pilot)
            assert state.index_state == "ready"
            assert app.main.view.in_view == 1200  # the search ran again over all of them
            assert "index ready" in screen_text(app)
    finally:
        release.set()


async def test_an_update_shows_the_old_list_and_keeps_what_is_typed(tmp_path, monkeypatch):
    """A source changed since the index was built: while the update runs, the list and the
    search are the old index's; then the new one's, the query typed meanwhile kept and run
    again over it."""
    corpus, data = tmp_path / "corpus", tmp_path / "data"
    write_generated_corpus(corpus, 300, per_file=100)
    opened, _ = Session.create(data, [corpus], Config()).open()
    opened.close()
    edited = corpus / "part-001.txt"
    edited.write_text(edited.read_text() + "\nA new abstract about generated quokkas.\n")
    started = threading.Event()
    release = threading.Event()
    run = build_module.Builder.run

    def held_run(self):
        started.set()
        release.wait(60)  # the update waits here while the test reads and types
        return run(self)

    monkeypatch.setattr(build_module.Builder, "run", held_run)
    app = reader_of([corpus], data)
    try:
        async with app.run_test(size=(110, 30)) as pilot:
            await until(pilot, started.is_set, "the update started")
            await until(pilot, lambda: app.state.searcher is not None, "the old index searched")
            await settle(pilot, index=False)
            state = app.state
            assert len(state.papers) == 300
            assert app.main.view.in_view == 300
            assert "300 papers" in screen_text(app)
            assert "updating the index" in screen_text(app)
            await pilot.press("slash")
            await type_text(pilot, "generated quokkas")
            await settle(pilot, index=False)
            view = app.main.view  # the old index has no quokkas: papers with "generated"
            assert view.in_view == 300
            assert any("no paper has all your words" in note for note in view.notes)
            release.set()
            await until(pilot, lambda: state.index_state == "ready", "the new index")
            await settle(pilot)
            assert app.main.search_input.value == "generated quokkas"
            assert app.main.view.in_view == 1
            assert len(state.papers) == 301
            assert "index ready" in screen_text(app)
    finally:
        release.set()


async def test_a_query_typed_before_the_first_papers_come_is_kept(tmp_path, monkeypatch):
    corpus = tmp_path / "corpus"
    write_generated_corpus(corpus, 200, per_file=100)
    started = threading.Event()
    release = threading.Event()
    run = build_module.Builder.run

    def held_run(self):
        started.set()
        release.wait(60)  # the first build waits here while the test types
        return run(self)

    monkeypatch.setattr(build_module.Builder, "run", held_run)
    app = reader_of([corpus], tmp_path / "data")
    try:
        async with app.run_test(size=(110, 30)) as pilot:
            await until(pilot, started.is_set, "the build started")
            await pilot.press("slash")
            await type_text(pilot, "generated")
            await settle(pilot, index=False)
            assert not app.state.papers
            release.set()
            await until(pilot, lambda: app.state.index_state == "ready", "the index")
            await settle(pilot)
            assert app.main.search_input.value == "generated"
            assert app.main.view.in_view == 200
    finally:
        release.set()


async def test_a_first_launch_lists_a_json_arrays_first_papers_while_the_rest_is_read(
    tmp_path, monkeypatch
):
    """A .json array is read a record at a time: its first papers are on screen while later
    records are still to be decoded (the whole file was parsed before any row showed)."""
    from paperterm.index.search.source_records import EARLY_RECORDS
    from paperterm.index.sources import json_records

    count = EARLY_RECORDS + 20
    source = tmp_path / "papers.json"
    records = [{"title": f"Paper {n}", "abstract": f"Abstract number {n}."} for n in range(count)]
    source.write_text(json.dumps(records, indent=2), encoding="utf-8")
    gate = threading.Event()
    from_record = json_records._from_record

    def held(path, line, record, collection):
        if record["title"] == f"Paper {EARLY_RECORDS + 10}":
            gate.wait(30)  # the rest of the file waits until the rows are seen
        return from_record(path, line, record, collection)

    monkeypatch.setattr(json_records, "_from_record", held)
    app = reader_of([source], tmp_path / "data")
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: bool(app.main.paper_list.rows), "the first rows")
            shown = len(app.main.paper_list.rows)
            assert EARLY_RECORDS <= shown < count and not gate.is_set()
            gate.set()
            await settle(pilot)
            assert len(app.main.paper_list.rows) == count
    finally:
        gate.set()
