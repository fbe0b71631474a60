"""The facets sidebar (`F`): counts of the papers in the list, Enter narrows, Backspace
takes back the last value, counts follow a search."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from reader_helpers import INSTANT, drain, row_ids, settle, status_line, type_text, until

from paperterm.index.config import Config
from paperterm.index.library.facets import count_facets
from paperterm.index.search.records import PaperList
from paperterm.index.session import Session
from paperterm.tui.app import make_app
from paperterm.tui.controllers.facets import FacetEntry
from paperterm.tui.screens import main_facets
from paperterm.tui.widgets.facets import FacetsPane

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "conference.json"


def conference_reader(tmp_path: Path, timing=INSTANT):
    config = Config()
    session = Session.create(tmp_path / "data", [FIXTURE], config)
    return make_app(session, config, timing=timing, environ={})


def shown(pane: FacetsPane) -> dict[str, dict[str, int]]:
    """The sidebar's values by facet, as shown."""
    found: dict[str, dict[str, int]] = {}
    for entry in pane.entries:
        if entry.value is not None:
            found.setdefault(entry.facet, {})[entry.value] = entry.papers
    return found


async def choose(pilot, pane: FacetsPane, facet: str, value: str) -> None:
    """Enter on `value` of `facet` in the sidebar."""
    pane.focus()
    pane.highlighted = pane.entries.index(
        next(e for e in pane.entries if e.facet == facet and e.value == value)
    )
    await pilot.press("enter")
    await settle(pilot)


async def test_f_shows_the_counts_of_the_papers_in_view(tmp_path):
    app = conference_reader(tmp_path)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        assert sorted(row_ids(app)) == ["vs-101", "vs-102", "vs-103"]
        await pilot.press("F")
        await settle(pilot)
        pane = app.main.query_one(FacetsPane)
        assert pane.display and app.focused is pane
        papers = [row.paper for row in app.main.paper_list.rows]
        expected = count_facets(papers, {}, {}, set())
        assert shown(pane) == {
            facet: {value: count for value, count in values.items() if count}
            for facet, values in expected.items()
            if any(values.values())
        }
        assert shown(pane)["status"] == {"Oral": 1, "Poster": 1}
        assert shown(pane)["read"] == {"unread": 3}
        await pilot.press("F")
        await settle(pilot)
        assert not pane.display and app.focused is app.main.paper_list


async def test_enter_narrows_values_combine_and_backspace_takes_the_last_back(tmp_path):
    app = conference_reader(tmp_path)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        await pilot.press("F")
        await settle(pilot)
        pane = app.main.query_one(FacetsPane)
        await choose(pilot, pane, "read", "unread")
        assert sorted(row_ids(app)) == ["vs-101", "vs-102", "vs-103"]
        assert "read: unread" in status_line(app)
        await choose(pilot, pane, "status", "Oral")
        assert row_ids(app) == ["vs-101"]
        assert "read: unread · status: Oral" in status_line(app)
        assert shown(pane)["status"] == {"Oral": 1}
        assert FacetEntry("status", "Oral", 1, chosen=True) in pane.entries
        assert app.focused is pane
        await pilot.press("backspace")
        await settle(pilot)
        assert sorted(row_ids(app)) == ["vs-101", "vs-102", "vs-103"]
        assert "status: Oral" not in status_line(app)
        assert "read: unread" in status_line(app)
        await choose(pilot, pane, "type", "Tutorial")
        assert row_ids(app) == ["vs-103"]
        app.main.paper_list.focus()
        await pilot.press("x")  # clears everything, the facets too
        await settle(pilot)
        assert app.main.filters.facets == ()
        assert sorted(row_ids(app)) == ["vs-101", "vs-102", "vs-103"]
        assert "read: unread" not in status_line(app)


async def test_the_counts_follow_a_typed_search(tmp_path):
    app = conference_reader(tmp_path)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        await pilot.press("F")
        await settle(pilot)
        pane = app.main.query_one(FacetsPane)
        assert shown(pane)["session"] == {
            "Poster Session 1": 1,
            "Poster Session 3": 1,
            "Tutorials": 1,
        }
        await pilot.press("slash")
        await type_text(pilot, "tabular")
        await settle(pilot)
        assert row_ids(app) == ["vs-102"]
        assert shown(pane)["status"] == {"Poster": 1}
        assert shown(pane)["session"] == {"Poster Session 1": 1}
        app.main.paper_list.focus()
        await pilot.press("r")  # read it: the read facet follows
        await settle(pilot)
        assert shown(pane)["read"] == {"read": 1}


async def test_a_short_list_is_counted_at_once_without_a_worker(tmp_path, monkeypatch):
    """Once the corpus's table is made (by the first count), a search's few rows are counted
    on the screen's thread: no worker starts while one types."""
    app = conference_reader(tmp_path)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        await pilot.press("F")
        await settle(pilot)
        pane = app.main.query_one(FacetsPane)
        assert shown(pane)["status"] == {"Oral": 1, "Poster": 1}

        def no_worker(*args, **kwargs):
            raise AssertionError("a worker counted a short list")

        monkeypatch.setattr(app.main, "_count", no_worker)
        await pilot.press("slash")
        await type_text(pilot, "tabular")
        await settle(pilot)
        assert row_ids(app) == ["vs-102"]
        assert shown(pane)["status"] == {"Poster": 1}


async def test_the_decision_facet_counts_the_saved_decisions(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "reading.toml").write_text(
        'version = 2\n\n[decision]\nvs-101 = "keep"\nvs-103 = "skip"\n', encoding="utf-8"
    )
    app = conference_reader(tmp_path)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        await pilot.press("F")
        await settle(pilot)
        pane = app.main.query_one(FacetsPane)
        assert shown(pane)["decision"] == {"keep": 1, "skip": 1, "none": 1}
        await choose(pilot, pane, "decision", "keep")
        assert row_ids(app) == ["vs-101"]
        assert "decision: keep" in status_line(app)


@pytest.mark.parametrize("large", [False, True])
async def test_a_long_list_is_counted_again_once_typing_pauses(tmp_path, monkeypatch, large):
    """A list longer than `COUNT_INLINE` rows is counted once no key was typed for
    `Timing.quiet` (the clock here moves only when the test says); a shorter one at once."""
    if large:
        monkeypatch.setattr(main_facets, "COUNT_INLINE", 0)
    now = [1000.0]
    app = conference_reader(tmp_path, INSTANT._replace(quiet=0.01, clock=lambda: now[0]))
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        await pilot.press("F")
        await settle(pilot)
        pane = app.main.query_one(FacetsPane)
        before = {"Oral": 1, "Poster": 1}
        assert shown(pane)["status"] == before
        await pilot.press("slash")
        await type_text(pilot, "tabular")
        await until(pilot, lambda: row_ids(app) == ["vs-102"], "the search's results")
        await drain(pilot)
        if large:
            await drain(pilot)
            assert shown(pane)["status"] == before and app.main.pending
            now[0] += 1  # typing paused
        await settle(pilot)
        assert shown(pane)["status"] == {"Poster": 1}


def write_conference(path: Path, count: int) -> Path:
    """A conference export of `count` papers in the fixture's shape: statuses, sessions (or
    only a start), topics and a title word ("graphs") in one paper of three."""
    papers = [
        {
            "id": f"c-{index:03d}",
            "title": f"{'Sparse graphs' if index % 3 == 0 else 'Tabular priors'} {index}",
            "abstract": f"Paper number {index} of the synthetic conference.",
            "authors": [f"Author {index}"],
            "venue": "NeurIPS 2025",
            "status": ("Oral", "Poster", "Spotlight", "Poster")[index % 4],
            "type": ("Oral", "Poster", "Spotlight", "Poster")[index % 4],
            "topic": f"Topic {index % 5}",
            "session": "" if index % 7 == 0 else f"Poster Session {index % 3}",
            "start": f"2025-12-0{index % 4 + 2}T11:00:00-08:00",
        }
        for index in range(count)
    ]
    path.write_text(json.dumps(papers), encoding="utf-8")
    return path


async def test_counts_on_a_built_index_read_no_paper_and_follow_a_search(tmp_path):
    config = Config()
    source = write_conference(tmp_path / "conference.json", 60)
    app = make_app(Session.create(tmp_path / "data", [source], config), config, timing=INSTANT)
    async with app.run_test(size=(160, 20)) as pilot:
        await settle(pilot)
        papers = app.state.papers
        assert isinstance(papers, PaperList)
        papers._loaded.clear()  # read at start (kept topics): counted from here
        await pilot.press("F")
        await settle(pilot)
        pane = app.main.query_one(FacetsPane)
        assert len(papers._loaded) < 30  # the rows drawn, not every paper counted
        assert shown(pane)["status"] == {"Poster": 30, "Oral": 15, "Spotlight": 15}
        await pilot.press("slash")
        await type_text(pilot, "graphs")
        await settle(pilot)
        assert len(row_ids(app)) == 20
        expected = count_facets(list(papers), {}, {}, set())
        found = count_facets([row.paper for row in app.main.paper_list.rows], {}, {}, set())
        assert found != expected  # the search changed the counts
        assert shown(pane) == {
            facet: {value: count for value, count in values.items() if count}
            for facet, values in found.items()
            if any(values.values())
        }
