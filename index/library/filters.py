"""Which papers a view may show, before any query words: the reader's filters (bookmarks
only, one collection) and the query's `tag:` filters. The reader and `paperterm search` both
call `allowed_ids`, so `tag:to-read` means the same in either."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from paperterm.index.library.bookmarks import Bookmark
from paperterm.index.papers import Paper


@dataclass(frozen=True, slots=True)
class Filters:
    """Restrictions that apply on top of the query."""

    bookmarks_only: bool = False
    collection: str | None = None

    @property
    def active(self) -> bool:
        return self.bookmarks_only or self.collection is not None


def allowed_ids(
    papers: Iterable[Paper],
    marks: Mapping[str, Bookmark],
    filters: Filters,
    tags: Iterable[str] = (),
    excluded_tags: Iterable[str] = (),
    tag_prefixes: Iterable[str] = (),
) -> set[str] | None:
    """The ids the view may show, or None when nothing restricts it.

    `tags` (from `tag:NAME` in the query) keep bookmarks carrying every one of them;
    `tag_prefixes` (a last `tag:NA` still being typed) keep bookmarks with a tag that starts
    so; `excluded_tags` (`-tag:NAME`) drop papers whose bookmark carries any of them. Tags
    compare case-insensitively.
    """
    tags = [tag.lower() for tag in tags]
    prefixes = tuple(prefix.lower() for prefix in tag_prefixes)
    excluded = [tag.lower() for tag in excluded_tags]
    allowed: set[str] | None = None
    if filters.bookmarks_only or tags or prefixes:
        allowed = set()
        for mark_id, mark in marks.items():
            held = _lower_tags(mark)
            if all(tag in held for tag in tags) and all(
                any(tag.startswith(prefix) for tag in held) for prefix in prefixes
            ):
                allowed.add(mark_id)
    if filters.collection is not None:
        name = filters.collection
        in_collection = {i for i, collections in _collections(papers) if name in collections}
        allowed = in_collection if allowed is None else allowed & in_collection
    if excluded:
        tagged = {i for i, mark in marks.items() if any(t in _lower_tags(mark) for t in excluded)}
        allowed = (set(paper_ids(papers)) if allowed is None else allowed) - tagged
    return allowed


def paper_ids(papers: Iterable[Paper]) -> Sequence[str]:
    """The papers' ids (of a `PaperList`, read from its rows, not its papers: 50,000 papers
    are not unmarshalled to filter them)."""
    ids = getattr(papers, "ids", None)
    return ids if ids is not None else [paper.id for paper in papers]


def _collections(papers: Iterable[Paper]) -> Iterator[tuple[str, Sequence[str]]]:
    """(id, collections) of each paper; a `PaperList`'s from its rows."""
    row = getattr(papers, "row", None)
    if row is None:
        return ((paper.id, paper.collections) for paper in papers)
    count = len(papers)  # type: ignore[arg-type]
    return ((found[0], found[3]) for found in map(row, range(count)))


def _lower_tags(mark: Bookmark) -> set[str]:
    return {tag.lower() for tag in mark.tags}
