"""The facets sidebar: for the papers in the list, how many have each status, type,
session, topic, track, collection, tag, decision and read state; Enter on a value narrows
the list to it (again: takes it back), Backspace takes back the value chosen last."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from paperterm.index.text.display import one_line
from paperterm.tui import keys
from paperterm.tui.controllers.facets import FacetEntry
from paperterm.tui.rows import fit

CHOSEN = "✓"
#: Between a facet and its value in an option's id (no facet name holds it).
SEPARATOR = "\t"


def facet_prompt(entry: FacetEntry, width: int) -> Text:
    """`✓ Oral … 144`: the count at the right edge, the value cut to what is left."""
    if entry.value is None:
        return Text(entry.facet, style="bold")
    count = f"{entry.papers:,}"
    room = max(4, width - cell_len(count) - 3)
    name = fit(one_line(entry.value) or "?", room)
    mark = CHOSEN if entry.chosen else " "
    return Text.assemble(f"{mark} ", name, " ", (count, "dim"))


class FacetsPane(OptionList):
    """The facets; posts `Chosen` for Enter (or a click) on a value, `Dropped` for
    Backspace."""

    BINDINGS = keys.scope_bindings("facets")

    class Chosen(Message):
        def __init__(self, facet: str, value: str) -> None:
            super().__init__()
            self.facet = facet
            self.value = value

    class Dropped(Message):
        """The value chosen last is to be taken back."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False, compact=True)
        self.entries: list[FacetEntry] = []
        self._width = 0

    def show_entries(self, entries: Sequence[FacetEntry]) -> None:
        """Show `entries`, the highlight kept on the same value when it is still there."""
        width = self.scrollable_content_region.width or 24
        entries = list(entries)
        if entries == self.entries and width == self._width:
            return
        highlighted = self.highlighted
        before = self.entries[highlighted] if highlighted is not None and self.entries else None
        self.clear_options()
        self.add_options(
            Option(facet_prompt(entry, width), id=_option_id(entry), disabled=entry.value is None)
            for entry in entries
        )
        self.entries, self._width = entries, width
        if not entries:
            return
        same = [i for i, e in enumerate(entries) if before and e[:2] == before[:2]]
        first = next((i for i, e in enumerate(entries) if e.value is not None), 0)
        self.highlighted = same[0] if same else min(highlighted or first, len(entries) - 1)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        facet, sep, value = (event.option_id or "").partition(SEPARATOR)
        if sep:
            self.post_message(self.Chosen(facet, value))

    def action_drop_facet(self) -> None:
        self.post_message(self.Dropped())

    def on_resize(self) -> None:
        if self.entries and self.scrollable_content_region.width != self._width:
            self.show_entries(self.entries)


def _option_id(entry: FacetEntry) -> str | None:
    return None if entry.value is None else f"{entry.facet}{SEPARATOR}{entry.value}"
