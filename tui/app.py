"""The reader: a Textual app over a `Session`.

Start-up does no heavy work on the UI thread: a worker opens the index (or, on first launch,
parses the corpus, posts the papers so the list shows at once, then builds the index with
progress messages). Searches and "related" look-ups run in thread workers that share one
`Searcher` under a lock; their results come back as messages and stale ones are dropped.

The app and its screens meet in three places, each typed: the screens read a `ReaderState`
(tui/state.py) that the app owns and hands them when it makes them; the app calls the
methods every `PaperScreen` has (`current_row`, `bookmarks_changed`, `reading_changed`,
`show_next_unread`) and those of its `MainScreen`; the screens tell the app things by message
(`MainScreen.Ready`, `PaperScreen.MarkRead`, `PaperScreen.WorkerFailed`). The screens never
import this module.

Reading-state changes show at once and are saved by a thread worker (a keystroke never waits
for the disk); the file is polled for other processes' changes by a worker too. Every change
of reading state or bookmarks made here is an undo step (`u`).
"""

from __future__ import annotations

import contextlib
import difflib
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from textual import events, work
from textual.app import App, SystemCommand
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.screen import ModalScreen, Screen
from textual.theme import BUILTIN_THEMES
from textual.worker import Worker, WorkerState

from paperterm.index.config import Config
from paperterm.index.library.bookmarks import (
    Bookmark,
    BookmarksError,
    BookmarksReadOnlyError,
    BookmarksSaveError,
    BookmarkStore,
)
from paperterm.index.library.filters import ViewKey, list_title
from paperterm.index.library.op_store import LibraryError, LibraryReadOnlyError, LibrarySaveError
from paperterm.index.library.place import save_place
from paperterm.index.library.reading import mark_read, mark_unread
from paperterm.index.library.sorting import SORTS, SortKeys
from paperterm.index.links import split_links
from paperterm.index.papers import Paper
from paperterm.index.search.records import PaperList
from paperterm.index.search.store import BuildCancelled
from paperterm.index.session import Session
from paperterm.index.text.display import one_line, safe_text
from paperterm.index.user_files import user_mode, write_user_file
from paperterm.tui import collector, keys
from paperterm.tui.notices import PREVIEW_LIMIT, capped, opened, url_too_long
from paperterm.tui.screens.base import PaperScreen
from paperterm.tui.screens.main import MainScreen
from paperterm.tui.state import ReaderState, Timing
from paperterm.tui.terminal import repaint_on_resume
from paperterm.tui.view import Row, can_open_browser, link_or_citation

# The dialogs, the exports and the key contexts are imported where they are used: none is
# needed for the first frame, and together they are ~15 ms of the reader's start
# (tests/tui/test_reader_startup.py checks that the first frame does without them).
if TYPE_CHECKING:
    from paperterm.index.search.open_index import OpenIndex
    from paperterm.index.search.searcher import Searcher
    from paperterm.tui.clipboard import Clipboard

UrlOpener = Callable[[str], object]
#: While a first build reads sources, the list takes in what was read at most this often
#: (seconds): each time it is the whole list so far, 50,000 papers at the end.
READ_PAPERS_EVERY = 0.25
#: Below this height (or with the panes stacked) the window is small: one toast at a time.
SMALL_HEIGHT = 30
#: Searched once each when the index is ready (`Searcher.warm_typing`): every word typed
#: begins with one of them, and its first key is the costliest.
TYPING_WARM_LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: Seconds a toast stays in a small window (twice as long for warnings and errors).
SMALL_TIMEOUT = 3.0
#: What a bookmark dialog shows (the tags, the note; None: not bookmarked) and returns.
Shown = TypeVar("Shown")
Edit = TypeVar("Edit")


# --- messages from the index worker -----------------------------------------------------------


class CorpusLoaded(Message):
    """The papers, shown at once: while the index is being built (first launch) or while
    the searcher is being set up."""

    def __init__(self, papers: Sequence[Paper], problems: list[str], building: bool) -> None:
        super().__init__()
        self.papers = papers
        self.problems = problems
        self.building = building


class PartialIndex(Message):
    """While the first build runs: an index of the papers indexed so far, to search."""

    def __init__(self, opened: OpenIndex, searcher: Searcher) -> None:
        super().__init__()
        self.opened = opened
        self.searcher = searcher


class IndexProgress(Message):
    def __init__(self, done: int, total: int) -> None:
        super().__init__()
        self.done = done
        self.total = total


class IndexBytes(Message):
    """How much of the source files a build has read (bytes read, bytes to read)."""

    def __init__(self, read: int, size: int) -> None:
        super().__init__()
        self.read = read
        self.size = size


class ReadingPolled(Message):
    """The reading-state worker's poll: whether what the screens show may have changed,
    and whether changes that had failed to save are saved now."""

    def __init__(self, changed: bool, saved: bool) -> None:
        super().__init__()
        self.changed = changed
        self.saved = saved


class ReadingSaveFailed(Message):
    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


class LibraryLoaded(Message):
    """The reading state, the saved searches and where the reader was are read."""


class SortKeysReady(Message):
    def __init__(self, keys: SortKeys) -> None:
        super().__init__()
        self.keys = keys


class IndexReady(Message):
    def __init__(self, opened: OpenIndex, searcher: Searcher, warnings: list[str]) -> None:
        super().__init__()
        self.opened = opened
        self.searcher = searcher
        self.warnings = warnings


class IndexUpdating(Message):
    """A source changed: the index as built before, searched while the update runs."""

    def __init__(self, opened: OpenIndex, searcher: Searcher) -> None:
        super().__init__()
        self.opened = opened
        self.searcher = searcher


class _Throttle:
    """`due()` is true at most once per `every` seconds (and the first time)."""

    def __init__(self, every: float) -> None:
        self.every = every
        self.last = -every

    def due(self) -> bool:
        now = time.monotonic()
        if now - self.last < self.every:
            return False
        self.last = now
        return True


# --- the app ----------------------------------------------------------------------------------


class ReaderApp(App[int]):
    CSS_PATH = "app.tcss"
    TITLE = "paperterm"
    BINDINGS = keys.scope_bindings("app")

    def __init__(
        self,
        session: Session,
        config: Config,
        keymap: Mapping[str, str],
        *,
        timing: Timing | None = None,
        url_opener: UrlOpener | None = None,
        environ: Mapping[str, str] | None = None,
        copier: Clipboard | None = None,
    ) -> None:
        """`url_opener` opens a link instead of `webbrowser` (tests); `environ` stands for
        `os.environ` where the reader decides whether a local browser would be seen and how
        to reach the clipboard; `copier` replaces its routes to the clipboard (tests)."""
        super().__init__()
        self.session = session
        self.url_opener = url_opener
        self.environ = environ
        self._copier = copier
        if config.theme:
            self.theme = config.theme
        self.set_keymap(keymap)
        self.state = ReaderState(
            config,
            BookmarkStore.in_dir(session.data_dir),
            keys.KeyLabels(keymap, self.get_key_display),
            timing or Timing.from_config(config),
        )
        self._stop = threading.Event()
        # A built index's rows (a stat per source, a few small reads: ~1 ms at 2,600
        # papers, ~6 ms at 50,000) are read before the first frame, which then shows them:
        # a worker would have drawn a "Loading" frame first and the list ~50 ms later.
        papers = session.open_papers()
        if papers is not None:
            self.state.corpus_loaded(papers, [], building=False)

    # --- start and stop ------------------------------------------------------------------

    def get_default_screen(self) -> MainScreen:
        return MainScreen(self.state)

    @property
    def main(self) -> MainScreen:
        """The main screen (the bottom of the screen stack)."""
        screen = self.screen_stack[0]
        assert isinstance(screen, MainScreen)
        return screen

    def on_mount(self) -> None:
        self.set_class(not self.state.config.footer, "-no-footer")
        self._small(self.size.width, self.size.height)
        poll = self.state.timing.bookmark_poll
        if poll is not None:
            self.set_interval(poll, self.poll_bookmarks)
            self.set_interval(poll, self.poll_reading)
        repaint_on_resume(self)

    def on_resize(self, event: events.Resize) -> None:
        self._small(event.size.width, event.size.height)

    def _small(self, width: int, height: int) -> None:
        """Small: the panes are stacked, or the window is short (see `say`)."""
        small = width < self.state.config.side_by_side_min_width or height < SMALL_HEIGHT
        self.set_class(small, "-small")

    def on_unmount(self) -> None:
        self._stop.set()

    def on_key(self, event: events.Key) -> None:
        # Runs after the bindings had their chance (App._on_key): a key no binding took.
        screen = self.screen
        if isinstance(screen, MainScreen):
            screen.take_stray_key(event)

    def shut_down(self) -> None:
        """Quit cleanly (the `q` key, SIGTERM): stop the build, save where the reader is and
        what is pending (tui/lifecycle.py retries and reports what is still pending once the
        screen is gone)."""
        self._stop.set()
        self.save_place()
        self.save_pending()
        self.exit(0)

    async def action_quit(self) -> None:
        self.shut_down()

    def save_pending(self) -> None:
        """Bookmarks and saved searches are saved on every change, the reading state by a
        worker: write what is still pending (a failed save, a change the worker has not
        reached)."""
        for store in (self.state.bookmarks, self.state.reading, self.state.searches):
            if store.pending:
                with contextlib.suppress(LibraryError):
                    store.save()

    def save_place(self) -> None:
        """Remember where the reader is, for the next start (best effort: it is ours, and
        nothing the user made is in it)."""
        if self.state.papers:
            with contextlib.suppress(OSError):
                place = self.main.place()._replace(sources=self.session.sources_key)
                save_place(self.session.data_dir, place)

    def on_main_screen_ready(self, message: MainScreen.Ready) -> None:
        """Read the bookmarks and start the index worker once the main screen's widgets
        are mounted, since the worker's messages update them. The first frame is drawn:
        the garbage collector runs again (tui/collector.py)."""
        collector.resume()
        self.state.load_bookmarks()
        self.load_index()

    # --- the index -----------------------------------------------------------------------

    @work(thread=True, exit_on_error=False, group="index", name="open index")
    def load_index(self) -> None:
        # The reading state and where the reader was (a big reading.toml takes a while to
        # parse: not on the UI thread); a built index's rows were read before the first frame.
        self.state.load_library(self.session.sources_key)
        papers = self.state.papers if isinstance(self.state.papers, PaperList) else None
        if papers is not None:
            # The rows' ids (~40 ms at 50,000) and the id -> place table (~0.1-0.2 s of CPU
            # at 500,000), which the unread count and the cursor's place need next, made
            # here rather than on the UI thread.
            papers.warm()
        self.post_message(LibraryLoaded())
        opened = None
        if papers is not None:
            opened = self.session.open_existing(papers)
        if opened is None:
            updated = self._update() if papers is None else None
            opened = updated if updated is not None else self._build()
            if isinstance(opened.papers, PaperList):
                opened.papers.warm()  # a row store of the build's own: its table here too
        # Whoosh is imported here, off the UI thread and after the list is on screen.
        from paperterm.index.search.searcher import Searcher

        searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
        self.post_message(IndexReady(opened, searcher, list(self.session.warnings)))
        with self.state.search_lock:
            searcher.warm()  # the id -> document table, off the UI thread
        # Each letter as the first key of a word, a letter at a time (a search typed
        # meanwhile waits for one letter at most: ~25 ms at 50,000 papers, 0.35 s in all).
        # Each letter's results are kept: typed as a search's first key, it is answered
        # from them.
        limit = self.state.config.search_limit
        for letter in TYPING_WARM_LETTERS:
            if self._stop.is_set():
                return
            with self.state.search_lock:
                searcher.warm_typing(letter, limit)
        keys = SortKeys(opened.papers)
        # So that `s` onto title or newest is a pass, not a sort: ~1.8 s of CPU at 500,000
        # papers, a step at a time, each while no key is being typed (keys typed meanwhile
        # waited for the interpreter's lock behind it: 50-150 ms instead of 30).
        for _ in keys.prepare_steps():
            if not self._wait_for_quiet():
                return
        self.post_message(SortKeysReady(keys))

    def _wait_for_quiet(self) -> bool:
        """Wait until no key was typed into the search box for `timing.quiet`; False if the
        reader is ending."""
        timing = self.state.timing
        while not self._stop.is_set():
            idle = timing.clock() - self.state.typed_at
            if idle >= timing.quiet:
                return True
            self._stop.wait(timing.quiet - idle)
        return False

    def _update(self) -> OpenIndex | None:
        """A source changed since the index was built: the old index is listed and searched
        while the update runs, then the new one (None: no old index to show meanwhile)."""
        previous = self.session.open_previous()
        if previous is None:
            return None
        from paperterm.index.search.listener import Listener
        from paperterm.index.search.searcher import Searcher

        self.post_message(CorpusLoaded(previous.papers, self.session.problems, building=False))
        searcher = Searcher(previous.ix, previous.papers, previous.vocabulary())
        self.post_message(IndexUpdating(previous, searcher))
        listener = Listener(
            progress=self._post_progress, read_bytes=self._post_bytes, cancelled=self._stop.is_set
        )
        return self.session.build(listener=listener)

    def _build(self) -> OpenIndex:
        """The first launch (or a source changed): build, showing the papers as they are
        read, and searching what is indexed so far."""
        from paperterm.index.search.listener import Listener  # a build's only

        problems = self.session.problems
        self.post_message(CorpusLoaded([], problems, building=True))
        shown = _Throttle(READ_PAPERS_EVERY)

        def papers(read: list[Paper]) -> None:
            if shown.due():
                self.post_message(CorpusLoaded(read, problems, building=True))

        def searchable(opened: OpenIndex) -> None:
            from paperterm.index.search.searcher import Searcher

            searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
            self.post_message(PartialIndex(opened, searcher))

        listener = Listener(
            progress=self._post_progress,
            read_bytes=self._post_bytes,
            papers=papers,
            searchable=searchable,
            cancelled=self._stop.is_set,
        )
        return self.session.build(listener=listener)

    def _post_progress(self, done: int, total: int) -> None:
        self.post_message(IndexProgress(done, total))

    def _post_bytes(self, read: int, size: int) -> None:
        self.post_message(IndexBytes(read, size))

    def on_corpus_loaded(self, message: CorpusLoaded) -> None:
        first = not self.state.papers
        self.state.corpus_loaded(message.papers, message.problems, message.building)
        if first:
            self._go_back()
        self.main.papers_changed()

    def on_library_loaded(self, message: LibraryLoaded) -> None:
        self.state.library_loaded()
        if self.state.papers:  # read before the app started (else on their arrival)
            self._go_back()
            self.main.papers_changed()

    def _go_back(self) -> None:
        """Where the reader was when it last ended; a query typed before the papers came
        stays in the search box in place of the one saved."""
        place = self.state.place
        typed = self.main.search_input.value
        if typed and typed != place.query:
            place = place._replace(query=typed)
        self.main.go_to(place)

    def on_sort_keys_ready(self, message: SortKeysReady) -> None:
        self.state.adopt_sort_keys(message.keys)

    def on_index_progress(self, message: IndexProgress) -> None:
        self.state.progress(message.done, message.total)
        self.main.progress_changed(message.done, message.total)

    def on_index_bytes(self, message: IndexBytes) -> None:
        self.state.index_read, self.state.index_size = message.read, message.size
        self.main.update_status()

    def on_partial_index(self, message: PartialIndex) -> None:
        self.state.partial_index(message.opened, message.searcher)
        self.main.index_changed()

    def on_index_updating(self, message: IndexUpdating) -> None:
        if self.state.index_updating(message.opened, message.searcher):
            self.main.papers_changed()
        self.main.index_changed()

    def on_index_ready(self, message: IndexReady) -> None:
        replaced = message.opened.papers is not self.state.papers
        if self.state.index_ready(message.opened, message.searcher, message.warnings):
            self.main.papers_changed()
        elif replaced:  # the same papers read again: a first build's joined records
            self.main.papers_refreshed()
        self.main.index_changed()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR:
            self._worker_failed(event.worker)

    def on_paper_screen_worker_failed(self, message: PaperScreen.WorkerFailed) -> None:
        self._worker_failed(message.worker)

    def _worker_failed(self, worker: Worker) -> None:
        """Every worker runs with exit_on_error=False: a failure is reported here (screens
        pass on their workers' failures, whose messages do not bubble), and the reader
        carries on."""
        if isinstance(worker.error, BuildCancelled):
            return
        reason = one_line(str(worker.error) or type(worker.error).__name__)
        if worker.group == "index":
            self.state.index_failed(reason)
            self.say(f"The search index could not be built: {reason}", "error")
            self.main.index_changed()
        else:
            self.say(f"{worker.name or worker.group} failed: {reason}", "error")

    # --- bookmarks -----------------------------------------------------------------------

    def poll_bookmarks(self) -> None:
        """Pick up what another paperterm (or the CLI) saved; retry bookmark and saved-search
        changes not saved yet."""
        bookmarks = self.state.bookmarks
        if bookmarks.pending and not bookmarks.read_only:
            try:
                bookmarks.save()
            except BookmarksError:
                pass  # still failing: the status line keeps saying so
            else:
                self.say("The bookmark changes that were not saved are saved now")
                self.bookmarks_changed()
        if self.state.reload_bookmarks():
            self.bookmarks_changed()
        searches = self.state.searches
        if searches.unsaved and not searches.read_only:
            with contextlib.suppress(LibraryError):
                searches.save()
                self.say("The saved searches that were not saved are saved now")
                self.main.update_status()

    def bookmarks_changed(self) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, PaperScreen):
                screen.bookmarks_changed()

    def _change_bookmarks(
        self, change: Callable[[], object], done: str, undo: tuple[str, str] | None = None
    ) -> bool:
        """Make a change; say `done` (or the message `change` returns) or why it failed.
        `undo` is (paper id, what to call the change): it becomes an undo step."""
        if undo is not None:
            paper_id, label = undo
            bookmarks, run = self.state.bookmarks, change
            change = lambda: self.state.undo.record(bookmarks, [paper_id], label, run)  # noqa: E731
        try:
            said = change()
        except BookmarksReadOnlyError as error:
            self.say(str(error), "error")
            return False
        except BookmarksSaveError as error:
            self.say(f"Not saved: {error.reason}. Kept and retried; see the status line", "warning")
            self.bookmarks_changed()
            return False
        except BookmarksError as error:
            self.say(str(error), "warning")
            self.bookmarks_changed()
            return False
        done = said if isinstance(said, str) else done
        if done:
            self.say(done)
        self.bookmarks_changed()
        return True

    def current_row(self) -> Row | None:
        """The paper the keys act on: the one under the cursor, or the one read full screen
        (none while a dialog is open)."""
        screen = self.screen
        return screen.current_row() if isinstance(screen, PaperScreen) else None

    def action_toggle_bookmark(self) -> None:
        row = self.current_row()
        if row is None:
            return
        bookmarks = self.state.bookmarks
        title = row.paper.title if row.paper is not None else row.missing_title
        if bookmarks.is_bookmarked(row.id):
            label = f"removed the bookmark of {one_line(title, 50)}"
            self._change_bookmarks(
                lambda: bookmarks.remove(row.id), "Bookmark removed", (row.id, label)
            )
        else:
            label = f"bookmarked {one_line(title, 50)}"
            self._change_bookmarks(
                lambda: bookmarks.add(row.id, title), "Bookmarked", (row.id, label)
            )

    def action_bookmarks_only(self) -> None:
        self.main.toggle_bookmarks_only()

    def action_edit_tags(self) -> None:
        from paperterm.index.library.edits import save_tags
        from paperterm.tui.screens.dialogs import TagsScreen

        self._edit_bookmark(
            lambda mark: mark.tags if mark else None,
            lambda tags: TagsScreen(list(tags or ()), self.state.key_text),
            save_tags,
        )

    def action_edit_note(self) -> None:
        from paperterm.index.library.edits import save_note
        from paperterm.tui.screens.dialogs import NoteScreen

        self._edit_bookmark(
            lambda mark: mark.note if mark else None,
            lambda note: NoteScreen(note or "", self.state.key_text),
            save_note,
        )

    def _edit_bookmark(
        self,
        shown_of: Callable[[Bookmark | None], Shown | None],
        dialog: Callable[[Shown | None], ModalScreen[Edit | None]],
        save: Callable[[BookmarkStore, str, str, Shown | None, Edit], str],
    ) -> None:
        """Edit the current paper's bookmark in `dialog`, which shows `shown_of` it. What
        it returns (None: cancelled) is saved by `save` as changes relative to what it
        showed, so what others saved meanwhile stays (index/library/edits.py); saving
        bookmarks the paper if need be, and `save` says what really happened."""
        row = self.current_row()
        if row is None:
            return
        bookmarks = self.state.bookmarks
        shown = shown_of(bookmarks.get(row.id))
        title = row.paper.title if row.paper is not None else row.missing_title

        def saved(value: Edit | None) -> None:
            if value is not None:
                self._change_bookmarks(
                    lambda: save(bookmarks, row.id, title, shown, value),
                    "",
                    (row.id, f"edited the bookmark of {one_line(title, 50)}"),
                )

        self.push_screen(dialog(shown), saved)

    def export_bookmarks(self, kind: str) -> None:
        from paperterm.index.library.export import EXPORTERS
        from paperterm.index.library.export_items import bookmark_items

        export = EXPORTERS[kind]
        marks = self.state.bookmarks.bookmarks
        text = export.export(bookmark_items(marks, self.state.by_id))
        self._write_export(f"bookmarks-export.{export.suffix}", text, f"{len(marks)} bookmark(s)")

    def export_view(self, kind: str) -> None:
        """The papers in view, in their order, as a reading list (`paperterm export --view`
        writes the same)."""
        from paperterm.index.library.export import EXPORTERS
        from paperterm.index.library.export_items import ExportItem

        export = EXPORTERS[kind]
        main = self.main
        marks = self.state.bookmarks.entries
        items = [ExportItem(row.id, row.paper, marks.get(row.id)) for row in main.paper_list.rows]
        title = list_title(
            main.filters.view, query=main.search_input.value, unread=main.filters.unread_only
        )
        text = export.text(items, title)
        self._write_export(f"view-export.{export.suffix}", text, f"{len(items)} paper(s)")

    def _write_export(self, name: str, text: str, what: str) -> None:
        path = Path(self.session.data_dir) / name
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
            self.say(f"{path}: cannot write the export: {error.strerror or error}", "error")
            return
        self.say(f"Exported {what} to {path}", timeout=10)

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
            self.say(str(error), "error")
            return False
        self.reading_changed()
        self._save_reading()
        return True

    @work(thread=True, exit_on_error=False, group="reading-save", name="save reading state")
    def _save_reading(self) -> None:
        """Save the staged reading changes. A failure is said once (the status line counts
        what waits, and the poll retries); the first save that works again says so."""
        store = self.state.reading
        failing = store.unsaved > 0
        try:
            store.save()
        except LibraryError as error:
            if not failing:
                reason = error.reason if isinstance(error, LibrarySaveError) else str(error)
                self.post_message(ReadingSaveFailed(reason))
        else:
            if failing:
                self.post_message(ReadingPolled(changed=False, saved=True))

    def on_reading_save_failed(self, message: ReadingSaveFailed) -> None:
        self.say(f"Reading state not saved: {message.reason}. Kept and retried", "warning")
        self.reading_changed()

    def poll_reading(self) -> None:
        """Retry reading changes not saved yet and pick up other processes' (in a worker:
        a large reading.toml takes a while to parse)."""
        if not any(w.group == "reading-poll" and not w.is_finished for w in self.workers):
            self._poll_reading()

    @work(thread=True, exit_on_error=False, group="reading-poll", name="poll reading state")
    def _poll_reading(self) -> None:
        state = self.state
        saved = False
        if state.reading.unsaved and not state.reading.read_only:
            with contextlib.suppress(LibraryError):
                state.reading.save()
                saved = True
        self.post_message(ReadingPolled(state.reload_reading(), saved))

    def on_reading_polled(self, message: ReadingPolled) -> None:
        if message.saved:
            self.say("The reading changes that were not saved are saved now")
        if message.changed or message.saved:
            self.reading_changed()

    def reading_changed(self) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, PaperScreen):
                screen.reading_changed()

    def on_paper_screen_mark_read(self, message: PaperScreen.MarkRead) -> None:
        self.change_reading(message.ids, True, message.label)

    def action_read_next(self) -> None:
        """`space`: the current paper read, then the next unread one in the view."""
        screen = self.screen
        row = self.current_row()
        if row is None or not isinstance(screen, PaperScreen):
            return
        if row.paper is not None:
            self.change_reading([row.id], True, f"read {one_line(row.paper.title, 50)}")
        if not screen.show_next_unread():
            self.say("No more unread papers in this view after this one")

    def action_toggle_read(self) -> None:
        row = self.current_row()
        if row is None or row.paper is None:
            return
        read = not self.state.reading.is_read(row.id)
        title = one_line(row.paper.title, 50)
        self.change_reading([row.id], read, f"{'read' if read else 'unread'} {title}")

    def action_undo(self) -> None:
        """`u`: take back the last change of reading state or bookmarks."""
        step = self.state.undo.pop()
        if step is None:
            self.say("Nothing to undo")
            return
        done = f"Undone: {step.label}"
        if step.store is self.state.bookmarks:
            self._change_bookmarks(lambda: step.store.apply(step.restore), done)
            return
        try:
            step.store.stage(step.restore)
        except LibraryReadOnlyError as error:
            self.say(str(error), "error")
            return
        self.say(done)
        self.reading_changed()
        self._save_reading()

    def action_jump_back(self) -> None:
        """`ctrl+o`: back to where the reader was before a search, a view or a followed
        related paper (a related paper read full screen goes back to the one before)."""
        from paperterm.tui.screens.read import ReadScreen

        screen = self.screen
        if isinstance(screen, ReadScreen) and screen.followed:
            screen.dismiss()
            return
        jumps = self.state.jumps
        if not jumps:
            self.say("Nowhere to jump back to")
            return
        place = jumps.pop()
        while len(self.screen_stack) > 1 and isinstance(self.screen, PaperScreen):
            self.pop_screen()
        self.main.go_to(place)

    # --- links ---------------------------------------------------------------------------

    def action_copy_link(self) -> None:
        row = self.current_row()
        if row is None or row.paper is None:
            return
        kind, text = link_or_citation(row.paper)
        text = one_line(text)
        self.copy_text(kind, text, text)

    def action_copy_bibtex(self) -> None:
        row = self.current_row()
        if row is None or row.paper is None:
            return
        from paperterm.index.library.bibtex_export import bibtex_entry
        from paperterm.index.library.export_items import ExportItem

        entry = bibtex_entry(ExportItem(row.id, row.paper))
        lines = entry.rstrip("\n").split("\n")
        self.copy_text("BibTeX entry", entry, f"{lines[0]} … ({len(lines)} lines)")

    @property
    def copier(self) -> Clipboard:
        """The routes to the clipboard, found on the first copy (not before the first
        frame: the module is ~1 ms of the start)."""
        if self._copier is None:
            from paperterm.tui.clipboard import Clipboard

            self._copier = Clipboard(self.environ)
        return self._copier

    def copy_text(self, what: str, text: str, preview: str) -> None:
        """Copy by OSC 52 at once, and by tmux or the desktop's tool (a worker: they are
        processes), then say where it went."""
        from paperterm.tui.clipboard import CopyReport, copy_message

        self.copy_to_clipboard(text)
        preview = capped(preview, PREVIEW_LIMIT)
        if self.copier.routes():
            self._copy_by_routes(what, text, preview)
        else:
            self.say(copy_message(what, preview, CopyReport(), self.copier.in_tmux))

    @work(thread=True, exit_on_error=False, group="clipboard")
    def _copy_by_routes(self, what: str, text: str, preview: str) -> None:
        from paperterm.tui.clipboard import copy_message

        report = self.copier.copy(text)
        message = copy_message(what, preview, report, self.copier.in_tmux)
        severity: SeverityLevel = "warning" if report.failed else "information"
        self.call_from_thread(self.say, message, severity)

    def action_open_link(self) -> None:
        row = self.current_row()
        if row is None or row.paper is None:
            return
        own, other = split_links(row.paper)
        if own:
            self.follow_link(one_line(own[0]))
        elif other:
            self.follow_link(one_line(other[0]), "No page of its own; its abstract's link")
        else:
            key = self.state.key_text("copy_link")
            self.say(f"This paper has no link ({key} copies its citation).", "warning")

    def follow_link(self, url: str, what: str = "") -> None:
        """Open `url` in a browser; where none would be seen (over SSH), copy it. A URL no
        browser can be given (`notices.url_too_long`) is refused."""
        if can_open_browser(self.environ):
            if url_too_long(url):
                key = self.state.key_text("copy_link")
                size = len(url.encode("utf-8", "replace")) // 1024
                self.say(f"Not opened: the link is too long ({size} KiB); {key} copies it", "error")
                return
            shown = capped(url, PREVIEW_LIMIT)
            self.say(f"{what}: opening {shown}" if what else f"Opening {shown}")
            self._open_in_browser(url)
        else:
            self.copy_text("link", url, f"{url} (no local browser here: SSH?)")

    def action_links(self) -> None:
        row = self.current_row()
        if row is None or row.paper is None:
            return
        own, other = split_links(row.paper)
        if not own and not other:
            key = self.state.key_text("copy_link")
            self.say(f"This paper has no link ({key} copies its citation).", "warning")
            return

        def chosen(choice: tuple[str, str] | None) -> None:
            if choice is not None:
                action, url = choice
                if action == "open":
                    self.follow_link(one_line(url))
                else:
                    self.copy_text("link", one_line(url), one_line(url))

        from paperterm.tui.screens.dialogs import LinksScreen

        self.push_screen(LinksScreen(own, other, self.state.key_text), chosen)

    @work(thread=True, exit_on_error=False, group="browser")
    def _open_in_browser(self, url: str) -> None:
        # webbrowser may start a console browser that blocks: never on the UI thread.
        if self.url_opener is not None:
            result = self.url_opener(url)
        else:
            import webbrowser  # only when a link is opened: it is slow to import

            result = webbrowser.open(url)
        if not opened(result):
            key = self.state.key_text("copy_link")
            said = (
                f"Could not open {capped(url, PREVIEW_LIMIT)}: no browser started; {key} copies it"
            )
            self.call_from_thread(self.say, said, "error")

    # --- screens and commands ------------------------------------------------------------

    def action_help(self) -> None:
        from paperterm.tui.screens.dialogs import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            first = getattr(self.screen, "KEY_SCOPES", ())
            self.push_screen(HelpScreen(self.state.key_text, first))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The key table's commands (the app's, and the main screen's over it), each with
        its key; the collections, the exports, the warnings; Textual's theme picker."""
        from paperterm.index.library.export import EXPORTERS

        main = self.main
        for spec in keys.SPECS:
            if not spec.command or spec.scope not in ("app", "main"):
                continue
            if spec.scope == "main" and screen is not main:
                continue
            target: App | Screen = self if spec.scope == "app" else main
            key = self.state.key_text(spec.id)
            yield SystemCommand(
                palette_text(f"{spec.description} · {key}"),
                palette_text(f"key {key} · name in [keys]: {spec.id}"),
                lambda action=spec.action, target=target: self.run_action(action, target),
            )
        for key, label in SORTS.items():
            yield SystemCommand(
                f"Sort: {label}", "Sort the papers in view", lambda key=key: main.set_sort(key)
            )
        for name in self.state.collections:
            yield SystemCommand(
                palette_text(f"Collection: {one_line(name)}"),
                "Show only the papers of this collection",
                lambda name=name: main.set_view(ViewKey("collection", name)),
            )
        for search in self.state.saved_searches:
            yield SystemCommand(
                palette_text(f"Saved search: {one_line(search.name)}"),
                palette_text(one_line(search.query, 60)),
                lambda name=search.name: main.set_view(ViewKey("search", name)),
            )
        for kind, export in EXPORTERS.items():
            yield SystemCommand(
                f"Export the view as {export.label}",
                f"Write the papers in view, in order, to view-export.{export.suffix} in the "
                "data folder",
                lambda kind=kind: self.export_view(kind),
            )
        for kind, export in EXPORTERS.items():
            yield SystemCommand(
                f"Export bookmarks as {export.label}",
                f"Write bookmarks-export.{export.suffix} in the data folder",
                lambda kind=kind: self.export_bookmarks(kind),
            )
        if self.state.warnings or self.state.bookmarks_problem or self.state.problems:
            yield SystemCommand(
                "Warnings", "Show the problems found at start-up", self.show_warnings
            )
        for command in super().get_system_commands(screen):
            if command.title == "Theme":
                yield command

    def show_warnings(self) -> None:
        from paperterm.tui.screens.dialogs import WarningsScreen

        state = self.state
        problems = [p for p in (state.bookmarks_problem, *state.problems.values()) if p]
        self.push_screen(WarningsScreen([*problems, *state.warnings]))

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every toast (the screens' too): at most `notices.NOTICE_LIMIT` characters; in a
        small window it replaces the one shown (at most one at a time, laid over the footer:
        app.tcss) and goes sooner."""
        message = capped(message)
        if self.has_class("-small"):
            self.clear_notifications()
            if timeout is None:
                timeout = SMALL_TIMEOUT if severity == "information" else SMALL_TIMEOUT * 2
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def say(
        self, message: str, severity: SeverityLevel = "information", timeout: float | None = None
    ) -> None:
        """A notification; its text is never read as markup."""
        self.notify(
            safe_text(message, keep_newlines=False),
            severity=severity,
            markup=False,
            timeout=timeout,
        )


def palette_text(text: str) -> str:
    """`text` as the command palette shows it: it reads markup, and Textual's `escape`
    leaves `[B]` alone, which then vanishes as an unknown style."""
    return text.replace("[", "\\[")


# --- entry points -----------------------------------------------------------------------------


def check_theme(config: Config) -> None:
    if config.theme is None or config.theme in BUILTIN_THEMES:
        return
    close = difflib.get_close_matches(config.theme, list(BUILTIN_THEMES), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise config.error(
        "ui.theme",
        f"unknown theme {config.theme!r}{hint}; themes: {', '.join(sorted(BUILTIN_THEMES))}",
    )


def check_reader_config(config: Config) -> dict[str, str]:
    """The reader's own config checks (`[keys]`, `ui.theme`); the keymap to apply. Without
    a `[keys]` table nothing is remapped and no two keys can clash: the contexts (which
    import every screen) are read only when there are remaps to check."""
    keymap: dict[str, str] = {}
    if config.keys:
        from paperterm.tui.contexts import CONTEXTS

        keymap = keys.check_keymap(config, CONTEXTS)
    check_theme(config)
    return keymap


def make_app(
    session: Session,
    config: Config,
    *,
    timing: Timing | None = None,
    url_opener: UrlOpener | None = None,
    environ: Mapping[str, str] | None = None,
    copier: Clipboard | None = None,
) -> ReaderApp:
    """The reader for a session; raises `ConfigError` for bad `[keys]` or `ui.theme`.
    `timing` replaces the pauses the config implies (tests)."""
    keymap = check_reader_config(config)
    return ReaderApp(
        session,
        config,
        keymap,
        timing=timing,
        url_opener=url_opener,
        environ=environ,
        copier=copier,
    )
