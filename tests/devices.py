"""Device nodes for tests, made in a temporary folder (imported by name: tests/ is on
sys.path). Never the system's own: run against a writer that replaces what it should write
into, a test on /dev/full would replace /dev/full for the whole machine (it did, once)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

NULL = (1, 3)
FULL = (1, 7)  # every write fails with ENOSPC


def device_node(folder: Path, name: str, numbers: tuple[int, int]) -> Path:
    """A character device `name` in `folder` with /dev's `numbers`; skips without root."""
    path = folder / name
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(*numbers))
    except PermissionError:
        pytest.skip("making a device node needs root")
    return path
