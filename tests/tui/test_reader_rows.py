"""The list's rows in the reader: comfortable rows (whole titles and a dim line) from 100
columns, one-line rows below and by `D`, the choice kept across runs, decision marks."""

from __future__ import annotations

from locations import FIXTURES
from reader_helpers import INSTANT, settle

from paperterm.index.config import Config
from paperterm.index.library.place import PLACE_FILENAME, load_place
from paperterm.index.session import Session
from paperterm.tui.app import make_app
from paperterm.tui.clipboard import Clipboard
from paperterm.tui.rows import ROW_LINES

#: What comfortable rows show of icml-07's title at 120 columns (on its second line) and
#: one-line rows do not.
LONG = "Classification for Scalable Deep"


def list_text(app) -> str:
    """What the list pane shows, line by line."""
    paper_list = app.main.paper_list
    lines = (paper_list.render_line(y) for y in range(paper_list.size.height))
    return "\n".join("".join(segment.text for segment in strip) for strip in lines)


def icml_app(data_dir):
    """A reader over tests/fixtures/icml_rows.json with its data in `data_dir`."""
    config = Config()
    session = Session.create(data_dir, [FIXTURES / "icml_rows.json"], config)
    return make_app(session, config, timing=INSTANT, environ={}, copier=Clipboard({}))


async def test_D_switches_density_on_the_same_paper_and_it_is_kept(tmp_path):
    data_dir = tmp_path / "data"
    app = icml_app(data_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        paper_list = app.main.paper_list
        assert paper_list.comfortable and paper_list.lines_per_row == ROW_LINES
        await pilot.press(*"jjjjjj")
        await settle(pilot)
        assert paper_list.current.id == "icml-07"
        assert LONG in list_text(app)

        await pilot.press("D")
        await settle(pilot)
        assert not paper_list.comfortable and paper_list.lines_per_row == 1
        assert paper_list.current.id == "icml-07"
        assert LONG not in list_text(app)  # one line: the title is cut
        # Kept at once, not only when the reader ends.
        assert load_place(data_dir)[0].density == "compact"
        await pilot.press("q")

    app = icml_app(data_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        paper_list = app.main.paper_list
        assert paper_list.density == "compact" and paper_list.lines_per_row == 1
        assert paper_list.current.id == "icml-07"
        await pilot.press("D")
        await settle(pilot)
        assert paper_list.comfortable and paper_list.current.id == "icml-07"
        text = list_text(app)
        assert LONG in text and "Jesse Farrow, Quentin Vuillemot et al." in text
        # The cursor's row is on screen, all of it.
        top = round(paper_list.scroll_y)
        first = paper_list.cursor * ROW_LINES
        assert top <= first and first + ROW_LINES <= top + paper_list.size.height


async def test_below_100_columns_rows_are_one_line_whatever_the_density(tmp_path):
    app = icml_app(tmp_path / "data")
    async with app.run_test(size=(99, 30)) as pilot:
        await settle(pilot)
        paper_list = app.main.paper_list
        await pilot.press("j", "j")
        assert paper_list.density == "comfortable" and not paper_list.comfortable
        assert paper_list.lines_per_row == 1
        await pilot.resize_terminal(100, 30)
        await settle(pilot)
        assert paper_list.comfortable and paper_list.current.id == "icml-03"
        assert "佐藤 健, Li Wei et al." in list_text(app)


async def test_a_bad_density_in_the_place_file_is_one_warning(tmp_path):
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / PLACE_FILENAME).write_text('version = 1\ndensity = "cosy"\n', "utf-8")
    app = icml_app(data_dir)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.main.paper_list.comfortable
        warned = [line for line in app.state.place_warnings if "density" in line]
        assert warned == [
            f"{data_dir / PLACE_FILENAME}: density 'cosy' ignored (densities: comfortable, compact)"
        ]


async def test_a_decision_made_in_triage_shows_in_the_list(tmp_path):
    app = icml_app(tmp_path / "data")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("T")
        await settle(pilot)
        await pilot.press("1")  # keep the first paper
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        first = list_text(app).splitlines()[0]
        assert first.startswith("  ✓ Position: Scaling Laws")
