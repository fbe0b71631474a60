"""The CLI over state and config files holding odd values (exit 2 and one line naming file
and line), and `paperterm searches ...`, which re-applies a search the reader could not
save."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from paperterm.index import user_files

LATE = "9999-12-31T23:59:59-23:59"
DEEP = "[" * 500 + "]" * 500


@pytest.fixture
def data(tmp_path: Path, cli_env) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    return folder


def first_id(run) -> str:
    code, out, err = run("list")
    assert code == 0, err
    return out.split()[0]


@pytest.mark.parametrize(
    ("name", "text", "line", "args"),
    [
        ("reading.toml", f"version = 1\n[read]\np002 = {LATE}\n", 3, ("read", "PAPER")),
        ("reading.toml", f"version = 1\n[read]\np002 = {LATE}\n", 3, ("list", "--unread")),
        ("reading.toml", f"version = 1\n\nx = {DEEP}\n", 3, ("unread", "PAPER")),
        (
            "bookmarks.toml",
            f'version = 1\n[[bookmarks]]\nid = "a"\nadded = {LATE}\n',
            2,
            ("bookmarks", "list"),
        ),
        ("bookmarks.toml", f"version = 1\n\nx = {DEEP}\n", 3, ("bookmarks", "add", "PAPER")),
        (
            "searches.toml",
            f'version = 1\n[[searches]]\nname = "s"\nquery = "q"\nadded = {LATE}\n',
            2,
            ("list", "--view", "s"),
        ),
        ("searches.toml", f"version = 1\n\nx = {DEEP}\n", 3, ("searches", "list")),
    ],
)
def test_an_odd_value_in_a_state_file_is_one_line_and_exit_2(run, data, name, text, line, args):
    paper = first_id(run)
    (data / name).write_text(text, encoding="utf-8")
    code, _, err = run(*[paper if arg == "PAPER" else arg for arg in args])
    assert code == 2
    assert err.count("\n") == 1 and err.startswith(f"paperterm: {data / name}:{line}: ")
    assert "Traceback" not in err
    assert (data / name).read_text(encoding="utf-8") == text


def test_a_deeply_nested_config_is_one_line_and_exit_2(run, tmp_path: Path, monkeypatch):
    config = tmp_path / "config.toml"
    config.write_text(f"# a comment [[[\n\nx = {DEEP}\n", encoding="utf-8")
    monkeypatch.setenv("PAPERTERM_CONFIG", str(config))
    code, _, err = run("list")
    assert code == 2
    assert err == f"paperterm: {config}:3: values are nested more than 100 levels deep\n"


def test_searches_save_list_and_delete(run, data):
    code, out, _ = run("searches", "save", "--", "graphs, no vision", "graph -vision")
    assert (code, out) == (0, "saved the search 'graphs, no vision'\n")
    code, out, _ = run("searches", "list")
    assert code == 0 and out.startswith("graphs, no vision  (20") and "graph -vision" in out
    code, out, _ = run("list", "--view", "graphs, no vision")
    assert code == 0 and out
    assert run("searches", "save", "graphs, no vision", "graph")[0] == 0  # replaces it
    assert "graph -vision" not in run("searches", "list")[1]
    assert run("searches", "delete", "graphs, no vision")[0] == 0
    assert run("searches", "delete", "graphs, no vision")[0] == 0  # idempotent
    assert run("searches", "list")[1] == "no saved searches yet\n"


def test_a_search_named_as_the_configs_is_refused(run, tmp_path: Path, monkeypatch):
    config = tmp_path / "config.toml"
    config.write_text('[[searches]]\nname = "dna"\nquery = "DNA"\n', encoding="utf-8")
    monkeypatch.setenv("PAPERTERM_CONFIG", str(config))
    code, _, err = run("searches", "save", "dna", "RNA")
    assert code == 2 and "'dna' is a search of the config file" in err
    code, out, _ = run("searches", "list")
    assert out == "dna  (config)  DNA\n"


def test_a_search_that_cannot_be_written_fails_with_one_line(run, data, monkeypatch):
    def disk_full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(user_files, "atomic_write_bytes", disk_full)
    code, _, err = run("searches", "save", "s", "q")
    assert code == 1
    assert err == (
        f"paperterm: {data / 'searches.toml'}: cannot save saved searches: "
        "No space left on device; the change was not saved\n"
    )
