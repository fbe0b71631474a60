"""What the reader shows, decided without Textual: rows, filters, counts, links.

Kept apart from the widgets so the rules (which papers are in view, how the count reads,
when a link can be opened locally) are plain functions with plain tests.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rich.cells import cell_len

from paperterm.index.library.bookmarks import Bookmark
from paperterm.index.library.filters import paper_ids
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

    def __getitem__(self, index):
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

    def several_collections(self) -> bool:
        """Whether the papers come from more than one collection (a paper's first is its
        own); a `PaperList` says from its rows file's header, reading no paper."""
        firsts = getattr(self.papers, "first_collections", None)
        if firsts is not None:
            return len(firsts) > 1
        return len({paper.collection for paper in self.papers}) > 1


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
