"""The dialogs over the paper screens: help, tags, note, warnings, links, a yes/no
question, a name for a saved search."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TypeVar

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from paperterm.index.text.display import one_line, safe_text
from paperterm.tui import keys
from paperterm.tui.state import KeyText
from paperterm.tui.widgets.detail import ScrollingText

Result = TypeVar("Result")

SEARCH_SYNTAX = (
    ("words", "papers with every word (else any of them)"),
    ('"a phrase"', "the words in this order"),
    ("title: name: abstract: author: collection:", "search one field"),
    ("tag:NAME", "bookmarks with this tag"),
    ("-word  -tag:NAME", "leave these out"),
    ("word*  word~", "prefix, or spelling-tolerant"),
)


#: The dialogs' rules, read when the first dialog opens (not in app.tcss: the first frame
#: does without them).
DIALOG_CSS = "dialogs.tcss"


class ScopeKeys:
    """One scope's keys for the help: key, binding id and description in columns; where the
    width would leave the description fewer than `DESCRIPTION_MIN` cells, the description
    goes on a line of its own under its key and id (laid out at every draw, so a resize
    re-lays it)."""

    DESCRIPTION_MIN = 24

    def __init__(self, rows: list[tuple[str, str, str]], key_width: int, id_width: int) -> None:
        self.rows = rows
        self.key_width = key_width
        self.id_width = id_width

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if options.max_width >= self.key_width + self.id_width + 4 + self.DESCRIPTION_MIN:
            table = Table.grid(padding=(0, 2), pad_edge=False)
            table.add_column(style="bold", no_wrap=True, width=self.key_width)
            table.add_column(style="dim", no_wrap=True, width=self.id_width)
            table.add_column(ratio=1)
            for row in self.rows:
                table.add_row(*row)
            yield table
            return
        for key, binding_id, description in self.rows:
            pad = " " * max(self.key_width - cell_len(key), 0)
            yield Text.assemble((key, "bold"), pad + "  ", (binding_id, "dim"))
            yield Text("    " + description)


class HelpScreen(ModalScreen[None]):
    """Every key, generated from the key table with the user's remaps applied: per context,
    the key, the binding id (the name `[keys]` in the config uses) and what it does; the
    screen it was opened over first (`first`: its scopes)."""

    CSS_PATH = DIALOG_CSS

    BINDINGS = keys.bindings("close_dialog", "close_help", "help")

    def __init__(self, key_text: KeyText, first: Sequence[str] = ()) -> None:
        super().__init__()
        self.key_text = key_text
        self.first = tuple(scope for scope in first if scope in keys.SCOPES)

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box", classes="dialog"):
            yield Label(Text("Keys"), classes="dialog-title")
            with ScrollingText(id="help-scroll"):
                yield Static(self.help_table(), id="help-text")
            close = self.key_text("close_dialog")
            yield Label(Text(f"{close} or {self.key_text('close_help')} closes · remap in [keys]"))

    def on_mount(self) -> None:
        self.query_one("#help-scroll").focus()

    def scopes(self) -> list[str]:
        """The scopes in the order shown: this screen's first, then the others."""
        return [*self.first, *(scope for scope in keys.SCOPES if scope not in self.first)]

    def help_table(self) -> Group:
        parts: list[RenderableType] = []
        # One width per column in every scope, so the columns line up down the help.
        key_width = min(max(cell_len(self.key_text(spec.id)) for spec in keys.SPECS), 16)
        id_width = max(len(spec.id) for spec in keys.SPECS)
        for scope in self.scopes():
            heading = keys.SCOPES[scope] + (" (this screen)" if scope in self.first else "")
            parts.append(Text(heading, style="bold"))
            rows = [
                (self.key_text(spec.id), spec.id, spec.description)
                for spec in keys.SPECS
                if spec.scope == scope
            ]
            parts += [ScopeKeys(rows, key_width, id_width), Text()]
        parts.append(Text("Search syntax", style="bold"))
        for example, meaning in SEARCH_SYNTAX:
            parts.append(Text.assemble(("  " + example, "bold"), "\n      " + meaning))
        return Group(*parts)

    def help_text(self) -> Text:
        """The help as plain lines (at 100 columns), for tests and scripts."""
        console = Console(width=100, record=True, file=io.StringIO(), color_system=None)
        console.print(self.help_table())
        return Text(console.export_text())

    def action_close(self) -> None:
        self.dismiss()

    def action_help(self) -> None:
        self.dismiss()


class LineScreen(ModalScreen[Result | None]):
    """A dialog that edits one line of text; Enter or Ctrl+S saves, Esc cancels. A subclass
    names its heading and its parts (`NAME`: `NAME-box`, `NAME-input`) and turns the line into
    its result."""

    CSS_PATH = DIALOG_CSS

    BINDINGS = keys.bindings("close_dialog", "save_dialog")
    HEADING = ""
    NAME = "line"

    def __init__(self, value: str, key_text: KeyText) -> None:
        super().__init__()
        self.value = value
        self.key_text = key_text

    def compose(self) -> ComposeResult:
        with Vertical(id=f"{self.NAME}-box", classes="dialog"):
            yield Label(Text(self.HEADING), classes="dialog-title")
            yield Input(self.value, id=f"{self.NAME}-input")
            yield Label(Text(self._hint()), classes="dialog-hint")

    def _hint(self) -> str:
        key = self.key_text
        return f"Enter or {key('save_dialog')} saves · {key('close_dialog')} cancels"

    @on(Input.Submitted)
    def action_save(self) -> None:
        self.dismiss(self.result(self.query_one(f"#{self.NAME}-input", Input).value))

    def result(self, line: str) -> Result | None:
        raise NotImplementedError

    def action_close(self) -> None:
        self.dismiss(None)


class TagsScreen(LineScreen[list[str]]):
    """Edit a bookmark's tags as a comma-separated line."""

    HEADING = "Tags, separated by commas"
    NAME = "tags"

    def __init__(self, tags: list[str], key_text: KeyText) -> None:
        super().__init__(", ".join(tags), key_text)

    def result(self, line: str) -> list[str]:
        return [tag.strip() for tag in line.split(",") if tag.strip()]


class NoteScreen(ModalScreen[str | None]):
    """Edit a bookmark's note (several lines); Ctrl+S or the Save button saves."""

    CSS_PATH = DIALOG_CSS

    BINDINGS = keys.bindings("close_dialog", "save_dialog")

    def __init__(self, note: str, key_text: KeyText) -> None:
        super().__init__()
        self.note = note
        self.key_text = key_text

    def compose(self) -> ComposeResult:
        key = self.key_text
        with Vertical(id="note-box", classes="dialog"):
            yield Label(Text("Note"), classes="dialog-title")
            yield TextArea(self.note, id="note-text", soft_wrap=True)
            with Horizontal(id="note-buttons"):
                yield Button("Save", id="note-save", variant="primary", compact=True)
                yield Button("Cancel", id="note-cancel", compact=True)
                yield Label(
                    Text(f"{key('save_dialog')} saves · {key('close_dialog')} cancels"),
                    classes="dialog-hint",
                )

    def on_mount(self) -> None:
        area = self.query_one(TextArea)
        area.focus()
        area.move_cursor(area.document.end)

    @on(Button.Pressed, "#note-save")
    def action_save(self) -> None:
        self.dismiss(self.query_one(TextArea).text)

    @on(Button.Pressed, "#note-cancel")
    def action_close(self) -> None:
        self.dismiss(None)


class WarningsScreen(ModalScreen[None]):
    """The problems found at start-up (corpus files, index, bookmarks), one per line."""

    CSS_PATH = DIALOG_CSS

    BINDINGS = keys.bindings("close_dialog", "close_help")
    #: The key table's scopes of this screen, shown first in the help.
    KEY_SCOPES = ("dialog",)

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = lines

    def compose(self) -> ComposeResult:
        with Vertical(id="warnings-box", classes="dialog"):
            yield Label(Text(f"Warnings ({len(self.lines)})"), classes="dialog-title")
            with ScrollingText(id="warnings-scroll"):
                text = "\n".join(safe_text(line, keep_newlines=False) for line in self.lines)
                yield Static(Text(text or "No warnings."), id="warnings-text")

    def on_mount(self) -> None:
        self.query_one("#warnings-scroll").focus()

    def action_close(self) -> None:
        self.dismiss()


class ConfirmScreen(ModalScreen[bool]):
    """A question answered with one key: the `confirm` key (y) says yes, any other no."""

    CSS_PATH = DIALOG_CSS

    BINDINGS = keys.bindings("confirm")

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box", classes="dialog"):
            yield Label(Text(safe_text(self.question, keep_newlines=False)), id="confirm-text")

    def action_confirm(self) -> None:
        self.dismiss(True)

    def on_key(self, event: events.Key) -> None:
        # The `confirm` binding has priority, so any key that gets here means no.
        event.stop()
        event.prevent_default()
        self.dismiss(False)


class NameScreen(LineScreen[str]):
    """The name to save a search under (its query to start with)."""

    HEADING = "Save the search as a view named"
    NAME = "name"

    def __init__(self, query: str, key_text: KeyText) -> None:
        super().__init__(safe_text(query, keep_newlines=False), key_text)

    def result(self, line: str) -> str | None:
        return " ".join(line.split()) or None


class LinksScreen(ModalScreen[tuple[str, str] | None]):
    """Every link of a paper, its own first, then the code and data it mentions: Enter opens
    the chosen one, the copy key copies it. Returns ("open" or "copy", url), None when
    closed."""

    CSS_PATH = DIALOG_CSS

    BINDINGS = keys.bindings("close_dialog", "copy_chosen_link")
    #: The key table's scopes of this screen, shown first in the help.
    KEY_SCOPES = ("dialog",)

    def __init__(self, own: list[str], other: list[str], key_text: KeyText) -> None:
        super().__init__()
        self.links = [*own, *other]
        self.own = len(own)
        self.key_text = key_text

    def compose(self) -> ComposeResult:
        with Vertical(id="links-box", classes="dialog"):
            yield Label(Text("Links"), classes="dialog-title")
            options = [
                Option(Text.assemble((f"{kind:<11}", "dim"), one_line(url)))
                for kind, url in zip(
                    ["paper"] * self.own + ["code, data"] * (len(self.links) - self.own),
                    self.links,
                    strict=True,
                )
            ]
            yield OptionList(*options, id="links-list", markup=False)
            key = self.key_text
            yield Label(
                Text(
                    f"Enter opens · {key('copy_chosen_link')} copies · {key('close_dialog')} closes"
                ),
                classes="dialog-hint",
            )

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.focus()
        options.highlighted = 0

    def _chosen(self) -> str | None:
        index = self.query_one(OptionList).highlighted
        return self.links[index] if index is not None else None

    @on(OptionList.OptionSelected)
    def _open(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        chosen = self._chosen()
        self.dismiss(("open", chosen) if chosen else None)

    def action_copy(self) -> None:
        chosen = self._chosen()
        self.dismiss(("copy", chosen) if chosen else None)

    def action_close(self) -> None:
        self.dismiss(None)
