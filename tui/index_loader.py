"""The reader's index worker: reads the library, opens the index (or, on a first launch,
builds it, posting the papers as they are read and what is indexed so far to search), then
warms the searcher and the sort keys while no key is typed. It runs in a thread and tells
the app everything by message (tui/app_messages.py)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from paperterm.index.library.sorting import SortKeys
from paperterm.index.papers import Paper
from paperterm.index.search.records import PaperList
from paperterm.index.session import Session
from paperterm.tui.app_messages import (
    CorpusLoaded,
    IndexBytes,
    IndexProgress,
    IndexReady,
    IndexUpdating,
    LibraryLoaded,
    PartialIndex,
    SortKeysReady,
    TopicsReady,
)
from paperterm.tui.state import ReaderState

if TYPE_CHECKING:
    from textual.message import Message

    from paperterm.index.search.open_index import OpenIndex

#: While a first build reads sources, the list takes in what was read at most this often
#: (seconds): each time it is the whole list so far.
READ_PAPERS_EVERY = 0.25
#: Searched once each when the index is ready (`Searcher.warm_typing`): every word typed
#: begins with one of them, and its first key is the costliest.
TYPING_WARM_LETTERS = "abcdefghijklmnopqrstuvwxyz"


class Throttle:
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


class IndexLoader:
    """One run of the index worker for `session`, posting its messages with `post`; it
    ends early once `stop` is set (the reader is ending)."""

    def __init__(
        self,
        session: Session,
        state: ReaderState,
        post: Callable[[Message], object],
        stop: threading.Event,
    ) -> None:
        self.session = session
        self.state = state
        self.post = post
        self.stop = stop

    def run(self) -> None:
        # The reading state and where the reader was (a big reading.toml takes a while to
        # parse: not on the UI thread); a built index's rows were read before the first frame.
        self.state.load_library(self.session.sources_key)
        papers = self.state.papers if isinstance(self.state.papers, PaperList) else None
        if papers is not None:
            # The rows' ids and the id -> place table, which the unread count and the
            # cursor's place need next, made here rather than on the UI thread.
            papers.warm()
        self.post(LibraryLoaded())
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
        self.post(IndexReady(opened, searcher, list(self.session.warnings)))
        with self.state.search_lock:
            searcher.warm()  # the id -> document table, off the UI thread
        # Each letter as the first key of a word, a letter at a time (a search typed
        # meanwhile waits for one letter at most). Each letter's results are kept: typed
        # as a search's first key, it is answered from them.
        limit = self.state.config.search_limit
        for letter in TYPING_WARM_LETTERS:
            if self.stop.is_set():
                return
            with self.state.search_lock:
                searcher.warm_typing(letter, limit)
        keys = SortKeys(opened.papers)
        # So that `s` onto title or newest is a pass, not a sort: a step at a time, each
        # while no key is being typed (keys typed meanwhile would wait behind it).
        for _ in keys.prepare_steps():
            if not self._wait_for_quiet():
                return
        self.post(SortKeysReady(keys))
        self._topics(opened)

    def _topics(self, opened: OpenIndex) -> None:
        """Last, once the reader is warm: the topics of a corpus that carries none, kept
        with the index or computed (in a process of their own for a large corpus)."""
        from paperterm.index.planning.kept_topics import topic_labels
        from paperterm.index.planning.topics_process import background_topics

        kept = background_topics(self.session, opened, self.stop.is_set)
        if kept is not None and kept.topics is not None and not self.stop.is_set():
            self.post(TopicsReady(topic_labels(kept.topics), kept.warning))

    def _wait_for_quiet(self) -> bool:
        """Wait until no key was typed into the search box for `timing.quiet`; False if the
        reader is ending."""
        timing = self.state.timing
        while not self.stop.is_set():
            idle = timing.clock() - self.state.typed_at
            if idle >= timing.quiet:
                return True
            self.stop.wait(timing.quiet - idle)
        return False

    def _update(self) -> OpenIndex | None:
        """A source changed since the index was built: the old index is listed and searched
        while the update runs, then the new one (None: no old index to show meanwhile)."""
        previous = self.session.open_previous()
        if previous is None:
            return None
        from paperterm.index.search.listener import Listener
        from paperterm.index.search.searcher import Searcher

        self.post(CorpusLoaded(previous.papers, self.session.problems, building=False))
        searcher = Searcher(previous.ix, previous.papers, previous.vocabulary())
        self.post(IndexUpdating(previous, searcher))
        listener = Listener(
            progress=self._post_progress, read_bytes=self._post_bytes, cancelled=self.stop.is_set
        )
        return self.session.build(listener=listener)

    def _build(self) -> OpenIndex:
        """The first launch (or a source changed): build, showing the papers as they are
        read, and searching what is indexed so far."""
        from paperterm.index.search.listener import Listener  # a build's only

        problems = self.session.problems
        self.post(CorpusLoaded([], problems, building=True))
        shown = Throttle(READ_PAPERS_EVERY)

        def papers(read: list[Paper]) -> None:
            if shown.due():
                self.post(CorpusLoaded(read, problems, building=True))

        def searchable(opened: OpenIndex) -> None:
            from paperterm.index.search.searcher import Searcher

            searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
            self.post(PartialIndex(opened, searcher))

        listener = Listener(
            progress=self._post_progress,
            read_bytes=self._post_bytes,
            papers=papers,
            searchable=searchable,
            cancelled=self.stop.is_set,
        )
        return self.session.build(listener=listener)

    def _post_progress(self, done: int, total: int) -> None:
        self.post(IndexProgress(done, total))

    def _post_bytes(self, read: int, size: int) -> None:
        self.post(IndexBytes(read, size))
