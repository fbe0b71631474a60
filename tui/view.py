"""What the reader shows, decided without Textual: rows, filters, counts, links.

Kept apart from the widgets so the rules (which papers are in view, how the count reads,
when a link can be opened locally) are plain functions with plain tests.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from paperterm.index.library.bookmarks import Bookmark
from paperterm.index.links import primary_link
from paperterm.index.papers import Paper
from paperterm.index.text.display import one_line


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the list: a paper, or a bookmark whose paper left the corpus."""

    id: str
    paper: Paper | None
    missing_title: str = ""

    @property
    def missing(self) -> bool:
        return self.paper is None


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
) -> set[str] | None:
    """The ids the view may show, or None when nothing restricts it.

    `tags` (from `tag:NAME` in the query) keep bookmarks carrying every one of them;
    `excluded_tags` (`-tag:NAME`) drop papers whose bookmark carries any of them.
    Tags compare case-insensitively.
    """
    tags = [tag.lower() for tag in tags]
    excluded = [tag.lower() for tag in excluded_tags]
    allowed: set[str] | None = None
    if filters.bookmarks_only or tags:
        allowed = {
            mark_id
            for mark_id, mark in marks.items()
            if all(tag in _lower_tags(mark) for tag in tags)
        }
    if filters.collection is not None:
        name = filters.collection
        in_collection = {i for i, collections in _collections(papers) if name in collections}
        allowed = in_collection if allowed is None else allowed & in_collection
    if excluded:
        tagged = {i for i, mark in marks.items() if any(t in _lower_tags(mark) for t in excluded)}
        allowed = (set(paper_ids(papers)) if allowed is None else allowed) - tagged
    return allowed


def paper_ids(papers: Iterable[Paper]) -> Sequence[str]:
    """The papers' ids (of a `PaperList`, read from its rows, not its papers)."""
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


def paper_rows(papers: Sequence[Paper], allowed: set[str] | None) -> Sequence[Row]:
    """The papers in corpus order, restricted to `allowed`. Every paper's row is made only
    when the list looks at it (50,000 rows, ~24 on screen)."""
    if allowed is None:
        return PaperRows(papers)
    ids = paper_ids(papers)
    return [Row(ids[i], papers[i]) for i in range(len(ids)) if ids[i] in allowed]


class PaperRows(Sequence[Row]):
    """A row for each paper, made when asked for (the paper read then, from a `PaperList`)."""

    def __init__(self, papers: Sequence[Paper]) -> None:
        self.papers = papers
        self._index: dict[str, int] | None = None

    def __len__(self) -> int:
        return len(self.papers)

    def __getitem__(self, index):  # type: ignore[no-untyped-def]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        paper = self.papers[index]
        return Row(paper.id, paper)

    def index_of(self, paper_id: str) -> int | None:
        """Where the paper's row is, without making the rows before it."""
        find = getattr(self.papers, "index_of", None)
        if find is not None:
            return find(paper_id)
        if self._index is None:
            self._index = {paper.id: index for index, paper in enumerate(self.papers)}
        return self._index.get(paper_id)


def row_index(rows: Sequence[Row], paper_id: str) -> int | None:
    """Where the paper's row is among `rows` (`PaperRows` find it without making them)."""
    find = getattr(rows, "index_of", None)
    if find is not None:
        return find(paper_id)
    return next((index for index, row in enumerate(rows) if row.id == paper_id), None)


def missing_rows(
    marks: Mapping[str, Bookmark], by_id: Mapping[str, Paper], allowed: set[str] | None
) -> list[Row]:
    """Bookmarks whose paper is not in the corpus (shown in the bookmarks view)."""
    return [
        Row(mark_id, None, mark.title or mark_id)
        for mark_id, mark in marks.items()
        if mark_id not in by_id and (allowed is None or mark_id in allowed)
    ]


def count_text(in_view: int, total: int, filtered: bool) -> str:
    """`38 papers`, or while a query or filter narrows the view, `3 of 38 papers`."""
    noun = "paper" if total == 1 else "papers"
    if filtered:
        return f"{in_view} of {total} {noun}"
    return f"{total} {noun}"


def unsaved_text(pending: int) -> str:
    """The status line's part for bookmark changes a failed save left in memory ("" when
    there are none): visible until they are saved, since a toast is easily missed."""
    if not pending:
        return ""
    return f"{pending} bookmark change{'s' if pending != 1 else ''} not saved"


def citation(paper: Paper) -> str:
    """A one-line reference for a paper without a link: authors, title, collection, year."""
    parts = []
    if paper.authors:
        names = ", ".join(paper.authors[:3])
        parts.append(names + (" et al." if len(paper.authors) > 3 else ""))
    parts.append(paper.title or paper.name or paper.id)
    parts.append(paper.collection + (f", {paper.year}" if paper.year else ""))
    parts = [part if part.endswith((".", "?", "!")) else part + "." for part in parts]
    if paper.doi:
        parts.append(f"doi:{paper.doi}")
    elif paper.arxiv_id:
        parts.append(f"arXiv:{paper.arxiv_id}")
    return one_line(" ".join(parts))


def link_or_citation(paper: Paper) -> tuple[str, str]:
    """What `y` copies: ("link", the primary link) or, without one, ("citation", text)."""
    link = primary_link(paper)
    return ("link", link) if link else ("citation", citation(paper))


def can_open_browser(environ: Mapping[str, str] | None = None, platform: str = "") -> bool:
    """Whether a browser opened here would be seen by the user: not over SSH, and on Linux
    and other X11/Wayland systems only with a display."""
    env = os.environ if environ is None else environ
    platform = platform or sys.platform
    if any(env.get(name) for name in ("SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY")):
        return False
    if platform.startswith(("darwin", "win")):
        return True
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))
