"""What a list row says and how it fits its width, without Textual.

A row is drawn from a `RowText`, a small record of plain strings (so a row store that holds
no `Paper`s can feed the list), by `row_cells`: the marks (bookmarked, and a slot for
unread), the title using all the width the rest leaves, then the first author "et al." and
the year, and the collection when the view holds more than one. Under a search result,
`snippet_cells` gives the line where the query matched. Widths are counted in terminal cells
with `rich.cells`, as Textual draws them: CJK and emoji take two, combining marks none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from rich.cells import cell_len, set_cell_size

from paperterm.index.text.display import one_line
from paperterm.index.text.person_names import family_name
from paperterm.tui.view import Row

if TYPE_CHECKING:
    from paperterm.index.search.hits import Matcher

BOOKMARK_MARK = "★"
UNREAD_MARK = "•"
#: The marks' columns: bookmark, unread, a space.
MARKS_WIDTH = 3
#: Below this width the byline gives its room to the title.
BYLINE_MIN_WIDTH = 40
#: The byline's and the collection's most cells.
BYLINE_MAX = 24
COLLECTION_MAX = 22
#: The title keeps at least this share of the row when the rest is long.
TITLE_SHARE = 0.7
#: Cells between the title and what follows it.
GAP = 2

#: (text, role): the roles are "mark", "title", "missing", "byline", "collection",
#: "snippet", "match", "plain" (spaces); the widget gives each its style.
Cell = tuple[str, str]


class RowText(NamedTuple):
    """What one row shows, as plain one-line strings (a named tuple: cheaper to define than
    a frozen dataclass as the reader starts)."""

    id: str
    title: str
    byline: str = ""
    collection: str = ""
    missing: bool = False


def byline(authors: list[str], year: int | None) -> str:
    """`Lovelace et al. 2024`, `Lovelace 2024`, `2024` or ""."""
    parts = []
    if authors:
        first = family_name(one_line(authors[0]))
        parts.append(first + (" et al." if len(authors) > 1 else ""))
    if year is not None:
        parts.append(str(year))
    return " ".join(part for part in parts if part)


def row_text(row: Row) -> RowText:
    paper = row.paper
    if paper is None:
        return RowText(row.id, one_line(row.missing_title) + " (missing)", missing=True)
    return RowText(
        row.id,
        one_line(paper.title or paper.text[:200]),
        byline(paper.authors, paper.year),
        one_line(paper.collection),
    )


def fit(text: str, width: int) -> str:
    """`text` cut (with `…`) or padded to exactly `width` cells."""
    if width <= 0:
        return ""
    if cell_len(text) <= width:
        return set_cell_size(text, width)
    return set_cell_size(text, width - 1) + "…"


def _shorten(text: str, width: int) -> str:
    """`text` in at most `width` cells (cut with `…`), not padded."""
    return text if cell_len(text) <= width else fit(text, width)


def row_cells(
    row: RowText,
    width: int,
    *,
    bookmarked: bool = False,
    unread: bool = False,
    show_collection: bool = False,
) -> list[Cell]:
    """The row in exactly `width` cells (0 for a width under the marks')."""
    if width < MARKS_WIDTH:
        return [(" " * max(width, 0), "plain")] if width > 0 else []
    marks = (BOOKMARK_MARK if bookmarked or row.missing else " ") + (UNREAD_MARK if unread else " ")
    cells: list[Cell] = [(marks, "mark"), (" ", "plain")]
    room = width - MARKS_WIDTH
    tail: list[Cell] = []
    if width >= BYLINE_MIN_WIDTH:
        # The title keeps what it needs up to its share; the rest is the tail's.
        kept = min(cell_len(row.title), max(20, int(room * TITLE_SHARE)))
        tail = _tail(row, room - kept - GAP, show_collection)
    tail_width = sum(cell_len(text) for text, _ in tail)
    title_width = room - (tail_width + GAP if tail else 0)
    cells.append((fit(row.title, title_width), "missing" if row.missing else "title"))
    if tail:
        cells.append((" " * GAP, "plain"))
        cells.extend(tail)
    return cells


def _byline_to_fit(by: str, room: int) -> str:
    """The byline in `room` cells: whole, without "et al.", the year alone, or ""."""
    year = by.rsplit(" ", 1)[-1] if by[-4:].isdigit() else ""
    for variant in (by, by.replace(" et al.", ""), year):
        if variant and cell_len(variant) <= room:
            return variant
    return ""


def _tail(row: RowText, room: int, show_collection: bool) -> list[Cell]:
    """Byline and collection in at most `room` cells: the collection is shortened first
    (and left out below 8 cells), then the byline (see `_byline_to_fit`)."""
    by = _byline_to_fit(_shorten(row.byline, BYLINE_MAX), room)
    tail: list[Cell] = [(by, "byline")] if by else []
    if show_collection and row.collection:
        separator = " · " if by else ""
        left = min(room - cell_len(by) - len(separator), COLLECTION_MAX)
        if left >= 8:
            tail += [(separator, "plain"), (_shorten(row.collection, left), "collection")]
    return [cell for cell in tail if cell[0]]


def snippet_cells(text: str, matcher: Matcher, width: int) -> list[Cell]:
    """The line under a search result: where the query matched in `text`, its words marked,
    in exactly `width` cells (indented under the title)."""
    # Imported here: a search's, not the first frame's (hits.py would slow the start).
    from paperterm.index.search.hits import snippet

    if width <= MARKS_WIDTH:
        return [(" " * max(width, 0), "plain")] if width > 0 else []
    room = width - MARKS_WIDTH
    # About one word per 5 cells (more than fit: the line is cut, never left half empty).
    line = one_line(text)
    shown, spans = snippet(line, matcher.spans(line), max(4, room // 5))
    cells: list[Cell] = [(" " * MARKS_WIDTH, "plain")]
    used, last = 0, 0
    for start, end in [*spans, (len(shown), len(shown))]:
        for piece, role in ((shown[last:start], "snippet"), (shown[start:end], "match")):
            if not piece or used >= room:
                continue
            if used + cell_len(piece) > room:
                piece = fit(piece, room - used)
            cells.append((piece, role))
            used += cell_len(piece)
        last = max(last, end)
    if used < room:
        cells.append((" " * (room - used), "plain"))
    return cells
