"""The search tests run against each engine: `seed_index` and `seed_searcher` here are the
seeds' index built by Whoosh and by tantivy (skipped when tantivy is not installed: it is an
optional extra, which CI installs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperterm.index.config import Config
from paperterm.index.search.searcher import Searcher
from paperterm.index.search.store import OpenIndex
from paperterm.index.search.tantivy_index import tantivy_installed
from paperterm.index.session import Session

ENGINES = ("whoosh", "tantivy")


def engine_config(engine: str) -> Config:
    """The config of a session that builds with `engine` (a test of tantivy skips when it is
    not installed)."""
    if engine == "tantivy" and not tantivy_installed():
        pytest.skip("tantivy is not installed (pip install 'paperterm[tantivy]')")
    config = Config()
    config.engine = engine
    return config


@pytest.fixture(scope="session", params=ENGINES)
def engine(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="session")
def seed_index(engine: str, tmp_path_factory: pytest.TempPathFactory) -> OpenIndex:
    """The seeds' index built by `engine`, once for the whole run (read-only use only)."""
    data: Path = tmp_path_factory.mktemp(f"seed-data-{engine}")
    opened, _ = Session.create(data, [], engine_config(engine)).open()
    return opened


@pytest.fixture(scope="session")
def seed_searcher(seed_index: OpenIndex) -> Searcher:
    return Searcher(seed_index.ix, seed_index.papers, seed_index.vocabulary())
