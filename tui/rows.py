"""What a list row says and how it fits its width, without Textual.

A row is drawn from a `RowText`, a small record of plain strings (so a row store that holds
no `Paper`s can feed the list), in one of two densities. Compact (`row_cells`, one line):
the marks (bookmarked, unread, the triage decision), the title using all the width the rest
leaves, then the first author "et al." and the year, and the collection when the view holds
more than one. Comfortable (`row_lines`, `ROW_LINES` lines): the whole title wrapped to two
lines at most (`wrap_title`), then a dim line: the first two authors, the first author's
affiliation, the status badge, the session or day, the collection when the view holds more
than one. Under a search result, `snippet_cells` gives the line where the query matched.
Widths are counted in terminal cells with `rich.cells`, as Textual draws them: CJK and emoji
take two, combining marks none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from rich.cells import cell_len, get_character_cell_size, set_cell_size

from paperterm.index.text.display import one_line
from paperterm.index.text.person_names import family_name
from paperterm.tui.view import Row

if TYPE_CHECKING:
    from paperterm.index.search.hits import Matcher

BOOKMARK_MARK = "★"
UNREAD_MARK = "•"
#: The triage decision's mark, one cell each (readable with NO_COLOR).
DECISION_MARKS = {"keep": "✓", "maybe": "?", "skip": "✗"}
#: The marks' columns: bookmark, unread, decision, a space.
MARKS_WIDTH = 4
#: A comfortable row's height: the title's two lines and the dim line, whatever the title's
#: length (a fixed height: a row's first line is its index times this, for any row count).
ROW_LINES = 3
#: Comfortable rows need a screen this wide (where, by default, the list goes beside the
#: detail and has the screen's height); below it every row is one line.
COMFORTABLE_MIN_COLUMNS = 100
#: The narrowest comfortable row that keeps every title of under 140 cells whole: its two
#: lines hold a title of `2 * (width - MARKS_WIDTH) - 1` cells (`wrap_title`).
WHOLE_TITLE_WIDTH = MARKS_WIDTH + 70
#: The status that is the common case, left out of the dim line.
PLAIN_STATUS = "poster"
#: The dim line's separator.
DOT = " · "
#: The English day names (not the locale's: a row reads the same on every machine).
_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
#: Below this width the byline gives its room to the title.
BYLINE_MIN_WIDTH = 40
#: The byline's and the collection's most cells.
BYLINE_MAX = 24
COLLECTION_MAX = 22
#: The title keeps at least this share of the row when the rest is long.
TITLE_SHARE = 0.7
#: Cells between the title and what follows it.
GAP = 2

#: (text, role): the roles are "mark", "decision", "title", "missing", "byline",
#: "affiliation", "badge", "when", "dim" (the dim line's separators), "collection",
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
    #: The dim line's: the first two authors, the first author's affiliation, the status
    #: badge, the session (else the day, else the year).
    people: str = ""
    affiliation: str = ""
    badge: str = ""
    when: str = ""


def byline(authors: list[str], year: int | None) -> str:
    """`Lovelace et al. 2024`, `Lovelace 2024`, `2024` or ""."""
    parts = []
    if authors:
        first = family_name(one_line(authors[0]))
        parts.append(first + (" et al." if len(authors) > 1 else ""))
    if year is not None:
        parts.append(str(year))
    return " ".join(part for part in parts if part)


def people(authors: list[str]) -> str:
    """`Ada Lovelace, Charles Babbage et al.`: the first two authors, "et al." when more."""
    shown = ", ".join(one_line(name) for name in authors[:2])
    return shown + " et al." if len(authors) > 2 else shown


def day(start: str) -> str:
    """`Tue 23 Jul` of an ISO 8601 start (its own date, not converted); "" of none, the
    text as given when it is not a date."""
    from datetime import date  # a row's, not the first frame's

    try:
        when = date.fromisoformat(start[:10])
    except ValueError:
        return one_line(start[:16])
    return f"{_DAYS[when.weekday()]} {when.day} {_MONTHS[when.month - 1]}"


def row_text(row: Row) -> RowText:
    paper = row.paper
    if paper is None:
        return RowText(row.id, one_line(row.missing_title) + " (missing)", missing=True)
    status = one_line(paper.status)
    when = paper.session or (day(paper.start) if paper.start else "")
    return RowText(
        row.id,
        one_line(paper.title or paper.text[:200]),
        byline(paper.authors, paper.year),
        one_line(paper.collection),
        people=people(paper.authors),
        affiliation=one_line(paper.affiliations[0]) if paper.affiliations else "",
        badge="" if status.casefold() == PLAIN_STATUS else status,
        when=one_line(when) if when else ("" if paper.year is None else str(paper.year)),
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


def marks_cells(
    *,
    bookmarked: bool = False,
    unread: bool = False,
    decision: str | None = None,
    missing: bool = False,
) -> list[Cell]:
    """The marks' `MARKS_WIDTH` cells: bookmarked (or missing), unread, the decision."""
    marks = (BOOKMARK_MARK if bookmarked or missing else " ") + (UNREAD_MARK if unread else " ")
    return [(marks, "mark"), (DECISION_MARKS.get(decision or "", " "), "decision"), (" ", "plain")]


def row_cells(
    row: RowText,
    width: int,
    *,
    bookmarked: bool = False,
    unread: bool = False,
    decision: str | None = None,
    show_collection: bool = False,
) -> list[Cell]:
    """The compact row: one line in exactly `width` cells (0 for a width under the
    marks')."""
    if width < MARKS_WIDTH:
        return [(" " * max(width, 0), "plain")] if width > 0 else []
    cells = marks_cells(
        bookmarked=bookmarked, unread=unread, decision=decision, missing=row.missing
    )
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


def wrap_title(title: str, room: int) -> tuple[str, ...]:
    """`title` in one or two lines of at most `room` cells: broken between words, or inside
    a word when only that keeps the title whole; the second line cut with `…` when even
    that cannot hold it. A title of at most `2 * room - 1` cells is never cut (a wide
    character may leave the first line a cell short): from a row of 74 cells on, none
    under 140."""
    if room <= 0:
        return ("",)
    if cell_len(title) <= room:
        return (title,)
    head, rest = _word_split(title, room)
    if cell_len(rest) <= room:
        return head, rest
    hard_head, hard_rest = _split(title, room)
    if cell_len(hard_rest) <= room:
        return hard_head, hard_rest
    return head, _cut_at_word(rest, room)


def _cut_at_word(text: str, room: int) -> str:
    """`text` cut with `…` to at most `room` cells, after a whole word when that keeps at
    least half the room."""
    head, _ = _word_split(text, room - 1)
    head = head.rstrip(" ,;:-–—")
    if head != text and cell_len(head) >= room // 2:
        return head + "…"
    return fit(text, room)


def _split(text: str, width: int) -> tuple[str, str]:
    """`text` split after its longest head of at most `width` cells (a combining mark stays
    with the character before it)."""
    used = 0
    for index, char in enumerate(text):
        used += get_character_cell_size(char)
        if used > width:
            return text[:index], text[index:]
    return text, ""


def _word_split(text: str, width: int) -> tuple[str, str]:
    """`text` split at the last space that leaves a head of at most `width` cells (inside
    the first word when it alone is longer); the space is dropped."""
    head, rest = _split(text, width)
    if rest.startswith(" "):
        return head.rstrip(" "), rest.lstrip(" ")
    cut = head.rstrip(" ").rfind(" ")
    if cut <= 0:
        return head, rest
    return head[:cut].rstrip(" "), text[cut + 1 :].lstrip(" ")


#: The dim line's parts left out when it is too long, first to last (the authors never):
#: triage judges what a paper is and who wrote it; the session is also in the detail.
_DIM_DROPPED = ("collection", "when", "affiliation", "badge")
#: The parts shortened (in this order) before one is left out, and their fewest cells.
_DIM_FLOORS = {"affiliation": 16, "collection": 12, "when": 12}


def dim_line(row: RowText, room: int, show_collection: bool = False) -> list[Cell]:
    """The line under a comfortable row's title in exactly `room` cells: the first two
    authors, the first author's affiliation, the status badge, the session or day, and the
    collection when `show_collection`. Too long, the parts of `_DIM_FLOORS` are shortened,
    then a part is left out (`_DIM_DROPPED`) and the rest tried again; the authors alone are
    cut."""
    if room <= 0:
        return []
    whole: list[Cell] = [
        (row.people, "byline"),
        (row.affiliation, "affiliation"),
        (row.badge, "badge"),
        (row.when, "when"),
    ]
    if show_collection:
        whole.append((row.collection, "collection"))
    parts = [part for part in whole if part[0]]
    dropped = iter(_DIM_DROPPED)
    while True:
        fitted = _shortened(parts, room)
        if fitted is not None:
            break
        role = next(dropped, None)
        if role is None:  # the authors alone, too long
            fitted = [(fit(parts[0][0], room), parts[0][1])] if parts else []
            break
        parts = [part for part in parts if part[1] != role]
    cells: list[Cell] = []
    for text, role in fitted:
        if cells:
            cells.append((DOT, "dim"))
        cells.append((text, role))
    used = _parts_width(fitted)
    if used < room:
        cells.append((" " * (room - used), "plain"))
    return cells


def _shortened(parts: list[Cell], room: int) -> list[Cell] | None:
    """`parts` in at most `room` cells, shortening those of `_DIM_FLOORS` no further than
    their floor; None when that is not enough."""
    over = _parts_width(parts) - room
    shortened = list(parts)
    for role, floor in _DIM_FLOORS.items():
        for index, (text, part_role) in enumerate(shortened):
            if over > 0 and part_role == role and cell_len(text) > floor:
                keep = max(cell_len(text) - over, floor)
                over -= cell_len(text) - keep
                shortened[index] = (fit(text, keep), role)
    return shortened if over <= 0 else None


def _parts_width(parts: list[Cell]) -> int:
    return sum(cell_len(text) for text, _ in parts) + len(DOT) * max(len(parts) - 1, 0)


def row_body(row: RowText, width: int, show_collection: bool = False) -> list[list[Cell]]:
    """A comfortable row's lines right of the marks, each in exactly `width - MARKS_WIDTH`
    cells: the title's one or two lines, then the dim line (2 or 3 lines)."""
    room = width - MARKS_WIDTH
    if room <= 0:
        return [[]]
    role = "missing" if row.missing else "title"
    lines: list[list[Cell]] = [
        [(set_cell_size(line, room), role)] for line in wrap_title(row.title, room)
    ]
    lines.append(dim_line(row, room, show_collection))
    return lines


def row_lines(
    row: RowText,
    width: int,
    *,
    bookmarked: bool = False,
    unread: bool = False,
    decision: str | None = None,
    show_collection: bool = False,
) -> list[list[Cell]]:
    """The comfortable row: `ROW_LINES` lines of exactly `width` cells each, the marks
    left of the title's first line, blank lines after a one-line title's dim line."""
    blank: list[Cell] = [(" " * width, "plain")] if width > 0 else []
    if width <= MARKS_WIDTH:
        return [blank] * ROW_LINES
    marks = marks_cells(
        bookmarked=bookmarked, unread=unread, decision=decision, missing=row.missing
    )
    indent: list[Cell] = [(" " * MARKS_WIDTH, "plain")]
    body = row_body(row, width, show_collection)
    lines = [marks + body[0], *(indent + line for line in body[1:])]
    return lines + [blank] * (ROW_LINES - len(lines))


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
