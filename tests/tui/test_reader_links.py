"""Issue 12 in the reader: the paper's own page first, code and data apart, hyperlinks,
copies that say where they went (tmux's buffer, OSC 52), BibTeX entries, snippets."""

from __future__ import annotations

import subprocess
from pathlib import Path

import bibtexparser
import pytest
from reader_helpers import INSTANT, screen_text, settle, type_text, until
from textual.widgets import OptionList

from paperterm.index.config import Config
from paperterm.index.library.filters import ViewKey
from paperterm.index.session import Session
from paperterm.tui.app import make_app
from paperterm.tui.clipboard import Clipboard
from paperterm.tui.screens.dialogs import LinksScreen
from paperterm.tui.widgets.detail import paper_text

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "display_sample.bib"
PAGE = "https://proceedings.mlr.press/v901/quill24.html"
PDF = "https://proceedings.mlr.press/v901/quill24/quill24.pdf"
CODE = "https://github.com/example/quill_net"
DATA = "https://zenodo.org/records/1234567"


class Runner:
    """Stands for `subprocess.run`: records what each command was given."""

    def __init__(self) -> None:
        self.calls: list[tuple[list[str], bytes]] = []

    def __call__(self, command, *, input, **kwargs):
        self.calls.append((command, input))
        return subprocess.CompletedProcess(command, 0, b"", b"")


class Opened(list):
    def __call__(self, url: str) -> bool:
        self.append(url)
        return True


def sample_reader(tmp_path: Path, environ: dict[str, str], runner: Runner | None = None):
    config = Config()
    session = Session.create(tmp_path / "data", [FIXTURE], config)
    opened = Opened()
    copier = Clipboard(environ, run=runner or Runner(), which=lambda name: None)
    app = make_app(
        session, config, timing=INSTANT, environ=environ, url_opener=opened, copier=copier
    )
    return app, opened


def messages(app) -> list[str]:
    return [notification.message for notification in app._notifications]


async def test_o_opens_the_papers_own_page_not_the_code_it_mentions(tmp_path):
    app, opened = sample_reader(tmp_path, {"DISPLAY": ":0"})
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.main.current_row().id == "quill24"
        await pilot.press("o")
        await settle(pilot)
        assert opened == [PAGE]


async def copied_in_tmux(tmp_path: Path, key: str):
    """The reader inside tmux after `key` on the first paper: the app (its clipboard and
    messages) and what tmux was given."""
    runner = Runner()
    app, _ = sample_reader(tmp_path, {"TMUX": "/tmp/tmux-0/x,1,0"}, runner)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press(key)
        await settle(pilot)
    return app, runner


async def test_y_copies_the_link_to_tmux_and_by_osc52_and_says_so(tmp_path):
    app, runner = await copied_in_tmux(tmp_path, "y")
    assert app.clipboard == PAGE  # what OSC 52 carried
    assert runner.calls == [(["tmux", "load-buffer", "-w", "-"], PAGE.encode())]
    assert any("tmux's paste buffer" in m and PAGE in m for m in messages(app))


async def test_shift_y_copies_the_entry_as_published(tmp_path):
    app, runner = await copied_in_tmux(tmp_path, "Y")
    entry = app.clipboard
    assert runner.calls[0][1] == entry.encode()
    library = bibtexparser.parse_string(entry)
    [parsed] = library.entries
    assert (parsed.entry_type, parsed.key) == ("inproceedings", "quill24")
    assert entry.startswith("@InProceedings{quill24,")  # the type as the file writes it
    fields = {field.key: field.value for field in parsed.fields}
    assert fields["title"] == (
        "{QuillNet}: Reading Long Proceedings Quickly with Hierarchical Summaries and "
        "Very Long Titles"
    )
    assert fields["booktitle"] == "Proceedings of the Alpha Workshop on Reading Machines"
    assert (fields["pages"], fields["volume"], fields["year"]) == ("1-12", "901", "2024")
    assert (fields["url"], fields["pdf"]) == (PAGE, PDF)
    assert fields["author"].startswith("Quill, Ada and Page, Bertram")
    assert "crossref" not in fields  # written in: the entry stands alone
    assert any("BibTeX entry" in m and "@InProceedings{quill24," in m for m in messages(app))


async def open_links(pilot) -> None:
    await pilot.press("L")
    await until(
        pilot,
        lambda: (
            isinstance(pilot.app.screen, LinksScreen)
            and pilot.app.screen.query_one(OptionList).highlighted == 0
        ),
        "the links dialog, its first link highlighted",
    )


async def test_the_links_dialog_lists_own_links_then_code_and_data(tmp_path):
    app, opened = sample_reader(tmp_path, {"DISPLAY": ":0"})
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await open_links(pilot)
        assert app.screen.links == [PAGE, PDF, CODE, DATA]
        await pilot.press("down", "down", "enter")
        await settle(pilot)
        assert opened == [CODE]
        await open_links(pilot)
        await pilot.press("down", "down", "down", "y")
        await settle(pilot)
        assert app.clipboard == DATA


async def test_detail_links_are_terminal_hyperlinks_and_code_is_apart(tmp_path):
    app, _ = sample_reader(tmp_path, {})
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "id quill24" in text  # the id stays visible
        assert text.index(PDF) < text.index("Code, data and pages it mentions:") < text.index(CODE)
        strips = app.screen._compositor.render_strips()
        linked = {seg.style.link for strip in strips for seg in strip if seg.style}
        assert {PAGE, PDF, CODE, DATA} <= linked


def test_only_safe_urls_become_hyperlinks():
    from rich.style import Style

    from paperterm.index.papers import Paper
    from paperterm.tui.view import Row

    paper = Paper(
        "p",
        "C",
        "a",
        text="a",
        title="T",
        links=["https://ok.org/a", "https://bad.org/\x1b]8;;evil", "https://é.org"],
    )
    styles = dict.fromkeys(
        ("title", "facts", "authors", "link", "match", "marker", "warn"), Style()
    )
    body = paper_text(Row("p", paper), None, None, styles)
    links = {span.style.link for span in body.spans if isinstance(span.style, Style)}
    assert links - {None} == {"https://ok.org/a"}
    assert "\x1b" not in body.plain


async def test_snippets_show_under_search_results_and_toggle(tmp_path):
    app, _ = sample_reader(tmp_path, {})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await type_text(pilot, "transformers")
        await settle(pilot)
        paper_list = app.main.paper_list
        assert paper_list.lines_per_row == 2
        lines = screen_text(app).splitlines()
        titles = [i for i, line in enumerate(lines) if "Short Title" in line]
        assert titles and "short paper about transformers" in lines[titles[0] + 1]
        await pilot.press("escape", "w")
        await settle(pilot)
        assert paper_list.lines_per_row == 1
        assert "short paper about" not in screen_text(app)


@pytest.mark.parametrize(
    ("size", "byline"),
    [((80, 24), "van der Berg et al. 2023"), ((120, 40), "Jan van der Berg, Maria Lopez")],
)
async def test_rows_show_title_byline_and_collection_when_two(tmp_path, size, byline):
    app, _ = sample_reader(tmp_path, {})
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "Short Title" in text and byline in text
        assert "BETA 2023" in text  # two collections in view: the column shows
        await pilot.press("ctrl+p")
        await type_text(pilot, "Collection: BETA")
        await pilot.press("enter")
        await settle(pilot)
        assert app.main.filters.view == ViewKey("collection", "BETA 2023")
        rows = screen_text(app).splitlines()[1:3]
        assert all("BETA" not in row[:60] for row in rows)  # one collection: no column
