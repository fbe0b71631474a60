"""The status line: prioritized parts (tui/status.py) fitted to the width at every draw,
so a resize re-fits them with no code of the screen's."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widget import Widget

from paperterm.tui.status import Part, fit_status


class StatusLine(Widget):
    """One line of facts and decorations; `set_parts` replaces them (redrawn only when
    they change: each redraw costs a frame)."""

    DEFAULT_CSS = """
    StatusLine {
        height: 1;
        width: 1fr;
        padding: 0 1;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.parts: tuple[Part, ...] = ()

    def set_parts(self, parts: Sequence[Part]) -> None:
        parts = tuple(parts)
        if parts != self.parts:
            self.parts = parts
            self.refresh()

    @property
    def text(self) -> str:
        """The line as drawn at the current width."""
        return fit_status(self.parts, self.content_size.width)

    def render(self) -> Text:
        return Text(self.text, no_wrap=True, overflow="ellipsis")
