"""`W`'s dialog: the words of the search box and the paper's authors, each marked when
watched; Enter picks one (the caller watches it, or unwatches it when watched already)."""

from __future__ import annotations

from rich.text import Text

from paperterm.tui.screens.choose import ChoiceScreen
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


class WatchScreen(ChoiceScreen):
    """The choices as lines; the caller maps the chosen index to `choices` (None: closed)."""

    def __init__(self, title: str, choices: list[WatchChoice], key_text: KeyText) -> None:
        prompts = [choice_prompt(choice) for choice in choices]
        hint = f"{WATCHED_MARK} watched · Enter watches or unwatches"
        super().__init__(title, prompts, key_text, hint)
        self.choices = choices
