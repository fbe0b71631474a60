"""The engines the search tests run against, and a session's config for one of them."""

from __future__ import annotations

import pytest

from paperterm.index.config import Config
from paperterm.index.search.tantivy import tantivy_installed

ENGINES = ("whoosh", "tantivy")


def engine_config(engine: str) -> Config:
    """The config of a session that builds with `engine` (a test of tantivy skips when it is
    not installed: it is an optional extra, which CI installs)."""
    if engine == "tantivy" and not tantivy_installed():
        pytest.skip("tantivy is not installed (pip install 'paperterm[tantivy]')")
    config = Config()
    config.engine = engine
    return config
