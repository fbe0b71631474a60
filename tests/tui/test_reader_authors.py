"""`a`: the other papers of one of the paper's authors, chosen in a dialog when it has
several, shown as a view that Backspace or Esc leaves for the view before it."""

from __future__ import annotations

from pathlib import Path

from reader_helpers import reader_of, row_ids, said, settle, status_line, type_text

from paperterm.tui.screens.choose import ChoiceScreen
from paperterm.tui.screens.main import MainScreen

AUTHORS = Path(__file__).resolve().parents[1] / "fixtures" / "authors.json"


async def go_to(pilot, paper_id: str) -> None:
    paper_list = pilot.app.main.paper_list
    paper_list.move_to(paper_list.index_of(paper_id))
    await settle(pilot)


async def test_a_asks_which_author_and_shows_their_other_papers(tmp_path):
    app = reader_of([AUTHORS], tmp_path / "data")
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        await go_to(pilot, "au-1")
        await pilot.press("a")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ChoiceScreen)
        assert dialog.prompts == ["Léa Müller (~Léa_Müller1)", "Kenji Sato"]
        await pilot.press("down", "enter")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert row_ids(app) == ["au-4", "au-5"]  # initials too; not the paper itself
        assert "2 of 6 papers" in status_line(app)
        assert "other papers by Kenji Sato" in status_line(app)
        await pilot.press("j", "backspace")
        await settle(pilot)
        assert len(row_ids(app)) == 6
        assert app.main.paper_list.current.id == "au-1"
        assert "other papers by" not in status_line(app)


async def test_an_author_id_keeps_homonyms_out_and_esc_returns(tmp_path):
    app = reader_of([AUTHORS], tmp_path / "data")
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        await go_to(pilot, "au-1")
        await pilot.press("a", "enter")
        await settle(pilot)
        assert row_ids(app) == ["au-2"]  # au-3's Léa Müller has another id
        await pilot.press("escape")
        await settle(pilot)
        assert len(row_ids(app)) == 6
        assert app.main.paper_list.current.id == "au-1"


async def test_one_author_needs_no_question(tmp_path):
    app = reader_of([AUTHORS], tmp_path / "data")
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        await go_to(pilot, "au-6")
        app.main.set_focus(app.main.detail)  # from the detail pane as from the list
        await pilot.press("a")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert row_ids(app) == ["au-5"]
        assert "other papers by Ada Lovelace" in status_line(app)


async def test_the_view_before_comes_back_with_its_query_and_paper(tmp_path):
    app = reader_of([AUTHORS], tmp_path / "data")
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await type_text(pilot, "attention")
        await pilot.press("enter")
        await settle(pilot)
        assert sorted(row_ids(app)) == ["au-1", "au-2"]
        await go_to(pilot, "au-2")
        await pilot.press("a", "down", "enter")  # Grace Hopper: no other paper
        await settle(pilot)
        assert said(app)[-1] == "No other papers by Grace Hopper"
        assert sorted(row_ids(app)) == ["au-1", "au-2"]
        await pilot.press("a", "enter")
        await settle(pilot)
        assert row_ids(app) == ["au-1"]
        assert app.main.search_input.value == ""
        await pilot.press("escape")
        await settle(pilot)
        assert app.main.search_input.value == "attention"
        assert app.main.paper_list.current.id == "au-2"


async def test_escape_in_the_dialog_changes_nothing(tmp_path):
    app = reader_of([AUTHORS], tmp_path / "data")
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        await go_to(pilot, "au-1")
        await pilot.press("a", "escape")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert len(row_ids(app)) == 6


async def test_an_author_s_view_is_not_saved_as_the_place(tmp_path):
    """The next start (and `ctrl+o`) goes to the view before it: an author's view names
    papers found at run time."""
    app = reader_of([AUTHORS], tmp_path / "data")
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        await go_to(pilot, "au-6")
        await pilot.press("a")
        await settle(pilot)
        assert row_ids(app) == ["au-5"]
        place = app.main.place()
        assert (place.view, place.query, place.paper) == ("all", "", "au-5")
