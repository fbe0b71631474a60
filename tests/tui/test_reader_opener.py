"""The link opener (`o`) says when nothing opened, refuses a URL no browser can take, and
no toast shows more than its cap."""

from __future__ import annotations

import json
import webbrowser
from pathlib import Path

from reader_helpers import INSTANT, settle

from paperterm.index.config import Config
from paperterm.index.session import Session
from paperterm.tui.app import make_app
from paperterm.tui.clipboard import Clipboard
from paperterm.tui.notices import MAX_URL_BYTES, NOTICE_LIMIT, capped

DISPLAY = {"DISPLAY": ":0"}
PAGE = "https://example.org/papers/graph-walks"


def reader(tmp_path: Path, url: str):
    tmp_path.mkdir(exist_ok=True)
    source = tmp_path / "one.json"
    record = {"id": "p1", "title": "Graph walks", "abstract": "We walk graphs.", "url": url}
    source.write_text(json.dumps([record]), encoding="utf-8")
    config = Config()
    session = Session.create(tmp_path / "data", [source], config)
    copier = Clipboard(DISPLAY, run=lambda *a, **k: None, which=lambda name: None)
    return make_app(session, config, timing=INSTANT, environ=DISPLAY, copier=copier)


def toasts(app) -> list[tuple[str, str]]:
    return [(n.message, n.severity) for n in app._notifications]


class Browser(list):
    """Stands for `webbrowser.open`: records the URLs, answers `answer`."""

    def __init__(self, answer: bool) -> None:
        super().__init__()
        self.answer = answer

    def __call__(self, url: str, *args: object, **kwargs: object) -> bool:
        self.append(url)
        return self.answer


async def pressed_o(tmp_path: Path, url: str, monkeypatch, answer: bool):
    browser = Browser(answer)
    monkeypatch.setattr(webbrowser, "open", browser)
    app = reader(tmp_path, url)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.main.current_row().id == "p1"
        await pilot.press("o")
        await settle(pilot)
    return browser, toasts(app)


async def test_a_browser_that_opens_nothing_is_reported(tmp_path, monkeypatch):
    browser, said = await pressed_o(tmp_path / "no", PAGE, monkeypatch, answer=False)
    assert browser == [PAGE]
    errors = [message for message, severity in said if severity == "error"]
    assert errors and "Could not open" in errors[-1] and PAGE in errors[-1]
    # One that opens is only said to be opening.
    browser, said = await pressed_o(tmp_path / "yes", PAGE, monkeypatch, answer=True)
    assert browser == [PAGE]
    assert said == [(f"Opening {PAGE}", "information")]


async def test_a_url_over_128_kib_is_refused_in_a_short_message(tmp_path, monkeypatch):
    url = "https://example.org/?q=" + "a" * (200 * 1024)
    browser, said = await pressed_o(tmp_path, url, monkeypatch, answer=True)
    assert browser == []  # never handed to a browser
    assert len(said) == 1
    message, severity = said[0]
    assert severity == "error" and "too long" in message
    assert len(message) <= NOTICE_LIMIT


async def test_a_long_url_that_opens_is_shown_cut(tmp_path, monkeypatch):
    url = "https://example.org/?q=" + "b" * (MAX_URL_BYTES - 100)
    browser, said = await pressed_o(tmp_path, url, monkeypatch, answer=False)
    assert browser == [url]
    assert len(said) == 2 and all(len(message) <= NOTICE_LIMIT for message, _ in said)
    assert said[0][0].startswith("Opening https://example.org/?q=bbb") and "…" in said[0][0]


def test_capped_keeps_short_text_and_cuts_long_text_with_an_ellipsis():
    assert capped("short") == "short"
    cut = capped("x" * 1000)
    assert len(cut) == NOTICE_LIMIT and cut.endswith("…")
