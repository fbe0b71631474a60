"""The detail pane shows a conference's record: authors with affiliations, the schedule
line, keywords and TL;DR."""

from __future__ import annotations

from pathlib import Path

from reader_helpers import INSTANT, screen_text, settle

from paperterm.index.config import Config
from paperterm.index.session import Session
from paperterm.tui.app import make_app

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "conference.json"


async def test_detail_shows_affiliations_schedule_keywords_and_tldr(tmp_path):
    config = Config()
    session = Session.create(tmp_path / "data", [FIXTURE], config)
    app = make_app(session, config, timing=INSTANT, environ={})
    async with app.run_test(size=(200, 40)) as pilot:
        await settle(pilot)
        ids = [row.id for row in app.main.paper_list.rows]
        for _ in range(ids.index("vs-101")):
            await pilot.press("j")
        await settle(pilot)
        text = screen_text(app)
        assert "Ada Lovelace (University of London), Alan Turing" in text
        line = (
            "Oral · Poster Session 3 · Exhibit Hall C · 2025-12-03 11:00–14:00 -08:00"
            " · poster #1001"
        )
        assert line in text
        assert "keywords: flow matching, graphs" in text
        assert "TL;DR: Flows that respect sparsity." in text


async def test_a_first_build_shows_the_joined_record_not_the_first_file_s(tmp_path):
    """While the first build runs the list shows each file's records as they are read; once
    the index is ready the rows are the joined papers (affiliations from another file)."""
    from paperterm.index.config import load_config

    three = FIXTURE.parent / "icml_three"
    config = load_config(three / "config.toml", must_exist=True)
    session = Session.create(tmp_path / "data", [], config)
    app = make_app(session, config, timing=INSTANT, environ={})
    async with app.run_test(size=(200, 40)) as pilot:
        await settle(pilot)
        assert app.state.index_state == "ready"
        first = app.main.paper_list.rows[0].paper
        assert first.title.startswith("ΦFlow")
        assert first.affiliations == ["Technical University of Munich"] * 2
        assert "Philipp Holl (Technical University of Munich)" in screen_text(app)
        assert "TL;DR: A differentiable physics toolkit." in screen_text(app)
