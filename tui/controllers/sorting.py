"""The list's sort as plain state: which sort applies, the rows in its order, a sort whose
order a worker computes (the view waits for it), and "like my bookmarks" ranking's seeds.

A sort whose order is not ready (title or newest before their keys are computed, unread
or like after a change) is computed in a worker; meanwhile the rows are shown in an order
that is ready and sorted when it comes, the cursor on the paper it is on then.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, NamedTuple

from paperterm.index.library.filters import Filters, like_seeds
from paperterm.index.library.sorting import DEFAULT_SORT, SortKeys, effective_sort
from paperterm.tui.controllers.search import View, ViewRequest
from paperterm.tui.view import PaperRows, Row

if TYPE_CHECKING:
    from paperterm.index.library.affinity import Ranking
    from paperterm.tui.state import ReaderState

_row_id = attrgetter("id")


class SortJob(NamedTuple):
    """What a sort worker computes: `sort`'s order in these sort keys (`whole`: for every
    paper, else the titles or dates a search's hits are sorted by), for this reading state,
    these bookmarks and "like" scores (the unread and like orders depend on them)."""

    keys: SortKeys
    sort: str
    whole: bool
    read: Collection[str]
    bookmarked: Collection[str]
    scores: Mapping[str, float] | None

    def same(self, other: SortJob) -> bool:
        """The same job: the same sort keys, reading state, bookmarks and scores (the same
        objects: the stores publish a new dict on every change, so an order of an older
        state is never taken for a newer), and an equal sort (a name read from place.toml
        is another string than the key's or the palette's)."""
        return (
            self.sort == other.sort
            and self.whole == other.whole
            and self.keys is other.keys
            and self.read is other.read
            and self.bookmarked is other.bookmarked
            and self.scores is other.scores
        )

    def ready(self) -> bool:
        """Whether the order is known without computing it."""
        return self.keys.ready(
            self.sort,
            whole=self.whole,
            read=self.read,
            bookmarked=self.bookmarked,
            scores=self.scores,
        )


class SortWait(NamedTuple):
    """A view waiting for its sort: the job a worker computes, the request, its view when
    it is a search's (else the rows are made when the order comes), and the paper the
    cursor was on when it was asked for."""

    job: SortJob
    request: ViewRequest
    view: View | None
    cursor_id: str | None


class SortControl:
    """The chosen sort, the view waiting for a sort's order, the seeds of the "like my
    bookmarks" ranking asked for last, and the whole corpus's rows in each fixed order."""

    def __init__(self, state: ReaderState) -> None:
        self.state = state
        self.sort = DEFAULT_SORT
        self.wait: SortWait | None = None
        #: The seeds of `state.ranking` (or of the ranking on its way).
        self.like_seeds: tuple[str, ...] | None = None
        #: By sort, while nothing narrows the view.
        self.all_rows: dict[str, Sequence[Row]] = {}

    def papers_changed(self) -> None:
        self.all_rows = {}
        self.like_seeds = None

    def papers_refreshed(self) -> None:
        """The same papers (by id) read again: the rows are made anew; the "like" seeds
        and ranking, by id, stand."""
        self.all_rows = {}

    def effective(self, searching: bool) -> str:
        """The sort that applies now (relevance only orders a search)."""
        sort = effective_sort(self.sort, searching)
        self.state.like_order = sort == "like"
        return sort

    def seeds(self, filters: Filters) -> tuple[str, ...]:
        return tuple(like_seeds(self.state.bookmarks.entries, filters.view))

    def like_due(self, filters: Filters) -> tuple[str, ...] | None:
        """The seeds to rank by when the bookmarks changed since the last ranking, else
        None."""
        seeds = self.seeds(filters)
        return seeds if seeds != self.like_seeds else None

    def rank_like(self, seeds: tuple[str, ...]) -> None:
        """A ranking for `seeds` is asked for: the one shown is dropped."""
        self.like_seeds = seeds
        self.state.ranking = None

    def like_ranked(self, seeds: tuple[str, ...], ranking: Ranking) -> bool:
        """A ranking came; False when the bookmarks changed since it was asked for."""
        if seeds != self.like_seeds:
            return False
        self.state.ranking = ranking
        return True

    def _scores(self) -> Mapping[str, float] | None:
        ranking = self.state.ranking
        return ranking.scores if ranking is not None else None

    def rows(self, allowed: set[str] | None, sort: str) -> Sequence[Row]:
        """The rows of the papers `allowed` (None: all), in `sort`'s order: one pass over
        the corpus's ids in that order (index/library/sorting.py), no sort; rows are made
        when shown (a `PaperList`'s papers read then). The whole corpus in a fixed order is
        kept."""
        state = self.state
        fixed = sort in ("corpus", "title", "newest")
        if allowed is None and fixed and sort in self.all_rows:
            return self.all_rows[sort]
        ordered = state.sort_keys.ordered(
            sort,
            read=state.reading.entries,
            bookmarked=state.bookmarks.entries,
            scores=self._scores(),
        )
        if allowed is None:
            rows = PaperRows(state.papers, None if sort in ("corpus", "relevance") else ordered)
        else:
            ids = state.sort_keys.ids
            rows = PaperRows(state.papers, [i for i in ordered if ids[i] in allowed])
        if allowed is None and fixed:
            self.all_rows[sort] = rows
        return rows

    def sorted(self, rows: list[Row], sort: str) -> list[Row]:
        state = self.state
        return state.sort_keys.order(
            rows,
            _row_id,
            sort,
            read=state.reading.entries,
            bookmarked=state.bookmarks.entries,
            scores=self._scores(),
        )

    def job(self, sort: str, whole: bool) -> SortJob:
        state = self.state
        return SortJob(
            state.sort_keys,
            sort,
            whole,
            state.reading.entries,
            state.bookmarks.entries,
            self._scores(),
        )

    def begin_wait(
        self, job: SortJob, request: ViewRequest, view: View | None, cursor_id: str | None
    ) -> bool:
        """The view waits for `job`; True when a worker must compute it (no worker runs
        the same job)."""
        wait = self.wait
        self.wait = SortWait(job, request, view, cursor_id)
        return wait is None or not wait.job.same(job)

    def end_wait(self) -> bool:
        """The view waits for no sort; True when one was waited for (its worker is to be
        cancelled)."""
        waited = self.wait is not None
        self.wait = None
        return waited

    def wait_from_here(self, request: ViewRequest, shown: str | None) -> None:
        """The rows of `request` are shown before their sort's order came: they are sorted
        when it comes, the cursor on the paper `shown` then."""
        wait = self.wait
        if wait is not None:
            self.wait = wait._replace(request=request._replace(keep_id=shown), cursor_id=shown)

    def take(self, job: SortJob) -> SortWait | None:
        """The wait a finished `job` ends; None when the view waits for another sort or
        none (that worker's message is to come, or it was cancelled)."""
        wait = self.wait
        if wait is None or not wait.job.same(job):
            return None
        self.wait = None
        return wait

    def waiting_sort(self) -> str | None:
        """The sort the view waits for, if any."""
        return self.wait.job.sort if self.wait is not None else None
