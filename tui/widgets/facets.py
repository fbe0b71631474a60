"""The facets sidebar: for the papers in the list, how many have each status, type,
session, topic, track, collection, tag, decision and read state; Enter on a value narrows
the list to it (again: takes it back), Backspace takes back the value chosen last.

Drawn a line at a time (Line API), like the list: the counts change with every search, and
only the lines on screen are ever drawn again (an `OptionList` lays out every option)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from paperterm.index.text.display import one_line
from paperterm.tui import keys
from paperterm.tui.controllers.facets import FacetEntry
from paperterm.tui.rows import fit

CHOSEN = "✓"


def facet_cells(entry: FacetEntry, width: int) -> list[tuple[str, str]]:
    """`✓ Oral … 144` in exactly `width` cells, as (text, role): the count at the right
    edge, the value cut to what is left; a facet's heading alone ("heading")."""
    if entry.value is None:
        return [(fit(entry.facet, width), "heading")]
    count = f"{entry.papers:,}"
    room = max(4, width - cell_len(count) - 3)
    mark = CHOSEN if entry.chosen else " "
    cells = [(f"{mark} ", "plain"), (fit(one_line(entry.value) or "?", room), "plain")]
    cells += [(" ", "plain"), (count, "count")]
    used = sum(cell_len(text) for text, _ in cells)
    if used < width:
        cells.insert(2, (" " * (width - used), "plain"))
    return cells


class FacetsPane(ScrollView, can_focus=True):
    """The facets; posts `Chosen` for Enter (or a click) on a value, `Dropped` for
    Backspace. `highlighted` is the index in `entries` of the line under the cursor (never
    a heading while a value exists)."""

    BINDINGS = keys.bindings(
        "cursor_down", "cursor_up", "first", "last", "page_down", "page_up", "open", "drop_facet"
    )
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "facets-pane--cursor",
        "facets-pane--heading",
        "facets-pane--count",
    }
    DEFAULT_CSS = """
    FacetsPane > .facets-pane--cursor { background: $block-cursor-blurred-background; }
    FacetsPane:focus > .facets-pane--cursor {
        background: $block-cursor-background;
        color: $block-cursor-foreground;
        text-style: bold;
    }
    FacetsPane > .facets-pane--heading { text-style: bold; }
    FacetsPane > .facets-pane--count { color: $text-muted; }
    """

    class Chosen(Message):
        def __init__(self, facet: str, value: str) -> None:
            super().__init__()
            self.facet = facet
            self.value = value

    class Dropped(Message):
        """The value chosen last is to be taken back."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.entries: list[FacetEntry] = []
        self._highlighted: int | None = None

    @property
    def highlighted(self) -> int | None:
        return self._highlighted

    @highlighted.setter
    def highlighted(self, index: int | None) -> None:
        if index is None or not self.entries:
            self._highlighted = None
        else:
            self._highlighted = max(0, min(index, len(self.entries) - 1))
            self._scroll_into_view(self._highlighted)
        self.refresh()

    def show_entries(self, entries: Sequence[FacetEntry]) -> None:
        """Show `entries`, the highlight kept on the same value when it is still there."""
        entries = list(entries)
        if entries == self.entries:
            return
        highlighted = self._highlighted
        before = self.entries[highlighted] if highlighted is not None and self.entries else None
        self.entries = entries
        if self.virtual_size.height != len(entries):
            self.virtual_size = Size(self.virtual_size.width, len(entries))
        if not entries:
            self.highlighted = None
            return
        same = [i for i, e in enumerate(entries) if before and e[:2] == before[:2]]
        first = next((i for i, e in enumerate(entries) if e.value is not None), 0)
        self.highlighted = same[0] if same else min(highlighted or first, len(entries) - 1)

    # --- moving --------------------------------------------------------------------------

    def _move(self, index: int, step: int) -> None:
        """To `index`, or past it in the direction of `step` to the nearest value."""
        if not self.entries:
            return
        index = max(0, min(index, len(self.entries) - 1))
        probe = index
        while 0 <= probe < len(self.entries) and self.entries[probe].value is None:
            probe += step
        if not 0 <= probe < len(self.entries):
            probe = index
            while 0 <= probe < len(self.entries) and self.entries[probe].value is None:
                probe -= step
        if 0 <= probe < len(self.entries):
            self.highlighted = probe

    def _scroll_into_view(self, index: int) -> None:
        height = max(1, self.scrollable_content_region.height)
        top = round(self.scroll_y)
        if index < top:
            self.scroll_to(y=index, animate=False, immediate=True)
        elif index >= top + height:
            self.scroll_to(y=index - height + 1, animate=False, immediate=True)

    def _page(self) -> int:
        return max(1, self.scrollable_content_region.height - 1)

    def action_cursor_down(self) -> None:
        index = self._highlighted
        self._move(0 if index is None else index + 1, 1)

    def action_cursor_up(self) -> None:
        self._move((self._highlighted or 0) - 1, -1)

    def action_first(self) -> None:
        self._move(0, 1)

    def action_last(self) -> None:
        self._move(len(self.entries) - 1, -1)

    def action_page_down(self) -> None:
        self._move((self._highlighted or 0) + self._page(), 1)

    def action_page_up(self) -> None:
        self._move((self._highlighted or 0) - self._page(), -1)

    def action_open(self) -> None:
        index = self._highlighted
        if index is not None and 0 <= index < len(self.entries):
            entry = self.entries[index]
            if entry.value is not None:
                self.post_message(self.Chosen(entry.facet, entry.value))

    def action_drop_facet(self) -> None:
        self.post_message(self.Dropped())

    def on_click(self, event: events.Click) -> None:
        index = round(self.scroll_y) + event.y
        if 0 <= index < len(self.entries) and self.entries[index].value is not None:
            self.highlighted = index
            self.action_open()

    def on_resize(self, event: events.Resize) -> None:
        self.virtual_size = Size(self.virtual_size.width, len(self.entries))
        self.refresh()

    # --- drawing -------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        base = self.rich_style
        index = round(self.scroll_y) + y
        if not 0 <= index < len(self.entries):
            return Strip.blank(width, base)
        if index == self._highlighted:
            base = base + self.get_component_rich_style("facets-pane--cursor")
        styles: dict[str, Style] = {"plain": base}
        segments = []
        for text, role in facet_cells(self.entries[index], width):
            style = styles.get(role)
            if style is None:
                style = styles[role] = base + self.get_component_rich_style(f"facets-pane--{role}")
            segments.append(Segment(text, style))
        return Strip(segments).adjust_cell_length(width, base)
