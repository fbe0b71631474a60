"""Issue 10: what the CLI writes goes through links, into pipes and devices, never replacing
them; a save that fails is one line and exit status 1, with no promise of a retry."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from devices import FULL, NULL, device_node

from paperterm.index import atomic
from paperterm.tui.cli.main import main


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data dir over the seeds, with one bookmark; returns the data dir."""
    data = tmp_path / "data"
    monkeypatch.setenv("PAPERTERM_DATA_DIR", str(data))
    monkeypatch.setenv("PAPERTERM_CONFIG", str(tmp_path / "config.toml"))
    (tmp_path / "config.toml").write_text("", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return data


@pytest.fixture
def run(env: Path, capsys: pytest.CaptureFixture[str]):
    def invoke(*args: str) -> tuple[int, str, str]:
        code = main(list(args))
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return invoke


@pytest.fixture
def paper_id(run) -> str:
    code, out, err = run("list")
    assert code == 0, err
    return out.split()[0]


def _export(run, paper_id: str, target: str, fmt: str = "json") -> tuple[int, str, str]:
    assert run("bookmarks", "add", paper_id)[0] == 0
    return run("bookmarks", "export", "--format", fmt, "-o", target)


def test_export_into_a_fifo_keeps_the_fifo(run, paper_id: str, tmp_path: Path) -> None:
    fifo = tmp_path / "export.bib"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    code, _, err = _export(run, paper_id, str(fifo), "bibtex")
    reader.join(10)
    assert code == 0, err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got and got[0].startswith(b"@")


def test_export_to_a_device_node_named_null_keeps_the_node(run, paper_id, tmp_path) -> None:
    node = device_node(tmp_path, "null", NULL)
    code, _, err = _export(run, paper_id, "null")
    assert code == 0, err
    assert stat.S_ISCHR(os.lstat(node).st_mode)


def test_export_through_a_symlink_replaces_the_target(run, paper_id, tmp_path) -> None:
    real = tmp_path / "notes" / "papers.md"
    real.parent.mkdir()
    real.write_text("old\n", encoding="utf-8")
    link = tmp_path / "papers.md"
    link.symlink_to(real)
    code, _, err = _export(run, paper_id, str(link), "markdown")
    assert code == 0, err
    assert link.is_symlink()
    assert real.read_text(encoding="utf-8").startswith("#")


def test_export_into_a_missing_folder_is_one_line_and_creates_nothing(run, paper_id, tmp_path):
    code, _, err = _export(run, paper_id, str(tmp_path / "no" / "such" / "x.json"))
    assert code == 2
    assert err.count("\n") == 1 and "does not exist" in err
    assert not (tmp_path / "no").exists()


def test_export_to_a_full_device_is_one_line_and_exit_1(run, paper_id, tmp_path) -> None:
    full = device_node(tmp_path, "full", FULL)  # as /dev/full
    code, out, err = _export(run, paper_id, "full")
    assert code == 1
    assert err == "paperterm: full: cannot write the export: No space left on device\n"
    assert "written" not in out
    assert stat.S_ISCHR(os.lstat(full).st_mode)


def test_export_gets_the_users_umask_not_0600(run, paper_id, tmp_path) -> None:
    old = os.umask(0o022)
    try:
        code, _, err = _export(run, paper_id, "export.json")
    finally:
        os.umask(old)
    assert code == 0, err
    assert stat.S_IMODE((tmp_path / "export.json").stat().st_mode) == 0o644


def test_a_bookmarks_link_out_of_the_data_dir_is_read_but_never_written_through(
    run, paper_id, env, tmp_path
) -> None:
    """A link in the data dir to a file elsewhere could make a save write where someone
    else chose: it is read, and a save refuses it in one line (exit 1), link and file
    untouched. A link within the data dir is followed."""
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    outside = dotfiles / "bookmarks.toml"
    outside.write_text('version = 1\n[[bookmarks]]\nid = "x"\nadded = 2024-01-01\n')
    (env / "bookmarks.toml").symlink_to(outside)
    assert run("bookmarks", "list")[1].startswith("x  2024-01-01")
    code, _, err = run("bookmarks", "add", paper_id)
    assert code == 1
    assert err == (
        f"paperterm: {env / 'bookmarks.toml'}: cannot save bookmarks: it is a symbolic link to "
        f"{outside}, outside {env}: paperterm does not write through it (replace the link "
        "with a file to save here); the change was not saved\n"
    )
    assert (env / "bookmarks.toml").is_symlink() and paper_id not in outside.read_text()
    (env / "bookmarks.toml").unlink()
    os.rename(outside, env / "mine.toml")
    (env / "bookmarks.toml").symlink_to("mine.toml")
    assert run("bookmarks", "add", paper_id)[0] == 0
    assert (env / "bookmarks.toml").is_symlink() and paper_id in (env / "mine.toml").read_text()


def test_a_disk_full_save_is_exit_1_and_promises_nothing(run, paper_id, env, monkeypatch):
    def disk_full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with monkeypatch.context() as patch:
        patch.setattr(atomic.os, "fsync", disk_full)  # the data is written, then fsync fails
        code, out, err = run("bookmarks", "add", paper_id)
    assert code == 1
    assert err == (
        f"paperterm: {env / 'bookmarks.toml'}: cannot save bookmarks: No space left on "
        "device; the change was not saved\n"
    )
    assert "retried" not in err and out == ""


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_bookmarks_file_that_is_not_a_file_is_refused_at_once(env: Path, kind: str) -> None:
    """A subprocess, so that the old behaviour (reading for ever) fails by its timeout."""
    env.mkdir()
    path = env / "bookmarks.toml"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    done = subprocess.run(
        [sys.executable, "-m", "paperterm.tui.cli.main", "bookmarks", "list"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "not a regular file" in done.stderr
    assert str(path) in done.stderr
