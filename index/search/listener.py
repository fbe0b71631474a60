"""What a build tells its caller as it goes (kept apart from the build, which imports the
parsers: the reader and the CLI import this at start, and the parsers only when a build runs).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from paperterm.index.papers import Paper
from paperterm.index.search.open_index import OpenIndex
from paperterm.index.search.store import BuildCancelled


@dataclass(slots=True)
class Listener:
    """What a build tells its caller as it goes (each may be None); called from the thread
    that runs the build."""

    #: (papers read so far, papers expected): the expected count is estimated from the
    #: bytes read until every file is read.
    progress: Callable[[int, int], None] | None = None
    #: (bytes of the source files read so far, bytes to read): a JSON Lines file is read
    #: line by line, so this moves within a file too.
    read_bytes: Callable[[int, int], None] | None = None
    #: The papers read so far, in corpus order (before duplicates are merged).
    papers: Callable[[list[Paper]], None] | None = None
    #: An index of what is indexed so far (`OpenIndex.building_total` says of how much).
    searchable: Callable[[OpenIndex], None] | None = None
    cancelled: Callable[[], bool] | None = None

    def check(self) -> None:
        if self.cancelled is not None and self.cancelled():
            raise BuildCancelled
