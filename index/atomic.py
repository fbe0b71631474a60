"""Crash-safe file replacement (text, bytes, JSON) and the advisory inter-process lock.

A save writes a temporary file next to the target, flushes and fsyncs it, keeps the old
version as a backup (a hard link, so it is never a half-written copy), renames the temporary
file over the target and fsyncs the folder. A process killed at any moment therefore leaves
either the old or the new file in place, never a mix.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from types import TracebackType

from paperterm.index.private_files import make_private_dir

try:
    import fcntl
except ModuleNotFoundError:  # Windows: no advisory locks; the lock below becomes a no-op.
    fcntl = None  # type: ignore[assignment]

FileStamp = tuple[int, int, int]
"""(mtime_ns, size, inode): cheap to take, and changes whenever the file is replaced."""


def file_stamp(path: Path) -> FileStamp | None:
    """The stamp of `path`, or None when it does not exist."""
    try:
        return stamp_of(os.stat(path))
    except FileNotFoundError:
        return None


def stamp_of(st: os.stat_result) -> FileStamp:
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def _temp_prefix(path: Path) -> str:
    return f".{path.name}."


def remove_stale_temp_files(path: Path) -> None:
    """Delete temporary files a killed writer of `path` (or of its backup) left behind.

    Call it only while holding the lock every writer of `path` takes: then no temporary file
    can belong to a save still in progress.
    """
    for stale in path.parent.glob(f"{_temp_prefix(path)}*.tmp"):
        stale.unlink(missing_ok=True)


def atomic_write_text(path: Path, text: str, *, backup: Path | None = None) -> None:
    """Replace `path` with `text` (UTF-8) so that a crash never leaves a partial file.

    When `backup` is given and `path` exists, the old version is kept there. On failure
    (disk full, permission denied, ...) the OSError propagates and `path` is untouched.
    """
    atomic_write_bytes(path, text.encode("utf-8"), backup=backup)


def atomic_write_bytes(
    path: Path, data: bytes, *, backup: Path | None = None, new_mode: int | None = None
) -> None:
    """`atomic_write_text` for bytes. A new file gets `new_mode` (None: 0600, mkstemp's);
    an existing one keeps its mode. A missing folder is created 0700."""
    folder = path.parent
    make_private_dir(folder)
    fd, tmp_name = tempfile.mkstemp(dir=folder, prefix=_temp_prefix(path), suffix=".tmp")
    tmp = Path(tmp_name)
    try:
        try:
            _copy_mode(path, fd, new_mode)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
        if backup is not None:
            _keep_backup(path, backup)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_folder(folder)


def write_json(path: Path, value: object) -> None:
    """`value` as JSON in UTF-8, atomically. A lone surrogate (from a file name that is not
    UTF-8, or a `\\ud800` in a JSON source) has no UTF-8 form: then every non-ASCII
    character is written as a `\\u` escape instead, which reads back the same."""
    try:
        atomic_write_text(path, json.dumps(value, ensure_ascii=False))
    except UnicodeEncodeError:
        atomic_write_text(path, json.dumps(value))


def _copy_mode(path: Path, fd: int, new_mode: int | None) -> None:
    """Give the new file the old one's permissions (mkstemp creates it 0600)."""
    try:
        mode = os.stat(path).st_mode & 0o777
    except FileNotFoundError:
        if new_mode is None:
            return
        mode = new_mode
    os.fchmod(fd, mode)


def _keep_backup(path: Path, backup: Path) -> None:
    """Make `backup` the current content of `path`, atomically, if `path` exists."""
    if not path.exists():
        return
    tmp = backup.parent / f"{_temp_prefix(path)}{os.urandom(8).hex()}.tmp"
    try:
        try:
            os.link(path, tmp)
        except OSError as error:
            if error.errno not in (errno.EPERM, errno.EXDEV, errno.ENOTSUP, errno.EMLINK):
                raise
            shutil.copy2(path, tmp)  # the file system has no hard links
        os.replace(tmp, backup)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def fsync_folder(folder: Path) -> None:
    """Make a rename in `folder` durable (a no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as error:
        if error.errno not in (errno.EINVAL, errno.EBADF, errno.ENOTSUP):
            raise
    finally:
        os.close(fd)


class LockTimeoutError(TimeoutError):
    """Another process held the lock for longer than the timeout."""


class FileLock:
    """An exclusive `flock` on a separate lock file, released on exit or when the process dies
    (so a lock file a killed process left behind never blocks anyone).

    `with FileLock(path, timeout):` waits up to `timeout` seconds for it (None: as long as
    it takes) and then raises `LockTimeoutError`; `try_acquire()` takes it only if it is free
    now. Not re-entrant: guard nested use within one process with a threading lock. Where
    `fcntl` is missing (Windows) it does nothing.
    """

    def __init__(self, path: Path, timeout: float | None = 10.0) -> None:
        self.path = path
        self.timeout = timeout
        self._fd: int | None = None

    def try_acquire(self) -> bool:
        """Take the lock if no other process holds it; True when taken."""
        if fcntl is None:
            return True
        fd = self._open()
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        return True

    def acquire(self) -> None:
        """Wait for the lock (up to the timeout)."""
        if fcntl is None:
            return
        if self.timeout is None:
            fd = self._open()
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
            except BaseException:
                os.close(fd)
                raise
            self._fd = fd
            return
        deadline = time.monotonic() + self.timeout
        pause = 0.001
        while not self.try_acquire():
            if time.monotonic() >= deadline:
                raise LockTimeoutError(
                    errno.ETIMEDOUT,
                    f"another process has held the lock for {self.timeout:g} s",
                    str(self.path),
                )
            time.sleep(pause)
            pause = min(pause * 2, 0.02)

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)  # closing the only descriptor releases the flock

    def _open(self) -> int:
        """The lock file, created 0600; a symbolic link in its place is never followed
        (ELOOP), so a planted link cannot make it create a file elsewhere."""
        make_private_dir(self.path.parent)
        return os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)

    def __enter__(self) -> FileLock:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()
