"""Helpers shared by the reader's tests (imported by name: tests/tui is on sys.path)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from textual import events
from textual.app import App
from textual.command import CommandPalette
from textual.keys import _character_to_key
from textual.pilot import Pilot
from textual.widgets._toast import Toast
from textual.worker import WorkerCancelled, WorkerState

from paperterm.index.config import Config
from paperterm.index.search.listener import Listener
from paperterm.index.search.open_index import OpenIndex
from paperterm.index.search.store import Progress
from paperterm.index.session import Session
from paperterm.index.sources.loader import Corpus
from paperterm.tui.app import ReaderApp, make_app
from paperterm.tui.screens.base import PaperScreen
from paperterm.tui.screens.main import MainScreen
from paperterm.tui.state import Timing
from paperterm.tui.widgets.key_footer import KeyFooter


@dataclass(slots=True)
class GatedSession(Session):
    """A first launch: no index yet; the build reports `percent` of the papers read and then
    waits for `gate`
    (or for the app to cancel it). `build_failure` makes the build raise instead; `corpus`
    replaces the configured sources."""

    percent: int = 45
    gate: threading.Event = field(default_factory=threading.Event)
    build_failure: Exception | None = None
    corpus: Corpus | None = None

    def open_existing(self, papers: object = None) -> OpenIndex | None:
        return None

    def open_papers(self) -> None:
        return None

    def load_corpus(self) -> Corpus:
        return self.corpus if self.corpus is not None else Session.load_corpus(self)

    def build(
        self,
        progress: Progress | None = None,
        cancelled: Callable[[], bool] | None = None,
        *,
        force: bool = False,
        listener: Listener | None = None,
    ) -> OpenIndex:
        listener = listener or Listener(progress=progress, cancelled=cancelled)
        papers = list(self.load_corpus().papers)
        if listener.papers is not None:
            listener.papers(papers)
        if listener.progress is not None:
            listener.progress(len(papers) * self.percent // 100, len(papers))
        while not self.gate.wait(0.02):
            listener.check()
        if self.build_failure is not None:
            raise self.build_failure
        if self.corpus is not None:
            return self.build_in_memory(listener)
        return Session.build(self, listener=listener, force=force)


#: No pauses and no polling: tests that are not about a delay wait on the reader's signals.
INSTANT = Timing(
    debounce=0, related=0, related_typing=0, bookmark_poll=None, quiet=0, facets_typing=0
)
#: Rounds of `settle` before it gives up: far more than any test needs (most take 2 to 4).
SETTLE_ROUNDS = 200


async def settle(pilot: Pilot, *, index: bool = True) -> None:
    """Wait until the reader has nothing left to do: every worker done, every message
    handled, no search or related look-up scheduled on any screen, for two rounds running
    (a handled message may start more work). `index=False` leaves out the index worker,
    which a gated build holds."""
    app = pilot.app
    quiet_rounds = 0
    for _ in range(SETTLE_ROUNDS):
        ran = await drain(pilot, index=index)
        pending = any(s.pending for s in app.screen_stack if isinstance(s, PaperScreen))
        quiet_rounds = 0 if ran or pending else quiet_rounds + 1
        if quiet_rounds == 2:
            return
    raise AssertionError("the reader never settled: a search or look-up keeps coming")


async def drain(pilot: Pilot, *, index: bool = True) -> bool:
    """Let the messages queued by now be handled and the workers running now end (work
    scheduled for later stays scheduled); whether any worker was unfinished. A worker may end
    cancelled (a newer search replaces it) or not have started yet (the next round waits for
    it)."""
    app = pilot.app
    await pilot.pause()
    unfinished = [w for w in app.workers if not w.is_finished and (index or w.group != "index")]
    for worker in unfinished:
        if worker.state is not WorkerState.PENDING:
            with contextlib.suppress(WorkerCancelled):
                await worker.wait()
    if unfinished:
        await pilot.pause()
    return bool(unfinished)


async def until(pilot: Pilot, condition: Callable[[], bool], what: str) -> None:
    """Wait (a bounded number of idle rounds) until `condition()` holds."""
    for _ in range(SETTLE_ROUNDS):
        if condition():
            return
        await pilot.pause()
    raise AssertionError(f"never happened: {what}")


async def resize(pilot: Pilot, width: int, height: int) -> None:
    """Resize the terminal and wait until the screen has the new size and the reader has
    settled. Textual passes a resize on from a timer (1/120 s), so Pilot's own wait after
    `resize_terminal` (until the CPU goes idle) only covers it when the idle check happens to
    take longer than that timer."""
    await pilot.resize_terminal(width, height)
    app = pilot.app
    await until(
        pilot, lambda: app.screen.size == (width, height), f"the screen at {width}x{height}"
    )
    await settle(pilot)


async def run_from_palette(pilot: Pilot, command: str) -> None:
    """Open the command palette (ctrl+p), type `command`, run the entry it finds first, and
    check that the palette closed onto the main screen."""
    app = pilot.app
    await pilot.press("ctrl+p")
    await pilot.pause()
    assert isinstance(app.screen, CommandPalette)
    await type_text(pilot, command)
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)
    assert isinstance(app.screen, MainScreen)


async def toasts_shown(pilot: Pilot) -> None:
    """Wait until every notification the app holds is shown as a toast (Textual mounts the
    toasts after a refresh)."""
    app = pilot.app
    await until(
        pilot,
        lambda: len(app.screen.query(Toast)) == len(app._notifications),
        "a toast for each notification",
    )


async def type_text(pilot: Pilot, text: str) -> None:
    """`text` typed in one burst, as a paste or a fast typist over SSH delivers it: a key
    event a character, through the app as a key from the terminal goes (bindings, focus, the
    widget's own keys), without Pilot's wait for the CPU to go idle after every key."""
    for char in text:
        pilot.app.post_message(events.Key(_character_to_key(char), char))
    await pilot.pause()


def reader_of(sources: list[Path], data_dir: Path, config: Config | None = None) -> ReaderApp:
    """A reader over these sources (no seeds unless the config says so), with no pauses."""
    config = config or Config()
    session = Session.create(data_dir, sources, config)
    return make_app(session, config, timing=INSTANT, environ={})


def screen_text(app: App) -> str:
    """What the terminal shows, as plain text (one line per row)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


def row_ids(app: ReaderApp) -> list[str]:
    """The ids of the main list's rows, in order."""
    return [row.id for row in app.main.paper_list.rows]


def status_line(app: App) -> str:
    """The status line as shown: the screen's last line, or the one above the footer."""
    lines = screen_text(app).splitlines()
    footers = app.screen.query(KeyFooter)
    return lines[-2] if footers and footers.first().display else lines[-1]


def said(app: App) -> list[str]:
    """The notifications' texts, oldest first."""
    return [notification.message for notification in app._notifications]


def flat(text: str) -> str:
    """`text` with every run of white space (line ends too) as one space."""
    return " ".join(text.split())
