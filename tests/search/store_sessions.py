"""Sessions over a data dir for the store's tests (test_store.py, test_store_recovery.py):
the seeds' index built and reopened, small list files, and the CLI run as a process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from paperterm.index.config import Config
from paperterm.index.session import Session

SEED_PAPERS = 38


def session_of(data: Path, sources: list[Path] | None = None) -> Session:
    return Session.create(data, sources or [], Config())


def set_root(data: Path, sources: list[Path] | None = None) -> Path:
    """The folder of the index of these sources (the seeds by default)."""
    return session_of(data, sources).store.root


def built_seeds(data: Path) -> Path:
    """Build the seeds' index in `data`; the live generation folder."""
    opened, _ = session_of(data).open()
    opened.ix.close()
    return Path(opened.location)


def reopened(data: Path) -> tuple[str, int, list[str]]:
    session = session_of(data)
    opened, _ = session.open()
    return opened.location, len(opened.papers), session.warnings


def list_file(path: Path, name: str, abstracts: list[str]) -> Path:
    path.write_text("\n\n".join([name, *abstracts]) + "\n", encoding="utf-8")
    return path


def cli_process(env: dict[str, str], *args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "paperterm.tui.cli.main", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,
    )


def finished(process: subprocess.Popen) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=120)
    return process.returncode, out, err
