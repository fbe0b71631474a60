"""Helpers shared by the reader's tests (imported by name: tests/tui is on sys.path)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from textual.app import App
from textual.pilot import Pilot

from paperterm.index.search.store import BuildCancelled, OpenIndex, Progress
from paperterm.index.session import Session
from paperterm.index.sources.loader import Corpus


@dataclass(slots=True)
class GatedSession(Session):
    """A first launch: no index yet; the build reports `percent` and then waits for `gate`
    (or for the app to cancel it). `build_failure` makes the build raise instead; `corpus`
    replaces the configured sources."""

    percent: int = 45
    gate: threading.Event = field(default_factory=threading.Event)
    build_failure: Exception | None = None
    corpus: Corpus | None = None

    def open_existing(self) -> OpenIndex | None:
        return None

    def load_corpus(self) -> Corpus:
        return self.corpus if self.corpus is not None else Session.load_corpus(self)

    def build(
        self,
        corpus: Corpus,
        progress: Progress | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> OpenIndex:
        if progress is not None:
            progress(self.percent, 100)
        while not self.gate.wait(0.02):
            if cancelled is not None and cancelled():
                raise BuildCancelled
        if self.build_failure is not None:
            raise self.build_failure
        return Session.build(self, corpus)


async def settle(pilot: Pilot, rounds: int = 3, workers: bool = True) -> None:
    """Let timers fire, workers finish and their messages land (`workers=False` while a
    gated build holds its worker)."""
    for _ in range(rounds):
        await pilot.pause(0.15)
        if workers:
            await pilot.app.workers.wait_for_complete()
        await pilot.pause()


def screen_text(app: App) -> str:
    """What the terminal shows, as plain text (one line per row)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


def flat(text: str) -> str:
    """`text` with every run of white space (line ends too) as one space."""
    return " ".join(text.split())
