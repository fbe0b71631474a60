"""The reader: a Textual app over a `Session`.

Start-up does no heavy work on the UI thread: a worker opens the index (or, on first launch,
parses the corpus, posts the papers so the list shows at once, then builds the index with
progress messages). Searches and "related" look-ups run in thread workers that share one
`Searcher` under a lock; their results come back as messages and stale ones are dropped.

The app and its screens meet in three places, each typed: the screens read a `ReaderState`
(tui/state.py) that the app owns and hands them when it makes them; the app calls the
methods every `PaperScreen` has (`current_row`, `bookmarks_changed`) and those of its
`MainScreen`; the screens tell the app things by message (`MainScreen.Ready`,
`PaperScreen.WorkerFailed`). The screens never import this module.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import signal
import threading
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from textual import events, work
from textual.app import App, SystemCommand
from textual.markup import escape as escape_markup
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.screen import ModalScreen, Screen
from textual.theme import BUILTIN_THEMES
from textual.worker import Worker, WorkerState

from paperterm.index.atomic import atomic_write_text
from paperterm.index.config import Config
from paperterm.index.library.bookmarks import (
    Bookmark,
    BookmarksError,
    BookmarksReadOnlyError,
    BookmarkStore,
)
from paperterm.index.library.export import EXPORTERS
from paperterm.index.links import primary_link
from paperterm.index.papers import Paper
from paperterm.index.search.store import BuildCancelled, OpenIndex
from paperterm.index.session import Session
from paperterm.index.text.display import one_line, safe_text
from paperterm.tui import keys
from paperterm.tui.screens.base import PaperScreen
from paperterm.tui.screens.dialogs import HelpScreen, NoteScreen, TagsScreen, WarningsScreen
from paperterm.tui.screens.main import MainScreen
from paperterm.tui.state import ReaderState, Timing
from paperterm.tui.view import Row, can_open_browser, link_or_citation

if TYPE_CHECKING:
    from paperterm.index.search.searcher import Searcher

UrlOpener = Callable[[str], object]
#: What a bookmark dialog returns: the tags (a list) or the note (a string).
Edit = TypeVar("Edit")


# --- messages from the index worker -----------------------------------------------------------


class CorpusLoaded(Message):
    """The papers, shown at once: while the index is being built (first launch) or while
    the searcher is being set up."""

    def __init__(self, papers: list[Paper], problems: list[str], building: bool) -> None:
        super().__init__()
        self.papers = papers
        self.problems = problems
        self.building = building


class IndexProgress(Message):
    def __init__(self, done: int, total: int) -> None:
        super().__init__()
        self.done = done
        self.total = total


class IndexReady(Message):
    def __init__(self, opened: OpenIndex, searcher: Searcher, warnings: list[str]) -> None:
        super().__init__()
        self.opened = opened
        self.searcher = searcher
        self.warnings = warnings


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
        handle_signals: bool = False,
    ) -> None:
        """`url_opener` opens a link instead of `webbrowser` (tests); `environ` stands for
        `os.environ` where the reader decides whether a local browser would be seen."""
        super().__init__()
        self.session = session
        self.url_opener = url_opener
        self.environ = environ
        self.handle_signals = handle_signals
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
        poll = self.state.timing.bookmark_poll
        if poll is not None:
            self.set_interval(poll, self.poll_bookmarks)
        if self.handle_signals:
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGTERM, signal.SIGHUP):
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                    loop.add_signal_handler(signum, self.shut_down)

    def on_unmount(self) -> None:
        self._stop.set()
        if self.handle_signals:
            with contextlib.suppress(Exception):
                loop = asyncio.get_running_loop()
                for signum in (signal.SIGTERM, signal.SIGHUP):
                    loop.remove_signal_handler(signum)

    def on_key(self, event: events.Key) -> None:
        # Runs after the bindings had their chance (App._on_key): a key no binding took.
        screen = self.screen
        if isinstance(screen, MainScreen):
            screen.take_stray_key(event)

    def shut_down(self) -> None:
        """Quit cleanly (the `q` key, SIGTERM, SIGHUP): stop the build, save what is pending."""
        self._stop.set()
        self.save_pending()
        self.exit(0)

    def action_quit(self) -> None:
        self.shut_down()

    def save_pending(self) -> None:
        """Bookmarks are saved on every change; retry one that failed to save."""
        bookmarks = self.state.bookmarks
        if bookmarks.pending:
            with contextlib.suppress(BookmarksError):
                bookmarks.save()

    def on_main_screen_ready(self, message: MainScreen.Ready) -> None:
        """Read the bookmarks and start the index worker once the main screen's widgets
        are mounted, since the worker's messages update them."""
        self.state.load_bookmarks()
        self.load_index()

    # --- the index -----------------------------------------------------------------------

    @work(thread=True, exit_on_error=False, group="index", name="open index")
    def load_index(self) -> None:
        # The papers first (no Whoosh needed), so the list shows before the index opens.
        papers = self.session.open_papers()
        opened = None
        if papers is not None:
            self.post_message(CorpusLoaded(papers, [], building=False))
            opened = self.session.open_existing(papers)
        if opened is None:
            corpus = self.session.load_corpus()
            problems = [str(p) for p in corpus.problems]
            self.post_message(CorpusLoaded(corpus.papers, problems, building=True))
            opened = self.session.build(
                corpus, progress=self._post_progress, cancelled=self._stop.is_set
            )
        # Whoosh is imported here, off the UI thread and after the list is on screen.
        from paperterm.index.search.searcher import Searcher

        searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
        self.post_message(IndexReady(opened, searcher, list(self.session.warnings)))
        with self.state.search_lock:
            searcher.warm()  # the id -> document table, off the UI thread

    def _post_progress(self, done: int, total: int) -> None:
        self.post_message(IndexProgress(done, total))

    def on_corpus_loaded(self, message: CorpusLoaded) -> None:
        self.state.corpus_loaded(message.papers, message.problems, message.building)
        self.main.papers_changed()

    def on_index_progress(self, message: IndexProgress) -> None:
        self.state.index_percent = 100 * message.done // max(1, message.total)
        self.main.progress_changed(message.done, message.total)

    def on_index_ready(self, message: IndexReady) -> None:
        if self.state.index_ready(message.opened, message.searcher, message.warnings):
            self.main.papers_changed()
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
        """Pick up what another paperterm (or the CLI) saved."""
        if self.state.reload_bookmarks():
            self.bookmarks_changed()

    def bookmarks_changed(self) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, PaperScreen):
                screen.bookmarks_changed()

    def _change_bookmarks(self, change: Callable[[], object], done: str) -> bool:
        try:
            change()
        except BookmarksReadOnlyError as error:
            self.say(str(error), "error")
            return False
        except BookmarksError as error:
            self.say(str(error), "warning")
            self.bookmarks_changed()
            return False
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
            self._change_bookmarks(lambda: bookmarks.remove(row.id), "Bookmark removed")
        else:
            self._change_bookmarks(lambda: bookmarks.add(row.id, title), "Bookmarked")

    def action_bookmarks_only(self) -> None:
        self.main.toggle_bookmarks_only()

    def _ensure_bookmarked(self, row: Row) -> bool:
        bookmarks = self.state.bookmarks
        if bookmarks.is_bookmarked(row.id):
            return True
        title = row.paper.title if row.paper is not None else row.missing_title
        return self._change_bookmarks(lambda: bookmarks.add(row.id, title), "")

    def action_edit_tags(self) -> None:
        bookmarks = self.state.bookmarks
        self._edit_bookmark(
            lambda mark: TagsScreen(list(mark.tags) if mark else [], self.state.key_text),
            bookmarks.set_tags,
            "Tags saved",
        )

    def action_edit_note(self) -> None:
        bookmarks = self.state.bookmarks
        self._edit_bookmark(
            lambda mark: NoteScreen(mark.note if mark else "", self.state.key_text),
            bookmarks.set_note,
            "Note saved",
        )

    def _edit_bookmark(
        self,
        dialog: Callable[[Bookmark | None], ModalScreen[Edit | None]],
        apply: Callable[[str, Edit], object],
        done: str,
    ) -> None:
        """Edit the current paper's bookmark in `dialog`; what it returns (None: cancelled)
        is saved with `apply`, bookmarking the paper first if need be."""
        row = self.current_row()
        if row is None:
            return

        def save(value: Edit | None) -> None:
            if value is not None and self._ensure_bookmarked(row):
                self._change_bookmarks(lambda: apply(row.id, value), done)

        self.push_screen(dialog(self.state.bookmarks.get(row.id)), save)

    def export_bookmarks(self, kind: str) -> None:
        export = EXPORTERS[kind]
        marks = self.state.bookmarks.bookmarks
        text = export.export(marks, self.state.by_id)
        path = Path(self.session.data_dir) / f"bookmarks-export.{export.suffix}"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(path, text)
        except OSError as error:
            self.say(f"{path}: cannot write the export: {error.strerror or error}", "error")
            return
        self.say(f"Exported {len(marks)} bookmark(s) to {path}", timeout=10)

    # --- links ---------------------------------------------------------------------------

    def action_copy_link(self) -> None:
        row = self.current_row()
        if row is None or row.paper is None:
            return
        kind, text = link_or_citation(row.paper)
        text = one_line(text)
        self.copy_to_clipboard(text)
        self.say(f"Copied the {kind}: {text}")

    def action_open_link(self) -> None:
        row = self.current_row()
        if row is None or row.paper is None:
            return
        url = one_line(primary_link(row.paper))
        if not url:
            self.say("This paper has no link (y copies its citation).", "warning")
            return
        if can_open_browser(self.environ):
            self.say(f"Opening {url}")
            self._open_in_browser(url)
        else:
            self.copy_to_clipboard(url)
            self.say(f"No local browser here (SSH?). Link copied: {url}", timeout=15)

    @work(thread=True, exit_on_error=False, group="browser")
    def _open_in_browser(self, url: str) -> None:
        # webbrowser may start a console browser that blocks: never on the UI thread.
        if self.url_opener is not None:
            self.url_opener(url)
        else:
            import webbrowser  # only when a link is opened: it is slow to import

            webbrowser.open(url)

    # --- screens and commands ------------------------------------------------------------

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.state.key_text))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        main = self.main
        yield SystemCommand(
            "Bookmarks only",
            "Show only bookmarked papers (toggle)",
            main.toggle_bookmarks_only,
        )
        yield SystemCommand(
            "Show all papers",
            "Clear the search, bookmarks-only and collection filters",
            main.clear_all,
        )
        for name in self.state.collections:
            yield SystemCommand(
                f"Collection: {escape_markup(one_line(name))}",  # the palette reads markup
                "Show only the papers of this collection",
                lambda name=name: main.set_collection(name),
            )
        for kind, export in EXPORTERS.items():
            yield SystemCommand(
                f"Export bookmarks as {export.label}",
                f"Write bookmarks-export.{export.suffix} in the data folder",
                lambda kind=kind: self.export_bookmarks(kind),
            )
        if self.state.warnings or self.state.bookmarks_problem:
            yield SystemCommand(
                "Warnings", "Show the problems found at start-up", self.show_warnings
            )
        yield SystemCommand("Keys", "Show every key", self.action_help)
        for command in super().get_system_commands(screen):
            if command.title in ("Theme", "Quit"):
                yield command

    def show_warnings(self) -> None:
        problem = self.state.bookmarks_problem
        self.push_screen(WarningsScreen([*([problem] if problem else []), *self.state.warnings]))

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
    """The reader's own config checks (`[keys]`, `ui.theme`); the keymap to apply."""
    keymap = keys.check_keymap(config)
    check_theme(config)
    return keymap


def make_app(
    session: Session,
    config: Config,
    *,
    timing: Timing | None = None,
    url_opener: UrlOpener | None = None,
    environ: Mapping[str, str] | None = None,
    handle_signals: bool = False,
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
        handle_signals=handle_signals,
    )


def run_reader(session: Session, config: Config) -> int:
    """Run the reader full screen until the user quits; the exit status."""
    app = make_app(session, config, handle_signals=True)
    app.run()
    app.save_pending()
    return app.return_code or 0
