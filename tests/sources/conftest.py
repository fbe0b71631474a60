"""The hostile corpus (malformed files of every kind), written once per module that asks."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile.corpus import write_hostile_corpus


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    write_hostile_corpus(folder)
    return folder
