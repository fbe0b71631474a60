"""What every sub-command shares: the context (config, session, the index opened on
demand, output helpers) and the errors that become exit statuses."""

from __future__ import annotations

import codecs
import io
import json
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, TextIO, TypeVar, Union

from paperterm.index.config import (
    Config,
    load_config,
    resolve_config_path,
    resolve_data_dir,
    resolve_engine,
)
from paperterm.index.library.bookmarks import Bookmark, BookmarkStore
from paperterm.index.library.op_store import LibraryError, LibrarySaveError, OpLogStore
from paperterm.index.library.reading import ReadingStore
from paperterm.index.library.searches import SavedSearch, SearchesStore, all_searches
from paperterm.index.papers import Paper
from paperterm.index.session import Session
from paperterm.index.text.display import one_line, safe_text
from paperterm.tui.cli.escape import escape_json_for_terminal

if TYPE_CHECKING:
    import argparse

    from paperterm.index.search.open_index import OpenIndex

#: What the command line gave: argparse's namespace, or for the reader's options alone (read
#: without argparse: `parse_arguments`) a SimpleNamespace with the same attributes.
Arguments = Union["argparse.Namespace", SimpleNamespace]

USAGE_ERROR = 2
FAILURE = 1


class UsageError(Exception):
    """Bad usage or input: exit status 2."""


class BookmarkCommandError(Exception):
    """A bookmarks command failed for a reason the user can fix (exit status 2). Here, not
    in bookmarks.py, which the reader's start does without (main.py catches it)."""


class CommandFailed(Exception):
    """The command could not do what it was asked (a full disk, an unwritable index, a
    closed stdout): exit status 1."""


class ClosedStdout(io.StringIO):
    """Stands for a stdout that was closed when paperterm started (`>&-`): what a command
    writes to it fails as one line (exit 1), after the command did its work, as `mkdir -v`
    does. (Warnings to a closed stderr are simply lost: there is nowhere to say them.)"""

    def write(self, text: str) -> int:
        raise CommandFailed("paperterm: stdout is closed: the output was not written")


class Context:
    """What a sub-command needs: config, session, and the index opened on demand."""

    def __init__(self, args: Arguments, out: TextIO | None, err: TextIO | None) -> None:
        self.args = args
        self.out: TextIO = out if out is not None else ClosedStdout()
        self.err: TextIO | None = err
        config_path, must_exist = resolve_config_path(getattr(args, "config", None))
        self.config: Config = load_config(config_path, must_exist)
        self.data_dir = resolve_data_dir(getattr(args, "data_dir", None), self.config)
        self.config.engine = resolve_engine(getattr(args, "engine", None), self.config)
        sources = [Path(p).expanduser() for p in getattr(args, "source", None) or []]
        self.session = Session.create(self.data_dir, sources, self.config)
        self._opened: OpenIndex | None = None

    def open(self, rebuild: bool = False) -> OpenIndex:
        if self._opened is None or rebuild:
            bar = _ProgressBar(self.err) if self.err is not None and self.err.isatty() else None
            self._opened, problems = self.session.open(
                rebuild=rebuild,
                progress=None if bar is None else bar.papers,
                read_bytes=None if bar is None else bar.bytes,
            )
            if bar is not None:
                bar.end()
            for line in dict.fromkeys([*problems, *self.session.warnings]):
                self.warn(line)
        return self._opened

    def bookmarks(self) -> dict[str, Bookmark]:
        """The bookmarks, by paper id (for `tag:` in a query); a damaged file is a usage
        error, as in the bookmark commands."""
        return dict(loaded(BookmarkStore.in_dir(self.data_dir)).entries)

    def reading(self) -> ReadingStore:
        """The reading state, loaded; a damaged file is a usage error (exit 2)."""
        return loaded(ReadingStore.in_dir(self.data_dir))

    def saved_searches(self) -> list[SavedSearch]:
        """The config's `[[searches]]`, then those saved from the reader."""
        return all_searches(self.config.searches, loaded(SearchesStore.in_dir(self.data_dir)))

    def warn(self, message: str) -> None:
        if self.err is not None:  # started with stderr closed (`2>&-`): nowhere to say it
            print(f"paperterm: {safe_text(message, keep_newlines=False)}", file=self.err)

    @property
    def ascii_json(self) -> bool:
        """Whether JSON must be pure ASCII: stdout's encoding cannot write every character
        (`LC_ALL=C`, `PYTHONIOENCODING=latin-1`), so non-ASCII is written as \\u escapes."""
        encoding = getattr(self.out, "encoding", None) or "utf-8"
        try:
            return not codecs.lookup(encoding).name.startswith("utf-")
        except LookupError:
            return True

    def json_text(self, text: str) -> str:
        """JSON text as printed: inert on a terminal, and in stdout's encoding."""
        return escape_json_for_terminal(text, ascii_only=self.ascii_json)

    def emit_json(self, value: object, indent: int | None = None) -> None:
        self.out.write(self.json_text(json.dumps(value, ensure_ascii=False, indent=indent)) + "\n")

    def line(self, text: str = "") -> None:
        self.out.write(safe_text(text) + "\n")

    def paper(self, key: str) -> Paper:
        papers = self.open().papers
        by_id = {paper.id: paper for paper in papers}
        if key in by_id:
            return by_id[key]
        matches = [paper for paper in papers if paper.id.startswith(key)] if key else []
        if len(matches) == 1:
            return matches[0]
        shown = safe_text(key, keep_newlines=False)
        if matches:
            raise UsageError(f"paperterm: {shown!r} matches {len(matches)} papers; give more")
        raise UsageError(f"paperterm: no paper with id {shown!r}")


def field(value: object) -> str:
    """A record's value as plain-text output prints it: on one line, its line breaks,
    control characters, escape sequences and bidi controls folded or removed, so that a
    source cannot add a line of its own (a fake `Id:`)."""
    return one_line(str(value))


Store = TypeVar("Store", bound=OpLogStore[Any])


def loaded(store: Store) -> Store:
    """`store`, loaded; a damaged or unreadable file is a usage error (exit 2)."""
    try:
        store.load()
    except LibraryError as error:
        raise UsageError(str(error)) from None
    return store


def save_change(change: Callable[[], object]) -> None:
    """Make a change; a save that fails is a failure of this one command (exit 1): the
    change is not kept anywhere, so the message promises no retry. A damaged file is bad
    input (exit 2)."""
    try:
        change()
    except LibrarySaveError as error:
        raise CommandFailed(f"{error}; the change was not saved") from None
    except LibraryError as error:
        raise UsageError(str(error)) from None


class _ProgressBar:
    """A one-line progress bar on stderr, shown only once a build takes a moment: papers
    read of about how many, and megabytes of the source files read (a large JSON Lines
    file moves the bar while it is read)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.started = time.perf_counter()
        self.shown = False
        self.done = self.total = self.read = self.size = 0

    def papers(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        self._draw()

    def bytes(self, read: int, size: int) -> None:
        self.read, self.size = read, size
        self._draw()

    def end(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()

    def _draw(self) -> None:
        if not self.shown and time.perf_counter() - self.started < 0.3:
            return
        self.shown = True
        width = 30
        if self.size:
            filled = width * self.read // max(self.size, 1)
        else:
            filled = width * self.done // max(self.total, 1)
        text = f"\rindexing [{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}"
        if self.size:
            text += f" ({self.read / 1e6:.1f} of {self.size / 1e6:.1f} MB)"
        self.stream.write(text + "\x1b[K")
        self.stream.flush()
