"""`W`'s dialog: the words of the search box and the paper's authors, each marked when
watched; Enter watches the chosen one, or unwatches it when it is watched already."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from paperterm.tui import keys
from paperterm.tui.screens.dialogs import DIALOG_CSS
from paperterm.tui.state import KeyText
from paperterm.tui.watching import WatchChoice

WATCHED_MARK = "◉"
CONFIG_NOTE = "config: unwatch it in the config file"


def choice_prompt(choice: WatchChoice) -> Text:
    """`◉ Ada Lovelace (University of London)`, dimmed note for the config's."""
    mark = WATCHED_MARK if choice.watched else " "
    out = Text.assemble(f"{mark} ", choice.label)
    if choice.configured:
        out.append(f"  ({CONFIG_NOTE})", "dim")
    return out


class WatchScreen(ModalScreen[WatchChoice | None]):
    """Returns the chosen line (None when closed)."""

    CSS_PATH = DIALOG_CSS
    BINDINGS = keys.bindings("close_dialog")
    KEY_SCOPES = ("dialog",)

    def __init__(self, title: str, choices: list[WatchChoice], key_text: KeyText) -> None:
        super().__init__()
        self.title_text = title
        self.choices = choices
        self.key_text = key_text

    def compose(self) -> ComposeResult:
        with Vertical(id="watch-box", classes="dialog"):
            yield Label(Text(self.title_text), classes="dialog-title")
            options = [Option(choice_prompt(choice)) for choice in self.choices]
            yield OptionList(*options, id="watch-list", markup=False)
            yield Label(
                Text(
                    f"{WATCHED_MARK} watched · Enter watches or unwatches · "
                    f"{self.key_text('close_dialog')} closes"
                ),
                classes="dialog-hint",
            )

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.focus()
        options.highlighted = 0

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.choices[event.option_index])

    def action_close(self) -> None:
        self.dismiss(None)
