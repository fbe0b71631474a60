"""Fixtures for the reader's Pilot and snapshot tests.

The seeds' index is built once per run and copied into each test's data dir, so every test
starts warm (the fast path) with its own bookmarks file. `gated_reader` stands in for a
first launch whose build is held at a fixed progress until the test lets it go (see
reader_helpers).
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
import textual._wait
import textual.app
import textual.pilot
from reader_helpers import INSTANT, GatedSession
from textual._context import active_app

from paperterm.index.config import Config
from paperterm.index.session import Session
from paperterm.tui.app import ReaderApp, make_app
from paperterm.tui.clipboard import Clipboard

#: How long Pilot's idle check looks at the CPU at a time (Textual's own window is 20 ms).
IDLE_WINDOW = 0.005
#: The longest wait for a screen refresh (Textual's idle check gives up after 1 s too).
REFRESH_WAIT = 1.0
for _name in ("wait_for_idle", "SLEEP_GRANULARITY", "SLEEP_IDLE"):
    if not hasattr(textual._wait, _name):
        raise pytest.UsageError(f"tests/tui/conftest.py: textual._wait.{_name} is gone")
for _module in (textual.pilot, textual.app):
    if not hasattr(_module, "wait_for_idle"):
        raise pytest.UsageError(f"tests/tui/conftest.py: {_module.__name__}.wait_for_idle is gone")
_textual_idle = textual._wait.wait_for_idle


async def refreshed_and_idle(min_sleep: float = IDLE_WINDOW, max_sleep: float = 1) -> None:
    """Pilot's wait after each key and pause: the current screen has refreshed, then the CPU
    is quiet.

    Textual's own check sleeps 20 ms windows until one passes with under 1/20 of it on the
    CPU: at least 40 ms a key (two checks), about half of tests/tui's wall time. It also stood
    in for a refresh: scrolls, resizes and other after-refresh work run on the screen's
    update timer (1/60 s), which a 20 ms window usually outlasts, but not when the process is
    descheduled on a loaded machine. Here the wait for the refresh is a signal (a callback
    queued after everything queued so far), and the CPU check keeps its 1/20 ratio in 5 ms
    windows.
    """
    app = active_app.get(None)
    if app is not None and app.is_running and app.screen_stack:
        refreshed = asyncio.Event()
        if app.screen.call_after_refresh(refreshed.set):
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(refreshed.wait(), REFRESH_WAIT)
    await _textual_idle(min_sleep, max_sleep)


textual._wait.SLEEP_GRANULARITY = IDLE_WINDOW
textual._wait.SLEEP_IDLE = IDLE_WINDOW / 20
textual.pilot.wait_for_idle = refreshed_and_idle  # type: ignore[assignment]
textual.app.wait_for_idle = refreshed_and_idle  # type: ignore[assignment]


@pytest.fixture(scope="session")
def built_seed_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = tmp_path_factory.mktemp("reader-seed-data")
    Session.create(data, [], Config()).open()
    return data


@pytest.fixture
def data_dir(tmp_path: Path, built_seed_dir: Path) -> Path:
    data = tmp_path / "data"
    shutil.copytree(built_seed_dir / "index", data / "index")
    return data


class Opened:
    """A URL opener that records instead of starting a browser."""

    def __init__(self) -> None:
        self.urls: list[str] = []

    def __call__(self, url: str) -> bool:
        self.urls.append(url)
        return True


@pytest.fixture
def opened_urls() -> Opened:
    return Opened()


@pytest.fixture
def reader(data_dir: Path, opened_urls: Opened) -> Callable[..., ReaderApp]:
    """A factory: `reader(config=..., environ=...)` -> a ReaderApp over the seeds, with no
    pauses (`timing=` gives some back)."""

    def build(config: Config | None = None, **kwargs) -> ReaderApp:
        config = config or Config()
        session = Session.create(data_dir, [], config)
        kwargs.setdefault("timing", INSTANT)
        kwargs.setdefault("url_opener", opened_urls)
        kwargs.setdefault("environ", {"SSH_CONNECTION": "10.0.0.1 5000 10.0.0.2 22"})
        # No clipboard tool of this machine's runs: tests that copy by a route give their own.
        kwargs.setdefault("copier", Clipboard(kwargs["environ"], which=lambda name: None))
        return make_app(session, config, **kwargs)

    return build


@pytest.fixture
def gated_reader(tmp_path: Path) -> Callable[..., tuple[ReaderApp, GatedSession]]:
    def build(config: Config | None = None, **kwargs) -> tuple[ReaderApp, GatedSession]:
        config = config or Config()
        plain = Session.create(tmp_path / "data", [], config)
        session = GatedSession(plain.data_dir, plain.specs, config, **kwargs)
        return make_app(session, config, timing=INSTANT, environ={}), session

    return build
