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

from collections.abc import Callable, Container, Mapping, Sequence
from typing import TypeVar

from paperterm.index.papers import Paper

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


def next_sort(current: str, searching: bool) -> str:
    """The sort after `current` in the cycle. Without a search, relevance is corpus order,
    so the cycle has it once."""
    keys = [key for key in SORTS if searching or key != "corpus"]
    if current not in keys:
        current = DEFAULT_SORT  # corpus order, named so while no search is on
    return keys[(keys.index(current) + 1) % len(keys)]


def effective_sort(sort: str, searching: bool) -> str:
    """The sort that applies: relevance without a search is corpus order."""
    return "corpus" if sort == "relevance" and not searching else sort


class SortKeys:
    """The sort keys of one corpus's papers, computed on first use."""

    def __init__(self, papers: Sequence[Paper]) -> None:
        self.papers = papers
        self._position: dict[str, int] | None = None
        self._title: dict[str, str] | None = None
        self._newest: dict[str, tuple[int, str]] | None = None
        self._orders: dict[str, list[Paper]] = {}

    def ordered(
        self,
        sort: str,
        *,
        read: Container[str] = (),
        bookmarked: Container[str] = (),
        scores: Mapping[str, float] | None = None,
    ) -> Sequence[Paper]:
        """Every paper in the order `sort` says (relevance: corpus order)."""
        if sort in ("corpus", "relevance"):
            return self.papers
        if sort in ("title", "newest"):  # they do not change while the corpus does not
            if sort not in self._orders:
                self._orders[sort] = self.order(list(self.papers), _paper_id, sort)
            return self._orders[sort]
        if sort == "unread":  # two passes, not a sort: 50,000 papers in ~5 ms
            return [p for p in self.papers if p.id not in read] + [
                p for p in self.papers if p.id in read
            ]
        return self.order(
            list(self.papers), _paper_id, sort, read=read, bookmarked=bookmarked, scores=scores
        )

    def prepare(self) -> None:
        """Compute the fixed orders (title, newest) now, in a worker: the first `s` onto one
        then costs a pass over the corpus, not a sort (at 50,000 papers ~150 ms of CPU)."""
        for sort in ("title", "newest"):
            self.ordered(sort)

    @property
    def position(self) -> dict[str, int]:
        if self._position is None:
            self._position = {paper.id: index for index, paper in enumerate(self.papers)}
        return self._position

    @property
    def title(self) -> dict[str, str]:
        if self._title is None:
            self._title = {
                p.id: " ".join((p.title or p.name or p.text[:200]).split()).casefold()
                for p in self.papers
            }
        return self._title

    @property
    def newest(self) -> dict[str, tuple[int, str]]:
        if self._newest is None:
            self._newest = {p.id: (p.year or 0, p.arxiv_id) for p in self.papers}
        return self._newest

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
            newest = self.newest
            return sorted(items, key=lambda item: newest.get(id_of(item), (-1, "")), reverse=True)
        if sort == "like":
            scores = scores or {}

            def like(item: T) -> tuple[int, float]:
                paper_id = id_of(item)
                if paper_id in read or paper_id in bookmarked:
                    return 2, 0.0
                score = scores.get(paper_id, 0.0)
                return (0, -score) if score > 0 else (1, 0.0)

            return sorted(items, key=like)
        raise ValueError(f"unknown sort {sort!r}; sorts: {', '.join(SORTS)}")


def _paper_id(paper: Paper) -> str:
    return paper.id
