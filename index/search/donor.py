"""Another set's index, which a set's first build takes what it can from. Adding a source to
the configuration makes a new set of sources (store.py); without a donor, its first build
would read and index everything again. Only a build needs this."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from paperterm.index.atomic import FileLock
from paperterm.index.search.generation_meta import Meta, SourceEntry
from paperterm.index.search.store import Store, last_used


@dataclass(slots=True)
class Donor:
    """Another set's live generation, locked while a build takes from it."""

    folder: Path
    meta: Meta
    lock: FileLock


def find_donor(store: Store, wanted: set[tuple[str, str | None]]) -> Donor | None:
    """The live generation of the most recently used other set of `store`'s engine that has
    some of the `wanted` files ((path, collection)), its build lock held (release it when
    done)."""
    try:
        others = [p for p in store.engine_root.iterdir() if p.is_dir() and p != store.root]
    except OSError:
        return None
    for root in sorted(others, key=last_used, reverse=True):
        found = store.read_meta(root)
        if found is None or not any(_file_of(e) in wanted for e in found[1].sources):
            continue
        lock = FileLock(root / "build.lock")
        if lock.try_acquire():  # not being built, nor removed (`Store.remove_old_sets`)
            if store.read_meta(root) == found:
                return Donor(*found, lock)
            lock.release()
    return None


def _file_of(entry: SourceEntry) -> tuple[str, str | None]:
    """A source file as sets share it: its path and collection (not its place in a set)."""
    return entry.path, entry.collection
