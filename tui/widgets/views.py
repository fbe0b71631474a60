"""The views sidebar: all papers, the watched papers, the collections, the bookmark tags and
the saved searches, each with `unread/total`; choosing one (Enter, a click) narrows the list
to it."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from paperterm.index.library.filters import ViewKey
from paperterm.index.text.display import one_line
from paperterm.tui.rows import fit
from paperterm.tui.view import ViewEntry

CURRENT = "▸"


def entry_prompt(entry: ViewEntry, current: bool, width: int) -> Text:
    """`▸ name … 35/38`: the counts at the right edge, the name cut to what is left."""
    if entry.key is None:
        return Text(one_line(entry.label), style="bold")
    counts = "…" if entry.total is None else f"{entry.unread}/{entry.total}"
    room = max(4, width - cell_len(counts) - 3)
    name = fit(one_line(entry.label), room)
    return Text.assemble(f"{CURRENT if current else ' '} ", name, " ", (counts, "dim"))


class ViewsPane(OptionList):
    """The views; posts `Chosen` when one is chosen."""

    class Chosen(Message):
        def __init__(self, view: ViewKey) -> None:
            super().__init__()
            self.view = view

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False, compact=True)
        self._shown: list[tuple[ViewEntry, bool]] = []
        self._width = 0

    def show_views(self, entries: Sequence[ViewEntry], current: ViewKey) -> None:
        """Show `entries` (only what changed is redrawn), `current` marked."""
        width = self.scrollable_content_region.width or 24
        shown = [(entry, entry.key == current) for entry in entries]
        if shown == self._shown and width == self._width:
            return
        keys = [entry.key for entry, _ in shown]
        if keys != [entry.key for entry, _ in self._shown]:
            highlighted = self.highlighted
            self.clear_options()
            self.add_options(
                Option(
                    entry_prompt(entry, is_current, width),
                    id=_option_id(entry.key),
                    disabled=entry.key is None,
                )
                for entry, is_current in shown
            )
            if highlighted is None:
                highlighted = next((i for i, (_, on) in enumerate(shown) if on), 0)
            self.highlighted = min(highlighted, len(shown) - 1) if shown else None
        else:
            for index, (item, old) in enumerate(zip(shown, self._shown, strict=True)):
                if item != old or width != self._width:
                    self.replace_option_prompt_at_index(index, entry_prompt(*item, width))
        self._shown, self._width = shown, width

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        view = ViewKey.parse(event.option_id or "")
        if view is not None:
            self.post_message(self.Chosen(view))

    def on_resize(self) -> None:
        entries = [entry for entry, _ in self._shown]
        current = next((entry.key for entry, on in self._shown if on), None)
        if entries and current is not None:
            self.show_views(entries, current)


def _option_id(key: ViewKey | None) -> str | None:
    return None if key is None else str(key)
