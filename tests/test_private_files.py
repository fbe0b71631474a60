"""Shared machines: what paperterm creates in the data dir is the user's alone whatever the
umask; a data dir, index folder or state file another user owns or can write is refused in
one line; links in the data dir that lead outside it are never written through."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from paperterm.index import private_files
from paperterm.index.config import Config
from paperterm.index.library.bookmarks import BookmarkStore
from paperterm.index.library.op_store import LibraryFileError, LibrarySaveError
from paperterm.index.library.place import Place, save_place
from paperterm.index.library.reading import ReadingStore, mark_read
from paperterm.index.library.searches import SearchesStore
from paperterm.index.session import Session, SessionError
from paperterm.tui.cli.main import main


@pytest.fixture
def umask_000() -> Iterator[None]:
    previous = os.umask(0)
    try:
        yield
    finally:
        os.umask(previous)


def modes_open_to_others(folder: Path) -> list[str]:
    found = []
    for path in [folder, *folder.rglob("*")]:
        info = path.lstat()
        if not stat.S_ISLNK(info.st_mode) and info.st_mode & 0o077:
            found.append(f"{stat.S_IMODE(info.st_mode):o} {path.relative_to(folder)}")
    return found


@pytest.mark.parametrize("engine", ["whoosh", "tantivy"])
def test_under_umask_000_everything_made_is_0700_or_0600(tmp_path: Path, umask_000, engine):
    if engine == "tantivy":
        pytest.importorskip("tantivy")
    data = tmp_path / "deep" / "data"
    session = Session.create(data, [], Config(engine=engine))
    opened, _ = session.open()
    paper_id = opened.papers[0].id
    opened.close()
    BookmarkStore.in_dir(data).add(paper_id, "a paper")
    ReadingStore.in_dir(data).apply(mark_read([paper_id]))
    SearchesStore.in_dir(data).save_search("s", "graph")
    save_place(data, Place(paper=paper_id))
    again, _ = Session.create(data, [], Config(engine=engine)).open()  # as a reader does
    again.close()
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    assert stat.S_IMODE((tmp_path / "deep").stat().st_mode) == 0o700
    assert stat.S_IMODE((data / "reading.toml").stat().st_mode) == 0o600
    assert modes_open_to_others(data) == []


def test_a_group_writable_data_dir_is_refused_with_the_fix(tmp_path: Path, monkeypatch, capsys):
    data = tmp_path / "data"
    data.mkdir()
    data.chmod(0o770)
    monkeypatch.setenv("PAPERTERM_CONFIG", "")
    assert main(["--data-dir", str(data), "list"]) == 2
    assert capsys.readouterr().err == (
        f"paperterm: {data}: the data folder can be changed by other users (mode 770); "
        f"fix it with: chmod go-w {data}\n"
    )
    data.chmod(0o700)
    (data / "index").mkdir(mode=0o777)
    (data / "index").chmod(0o777)
    with pytest.raises(SessionError, match=r"index: the index folder can be changed by other"):
        Session.create(data, [], Config())


def test_a_data_dir_of_another_user_is_refused(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(private_files, "current_uid", lambda: os.geteuid() + 1)
    with pytest.raises(SessionError) as caught:
        Session.create(tmp_path, [], Config())
    assert str(caught.value) == (
        f"{tmp_path}: the data folder belongs to another user (uid {os.geteuid()}); use your "
        f"own, or take it over with: chown {os.geteuid() + 1} {tmp_path}"
    )


@pytest.mark.parametrize("trouble", ["group-writable", "another user's"])
def test_a_state_file_others_can_change_is_refused_and_left_alone(
    tmp_path: Path, monkeypatch, trouble
):
    path = tmp_path / "reading.toml"
    text = "version = 1\n[read]\nplanted = 2024-01-01T00:00:00Z\n"
    path.write_text(text, encoding="utf-8")
    if trouble == "group-writable":
        path.chmod(0o620)
        why = rf"can be changed by other users \(mode 620\); fix it with: chmod go-w {path}$"
    else:
        path.chmod(0o600)
        monkeypatch.setattr(private_files, "current_uid", lambda: os.geteuid() + 1)
        why = "belongs to another user"
    store = ReadingStore(path)
    with pytest.raises(LibraryFileError, match=why) as caught:
        store.load()
    assert str(caught.value).startswith(f"{path}: the reading state file ")
    assert store.read_only and not store.entries
    assert path.read_text(encoding="utf-8") == text


def test_a_dangling_link_out_of_the_data_dir_is_never_written_through(tmp_path: Path):
    data, elsewhere = tmp_path / "data", tmp_path / "elsewhere"
    data.mkdir()
    elsewhere.mkdir()
    (data / "reading.toml").symlink_to(elsewhere / "chosen.toml")
    store = ReadingStore.in_dir(data)
    store.load()  # a dangling link reads as no file
    with pytest.raises(LibrarySaveError, match=r"symbolic link to .*outside") as caught:
        store.apply(mark_read(["p001"]))
    assert "does not write through it" in str(caught.value)
    assert store.unsaved == 1  # kept: retried, and listed as a command at exit
    assert not (elsewhere / "chosen.toml").exists()
    assert (data / "reading.toml").is_symlink()


def test_a_link_planted_as_a_lock_file_is_not_followed(tmp_path: Path):
    data, elsewhere = tmp_path / "data", tmp_path / "elsewhere"
    data.mkdir()
    elsewhere.mkdir()
    (data / "reading.toml.lock").symlink_to(elsewhere / "made.txt")
    store = ReadingStore.in_dir(data)
    with pytest.raises(LibrarySaveError):
        store.apply(mark_read(["p001"]))
    assert not (elsewhere / "made.txt").exists()


def test_the_place_is_not_written_through_a_link_out_of_the_data_dir(tmp_path: Path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "place.toml").symlink_to(tmp_path / "chosen.toml")
    with pytest.raises(PermissionError):
        save_place(data, Place(paper="p001"))
    assert not (tmp_path / "chosen.toml").exists()


def _runs_as_nobody() -> str | None:
    """Why a process cannot run this interpreter as user 65534 here (None: it can)."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        return "needs root and setpriv to switch to an unprivileged user"
    probe = subprocess.run(
        [
            "setpriv",
            "--reuid",
            "65534",
            "--regid",
            "65534",
            "--clear-groups",
            sys.executable,
            "-c",
            "import paperterm",
        ],
        capture_output=True,
        check=False,
    )
    if probe.returncode != 0:
        return "user 65534 cannot run this interpreter or import paperterm (e.g. under /root)"
    return None


def test_an_unprivileged_user_refuses_a_data_dir_root_owns():
    why = _runs_as_nobody()
    if why is not None:
        pytest.skip(why)
    folder = Path(tempfile.mkdtemp())
    try:
        folder.chmod(0o755)
        result = subprocess.run(
            [
                "setpriv",
                "--reuid",
                "65534",
                "--regid",
                "65534",
                "--clear-groups",
                sys.executable,
                "-m",
                "paperterm.tui.cli",
                "--data-dir",
                str(folder),
                "list",
            ],
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "PAPERTERM_CONFIG": "", "HOME": str(folder)},
        )
        assert result.returncode == 2
        assert "the data folder belongs to another user (uid 0)" in result.stderr
    finally:
        shutil.rmtree(folder)


def test_under_umask_000_the_log_folder_and_its_files_are_private(
    tmp_path: Path, umask_000, monkeypatch, capsys
):
    from paperterm.tui import lifecycle
    from paperterm.tui.cli import main as cli_main

    logs = tmp_path / "state" / "log"
    monkeypatch.setattr(cli_main, "log_dir", lambda: logs)
    assert cli_main._crash(RuntimeError("boom")) == 1
    assert f"(details in {logs / 'crash.log'})" in capsys.readouterr().err
    lifecycle.Ending(app=None, log_dir=logs)._write_unsaved(["paperterm read -- p001"])  # type: ignore[arg-type]
    assert "paperterm read -- p001" in (logs / lifecycle.UNSAVED_FILENAME).read_text()
    assert modes_open_to_others(tmp_path / "state") == []
