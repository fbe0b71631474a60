"""The reader: a Textual app over a `Session`.

Start-up does no heavy work on the UI thread: a worker opens the index (or, on first launch,
parses the corpus, posts the papers so the list shows at once, then builds the index with
progress messages: tui/index_loader.py). Searches and "related" look-ups run in thread
workers that share one `Searcher` under a lock; their results come back as messages and
stale ones are dropped.

The app and its screens meet in three places, each typed: the screens read a `ReaderState`
(tui/state.py) that the app owns and hands them when it makes them; the app calls the
methods every `PaperScreen` has (`current_row`, `bookmarks_changed`, `reading_changed`,
`show_next_unread`) and those of its `MainScreen`; the screens tell the app things by message
(`MainScreen.Ready`, `PaperScreen.MarkRead`, `PaperScreen.WorkerFailed`). The screens never
import this module. Changes to the user's library are made by `LibraryControl`
(tui/controllers/library.py); reading-state changes are saved by a thread worker, and the
file is polled for other processes' changes by a worker too.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from textual import events, work
from textual.app import SystemCommand
from textual.screen import ModalScreen, Screen
from textual.worker import Worker, WorkerState

from paperterm.index.config import Config
from paperterm.index.library.bookmarks import Bookmark, BookmarkStore
from paperterm.index.library.place import save_place
from paperterm.index.search.store import BuildCancelled
from paperterm.index.session import Session
from paperterm.index.text.display import one_line
from paperterm.tui import collector, keys
from paperterm.tui.app_checks import check_reader_config, check_theme
from paperterm.tui.app_commands import system_commands
from paperterm.tui.app_face import ReaderFace, UrlOpener
from paperterm.tui.app_messages import (
    CorpusLoaded,
    IndexBytes,
    IndexProgress,
    IndexReady,
    IndexUpdating,
    LibraryLoaded,
    PartialIndex,
    ReadingPolled,
    ReadingSaveFailed,
    SortKeysReady,
    TopicsReady,
)
from paperterm.tui.controllers.library import Edit, LibraryControl, Shown
from paperterm.tui.controllers.search import names_a_topic
from paperterm.tui.index_loader import IndexLoader
from paperterm.tui.screens.base import PaperScreen
from paperterm.tui.screens.main import MainScreen
from paperterm.tui.state import ReaderState, Timing
from paperterm.tui.terminal import repaint_on_resume

# The dialogs, the exports and the key contexts are imported where they are used: none is
# needed for the first frame (tests/tui/test_reader_startup.py checks that it does without
# them).
if TYPE_CHECKING:
    from paperterm.tui.clipboard import Clipboard
    from paperterm.tui.screens.triage import TriageScreen

__all__ = ["ReaderApp", "check_reader_config", "check_theme", "make_app"]


class ReaderApp(ReaderFace):
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
        self.library = LibraryControl(self.state, session.data_dir, self)
        self._stop = threading.Event()
        # A built index's rows (a stat per source, a few small reads) are read before the
        # first frame, which then shows them: a worker would draw a "Loading" frame first.
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
        """Write what is still pending (a failed save, a change the worker has not
        reached)."""
        self.library.save_pending()

    def save_place(self) -> None:
        """Remember where the reader is, for the next start (best effort: it is ours, and
        nothing the user made is in it)."""
        if self.state.papers:
            with contextlib.suppress(OSError):
                place = self.main.place()._replace(sources=self.session.sources_key)
                save_place(self.session.data_dir, place)

    def on_main_screen_density_changed(self, message: MainScreen.DensityChanged) -> None:
        self.save_place()

    def on_main_screen_ready(self, message: MainScreen.Ready) -> None:
        """Read the bookmarks and start the index worker once the main screen's widgets
        are mounted, since the worker's messages update them. The first frame is drawn:
        the garbage collector runs again (tui/collector.py)."""
        collector.resume()
        self.state.load_bookmarks()
        self.load_index()

    # --- the index -----------------------------------------------------------------------

    @work(
        thread=True,
        exit_on_error=False,
        group="index",
        name="open index",
        description="open the index",
    )
    def load_index(self) -> None:
        IndexLoader(self.session, self.state, self.post_message, self._stop).run()

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
        self.main.set_density(place.density)
        self.main.go_to(place)

    def on_sort_keys_ready(self, message: SortKeysReady) -> None:
        self.state.adopt_sort_keys(message.keys)

    def on_topics_ready(self, message: TopicsReady) -> None:
        self.state.topics = message.labels
        if message.warning:
            self.state.warnings = list(dict.fromkeys([*self.state.warnings, message.warning]))
            self.say(message.warning, "warning")
        # `topic:` clauses (in the box, in saved searches) are answered from them now.
        if self.state.saved_searches or names_a_topic(self.main.search_input.value):
            self.main.index_changed()
        self.main.facets_soon()

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
        self.library.retry_bookmarks()
        if self.library.retry_searches():
            self.main.update_status()
        self.main.poll_watches()

    def bookmarks_changed(self) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, PaperScreen):
                screen.bookmarks_changed()

    def action_toggle_bookmark(self) -> None:
        row = self.current_row()
        if row is not None:
            self.library.toggle_bookmark(row)

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
        """Edit the current paper's bookmark in `dialog`, which shows `shown_of` it; what
        it returns (None: cancelled) is saved by `LibraryControl.save_edit`."""
        row = self.current_row()
        if row is None:
            return
        shown = shown_of(self.library.shown_mark(row))

        def saved(value: Edit | None) -> None:
            if value is not None:
                self.library.save_edit(row, shown, value, save)

        self.push_screen(dialog(shown), saved)

    def export_bookmarks(self, kind: str) -> None:
        self.library.export_bookmarks(kind)

    def export_view(self, kind: str) -> None:
        """The papers in view, in their order, as a reading list."""
        main = self.main
        rows = main.paper_list.rows
        self.library.export_view(kind, rows, main.filters, main.search_input.value)

    # --- reading state -------------------------------------------------------------------

    def change_reading(self, ids: list[str], read: bool, label: str) -> bool:
        """Mark papers read (or unread) now, as an undo step, and save them in a worker;
        False when the reading state is read-only (the user is told)."""
        return self.library.change_reading(ids, read, label)

    def save_reading(self) -> None:
        self._save_reading()

    @work(
        thread=True,
        exit_on_error=False,
        group="reading-save",
        name="save reading state",
        description="save the reading state",
    )
    def _save_reading(self) -> None:
        """Save the staged reading changes. A failure is said once (the status line counts
        what waits, and the poll retries); the first save that works again says so."""
        saved = self.library.save_reading()
        if saved.failed is not None:
            self.post_message(ReadingSaveFailed(saved.failed))
        elif saved.recovered:
            self.post_message(ReadingPolled(changed=False, saved=True))

    def on_reading_save_failed(self, message: ReadingSaveFailed) -> None:
        self.say(f"Reading state not saved: {message.reason}. Kept and retried", "warning")
        self.reading_changed()

    def poll_reading(self) -> None:
        """Retry reading changes not saved yet and pick up other processes' (in a worker:
        a large reading.toml takes a while to parse)."""
        if not any(w.group == "reading-poll" and not w.is_finished for w in self.workers):
            self._poll_reading()

    @work(
        thread=True,
        exit_on_error=False,
        group="reading-poll",
        name="poll reading state",
        description="poll the reading state",
    )
    def _poll_reading(self) -> None:
        self.post_message(ReadingPolled(*self.library.poll_reading()))

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
        if row is not None:
            self.library.toggle_read(row)

    def on_triage_screen_decide(self, message: TriageScreen.Decide) -> None:
        if self.library.decide(message.ids, message.decision, message.label):
            message.triage.decided(message.ids)

    def action_undo(self) -> None:
        """`u`: take back the last change of reading state, decisions or bookmarks."""
        ids = self.library.undo()
        screen = self.screen
        if ids and isinstance(screen, PaperScreen):
            screen.undone(ids)

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

    # --- screens and commands ------------------------------------------------------------

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The key table's commands, the sorts, the views, the exports, the warnings
        (tui/app_commands.py); Textual's theme picker."""
        yield from system_commands(self, screen)
        for command in super().get_system_commands(screen):
            if command.title == "Theme":
                yield command


# --- entry points -----------------------------------------------------------------------------


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
