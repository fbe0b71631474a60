"""The footer that teaches: the most useful keys of the focused pane, then the help key for
the rest, as many as fit the width at every draw (the screen picks and orders them from the
key table: `keys.footer_ids`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.widget import Widget

from paperterm.tui.status import cut

#: (the key as shown, what it does)
Item = tuple[str, str]
GAP = "  "


def fit_footer(items: Sequence[Item], tail: Item | None, width: int) -> list[Item]:
    """The items that fit in `width` cells in order, each whole, with `tail` (the help key)
    always last."""
    chosen: list[Item] = []
    rest = [tail] if tail else []
    for item in items:
        if _width([*chosen, item, *rest]) > width:
            break
        chosen.append(item)
    return [*chosen, *rest]


def _width(items: Sequence[Item]) -> int:
    return cell_len(GAP.join(f"{key} {label}" for key, label in items))


class KeyFooter(Widget):
    """One line of `key label` pairs; `set_items` replaces them."""

    DEFAULT_CSS = """
    KeyFooter {
        height: 1;
        width: 1fr;
        padding: 0 1;
        color: $text-muted;
    }
    KeyFooter > .key-footer--key {
        color: $text-accent;
        text-style: bold;
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"key-footer--key"}

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.items: tuple[Item, ...] = ()
        self.tail: Item | None = None

    def set_items(self, items: Sequence[Item], tail: Item | None) -> None:
        items = tuple(items)
        if (items, tail) != (self.items, self.tail):
            self.items, self.tail = items, tail
            self.refresh()

    @property
    def text(self) -> str:
        """The footer as drawn at the current width."""
        return self.render().plain

    def render(self) -> Text:
        width = self.content_size.width
        key_style = self.get_component_rich_style("key-footer--key", partial=True)
        out = Text(no_wrap=True, overflow="ellipsis")
        for number, (key, label) in enumerate(fit_footer(self.items, self.tail, width)):
            if number:
                out.append(GAP)
            out.append(key, key_style)
            out.append(f" {label}")
        if cell_len(out.plain) > width:
            out = Text(cut(out.plain, width), no_wrap=True)
        return out
