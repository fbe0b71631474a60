"""The orders a view can be sorted in, for the reader's `s` key and `paperterm list --sort`.

    relevance  best match first while searching (the search's own order, or a saved search's);
               otherwise it is corpus order. The default.
    corpus     as the sources list the papers
    title      by title, ignoring case
    unread     unread papers first, each group in the order it had
    newest     newest year first (then newest arXiv id), papers without a year last
    like       "like my bookmarks": unread papers that are not bookmarked, most similar to the
               bookmarks first (affinity.py); then the rest as they were

Every sort is stable, so ties keep the order the view had. A view of the whole corpus (or
a part of it) is listed in order by filtering the corpus's papers in that order (`ordered`:
corpus, title and newest orders are computed once per corpus), so that `s` on 50,000 papers
costs one pass, not a sort; search results, a few hundred at most, are sorted (`order`).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Container, Generator, Iterator, Mapping, Sequence
from itertools import islice
from typing import Any, TypeVar

from paperterm.index.library.filters import paper_ids
from paperterm.index.papers import Paper
from paperterm.index.search.records import no_collection

T = TypeVar("T")

SORTS: dict[str, str] = {
    "relevance": "relevance",
    "corpus": "corpus order",
    "title": "title",
    "unread": "unread first",
    "newest": "newest first",
    "like": "like my bookmarks",
}
DEFAULT_SORT = "relevance"
#: The orders that do not change while the corpus does not, computed once (`SortKeys`).
FIXED_SORTS = ("title", "newest")
#: The orders that depend on the reading state, the bookmarks and the "like" ranking: kept
#: for the last of those they were computed for (`SortKeys.ready`).
CHANGING_SORTS = ("unread", "like")


def next_sort(current: str, searching: bool) -> str:
    """The sort after `current` in the cycle. Without a search, relevance is corpus order,
    so the cycle has it once."""
    keys = [key for key in SORTS if searching or key != "corpus"]
    if current not in keys:
        current = DEFAULT_SORT  # corpus order, named so while no search is on
    return keys[(keys.index(current) + 1) % len(keys)]


#: The corpus's positions are sorted this many at a time, then the sorted runs are merged:
#: one sort of 500,000 titles is one C call that holds the interpreter's lock long enough
#: for typed keys to wait.
SORT_RUN = 25_000
#: The runs are merged all at once (`heapq.merge`, stable), this many positions a step:
#: merged two by two, the last merge of two halves was one long step that keys waited for.
MERGE_STEP = 10_000
#: The rows `_read_facts` reads a step: larger steps held the lock long enough for typed keys
#: to wait.
READ_STEP = 5_000


def sorted_in_runs(keys: Sequence[Any], reverse: bool = False) -> Generator[None, None, list[int]]:
    """The positions of `keys` sorted by them, stably: `sorted(range(len(keys)),
    key=keys.__getitem__, reverse=reverse)`, a run or a part of the merge a step. Equal keys
    keep their positions' order either way: each run's sort is stable, and the merge takes
    equal keys from the earlier run first."""
    key = keys.__getitem__
    runs: list[list[int]] = []
    for start in range(0, len(keys), SORT_RUN):
        runs.append(
            sorted(range(start, min(start + SORT_RUN, len(keys))), key=key, reverse=reverse)
        )
        yield
    if len(runs) <= 1:
        return runs[0] if runs else []
    merged = heapq.merge(*runs, key=key, reverse=reverse)
    order: list[int] = []
    while piece := list(islice(merged, MERGE_STEP)):
        order += piece
        yield
    return order


def effective_sort(sort: str, searching: bool) -> str:
    """The sort that applies: relevance without a search is corpus order."""
    return "corpus" if sort == "relevance" and not searching else sort


class SortKeys:
    """The sort keys of one corpus's papers, computed on first use. A `PaperList`'s come from
    its rows file (ids, titles, years, arXiv ids): sorting 50,000 papers reads none."""

    def __init__(self, papers: Sequence[Paper]) -> None:
        self.papers = papers
        self._ids: Sequence[str] | None = None
        self._position: Mapping[str, int] | None = None
        self._title: dict[str, str] | None = None
        self._years: dict[str, int] | None = None
        self._arxiv_ids: dict[str, str] | None = None
        self._orders: dict[str, list[int]] = {}
        #: unread and like orders, each with the reading state, bookmarks and scores it is of
        self._changing: dict[str, tuple[tuple[object, ...], list[int]]] = {}

    @property
    def ids(self) -> Sequence[str]:
        """The papers' ids, in corpus order."""
        if self._ids is None:
            self._ids = paper_ids(self.papers)
        return self._ids

    def ordered(
        self,
        sort: str,
        *,
        read: Container[str] = (),
        bookmarked: Container[str] = (),
        scores: Mapping[str, float] | None = None,
    ) -> Sequence[int]:
        """Every paper's place in the corpus, in the order `sort` says (relevance: corpus
        order)."""
        if sort in ("corpus", "relevance"):
            return range(len(self.papers))
        if sort in FIXED_SORTS:
            if sort not in self._orders:
                for _ in self.order_steps(sort):
                    pass
            return self._orders[sort]
        if sort in CHANGING_SORTS:
            order = self._changing_order(sort, _inputs(sort, read, bookmarked, scores))
            if order is None:
                for _ in self._changing_steps(sort, read, bookmarked, scores):
                    pass
                order = self._changing[sort][1]
            return order
        raise ValueError(f"unknown sort {sort!r}; sorts: {', '.join(SORTS)}")

    def _changing_order(self, sort: str, inputs: tuple[object, ...]) -> list[int] | None:
        """The unread or like order computed for exactly these inputs (the same objects:
        the reading state and bookmarks publish a new dict on every change), if it is."""
        kept = self._changing.get(sort)
        if kept is None:
            return None
        return kept[1] if all(a is b for a, b in zip(kept[0], inputs, strict=True)) else None

    def _changing_steps(
        self,
        sort: str,
        read: Container[str],
        bookmarked: Container[str],
        scores: Mapping[str, float] | None,
    ) -> Iterator[None]:
        """Compute the unread or like order a step at a time (unread: two passes; like: a
        sort by a key)."""
        ids = self.ids
        if sort == "unread":
            unread: list[int] = []
            done: list[int] = []
            for start in range(0, len(ids), SORT_RUN):
                for i in range(start, min(start + SORT_RUN, len(ids))):
                    (done if ids[i] in read else unread).append(i)
                yield
            order = unread + done
        else:
            like = _like_key(read, bookmarked, scores)
            keys: list[tuple[int, float]] = []
            for start in range(0, len(ids), SORT_RUN):
                keys += [like(paper_id) for paper_id in ids[start : start + SORT_RUN]]
                yield
            order = yield from sorted_in_runs(keys)
        self._changing[sort] = (_inputs(sort, read, bookmarked, scores), order)

    def prepare(self) -> None:
        """Compute the fixed orders (title, newest) now, in a worker: the first `s` onto one
        then costs a pass over the corpus, not a sort."""
        for _ in self.prepare_steps():
            pass

    def prepare_steps(self) -> Iterator[None]:
        """`prepare` a step at a time, so that the reader's worker can pause between steps
        while keys come (they waited for the interpreter's lock behind it). The rows are read
        once for both orders, not by a key function of the id per order, which also set off
        walks of the garbage collector over the rows that held up every thread."""
        for sort in FIXED_SORTS:
            yield from self.order_steps(sort)

    def order_steps(self, sort: str) -> Iterator[None]:
        """Compute the fixed order `sort` (title or newest) a step at a time: the corpus's
        positions sorted by the key `order` gives their ids, the same order."""
        if sort in self._orders:
            return
        yield from self._read_facts()
        ids = self.ids
        keys: list[Any] = []
        if sort == "title":
            title = self.title
            for start in range(0, len(ids), SORT_RUN):
                keys += [title[paper_id] for paper_id in ids[start : start + SORT_RUN]]
                yield
        else:
            years, arxiv_ids = self._years_and_arxiv()
            for start in range(0, len(ids), SORT_RUN):
                part = ids[start : start + SORT_RUN]
                keys += [(years[paper_id], arxiv_ids[paper_id]) for paper_id in part]
                yield
        self._orders[sort] = yield from sorted_in_runs(keys, reverse=sort == "newest")

    def ready(
        self,
        sort: str,
        *,
        whole: bool,
        read: Container[str] = (),
        bookmarked: Container[str] = (),
        scores: Mapping[str, float] | None = None,
    ) -> bool:
        """Whether `sort` costs no pass over every paper: for the whole corpus (`whole`,
        `ordered`), whether its fixed order is computed, or its unread or like order for
        this reading state, these bookmarks and scores (a corpus of at most `SORT_RUN`
        papers: one step's pass, always ready); for a few items (`order`), whether the
        titles or dates are read. The reader computes what is not ready in a worker
        (`steps_for`)."""
        if sort in CHANGING_SORTS:
            if not whole or len(self.papers) <= SORT_RUN:
                return True
            return self._changing_order(sort, _inputs(sort, read, bookmarked, scores)) is not None
        if sort not in FIXED_SORTS:
            return True
        if whole:
            return sort in self._orders
        return self._arxiv_ids is not None  # the last of the facts `_read_facts` sets

    def steps_for(
        self,
        sort: str,
        *,
        whole: bool,
        read: Container[str] = (),
        bookmarked: Container[str] = (),
        scores: Mapping[str, float] | None = None,
    ) -> Iterator[None]:
        """What makes `ready(sort, whole=whole, ...)` true, a step at a time."""
        if sort in CHANGING_SORTS:
            computed = self._changing_order(sort, _inputs(sort, read, bookmarked, scores))
            if whole and computed is None:
                return self._changing_steps(sort, read, bookmarked, scores)
            return iter(())
        if sort not in FIXED_SORTS:
            return iter(())
        return self.order_steps(sort) if whole else self._read_facts()

    @property
    def position(self) -> Mapping[str, int]:
        """Paper id -> place in the corpus: a `PaperList`'s own table (its engines' too),
        else made here (a pass over the corpus: the reader makes it in a worker,
        `ReaderState.find_search_matches`)."""
        if self._position is None:
            shared = getattr(self.papers, "positions", None)
            self._position = (
                shared
                if shared is not None
                else dict(zip(self.ids, range(len(self.ids)), strict=True))
            )
        return self._position

    @property
    def title(self) -> dict[str, str]:
        if self._title is None:
            for _ in self._read_facts():
                pass
        assert self._title is not None
        return self._title

    def _years_and_arxiv(self) -> tuple[dict[str, int], dict[str, str]]:
        if self._years is None or self._arxiv_ids is None:
            for _ in self._read_facts():
                pass
        assert self._years is not None and self._arxiv_ids is not None
        return self._years, self._arxiv_ids

    def _newest_key(self, paper_id: str) -> tuple[int, str]:
        """(year, arXiv id); a paper not in the corpus before every paper in it."""
        years, arxiv_ids = self._years_and_arxiv()
        year = years.get(paper_id)
        return (-1, "") if year is None else (year, arxiv_ids[paper_id])

    def _read_facts(self) -> Iterator[None]:
        """Each paper's title key, year and arXiv id (a `PaperList`'s from its rows), kept
        in dicts of strings and ints, which the garbage collector does not walk. Read
        `READ_STEP` papers a step, the collector paused (`no_collection`) while a step's
        rows are alive: they are dropped before it runs again, so it never walks them."""
        if self._title is not None:
            return
        title: dict[str, str] = {}
        years: dict[str, int] = {}
        arxiv_ids: dict[str, str] = {}
        papers = self.papers
        row = getattr(papers, "row", None)
        for start in range(0, len(papers), READ_STEP):
            with no_collection():
                for i in range(start, min(start + READ_STEP, len(papers))):
                    if row is not None:
                        paper_id, name, text_title, _, year, _, arxiv_id = row(i)
                    else:
                        paper = papers[i]
                        paper_id, name, text_title = paper.id, paper.name, paper.title
                        year, arxiv_id = paper.year, paper.arxiv_id
                    title[paper_id] = " ".join(
                        (text_title or name or self._text(i)[:200]).split()
                    ).casefold()
                    years[paper_id] = year or 0
                    arxiv_ids[paper_id] = arxiv_id
            yield
        self._title, self._years, self._arxiv_ids = title, years, arxiv_ids

    def _text(self, index: int) -> str:
        """A paper's text (only for one with neither title nor name, to sort it by)."""
        return self.papers[index].text

    def order(
        self,
        items: list[T],
        id_of: Callable[[T], str],
        sort: str,
        *,
        read: Container[str] = (),
        bookmarked: Container[str] = (),
        scores: Mapping[str, float] | None = None,
    ) -> list[T]:
        """`items` in the order `sort` says (`relevance`: as they are). `scores` are the
        "like my bookmarks" scores (affinity.py); items without a paper (a bookmark whose
        paper left the corpus) go last in every order but relevance."""
        if sort == "relevance":
            return items
        if sort == "corpus":
            position, last = self.position, len(self.papers)
            return sorted(items, key=lambda item: position.get(id_of(item), last))
        if sort == "title":
            title = self.title
            return sorted(
                items, key=lambda item: (id_of(item) not in title, title.get(id_of(item), ""))
            )
        if sort == "unread":
            return sorted(items, key=lambda item: id_of(item) in read)
        if sort == "newest":
            newest = self._newest_key
            return sorted(items, key=lambda item: newest(id_of(item)), reverse=True)
        if sort == "like":
            like = _like_key(read, bookmarked, scores)
            return sorted(items, key=lambda item: like(id_of(item)))
        raise ValueError(f"unknown sort {sort!r}; sorts: {', '.join(SORTS)}")


def _inputs(
    sort: str,
    read: Container[str],
    bookmarked: Container[str],
    scores: Mapping[str, float] | None,
) -> tuple[object, ...]:
    """What the unread or like order of the corpus depends on."""
    return (read,) if sort == "unread" else (read, bookmarked, scores)


def _like_key(
    read: Container[str], bookmarked: Container[str], scores: Mapping[str, float] | None
) -> Callable[[str], tuple[int, float]]:
    """A paper id's place in the like order: unread papers that are not bookmarked, most
    similar first; then those without a score; then the read and bookmarked ones."""
    scored = scores or {}

    def like(paper_id: str) -> tuple[int, float]:
        if paper_id in read or paper_id in bookmarked:
            return 2, 0.0
        score = scored.get(paper_id, 0.0)
        return (0, -score) if score > 0 else (1, 0.0)

    return like
