"""Issue 10: the user's files are written through, never replaced; read only when regular."""

from __future__ import annotations

import errno
import os
import stat
import threading
import time
from pathlib import Path

import pytest
from devices import FULL, NULL, device_node

from paperterm.index.user_files import (
    NotRegularFileError,
    read_regular_file,
    user_mode,
    write_user_file,
)


class FifoReader(threading.Thread):
    """Reads a FIFO to its end in the background, as `cat fifo` would."""

    def __init__(self, path: Path) -> None:
        super().__init__(daemon=True)
        self.path = path
        self.data = b""

    def run(self) -> None:
        with open(self.path, "rb") as fifo:
            self.data = fifo.read()


def test_a_fifo_is_written_into_not_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "out.bib"
    os.mkfifo(fifo)
    reader = FifoReader(fifo)
    reader.start()
    write_user_file(fifo, b"@misc{x}\n" * 10_000)  # more than a pipe holds at once
    reader.join(10)
    assert reader.data == b"@misc{x}\n" * 10_000
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_fifo_nobody_reads_is_an_error_when_waiting_is_not_allowed(tmp_path: Path) -> None:
    fifo = tmp_path / "out.md"
    os.mkfifo(fifo)
    with pytest.raises(OSError) as caught:
        write_user_file(fifo, b"x", wait_for_reader=False)
    assert caught.value.errno == errno.ENXIO
    assert "no program is reading" in caught.value.strerror
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_device_node_is_written_into_not_replaced(tmp_path: Path) -> None:
    """An export to a node named `null` once replaced the node by a regular file."""
    node = device_node(tmp_path, "null", NULL)
    write_user_file(node, b"anything")
    info = os.lstat(node)
    assert stat.S_ISCHR(info.st_mode) and info.st_rdev == os.makedev(*NULL)


def test_a_device_that_fails_is_an_error(tmp_path: Path) -> None:
    full = device_node(tmp_path, "full", FULL)
    with pytest.raises(OSError) as caught:
        write_user_file(full, b"x")
    assert caught.value.errno == errno.ENOSPC
    assert stat.S_ISCHR(os.lstat(full).st_mode)


def test_a_symlink_is_kept_and_its_target_replaced(tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    real = dotfiles / "bookmarks.toml"
    real.write_text("old", encoding="utf-8")
    real.chmod(0o640)
    link = tmp_path / "data" / "bookmarks.toml"
    link.parent.mkdir()
    link.symlink_to(Path("..") / "dotfiles" / "bookmarks.toml")  # relative, as dotfiles do
    backup = link.with_name("bookmarks.toml.bak")
    write_user_file(link, b"new", backup=backup)
    assert link.is_symlink() and os.readlink(link) == "../dotfiles/bookmarks.toml"
    assert real.read_text(encoding="utf-8") == "new"
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert backup.read_text(encoding="utf-8") == "old"
    assert [p.name for p in dotfiles.iterdir()] == ["bookmarks.toml"]  # no temp file left


def test_a_dangling_symlink_gets_its_target_created(tmp_path: Path) -> None:
    link = tmp_path / "out.json"
    link.symlink_to(tmp_path / "elsewhere.json")
    write_user_file(link, b"[]", new_mode=0o644)
    assert link.is_symlink()
    assert (tmp_path / "elsewhere.json").read_bytes() == b"[]"


def test_an_own_descriptor_is_written_to_as_it_is(tmp_path: Path) -> None:
    """`/dev/stdout` (here `/dev/fd/N`, the same thing) is the descriptor, not a file to
    replace: a log opened for appending keeps what it had."""
    log = tmp_path / "log"
    log.write_bytes(b"before\n")
    with open(log, "ab") as handle:
        write_user_file(Path(f"/dev/fd/{handle.fileno()}"), b"after\n")
    assert log.read_bytes() == b"before\nafter\n"


def test_a_missing_folder_is_an_error_unless_the_caller_owns_it(tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "export.md"
    with pytest.raises(FileNotFoundError):
        write_user_file(target, b"x")
    assert not (tmp_path / "no").exists()
    write_user_file(target, b"x", make_parents=True)
    assert target.read_bytes() == b"x"


def test_a_folder_is_never_written(tmp_path: Path) -> None:
    with pytest.raises(IsADirectoryError):
        write_user_file(tmp_path, b"x")


def test_new_files_get_the_mode_asked_for_and_old_files_keep_theirs(tmp_path: Path) -> None:
    old_mask = os.umask(0o027)
    try:
        assert user_mode() == 0o640
        write_user_file(tmp_path / "export.md", b"x", new_mode=user_mode())
        write_user_file(tmp_path / "private.toml", b"x")
    finally:
        os.umask(old_mask)
    assert stat.S_IMODE((tmp_path / "export.md").stat().st_mode) == 0o640
    assert stat.S_IMODE((tmp_path / "private.toml").stat().st_mode) == 0o600
    (tmp_path / "export.md").chmod(0o604)
    write_user_file(tmp_path / "export.md", b"y", new_mode=0o600)
    assert stat.S_IMODE((tmp_path / "export.md").stat().st_mode) == 0o604


# --- reading ----------------------------------------------------------------------------


def test_reading_a_fifo_is_an_error_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "config.toml"
    os.mkfifo(fifo)
    started = time.monotonic()
    with pytest.raises(NotRegularFileError, match="is a pipe"):
        read_regular_file(fifo, 1 << 20, "config file")
    assert time.monotonic() - started < 5  # did not wait for a writer (that would be for ever)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_reading_a_device_is_an_error(device: str) -> None:
    with pytest.raises(NotRegularFileError, match="is a device"):
        read_regular_file(Path(device), 1 << 20, "bookmarks file")


def test_reading_is_capped(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_bytes(b"x" * 1000)
    assert read_regular_file(path, 1000, "config file")[0] == b"x" * 1000
    with pytest.raises(OSError, match="too large") as caught:
        read_regular_file(path, 999, "config file")
    assert caught.value.errno == errno.EFBIG


def test_reading_returns_the_status_of_what_was_read(tmp_path: Path) -> None:
    path = tmp_path / "a.toml"
    path.write_bytes(b"abc")
    data, info = read_regular_file(path, 10, "config file")
    assert (data, info.st_size, info.st_ino) == (b"abc", 3, path.stat().st_ino)
