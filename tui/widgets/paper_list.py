"""The list pane: one row per paper, drawn on demand (Line API), so 50,000 rows cost no
more than 50 — no widget per row, only the visible lines are ever rendered.

What a row says and how it fits is `tui/rows.py` (no Textual); this widget scrolls, moves
the cursor and styles the cells. Every row has the same height (`lines_per_row`), so a
row's first line is its index times it: comfortable rows (`density`, on screens of
`COMFORTABLE_MIN_COLUMNS` and more) are `ROW_LINES` lines, compact ones one. In search
results each row can have one more line: where the query matched (`show_snippets`).

Whether a paper is bookmarked, unread or decided is asked by id (`is_bookmarked`,
`is_unread`, `decision_of`) when the row is drawn, never stored in the row: an unread paper
has `•` in the marks' column (readable with NO_COLOR), a read one is also dimmed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from paperterm.index.library.place import DENSITIES
from paperterm.index.text.display import one_line
from paperterm.tui import keys
from paperterm.tui.rows import (
    COMFORTABLE_MIN_COLUMNS,
    MARKS_WIDTH,
    ROW_LINES,
    Cell,
    fit,
    marks_cells,
    row_body,
    row_cells,
    row_text,
    snippet_cells,
)
from paperterm.tui.view import Row, row_index

if TYPE_CHECKING:
    from paperterm.index.papers import Paper
    from paperterm.index.search.hits import Matcher

#: The snippet line looks for the query in this much of the abstract: it is drawn for every
#: visible row on every frame, and a megabyte "abstract" must not stall a frame.
SNIPPET_SOURCE_CHARS = 4000
#: The cell roles of `rows.row_cells` and `rows.row_body` that have a style of their own.
_STYLED_ROLES = (
    "mark",
    "decision",
    "missing",
    "byline",
    "affiliation",
    "badge",
    "when",
    "dim",
    "collection",
    "snippet",
    "match",
    "watched",
)
#: The most comfortable rows' wrapped lines kept (a screenful is a few dozen).
_BODIES_KEPT = 2048
_row_id = attrgetter("id")


class PaperList(ScrollView, can_focus=True):
    """Rows of papers with a cursor. Posts `Highlighted` when the cursor moves to a row and
    `Opened` on Enter or a double click."""

    BINDINGS = keys.bindings(
        "cursor_down", "cursor_up", "first", "last", "page_down", "page_up", "open"
    )
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "paper-list--cursor",
        "paper-list--empty",
        "paper-list--read",
        *(f"paper-list--{role}" for role in _STYLED_ROLES),
    }

    class Highlighted(Message):
        def __init__(self, row: Row | None) -> None:
            super().__init__()
            self.row = row

    class Opened(Message):
        def __init__(self, row: Row) -> None:
            super().__init__()
            self.row = row

    def __init__(
        self,
        is_bookmarked: Callable[[str], bool],
        *,
        is_unread: Callable[[str], bool] | None = None,
        decision_of: Callable[[str], str | None] | None = None,
        id: str | None = None,
    ) -> None:
        """`is_unread` fills the unread mark's slot and leaves read rows dimmed (None: no
        paper is marked unread, none dimmed); `decision_of` the decision's slot."""
        super().__init__(id=id)
        self.is_bookmarked = is_bookmarked
        self.is_unread = is_unread
        self.decision_of = decision_of
        self.density = DENSITIES[0]
        #: Whether rows are comfortable now: the density, and a wide enough screen.
        self._comfortable = False
        self.rows: Sequence[Row] = []
        self._ids: list[str] | None = None
        self.cursor = 0
        self.empty_message: list[str] = ["Loading papers…"]
        self.matcher: Matcher | None = None
        self.show_snippets = True
        self.show_collection = False
        #: Snippet lines by (row id, width), for the rows shown: one is costly to make
        #: (finding the query's words), and every cursor move redraws every visible line.
        self._snippets: dict[tuple[str, int], list[Cell]] = {}
        #: Comfortable rows' lines right of the marks by (row id, width), for the same
        #: reason: wrapping a title is the costly part of a row.
        self._bodies: dict[tuple[str, int], list[list[Cell]]] = {}
        #: The row drawn last, by index: a row's lines are drawn one after the other, and
        #: a row of a row store reads its paper.
        self._last_row: tuple[int, Row] | None = None
        #: Marks a row's watched words and authors (`WatchMarks.mark_row`), while any are.
        self.watched: Callable[[str, list[Cell], Paper | None], list[Cell]] | None = None

    # --- contents ----------------------------------------------------------------------

    @property
    def current(self) -> Row | None:
        return self.rows[self.cursor] if 0 <= self.cursor < len(self.rows) else None

    @property
    def ids(self) -> list[str]:
        """The rows' ids (made once per `set_rows`, in C)."""
        if self._ids is None:
            known = getattr(self.rows, "ids", None)  # `PaperRows`: from the rows file
            self._ids = list(known) if known is not None else list(map(_row_id, self.rows))
        return self._ids

    def index_of(self, paper_id: str) -> int | None:
        if hasattr(self.rows, "index_of"):  # `PaperRows` find it without making rows
            return row_index(self.rows, paper_id)
        try:
            return self.ids.index(paper_id)  # in C: far faster than a Python loop
        except ValueError:
            return None

    def set_rows(
        self,
        rows: Sequence[Row],
        *,
        keep_id: str | None = None,
        empty_message: Sequence[str] = (),
        matcher: Matcher | None = None,
    ) -> None:
        """Show `rows` (search results when `matcher` is given: their snippets can show);
        the cursor goes to `keep_id` when it is among them, else to the top."""
        self.rows = rows
        self._ids = None
        self.matcher = matcher or None
        self._snippets.clear()
        self._bodies.clear()
        self._last_row = None
        self.empty_message = list(empty_message)
        self.show_collection = _several_collections(rows)
        index = self.index_of(keep_id) if keep_id is not None else None
        self._resize_virtual(self.size.width)
        self.cursor = -1  # so that move_to posts Highlighted even for the same index
        self.move_to(index or 0)
        if index is None:
            self.scroll_to(y=0, animate=False, immediate=True)
        self.refresh()

    @property
    def lines_per_row(self) -> int:
        """`ROW_LINES` for comfortable rows, else 1; one more while search results show
        where they matched."""
        snippet = 1 if self.show_snippets and self.matcher is not None else 0
        return (ROW_LINES if self._comfortable else 1) + snippet

    @property
    def comfortable(self) -> bool:
        """Whether the rows are comfortable now (see `density`)."""
        return self._comfortable

    def comfortable_at(self, screen_width: int) -> bool:
        """Whether rows are comfortable on a screen this wide (see `density`)."""
        return self.density == DENSITIES[0] and screen_width >= COMFORTABLE_MIN_COLUMNS

    def toggle_snippets(self) -> None:
        self._relayout(lambda: setattr(self, "show_snippets", not self.show_snippets))

    def set_density(self, density: str) -> None:
        """Rows "comfortable" or "compact" (compact on narrow screens whatever this says);
        the cursor stays on its paper."""
        self._relayout(lambda: setattr(self, "density", density))

    def _relayout(self, change: Callable[[], None]) -> None:
        """Make `change` to how rows are laid out: the top row stays on top, the cursor on
        its paper and in view."""
        top = round(self.scroll_y) // self.lines_per_row
        current = self.cursor
        change()
        self._comfortable = self.comfortable_at(self.app.size.width)
        self._resize_virtual(self.size.width)
        if self.rows:
            self.scroll_to(y=top * self.lines_per_row, animate=False, immediate=True)
            self._scroll_cursor_into_view()
        self.cursor = current
        self.refresh()

    def _resize_virtual(self, width: int) -> None:
        self.virtual_size = Size(width, len(self.rows) * self.lines_per_row)

    # --- cursor --------------------------------------------------------------------------

    def move_to(self, index: int) -> None:
        index = max(0, min(index, len(self.rows) - 1)) if self.rows else 0
        changed = index != self.cursor
        self.cursor = index
        if self.rows:
            self._scroll_cursor_into_view()
        self.refresh()
        if changed:
            self.post_message(self.Highlighted(self.current))

    def _scroll_cursor_into_view(self) -> None:
        height = max(1, self.scrollable_content_region.height)
        top = round(self.scroll_y)
        first = self.cursor * self.lines_per_row
        last = first + self.lines_per_row - 1
        if first < top:
            self.scroll_to(y=first, animate=False, immediate=True)
        elif last >= top + height:
            self.scroll_to(y=last - height + 1, animate=False, immediate=True)

    def _page(self) -> int:
        return max(1, self.scrollable_content_region.height // self.lines_per_row - 1)

    def action_cursor_down(self) -> None:
        self.move_to(self.cursor + 1)

    def action_cursor_up(self) -> None:
        self.move_to(self.cursor - 1)

    def action_first(self) -> None:
        self.move_to(0)

    def action_last(self) -> None:
        self.move_to(len(self.rows) - 1)

    def action_page_down(self) -> None:
        self.move_to(self.cursor + self._page())

    def action_page_up(self) -> None:
        self.move_to(self.cursor - self._page())

    def action_open(self) -> None:
        if self.current is not None:
            self.post_message(self.Opened(self.current))

    def on_click(self, event: events.Click) -> None:
        index = (round(self.scroll_y) + event.y) // self.lines_per_row
        if 0 <= index < len(self.rows):
            self.move_to(index)
            if event.chain >= 2:
                self.action_open()

    def on_resize(self, event: events.Resize) -> None:
        self._relayout(lambda: None)

    # --- drawing -------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        base = self.rich_style
        line = round(self.scroll_y) + y
        if not self.rows:
            lines = self.empty_message
            text = lines[y] if y < len(lines) else ""
            style = base + self.get_component_rich_style("paper-list--empty")
            return Strip([Segment(fit(" " + one_line(text), width), style)], width)
        index, part = divmod(line, self.lines_per_row)
        if index >= len(self.rows):
            return Strip.blank(width, base)
        last = self._last_row
        if last is not None and last[0] == index:
            row = last[1]
        else:
            row = self.rows[index]
            self._last_row = (index, row)
        # A bookmark whose paper left the corpus is neither: there is nothing to read.
        unread = self.is_unread is not None and not row.missing and self.is_unread(row.id)
        if self.is_unread is not None and not unread and not row.missing:
            base = base + self.get_component_rich_style("paper-list--read")
        if index == self.cursor:
            base = base + self.get_component_rich_style("paper-list--cursor")
        decision = None if row.missing or self.decision_of is None else self.decision_of(row.id)
        if self._comfortable:
            cells = self._comfortable_line(row, part, width, unread, decision)
        elif part:
            cells = self._snippet(row, width)
        else:
            cells = row_cells(
                row_text(row),
                width,
                bookmarked=self.is_bookmarked(row.id),
                unread=unread,
                decision=decision,
                show_collection=self.show_collection,
            )
            if self.watched is not None:
                cells = self.watched(row.id, cells, None)
        return Strip(self._segments(cells, base)).adjust_cell_length(width, base)

    def _comfortable_line(
        self, row: Row, part: int, width: int, unread: bool, decision: str | None
    ) -> list[Cell]:
        """Line `part` of a comfortable row: the title's lines and the dim line, the
        snippet under them in search results, blank lines to the row's height."""
        body = self._bodies.get((row.id, width))
        if body is None:
            if len(self._bodies) >= _BODIES_KEPT:
                self._bodies.clear()
            body = self._bodies[row.id, width] = row_body(
                row_text(row), width, self.show_collection
            )
        if part == 0:
            marks = marks_cells(
                bookmarked=self.is_bookmarked(row.id),
                unread=unread,
                decision=decision,
                missing=row.missing,
            )
            return marks + self._watched(row, body[0])
        if part < len(body):
            return [(" " * MARKS_WIDTH, "plain"), *self._watched(row, body[part])]
        if part == len(body) and self.lines_per_row > ROW_LINES:
            return self._snippet(row, width)
        return [(" " * width, "plain")]

    def _watched(self, row: Row, cells: list[Cell]) -> list[Cell]:
        return cells if self.watched is None else self.watched(row.id, cells, row.paper)

    def _snippet(self, row: Row, width: int) -> list[Cell]:
        if row.paper is None or self.matcher is None:
            return [(" " * width, "plain")]
        cells = self._snippets.get((row.id, width))
        if cells is None:
            text = (row.paper.text or row.paper.abstract)[:SNIPPET_SOURCE_CHARS]
            cells = self._snippets[row.id, width] = snippet_cells(text, self.matcher, width)
        return cells

    def _segments(self, cells: list[Cell], base: Style) -> list[Segment]:
        styles = {
            role: base + self.get_component_rich_style(f"paper-list--{role}")
            for role in {role for _, role in cells}
            if role in _STYLED_ROLES
        }
        return [Segment(text, styles.get(role, base)) for text, role in cells]


def _several_collections(rows: Sequence[Row]) -> bool:
    """Whether the rows' papers come from more than one collection (stops at the second;
    `PaperRows` know it from their row store's header, without reading every paper)."""
    known = getattr(rows, "several_collections", None)
    if known is not None:
        return bool(known())
    first = None
    for row in rows:
        if row.paper is not None:
            if first is None:
                first = row.paper.collection
            elif row.paper.collection != first:
                return True
    return False
