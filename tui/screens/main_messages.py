"""The main screen's workers' messages: a search's results, a sort's order, a "like my
bookmarks" ranking, the saved searches' papers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

from paperterm.tui.controllers.search import ViewRequest
from paperterm.tui.controllers.sorting import SortJob

if TYPE_CHECKING:
    from paperterm.index.library.affinity import Ranking
    from paperterm.index.search.hits import Results


class SearchDone(Message):
    """A search's results for `request`."""

    def __init__(self, request: ViewRequest, results: Results) -> None:
        super().__init__()
        self.request = request
        self.results = results


class LikeRanked(Message):
    """The "like my bookmarks" scores for these seeds are ready."""

    def __init__(self, seeds: tuple[str, ...], ranking: Ranking) -> None:
        super().__init__()
        self.seeds = seeds
        self.ranking = ranking


class SortReady(Message):
    """A sort's order (or the titles and dates it sorts by) is computed."""

    def __init__(self, job: SortJob) -> None:
        super().__init__()
        self.job = job


class SearchesMatched(Message):
    """Every saved search's papers (None: the index is not ready)."""

    def __init__(self, matches: dict[str, list[str]] | None) -> None:
        super().__init__()
        self.matches = matches
