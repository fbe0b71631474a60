"""The CLI run in-process with its own data dir and an empty config file."""

from __future__ import annotations

import pytest

from paperterm.tui.cli.main import main


@pytest.fixture
def cli_env(tmp_path, monkeypatch) -> None:
    """The CLI's data dir in tmp_path, and an empty config file."""
    monkeypatch.setenv("PAPERTERM_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PAPERTERM_CONFIG", str(tmp_path / "no-config.toml"))
    (tmp_path / "no-config.toml").write_text("", encoding="utf-8")


@pytest.fixture
def run(cli_env, capsys):
    """`run(*args)` -> (exit status, stdout, stderr) of `paperterm ARGS`."""

    def invoke(*args: str) -> tuple[int, str, str]:
        code = main(list(args))
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return invoke
