"""Topics for data that has none, in the reader: computed by the index worker once the
index is ready, kept with the index (a second start reads them), shown as the `topic`
facet, and Enter on one narrows the list."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from reader_helpers import reader_of, row_ids, said, settle, type_text, until
from test_reader_facets import choose, conference_reader, shown

from paperterm.index.planning import topics as grouping
from paperterm.index.planning import topics_process
from paperterm.index.planning.kept_topics import TOPICS_FILE
from paperterm.tui.widgets.facets import FacetsPane


def kept_path(data_dir: Path) -> Path:
    (path,) = data_dir.rglob(TOPICS_FILE)
    return path


def never(papers, **kwargs):
    raise AssertionError("grouped again")


async def test_topics_are_computed_after_the_index_and_kept(reader, data_dir):
    assert not list(data_dir.rglob(TOPICS_FILE))
    app = reader()
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)  # the index worker's end: topics come last
        labels = app.state.topics
        assert labels is not None and len(labels) >= 0.95 * len(app.state.papers)
    kept = json.loads(kept_path(data_dir).read_text(encoding="utf-8"))
    assert {paper_id for topic in kept["topics"] for paper_id in topic["ids"]} == set(labels)


async def test_a_second_start_reads_the_kept_topics(reader, data_dir, monkeypatch):
    app = reader()
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        first = dict(app.state.topics or {})
    monkeypatch.setattr(grouping, "topics", never)
    app = reader()
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        assert app.state.topics == first
        assert not app.state.warnings


async def test_a_damaged_kept_file_is_computed_again_with_a_warning(reader, data_dir):
    app = reader()
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        first = dict(app.state.topics or {})
    path = kept_path(data_dir)
    path.write_text("{damaged", encoding="utf-8")
    app = reader()
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        assert app.state.topics == first
        warned = [text for text in said(app) if str(path) in text]
        assert len(warned) == 1 and "damaged" in warned[0] and "\n" not in warned[0]
        assert warned[0] in app.state.warnings
    assert json.loads(path.read_text(encoding="utf-8"))["topics"]


async def test_the_facet_shows_computed_topics_and_enter_narrows(reader, data_dir):
    app = reader()
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        await pilot.press("F")
        await settle(pilot)
        pane = app.main.query_one(FacetsPane)
        kept = json.loads(kept_path(data_dir).read_text(encoding="utf-8"))["topics"]
        assert shown(pane)["topic"] == {topic["label"]: topic["count"] for topic in kept}
        smallest = kept[-1]
        await choose(pilot, pane, "topic", smallest["label"])
        assert sorted(row_ids(app)) == sorted(smallest["ids"])
        assert shown(pane)["topic"] == {smallest["label"]: smallest["count"]}


async def test_the_facet_opened_before_the_topics_come_shows_them(reader, data_dir):
    app = reader()
    async with app.run_test(size=(160, 40)) as pilot:
        await pilot.press("F")  # at once: the index worker may not have grouped them yet
        await settle(pilot)
        pane = app.main.query_one(FacetsPane)
        assert sum(shown(pane).get("topic", {}).values()) >= 0.95 * len(app.state.papers)


async def test_papers_own_topics_are_shown_and_none_are_computed(tmp_path, monkeypatch):
    monkeypatch.setattr(grouping, "topics", never)
    app = conference_reader(tmp_path)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        assert app.state.topics is None
        await pilot.press("F")
        await settle(pilot)
        pane = app.main.query_one(FacetsPane)
        own = {row.paper.topic for row in app.main.paper_list.rows if row.paper.topic}
        assert set(shown(pane)["topic"]) == own
    kept = json.loads(kept_path(tmp_path / "data").read_text(encoding="utf-8"))
    assert kept["own_topics"] is True and kept["topics"] is None


async def test_a_first_launch_keeps_them_in_the_live_generation(tmp_path):
    data = tmp_path / "data"
    app = reader_of([], data)  # the seeds, built by the reader
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        assert app.state.topics
    (current,) = data.rglob("CURRENT")
    live = current.parent / current.read_text(encoding="utf-8").split()[0]
    assert kept_path(data).parent == live


async def test_a_large_corpus_is_grouped_in_a_process(reader, data_dir, monkeypatch):
    monkeypatch.setattr(topics_process, "PROCESS_PAPERS", 1)
    monkeypatch.setattr(grouping, "topics", never)  # not in the reader's process
    app = reader()
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        assert app.state.topics and len(app.state.topics) >= 0.95 * len(app.state.papers)
    assert kept_path(data_dir).is_file()


def papers_of_topics_named(found: list[dict], word: str) -> set[str]:
    """The ids of the topics whose label has a word starting with `word`."""
    return {
        paper_id
        for topic in found
        if any(held.lower().startswith(word) for held in topic["label"].split())
        for paper_id in topic["ids"]
    }


async def test_a_topic_clause_lists_the_papers_of_the_computed_topics_it_names(reader, data_dir):
    app = reader()
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        kept = json.loads(kept_path(data_dir).read_text(encoding="utf-8"))["topics"]
        word = kept[-1]["label"].split()[0].lower()
        await pilot.press("slash")
        await type_text(pilot, f"topic:{word}")
        await settle(pilot)
        assert set(row_ids(app)) == papers_of_topics_named(kept, word)
        await type_text(pilot, " -topic:" + word)
        await settle(pilot)
        assert row_ids(app) == []


async def test_a_topic_clause_typed_before_the_topics_come_is_answered_when_they_do(
    reader, data_dir, monkeypatch
):
    app = reader()
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        kept = json.loads(kept_path(data_dir).read_text(encoding="utf-8"))["topics"]
    word = kept[-1]["label"].split()[0].lower()
    kept_path(data_dir).unlink()  # computed again on the next start, after the index
    gate = threading.Event()
    grouped = topics_process.background_topics

    def held_back(*args, **kwargs):
        gate.wait(30)
        return grouped(*args, **kwargs)

    monkeypatch.setattr(topics_process, "background_topics", held_back)
    app = reader()
    async with app.run_test(size=(160, 40)) as pilot:
        await pilot.press("slash")
        await type_text(pilot, f"topic:{word}")
        await until(pilot, lambda: app.state.searcher is not None, "the index")
        await settle(pilot, index=False)
        assert not app.state.topics and row_ids(app) == []
        gate.set()
        await settle(pilot)
        assert app.state.topics
        assert set(row_ids(app)) == papers_of_topics_named(kept, word)
