"""The files of a generation folder as a whole (store.py): their checksums, flushing them to
disk, linking a folder's files into another, and removing folders no longer used.

A generation of many small sources holds a file per source, so each of these walks the
folder with `os.scandir` and plain strings, not `pathlib`, and does per file only what that
file needs: an update of one source of many flushes only the files it wrote, and the
folders it drops are removed by a thread of their own, after the new generation is live.
"""

from __future__ import annotations

import os
import shutil
import stat
import threading
import zlib
from pathlib import Path

from paperterm.index.atomic import fsync_folder

_READ_CHUNK = 1 << 20
#: Files of a generation that no checksum covers (they change after it is published).
UNCHECKED = frozenset({"meta.json", "verified.json"})
#: The name a folder is given while a thread removes it (`remove_later`).
REMOVED_PREFIX = "removed-"

_removals: list[threading.Thread] = []
_removals_lock = threading.Lock()


def file_crc(path: Path) -> tuple[int, int]:
    """(size, CRC-32) of a file."""
    crc = 0
    size = 0
    with open(path, "rb") as handle:
        while chunk := handle.read(_READ_CHUNK):
            crc = zlib.crc32(chunk, crc)
            size += len(chunk)
    return size, crc & 0xFFFFFFFF


def checked_and_synced(path: Path) -> list[int]:
    """[size, CRC-32] of a finished file of a build, which is also made durable: what
    `Store.publish` does for each file, done early (`publish` keeps a checksum it is given;
    its flush of the folder then finds this file written already)."""
    with open(path, "rb+") as handle:
        os.fsync(handle.fileno())
    return list(file_crc(path))


def walk(folder: Path) -> tuple[list[str], list[str]]:
    """(sub-folders, files) under `folder`, as relative names with `/`, each sorted; a
    symbolic link is neither."""
    folders: list[str] = []
    files: list[str] = []
    pending = [""]
    while pending:
        relative = pending.pop()
        try:
            entries = list(os.scandir(os.path.join(folder, relative) if relative else folder))
        except OSError:  # gone meanwhile
            continue
        for entry in entries:
            name = f"{relative}/{entry.name}" if relative else entry.name
            try:
                if entry.is_dir(follow_symlinks=False):
                    folders.append(name)
                    pending.append(name)
                elif entry.is_file(follow_symlinks=False):
                    files.append(name)
            except OSError:
                continue
    folders.sort()
    files.sort()
    return folders, files


def files_by_inode(folder: Path) -> dict[tuple[int, int], list[str]]:
    """The files under `folder` but meta.json and verified.json (their names from it),
    grouped by the file they are (device and inode: hard links are one file)."""
    found: dict[tuple[int, int], list[str]] = {}
    for name in walk(folder)[1]:
        if name in UNCHECKED:
            continue
        try:
            info = os.stat(os.path.join(folder, name))
        except OSError:  # gone meanwhile: not a file of the build
            continue
        if stat.S_ISREG(info.st_mode):
            found.setdefault((info.st_dev, info.st_ino), []).append(name)
    return found


def checksums(folder: Path, skip: set[str]) -> dict[str, list[int]]:
    """[size, CRC-32] of every file under `folder` but meta.json, verified.json and `skip`
    (a file hard-linked twice, as tantivy's joined index links its parts' files, read once)."""
    found: dict[str, list[int]] = {}
    for names in files_by_inode(folder).values():
        wanted = [name for name in names if name not in skip]
        if wanted:
            checksum = list(file_crc(folder / wanted[0]))
            found.update(dict.fromkeys(wanted, checksum))
    return found


def link_tree(source: Path, target: Path, durable: set[str]) -> None:
    """`target` made of hard links to `source`'s files, then flushed (`fsync_tree`)."""
    folders, files = walk(source)
    target.mkdir(parents=True, exist_ok=True)
    for name in folders:
        os.makedirs(os.path.join(target, name), exist_ok=True)
    for name in files:
        os.link(os.path.join(source, name), os.path.join(target, name))
    fsync_tree(target, durable)


def fsync_tree(folder: Path, durable: set[str]) -> None:
    """Flush every folder, and every file but those in `durable` (relative names), to disk."""
    folders, files = walk(folder)
    for name in files:
        if name not in durable:
            descriptor = os.open(os.path.join(folder, name), os.O_RDWR)
            try:
                os.fsync(descriptor)
            finally:
                os.close(descriptor)
    for name in reversed(folders):
        fsync_folder(folder / name)
    fsync_folder(folder)


def remove_later(folders: list[Path]) -> None:
    """Remove these folders (whole) in a thread of their own: each is renamed at once (so
    nothing looks for it by its name again), then removed. One the process ends before
    removing is left under its new name, which `leftovers` finds."""
    doomed = []
    for folder in folders:
        target = folder
        if not folder.name.startswith(REMOVED_PREFIX):
            target = folder.with_name(REMOVED_PREFIX + folder.name)
            try:
                os.rename(folder, target)
            except OSError:
                target = folder
        doomed.append(target)
    if not doomed:
        return

    def remove() -> None:
        for folder in doomed:
            shutil.rmtree(folder, ignore_errors=True)

    thread = threading.Thread(target=remove, name="paperterm-removal", daemon=True)
    with _removals_lock:
        _removals.append(thread)
    thread.start()


def leftovers(root: Path) -> list[Path]:
    """The folders under `root` a removal was left of (`remove_later`)."""
    return sorted(root.glob(f"{REMOVED_PREFIX}*"))


def wait_for_removals() -> None:
    """Wait until the folders given to `remove_later` so far are removed."""
    with _removals_lock:
        threads, _removals[:] = list(_removals), []
    for thread in threads:
        thread.join()
