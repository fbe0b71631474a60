"""Shared fixtures: a session over the bundled seeds in a temporary data dir."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from hypothesis import settings

from paperterm.index.config import Config
from paperterm.index.search.open_index import OpenIndex
from paperterm.index.search.searcher import Searcher
from paperterm.index.session import Session

# No per-example deadline: on a busy 2-core CI machine a slow example is not a bug (timing
# targets live in benchmarks/), and a deadline would make these tests flaky.
settings.register_profile("paperterm", deadline=None)
settings.load_profile("paperterm")

# A reader test makes hundreds of thousands of short-lived objects; at CPython's default
# gen-0 threshold (700) the collector runs thousands of times a test and its older generations
# keep walking what earlier tests left. A larger threshold cut tests/tui's CPU by ~18%
# (test_reader_keys + test_reader_views, 4 alternated runs: 13.6-13.9 s -> 11.3-11.6 s). What
# the tests check does not depend on when the collector runs; the reader itself pauses it for
# its start for the same reason (tui/collector.py).
gc.set_threshold(50_000, 50, 50)


@pytest.fixture
def seed_session(tmp_path: Path) -> Session:
    return Session.create(tmp_path / "data", [], Config())


@pytest.fixture(scope="session")
def seed_index(tmp_path_factory: pytest.TempPathFactory) -> OpenIndex:
    """The seeds' index, built once for the whole test run (read-only use only)."""
    session = Session.create(tmp_path_factory.mktemp("seed-data"), [], Config())
    opened, _ = session.open()
    return opened


@pytest.fixture(scope="session")
def seed_searcher(seed_index: OpenIndex) -> Searcher:
    return Searcher(seed_index.ix, seed_index.papers, seed_index.vocabulary())
