"""What the reader shows, decided without Textual: rows, counts, the sidebar's entries,
links, the search note.

Kept apart from the widgets so the rules (rows, how the counts read, when a link can be
opened locally, how the note fits) are plain functions with plain tests. Which papers are
in view is decided in index/library/filters.py, shared with the CLI.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Container, Mapping, Sequence
from datetime import datetime
from operator import attrgetter
from typing import NamedTuple

from rich.cells import cell_len

from paperterm.index.library.bookmarks import Bookmark
from paperterm.index.library.filters import ALL, Filters, ViewKey, all_tags, paper_ids
from paperterm.index.library.searches import SavedSearch
from paperterm.index.links import primary_link
from paperterm.index.papers import Paper
from paperterm.index.text.display import one_line


class Row(NamedTuple):
    """One line of the list: a paper, or a bookmark whose paper left the corpus. A named
    tuple, not a frozen dataclass: cheaper to define as the reader starts, and cheaper to
    make (a row is made for every row the list draws)."""

    id: str
    paper: Paper | None
    missing_title: str = ""

    @property
    def missing(self) -> bool:
        return self.paper is None


class PaperRows(Sequence[Row]):
    """The rows of the papers at `positions` (None: every paper, in corpus order). A row is
    made when the list looks at it (the paper read then, from a `PaperList`): only the rows
    on screen are ever made."""

    def __init__(self, papers: Sequence[Paper], positions: Sequence[int] | None = None) -> None:
        self.papers = papers
        self.positions = positions
        self._ids: list[str] | None = None
        self._index: dict[str, int] | None = None

    def __len__(self) -> int:
        return len(self.papers) if self.positions is None else len(self.positions)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        position = index if self.positions is None else self.positions[index]
        paper = self.papers[position]
        return Row(paper.id, paper)

    @property
    def ids(self) -> list[str]:
        """The rows' ids, read from a `PaperList`'s rows file, not its papers."""
        if self._ids is None:
            ids = paper_ids(self.papers)
            positions = range(len(ids)) if self.positions is None else self.positions
            self._ids = list(map(ids.__getitem__, positions))
        return self._ids

    def index_of(self, paper_id: str) -> int | None:
        """Where the paper's row is, without making the rows before it."""
        find = getattr(self.papers, "index_of", None)
        if find is not None and self.positions is None:
            found: int | None = find(paper_id)
            return found
        if self._index is None:  # the first row of an id, as `list.index` finds it
            ids = self.ids
            self._index = dict(zip(reversed(ids), range(len(ids) - 1, -1, -1), strict=True))
        return self._index.get(paper_id)

    def several_collections(self) -> bool:
        """Whether the rows' papers come from more than one collection (a paper's first is
        its own; stops at the second); a `PaperList` says from its rows file, reading no
        paper (from its header when every paper is listed)."""
        firsts = getattr(self.papers, "first_collections", None)
        if firsts is not None and (len(firsts) < 2 or self.positions is None):
            return len(firsts) > 1
        row = getattr(self.papers, "row", None)
        seen: set[str] = set()
        for position in range(len(self.papers)) if self.positions is None else self.positions:
            names = row(position)[3] if row is not None else ()
            seen.add(names[0] if names else self.papers[position].collection)
            if len(seen) > 1:
                return True
        return False


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


class ViewEntry(NamedTuple):
    """A line of the views sidebar: a view with its unread and total counts (None while a
    saved search waits for the index), or a heading (`key` None). A named tuple, not a
    frozen dataclass: cheaper to define as the reader starts, where none is made before the
    first frame."""

    key: ViewKey | None
    label: str
    unread: int | None = None
    total: int | None = None


def view_entries(
    papers: Sequence[Paper],
    collection_ids: Mapping[str, Sequence[str]],
    marks: Mapping[str, Bookmark],
    read: Container[str],
    searches: Sequence[SavedSearch],
    matches: Mapping[str, Sequence[str]],
) -> list[ViewEntry]:
    """The sidebar: all papers, then the collections, the tags and the saved searches, each
    with its counts. Counting is one pass over each view's ids, in C (`map`): Python loops
    were much slower on a large library."""

    def counted(key: ViewKey, label: str, ids: Sequence[str] | None) -> ViewEntry:
        if ids is None:
            return ViewEntry(key, label)
        return ViewEntry(key, label, len(ids) - sum(map(read.__contains__, ids)), len(ids))

    entries = [counted(ALL, "All papers", paper_ids(papers))]
    if len(collection_ids) > 1:
        entries.append(ViewEntry(None, "Collections"))
        for name, ids in collection_ids.items():
            entries.append(counted(ViewKey("collection", name), name, ids))
    tags = all_tags(marks)
    if tags:
        entries.append(ViewEntry(None, "Tags"))
        for tag in tags:
            lower = tag.lower()
            ids = [i for i, mark in marks.items() if lower in (t.lower() for t in mark.tags)]
            entries.append(counted(ViewKey("tag", tag), tag, ids))
    if searches:
        entries.append(ViewEntry(None, "Searches"))
        for search in searches:
            entries.append(
                counted(ViewKey("search", search.name), search.name, matches.get(search.name))
            )
    return entries


_paper_id = attrgetter("id")
#: Lines the search note may take under the search box.
NOTE_LINES = 2
_NOTE_JOIN = " · "


def fit_note(parts: Sequence[str], width: int, lines: int = NOTE_LINES) -> list[str]:
    """The note's `parts` (a correction, the key to undo it, a fallback...) in at most
    `lines` lines of `width` columns: parts joined by ` · ` while they fit on a line, a part
    that does not starting the next, broken between words when wider than a line. When that
    takes too many lines, each part keeps one line, abbreviated, and the parts that find no
    line of their own share the last. Abbreviated means ending in `…` after the last whole
    word that fits: no word is ever cut, but one wider than a whole line."""
    texts = [one_line(part) for part in parts if part.strip()]
    rows = _pack(texts, width, wrap=True)
    if len(rows) <= lines:
        return rows
    rows = _pack([_abbreviate(text, width) for text in texts], width, wrap=False)
    if len(rows) <= lines:
        return rows
    return [*rows[: lines - 1], _abbreviate(_NOTE_JOIN.join(rows[lines - 1 :]), width)]


def _pack(texts: list[str], width: int, wrap: bool) -> list[str]:
    """`texts` joined by ` · ` into lines of `width`, each text starting a line when it does
    not fit on the last (and, with `wrap`, broken between words when wider than one)."""
    rows: list[str] = []
    for text in texts:
        if rows and cell_len(rows[-1] + _NOTE_JOIN + text) <= width:
            rows[-1] += _NOTE_JOIN + text
            continue
        if not wrap:
            rows.append(text)
            continue
        rows.append("")
        for word in text.split(" "):
            joined = f"{rows[-1]} {word}" if rows[-1] else word
            if cell_len(joined) <= width or not rows[-1]:
                rows[-1] = joined
            else:
                rows.append(word)
    return [row if cell_len(row) <= width else _abbreviate(row, width) for row in rows]


def _abbreviate(line: str, width: int) -> str:
    """`line` within `width`: as it is when it fits, else ending in `…` after its last
    whole word that does."""
    if cell_len(line) <= width:
        return line
    words = line.split(" ")
    while len(words) > 1 and cell_len(" ".join(words) + "…") > width:
        words.pop()
    text = " ".join(words).rstrip(" ·,;:")
    if cell_len(text + "…") > width:  # one word wider than the line
        while text and cell_len(text + "…") > width:
            text = text[:-1]
    return text + "…"


def count_text(in_view: int, total: int, filtered: bool) -> str:
    """`38 papers`, or while a query or filter narrows the view, `3 of 38 papers`."""
    noun = "paper" if total == 1 else "papers"
    if filtered:
        return f"{in_view} of {total} {noun}"
    return f"{total} {noun}"


def no_match_text(query: str, filters: Filters) -> str:
    """What an empty list says of a query that matched nothing in it, naming what narrowed
    the papers searched (`No unread papers in “tag: ssl” match “diffusion”.`): the query
    alone is not to blame."""
    narrowed = (("unread", filters.unread_only), ("bookmarked", filters.bookmarks_only))
    kinds = [word for word, on in narrowed if on]
    view = filters.view
    where = "" if view == ALL else f" in “{one_line(view.label, 40)}”"
    return f"No {' '.join([*kinds, 'papers'])}{where} match “{query}”."


def unread_text(unread: int, shown: int, in_view: int) -> str:
    """`35 unread` among the papers in view; when a search lists fewer than it found, the
    count is of those listed: `35 unread in the first 200`."""
    if shown < in_view:
        return f"{unread} unread in the first {shown}"
    return f"{unread} unread"


def read_note(when: datetime | None) -> str:
    """The detail pane's line about reading: `unread`, or when it was read (local time)."""
    if when is None:
        return "unread"
    try:
        return f"read {when.astimezone():%Y-%m-%d %H:%M}"
    except OverflowError:  # within a day of year 1 or 9999: past what local time can hold
        return f"read {when:%Y-%m-%d %H:%M} UTC"


def position_text(cursor: int, rows: int) -> str:
    """`12/38`: the cursor's row and the rows listed ("" for an empty list)."""
    return f"{cursor + 1}/{rows}" if rows else ""


def unsaved_text(pending: int, what: str = "bookmark") -> str:
    """The status line's part for changes a failed save left in memory ("" when there are
    none): visible until they are saved, since a toast is easily missed."""
    if not pending:
        return ""
    return f"{pending} {what} change{'s' if pending != 1 else ''} not saved"


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
