"""Reading and writing the user's own files (config, bookmarks, exports) without surprises.

Reading takes regular files only, up to a size cap: a config or bookmarks path that is a
pipe would block the start for ever and `/dev/zero` would never end, so both are one-line
errors instead.

Writing never replaces what it should write through:

- a regular file is replaced atomically (`atomic.atomic_write_bytes`), so a crash leaves the
  old or the new content, never a mix; an existing file keeps its permissions, a new one gets
  the mode the caller asks for (exports: the user's umask, like any file a shell creates);
- a symbolic link is followed and its target replaced; the link stays (dotfiles set-ups);
  the state files in the data dir are stricter (private_files.write_target_inside);
- anything else (a FIFO, a device such as /dev/null, a terminal) is written directly, as a
  shell redirect would; `/dev/stdout`, `/dev/fd/N` and `/proc/self/fd/N` write to the
  process's own descriptor, so `>> log` keeps appending;
- a missing parent folder is an error unless the caller owns the folder (`make_parents`).
"""

from __future__ import annotations

import errno
import os
import re
import stat
import sys
import threading
from pathlib import Path

from paperterm.index.atomic import atomic_write_bytes

_OWN_DESCRIPTOR = re.compile(rf"^/(?:dev/fd|proc/(?:self|{os.getpid()})/fd)/(\d+)$")
_STD_STREAMS = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}
_MAX_LINKS = 40  # as the kernel's own limit on a chain of symbolic links
_umask_lock = threading.Lock()


class NotRegularFileError(OSError):
    """A file that must be a regular file is a pipe, a device, a socket or a folder."""


def read_regular_file(path: Path, limit: int, what: str) -> tuple[bytes, os.stat_result]:
    """The bytes of `path`, which must be a regular file of at most `limit` bytes, and the
    file's status (taken from the same open file, so it describes these very bytes).

    Raises FileNotFoundError (and other OSErrors) as `open` does, `NotRegularFileError`
    for anything but a regular file, and OSError(EFBIG) for a file over the cap; the
    messages (`strerror`) read well after "path: ". `what` names the file in them
    ("config file", "bookmarks file").
    """
    # O_NONBLOCK: opening a FIFO with no writer would otherwise wait for one.
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFileError(
                errno.EINVAL, f"the {what} is {_kind(info.st_mode)}, not a regular file", str(path)
            )
        if info.st_size > limit:
            raise OSError(errno.EFBIG, _too_large(what, info.st_size, limit), str(path))
        chunks = []
        size = 0
        while True:  # a file that grows while it is read is still capped
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise OSError(errno.EFBIG, _too_large(what, size, limit), str(path))
        return b"".join(chunks), info
    finally:
        os.close(fd)


def _too_large(what: str, size: int, limit: int) -> str:
    return f"the {what} is too large ({size:,} bytes; at most {limit:,} are read)"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def user_mode() -> int:
    """The mode a new file gets from the user's umask (0o644 under the usual 022)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    with _umask_lock:  # the only portable way to read the umask is to set it
        mask = os.umask(0o077)
        os.umask(mask)
    return 0o666 & ~mask


def write_user_file(
    path: Path,
    data: bytes,
    *,
    backup: Path | None = None,
    make_parents: bool = False,
    new_mode: int | None = None,
    wait_for_reader: bool = True,
) -> None:
    """Write `data` to `path` by the rules in the module docstring; OSError on failure.

    `backup` keeps the previous version of a regular file there. `new_mode` is the mode of
    a file created here (None: readable by the user only). `wait_for_reader=False` makes a
    FIFO that nobody reads an error (ENXIO) instead of a wait, for callers that must not
    block (the reader's UI thread).
    """
    given = os.fspath(path)
    target, descriptor = resolve_target(given)
    if descriptor is not None:
        for stream in (sys.stdout, sys.stderr):  # what was printed before goes first
            if stream is not None:
                stream.flush()
        _write_all(descriptor, data)
        return
    try:
        info = os.stat(target)
    except FileNotFoundError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode):
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, "is a folder", given)
        _write_into(target, data, wait_for_reader)
        return
    folder = os.path.dirname(target) or "."
    if not make_parents and not os.path.isdir(folder):
        raise FileNotFoundError(errno.ENOENT, "the folder does not exist", folder)
    atomic_write_bytes(Path(target), data, backup=backup, new_mode=new_mode)


def resolve_target(path: str) -> tuple[str, int | None]:
    """Follow `path`'s chain of symbolic links: the file to write, or the process's own
    descriptor when the chain ends at one (/dev/stdout -> /proc/self/fd/1 -> ...)."""
    current = path
    for _ in range(_MAX_LINKS):
        if current in _STD_STREAMS:
            return current, _STD_STREAMS[current]
        match = _OWN_DESCRIPTOR.match(current)
        if match:
            return current, int(match.group(1))
        if not os.path.islink(current):
            return current, None
        link = os.readlink(current)
        current = os.path.normpath(os.path.join(os.path.dirname(current), link))
    raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), path)


def _write_into(target: str, data: bytes, wait_for_reader: bool) -> None:
    """Write into a FIFO or a device as `> target` would (no temporary file, no rename)."""
    flags = os.O_WRONLY | getattr(os, "O_CLOEXEC", 0)
    if not wait_for_reader:
        flags |= os.O_NONBLOCK
    try:
        fd = os.open(target, flags)
    except OSError as error:
        if error.errno == errno.ENXIO and not wait_for_reader:
            raise OSError(errno.ENXIO, "it is a pipe that no program is reading", target) from None
        raise
    try:
        if not wait_for_reader:
            os.set_blocking(fd, True)  # a reader is there: let it take its time
        _write_all(fd, data)
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
