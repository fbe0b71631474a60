"""Conference sources through the CLI: a file whose shape nothing reads is refused in one
line with exit status 2 (index, list, doctor, the reader); in a folder it is a problem and
the other files load; `[[sources]]` options read a headerless table, and changing them reads
the file again."""

from __future__ import annotations

import argparse
import io
import json
import shutil
from pathlib import Path

import pytest
from locations import FIXTURES

from paperterm.tui.cli.doctor import run_doctor

CONF = FIXTURES / "conferences"


@pytest.mark.parametrize("name", ["headerless.tsv", "feed.rss", "unknown.xml", "unknown.json"])
@pytest.mark.parametrize("command", [["index"], ["list", "--json"], []])
def test_a_refused_file_named_directly_is_exit_2_in_one_line(run, name, command) -> None:
    code, out, err = run("--source", str(CONF / name), *command)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"{CONF / name}: refused: " in err


def test_the_doctor_says_a_refused_source_and_exits_2(tmp_path, monkeypatch) -> None:
    config = tmp_path / "config.toml"
    source = tmp_path / "corl.tsv"
    shutil.copy(CONF / "headerless.tsv", source)
    config.write_text(f'include_seeds = false\n[[sources]]\npath = "{source}"\n', "utf-8")
    monkeypatch.setenv("PAPERTERM_CONFIG", str(config))
    monkeypatch.setenv("PAPERTERM_DATA_DIR", str(tmp_path / "data"))
    out = io.StringIO()
    code = run_doctor(argparse.Namespace(source=None), out, environ={}, is_tty=lambda: False)
    assert code == 2
    lines = out.getvalue().splitlines()
    assert any(line.startswith(f"!!  sources: {source}: refused: ") for line in lines)
    assert lines[-1].startswith("verdict: not ready")


def test_a_folder_lists_what_it_reads_and_reports_what_it_refuses(run, tmp_path) -> None:
    folder = tmp_path / "icml"
    folder.mkdir()
    for name in ("icml-downloads.json", "headerless.tsv", "acl-volume.xml"):
        shutil.copy(CONF / name, folder / name)
    code, out, err = run("--source", str(folder), "list", "--json")
    assert code == 0
    titles = {record["title"] for record in json.loads(out)}
    assert "ΦFlow: Differentiable Simulations for PyTorch, TensorFlow and Jax" in titles
    assert "FanOutQA: Multi-Hop Questions" in titles
    assert f"{folder / 'headerless.tsv'}: refused: a tab-separated table" in err


def _config(path: Path, source: Path, columns: str) -> None:
    path.write_text(
        f'include_seeds = false\n[[sources]]\npath = "{source}"\nformat = "tsv"\n'
        f"columns = {columns}\n",
        encoding="utf-8",
    )


def test_columns_read_a_headerless_table_and_a_change_reads_it_again(
    run, tmp_path, monkeypatch
) -> None:
    source = tmp_path / "corl.tsv"
    shutil.copy(CONF / "headerless.tsv", source)
    config = tmp_path / "paperterm.toml"
    monkeypatch.setenv("PAPERTERM_CONFIG", str(config))
    columns = '["openreview", "title", "authors", "keywords", "topic", "status", "pdf", ""'
    _config(config, source, columns + ', "tldr", "", "abstract"]')
    code, out, err = run("list", "--json")
    assert (code, err) == (0, "")
    records = json.loads(out)
    assert [record["title"] for record in records] == [
        "No Header Here", "Second Row Title", "Third Row Title"
    ]  # fmt: skip
    assert records[0]["authors"] == ["Ana Uno", "Ben Dos"]
    assert records[0]["tldr"] == "Short summary."
    # The same file, its columns named otherwise: its cached records are not reused.
    _config(config, source, columns + ', "", "", "tldr"]')
    code, out, err = run("list", "--json")
    assert code == 0
    records = json.loads(out)
    assert records[0]["tldr"] == "First abstract of a headerless table."
    assert records[0]["abstract"] == ""
