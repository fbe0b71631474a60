"""A dialog that picks one of a few lines (one of a paper's authors): Enter chooses, Esc
closes. Returns the chosen line's index, None when closed."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from paperterm.index.text.display import one_line
from paperterm.tui import keys
from paperterm.tui.screens.dialogs import DIALOG_CSS
from paperterm.tui.state import KeyText


class ChoiceScreen(ModalScreen[int | None]):
    """`prompts` are shown one a line (a string on one line, or a styled `Text`); `hint`
    says what Enter does, before the key that closes."""

    CSS_PATH = DIALOG_CSS

    BINDINGS = keys.bindings("close_dialog")
    #: The key table's scopes of this screen, shown first in the help.
    KEY_SCOPES = ("dialog",)

    def __init__(
        self,
        heading: str,
        prompts: Sequence[str | Text],
        key_text: KeyText,
        hint: str = "Enter chooses",
    ) -> None:
        super().__init__()
        self.heading = heading
        self.prompts = list(prompts)
        self.hint = hint
        self.key_text = key_text

    def compose(self) -> ComposeResult:
        with Vertical(id="choice-box", classes="dialog"):
            yield Label(Text(self.heading), classes="dialog-title")
            options = [
                Option(prompt if isinstance(prompt, Text) else Text(one_line(prompt)))
                for prompt in self.prompts
            ]
            yield OptionList(*options, id="choice-list", markup=False)
            hint = f"{self.hint} · {self.key_text('close_dialog')} closes"
            yield Label(Text(hint), classes="dialog-hint")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.focus()
        options.highlighted = 0

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option_index)

    def action_close(self) -> None:
        self.dismiss(None)
