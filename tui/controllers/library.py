"""The reader's changes to the user's library without widgets: bookmarks (add, remove,
tags and notes), the reading state, triage decisions, undo, exports, and saving what is
pending.

Every change of reading state, decisions or bookmarks made here is an undo step (`u`).
Reading-state changes and decisions show at once and are saved by the face's worker (a
keystroke never waits for the disk). The face (the app) is told what to say and what
changed through `LibraryFace`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Protocol, TypeVar

from paperterm.index.library.bookmarks import (
    Bookmark,
    BookmarksError,
    BookmarksReadOnlyError,
    BookmarksSaveError,
    BookmarkStore,
)
from paperterm.index.library.filters import Filters, list_title
from paperterm.index.library.op_store import LibraryError, LibraryReadOnlyError, LibrarySaveError
from paperterm.index.library.reading import mark_read, mark_unread
from paperterm.index.text.display import one_line
from paperterm.index.user_files import user_mode, write_user_file
from paperterm.tui.controllers.notice import Severity
from paperterm.tui.view import Row

if TYPE_CHECKING:
    from paperterm.tui.state import ReaderState

#: What a bookmark dialog shows (the tags, the note; None: not bookmarked) and returns.
Shown = TypeVar("Shown")
Edit = TypeVar("Edit")


class LibraryFace(Protocol):
    """What the library's changes need of the reader."""

    def say(self, message: str, severity: Severity = ..., timeout: float | None = ...) -> None:
        """Tell the user (a toast)."""

    def bookmarks_changed(self) -> None:
        """Redraw what shows bookmarks."""

    def reading_changed(self) -> None:
        """Redraw what shows the reading state."""

    def save_reading(self) -> None:
        """Save the staged reading changes in a worker (`LibraryControl.save_reading`)."""


class ReadingSaved(NamedTuple):
    """A save of the reading state: why it failed, when that is news (None: it did not, or
    it failed before already), and whether it saved changes that had failed before."""

    failed: str | None
    recovered: bool


class LibraryControl:
    """The library changes the reader's keys make, for the state's stores and `data_dir`
    (where exports go)."""

    def __init__(self, state: ReaderState, data_dir: Path, face: LibraryFace) -> None:
        self.state = state
        self.data_dir = Path(data_dir)
        self.face = face

    # --- bookmarks -----------------------------------------------------------------------

    def change_bookmarks(
        self, change: Callable[[], object], done: str, undo: tuple[str, str] | None = None
    ) -> bool:
        """Make a change; say `done` (or the message `change` returns) or why it failed.
        `undo` is (paper id, what to call the change): it becomes an undo step."""
        face = self.face
        if undo is not None:
            paper_id, label = undo
            bookmarks, run = self.state.bookmarks, change
            change = lambda: self.state.undo.record(bookmarks, [paper_id], label, run)  # noqa: E731
        try:
            said = change()
        except BookmarksReadOnlyError as error:
            face.say(str(error), "error")
            return False
        except BookmarksSaveError as error:
            face.say(f"Not saved: {error.reason}. Kept and retried; see the status line", "warning")
            face.bookmarks_changed()
            return False
        except BookmarksError as error:
            face.say(str(error), "warning")
            face.bookmarks_changed()
            return False
        done = said if isinstance(said, str) else done
        if done:
            face.say(done)
        face.bookmarks_changed()
        return True

    def toggle_bookmark(self, row: Row) -> bool:
        bookmarks = self.state.bookmarks
        title = row.paper.title if row.paper is not None else row.missing_title
        if bookmarks.is_bookmarked(row.id):
            label = f"removed the bookmark of {one_line(title, 50)}"
            return self.change_bookmarks(
                lambda: bookmarks.remove(row.id), "Bookmark removed", (row.id, label)
            )
        label = f"bookmarked {one_line(title, 50)}"
        return self.change_bookmarks(
            lambda: bookmarks.add(row.id, title), "Bookmarked", (row.id, label)
        )

    def shown_mark(self, row: Row) -> Bookmark | None:
        return self.state.bookmarks.get(row.id)

    def save_edit(
        self,
        row: Row,
        shown: Shown | None,
        value: Edit,
        save: Callable[[BookmarkStore, str, str, Shown | None, Edit], str],
    ) -> bool:
        """Save what a bookmark dialog returned as changes relative to what it showed, so
        what others saved meanwhile stays (index/library/edits.py); saving bookmarks the
        paper if need be, and `save` says what really happened."""
        bookmarks = self.state.bookmarks
        title = row.paper.title if row.paper is not None else row.missing_title
        return self.change_bookmarks(
            lambda: save(bookmarks, row.id, title, shown, value),
            "",
            (row.id, f"edited the bookmark of {one_line(title, 50)}"),
        )

    def retry_bookmarks(self) -> None:
        """Retry bookmark and saved-search changes not saved yet; pick up what another
        paperterm (or the CLI) saved."""
        face, state = self.face, self.state
        bookmarks = state.bookmarks
        if bookmarks.pending and not bookmarks.read_only:
            try:
                bookmarks.save()
            except BookmarksError:
                pass  # still failing: the status line keeps saying so
            else:
                face.say("The bookmark changes that were not saved are saved now")
                face.bookmarks_changed()
        if state.reload_bookmarks():
            face.bookmarks_changed()

    def retry_searches(self) -> bool:
        """Retry saved-search changes not saved yet; whether they are saved now."""
        searches = self.state.searches
        if searches.unsaved and not searches.read_only:
            with contextlib.suppress(LibraryError):
                searches.save()
                self.face.say("The saved searches that were not saved are saved now")
                return True
        return False

    def save_pending(self) -> None:
        """Bookmarks and saved searches are saved on every change, the reading state by a
        worker: write what is still pending (a failed save, a change the worker has not
        reached)."""
        state = self.state
        for store in (state.bookmarks, state.decisions, state.reading, state.searches):
            if store.pending:
                with contextlib.suppress(LibraryError):
                    store.save()
        if state.unsaved_watches:
            with contextlib.suppress(LibraryError):
                state.watching.store.save()

    # --- reading state -------------------------------------------------------------------

    def change_reading(self, ids: list[str], read: bool, label: str) -> bool:
        """Mark papers read (or unread) now, as an undo step, and save them in a worker;
        False when the reading state is read-only (the user is told)."""
        store = self.state.reading
        ids = [paper_id for paper_id in dict.fromkeys(ids) if store.is_read(paper_id) != read]
        if not ids:
            return True
        op = mark_read(ids) if read else mark_unread(ids)
        try:
            self.state.undo.record(store, ids, label, lambda: store.stage(op))
        except LibraryReadOnlyError as error:
            self.face.say(str(error), "error")
            return False
        if read:
            self.state.read_here.extend(ids)
        self.face.reading_changed()
        self.face.save_reading()
        return True

    def decide(self, ids: list[str], decision: str | None, label: str) -> bool:
        """Give papers a triage decision (None clears it) now, marking them read, as one
        undo step, and save in a worker; False when the file is read-only (the user is
        told)."""
        from paperterm.index.library.decisions import decide  # not needed at start-up

        state = self.state
        unread = state.reading.unread(dict.fromkeys(ids))
        stores = (state.decisions, state.reading)
        try:
            state.undo.record_all(
                stores,
                ids,
                label,
                lambda: decide(state.decisions, state.reading, ids, decision, stage=True),
            )
        except LibraryReadOnlyError as error:
            self.face.say(str(error), "error")
            return False
        if decision is not None:
            state.read_here.extend(unread)
        self.face.reading_changed()
        self.face.save_reading()
        return True

    def toggle_read(self, row: Row) -> None:
        if row.paper is None:
            return
        read = not self.state.reading.is_read(row.id)
        title = one_line(row.paper.title, 50)
        self.change_reading([row.id], read, f"{'read' if read else 'unread'} {title}")

    def save_reading(self) -> ReadingSaved:
        """Save the staged decisions and reading changes (a worker's work). A failure is
        news once (the status line counts what waits, and the poll retries)."""
        state = self.state
        failing = state.reading.unsaved > 0 or state.decisions.unsaved > 0
        failure: LibraryError | None = None
        for store in (state.decisions, state.reading):  # a decision before its read mark
            try:
                store.save()  # each tried: one that fails counts as unsaved, and is retried
            except LibraryError as error:
                failure = failure or error
        if failure is not None:
            if failing:
                return ReadingSaved(None, False)
            reason = failure.reason if isinstance(failure, LibrarySaveError) else str(failure)
            return ReadingSaved(reason, False)
        return ReadingSaved(None, failing)

    def poll_reading(self) -> tuple[bool, bool]:
        """Retry reading changes and decisions not saved yet and pick up other processes'
        (a worker's work); whether what the screens show may have changed, and whether the
        retry saved."""
        state = self.state
        saved = False
        for store in (state.decisions, state.reading):
            if store.unsaved and not store.read_only:
                with contextlib.suppress(LibraryError):
                    store.save()
                    saved = True
        return state.reload_reading(), saved

    def undo(self) -> list[str]:
        """Take back the last change of reading state, decisions or bookmarks; the ids of
        the papers it changed (none when there was nothing to undo)."""
        face = self.face
        step = self.state.undo.pop()
        if step is None:
            face.say("Nothing to undo")
            return []
        done = f"Undone: {step.label}"
        ids = [key for key, _ in step.restore.entries]
        if step.store is self.state.bookmarks:
            self.change_bookmarks(lambda: step.store.apply(step.restore), done)
            return ids
        try:
            step.store.stage(step.restore)
            for store, restore in step.more:
                store.stage(restore)
        except LibraryReadOnlyError as error:
            face.say(str(error), "error")
            return []
        face.say(done)
        face.reading_changed()
        face.save_reading()
        return ids

    # --- exports -------------------------------------------------------------------------

    def export_bookmarks(self, kind: str) -> None:
        from paperterm.index.library.export import EXPORTERS
        from paperterm.index.library.export_items import bookmark_items

        export = EXPORTERS[kind]
        marks = self.state.bookmarks.bookmarks
        text = export.export(bookmark_items(marks, self.state.by_id))
        self.write_export(f"bookmarks-export.{export.suffix}", text, f"{len(marks)} bookmark(s)")

    def export_view(self, kind: str, rows: Sequence[Row], filters: Filters, query: str) -> None:
        """The papers in view, in their order, as a reading list (`paperterm export --view`
        writes the same)."""
        from paperterm.index.library.export import EXPORTERS
        from paperterm.index.library.export_items import ExportItem

        export = EXPORTERS[kind]
        marks = self.state.bookmarks.entries
        items = [ExportItem(row.id, row.paper, marks.get(row.id)) for row in rows]
        title = list_title(filters.view, query=query, unread=filters.unread_only)
        text = export.text(items, title)
        self.write_export(f"view-export.{export.suffix}", text, f"{len(items)} paper(s)")

    def write_export(self, name: str, text: str, what: str) -> None:
        path = self.data_dir / name
        try:
            # Through a symlink, into a FIFO someone reads (never waiting for one): see
            # index/user_files.py. The data dir is ours to create.
            write_user_file(
                path,
                text.encode("utf-8"),
                make_parents=True,
                new_mode=user_mode(),
                wait_for_reader=False,
            )
        except OSError as error:
            self.face.say(f"{path}: cannot write the export: {error.strerror or error}", "error")
            return
        self.face.say(f"Exported {what} to {path}", timeout=10)
