"""Fixtures for the reader's Pilot and snapshot tests.

The seeds' index is built once per run and copied into each test's data dir, so every test
starts warm (the fast path) with its own bookmarks file. `gated_reader` stands in for a
first launch whose build is held at a fixed progress until the test lets it go (see
reader_helpers).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
import textual._wait
from reader_helpers import INSTANT, GatedSession

from paperterm.index.config import Config
from paperterm.index.session import Session
from paperterm.tui.app import ReaderApp, make_app
from paperterm.tui.clipboard import Clipboard

#: Pilot's `press` and `pause` end with Textual's idle check: sleep a window, and call the
#: process idle once a window passes with under 1/20 of it spent on the CPU. Textual's window
#: is 20 ms, so each press cost at least 40 ms of sleep (two checks), about half of this
#: directory's wall time. A 5 ms window keeps the check (the same 1/20 ratio, looped until the
#: CPU is quiet) at a quarter of the sleep. No test may depend on the window's length: they
#: wait on the reader's signals (`settle`, `until`, `resize`, `toasts_shown`).
IDLE_WINDOW = 0.005
textual._wait.SLEEP_GRANULARITY = IDLE_WINDOW
textual._wait.SLEEP_IDLE = IDLE_WINDOW / 20


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
