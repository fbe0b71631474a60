"""The search tests run against each engine: `seed_index` and `seed_searcher` here are the
seeds' index built by Whoosh and by tantivy (skipped when tantivy is not installed: it is an
optional extra, which CI installs)."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_choice import ENGINES, engine_config

from paperterm.index.search.open_index import OpenIndex
from paperterm.index.search.searcher import Searcher
from paperterm.index.session import Session


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
