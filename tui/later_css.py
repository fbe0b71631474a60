"""The rules of what the reader shows after its first frame (later.tcss), read when the
first of it is made: the widgets mounted once (tui/widgets/mount_once.py) and the
full-screen reader. Parsing them with app.tcss slowed the start.

They are added to the app's stylesheet as app.tcss's own are (user rules, after app.tcss's:
the same priority as before they were moved). Textual parses only what is new when it next
styles a widget; a screen's `CSS_PATH` (the dialogs') makes it parse everything again, as
it does for the dialogs' first.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.app import App

LATER_CSS = Path(__file__).with_name("later.tcss")


def load_later_css(app: App) -> None:
    """Add later.tcss to `app`'s stylesheet, once (before the widget it styles is mounted)."""
    stylesheet = app.stylesheet
    location = str(LATER_CSS)
    if not stylesheet.has_source(location):
        css = LATER_CSS.read_text(encoding="utf-8")
        stylesheet.add_source(css, read_from=(location, ""), is_default_css=False)
