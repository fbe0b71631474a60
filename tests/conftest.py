"""Shared fixtures: a session over the bundled seeds in a temporary data dir."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

from paperterm.index.config import Config
from paperterm.index.search.searcher import Searcher
from paperterm.index.search.store import OpenIndex
from paperterm.index.session import Session

# No per-example deadline: on a busy 2-core CI machine a slow example is not a bug (timing
# targets live in benchmarks/), and a deadline would make these tests flaky.
settings.register_profile("paperterm", deadline=None)
settings.load_profile("paperterm")


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
