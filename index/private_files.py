"""The data folder is the user's alone: what paperterm creates there is never group- or
world-writable whatever the umask, and what another user could change is refused.

- `make_private_dir` creates folders 0700 (mkdir's mode is only ever narrowed by the
  umask, so this holds under `umask 000`); files are created 0600 (atomic.py, the locks);
  a finished index is narrowed to 0700/0600 as a whole (`make_tree_private`), since the
  search engines create their own files with the umask's modes.
- `check_private` refuses a data folder, index folder or state file that another user owns
  or that the group or others can write, with a one-line fix (`chmod go-w PATH`).
- `write_target_inside` refuses to write through a symbolic link in the data folder that
  leads outside it (or nowhere that resolves inside it): such a link is left as it is.

The log folder (crash logs, changes a hung-up reader could not save) is made the same way
(`open_private_log`). Exports are not: they are the user's to share and get the umask's
mode.
"""

from __future__ import annotations

import errno
import os
import shlex
import stat
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600

#: The user whose files these must be; tests stand in another uid.
current_uid: Callable[[], int] = getattr(os, "geteuid", lambda: -1)


class NotPrivateError(PermissionError):
    """A file or folder another user owns or can write; `strerror` says how to fix it."""


def make_private_dir(folder: Path) -> None:
    """Create `folder` and its missing parents, each 0700; an existing folder is left as
    it is (`check_private` judges it)."""
    missing: list[Path] = []
    current = Path(folder)
    while not current.is_dir():
        missing.append(current)
        if current.parent == current:
            break
        current = current.parent
    for path in reversed(missing):
        try:
            os.mkdir(path, PRIVATE_DIR_MODE)
        except FileExistsError:
            if not path.is_dir():
                raise
        else:
            os.chmod(path, PRIVATE_DIR_MODE)  # on a system that sets more than mkdir asks


def open_private_log(path: Path) -> TextIO:
    """`path` opened to append text, created 0600 in a folder made as `make_private_dir`
    does; a symbolic link in its place is not followed (OSError)."""
    make_private_dir(path.parent)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0), PRIVATE_FILE_MODE)
    return os.fdopen(fd, "a", encoding="utf-8")


def check_private(path: Path, what: str, info: os.stat_result | None = None) -> None:
    """Raise `NotPrivateError` when `path` (its status `info`, else stat'ed; a path that
    cannot exist passes) belongs to another user or can be written by the group or others. A folder
    with the sticky bit (like /tmp) is still refused: others may add files to it."""
    if info is None:
        try:
            info = os.stat(path)
        except (FileNotFoundError, NotADirectoryError):
            return
    uid = current_uid()
    quoted = shlex.quote(str(path))
    if uid >= 0 and info.st_uid != uid:
        raise NotPrivateError(
            errno.EPERM,
            f"the {what} belongs to another user (uid {info.st_uid}); use your own, or take "
            f"it over with: chown {uid} {quoted}",
            str(path),
        )
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise NotPrivateError(
            errno.EPERM,
            f"the {what} can be changed by other users (mode {stat.S_IMODE(info.st_mode):o}); "
            f"fix it with: chmod go-w {quoted}",
            str(path),
        )


def make_tree_private(folder: Path) -> None:
    """Take the group's and others' permissions off `folder` and everything in it (links
    are not followed)."""
    for root, folders, files in os.walk(folder):
        for name in (*folders, *files):
            _narrow(os.path.join(root, name))
    _narrow(os.fspath(folder))


def _narrow(path: str) -> None:
    info = os.lstat(path)
    if not stat.S_ISLNK(info.st_mode) and info.st_mode & 0o077:
        os.chmod(path, stat.S_IMODE(info.st_mode) & ~0o077)


def write_target_inside(path: Path, folder: Path) -> None:
    """Raise PermissionError when writing `path` would follow a symbolic link to a place
    outside `folder` (a dangling link counts by where it leads)."""
    if not os.path.islink(path):
        return
    target = os.path.realpath(path)
    inside = os.path.realpath(folder)
    if os.path.commonpath([target, inside]) != inside:
        raise PermissionError(
            errno.EPERM,
            f"it is a symbolic link to {target}, outside {inside}: paperterm does not write "
            "through it (replace the link with a file to save here)",
            str(path),
        )
