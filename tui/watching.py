"""The reader's watch list, without Textual: the config's `[watch]` lists and watch.toml
(index/library/watches.py), what `W` offers for a paper, and the marks of the papers shown
(tui/watch_marks.py).

Watching and unwatching save at once, as bookmarks do: a save that fails keeps the change
pending (counted on the status line, retried by the poll, written at exit). The config's
entries are shown watched like the others but only the config file can drop them.
"""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from paperterm.index.config import Config
from paperterm.index.library.op_store import LibraryError
from paperterm.index.library.watches import WatchStore, watch_key
from paperterm.index.planning.watch import WatchList
from paperterm.index.record_view import affiliation_of
from paperterm.index.text.display import one_line, safe_text

if TYPE_CHECKING:
    from paperterm.index.papers import Paper
    from paperterm.tui.watch_marks import WatchMarks


class WatchChoice(NamedTuple):
    """One line of `W`'s dialog: what it watches (`kind`, `value` as watches.py takes them),
    how it reads, whether it is watched now and whether the config watches it."""

    kind: str
    value: str
    label: str
    watched: bool = False
    configured: bool = False


class WatchState:
    """watch.toml's store, the config's list, and the marks of the papers (set by the
    screen's worker: `marks` is None until they are found, and again when they are stale)."""

    def __init__(self, data_dir: Path, config: Config) -> None:
        self.store = WatchStore.in_dir(data_dir)
        self.configured = WatchList(
            config.watch_authors, config.watch_words, config.watch_author_ids
        )
        self.problem = ""
        self.marks: WatchMarks | None = None
        #: Bumped by every change of the list: marks found for an older one are dropped.
        self.generation = 0
        self._loaded = False
        self._load_lock = threading.Lock()

    def load(self) -> None:
        """Read watch.toml once (a worker's work); a damaged file is a problem shown, and
        leaves the saved watches out until it is fixed."""
        with self._load_lock:
            if self._loaded:
                return
            self._loaded = True
            try:
                self.store.load()
            except LibraryError as error:
                self.problem = safe_text(str(error), keep_newlines=False)

    def retry(self) -> bool:
        """Save the changes a failed save left; whether they are saved now."""
        store = self.store
        if not store.unsaved or store.read_only:
            return False
        with contextlib.suppress(LibraryError):  # still failing: the status line says so
            store.save()
            return True
        return False

    def reload(self) -> bool:
        """Pick up another process's watches; True when the list may have changed (the
        marks are then stale)."""
        store = self.store
        if not self._loaded:
            return False
        before = self.problem
        try:
            changed = store.reload_if_changed()
        except LibraryError as error:
            self.problem = safe_text(str(error), keep_newlines=False)
            changed = True
        else:
            if changed:
                self.problem = ""
        if changed or before != self.problem:
            self.generation += 1
            return True
        return False

    def watch_list(self) -> WatchList:
        """The config's list, then watch.toml's."""
        return self.store.watch_list(self.configured)

    @property
    def unsaved(self) -> int:
        return self.store.unsaved

    @property
    def ids(self) -> list[str] | None:
        """The watched papers' ids (None until they are found)."""
        return self.marks.ids if self.marks is not None else None

    def is_configured(self, kind: str, value: str) -> bool:
        """Whether the config file watches this (the reader cannot unwatch it)."""
        held = {
            "author": self.configured.authors,
            "author_id": self.configured.author_ids,
            "word": self.configured.words,
        }[kind]
        key = watch_key(kind, value)
        return any(watch_key(kind, item) == key for item in held)

    def is_saved(self, kind: str, value: str) -> bool:
        return watch_key(kind, value) in self.store.entries

    def choices(self, paper: Paper, query_words: str) -> list[WatchChoice]:
        """What `W` offers for `paper`: the words of the search box first when there are
        some, then each author (by id where the data has one), with the affiliation."""
        out: list[WatchChoice] = []
        words = " ".join(query_words.split())
        if words:
            out.append(self._choice("word", words, f'the words "{one_line(words, 60)}"'))
        for position, name in enumerate(paper.authors):
            author_id = paper.author_ids[position] if position < len(paper.author_ids) else ""
            affiliation = affiliation_of(paper, position)
            shown = one_line(name, 60)
            if affiliation.strip():
                shown += f" ({one_line(affiliation, 60)})"
            by_id = bool(author_id.strip())
            kind, value = ("author_id", author_id.strip()) if by_id else ("author", name)
            choice = self._choice(kind, value, shown)
            if by_id and not choice.watched:  # watched by name (the config, the CLI) counts
                named = self._choice("author", name, shown)
                choice = named if named.watched else choice
            out.append(choice)
        return out

    def _choice(self, kind: str, value: str, label: str) -> WatchChoice:
        configured = self.is_configured(kind, value)
        watched = configured or self.is_saved(kind, value)
        return WatchChoice(kind, value, label, watched, configured)

    def toggle(self, choice: WatchChoice) -> str:
        """Watch or unwatch `choice`; what to tell the user. Raises `LibrarySaveError` (the
        change stays pending and is retried) and `LibraryError` (not changed)."""
        self.generation += 1
        if choice.watched:
            self.store.unwatch(choice.kind, choice.value)
            return f"No longer watching {choice.label}"
        self.store.watch(choice.kind, choice.value)
        return f"Watching {choice.label}"
