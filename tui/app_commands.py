"""The command palette's commands of the reader: the key table's (the app's, and the main
screen's over it), each with its key; the sorts, the collections, the saved searches, the
exports, the warnings."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from textual.app import SystemCommand
from textual.screen import Screen

from paperterm.index.library.filters import ViewKey
from paperterm.index.library.sorting import SORTS
from paperterm.index.text.display import one_line
from paperterm.tui import keys
from paperterm.tui.screens.main import MainScreen
from paperterm.tui.state import ReaderState


class CommandHost(Protocol):
    """What the commands act on: the reader app."""

    state: ReaderState

    @property
    def main(self) -> MainScreen: ...

    def run_action(self, action: str, default_namespace: Screen | None = None) -> object:
        """Run a key's action (on the app when `default_namespace` is None)."""

    def export_view(self, kind: str) -> None:
        """Write the papers in view as `kind`."""

    def export_bookmarks(self, kind: str) -> None:
        """Write the bookmarks as `kind`."""

    def show_warnings(self) -> None:
        """Show the problems found at start-up."""


def system_commands(app: CommandHost, screen: Screen) -> Iterator[SystemCommand]:
    """The reader's commands while `screen` is shown (the main screen's only over it)."""
    from paperterm.index.library.export import EXPORTERS

    main = app.main
    for spec in keys.SPECS:
        if not spec.command or spec.scope not in ("app", "main"):
            continue
        if spec.scope == "main" and screen is not main:
            continue
        target: Screen | None = None if spec.scope == "app" else main
        key = app.state.key_text(spec.id)
        yield SystemCommand(
            palette_text(f"{spec.description} · {key}"),
            palette_text(f"key {key} · name in [keys]: {spec.id}"),
            lambda action=spec.action, target=target: app.run_action(action, target),
        )
    for key, label in SORTS.items():
        yield SystemCommand(
            f"Sort: {label}", "Sort the papers in view", lambda key=key: main.set_sort(key)
        )
    for name in app.state.collections:
        yield SystemCommand(
            palette_text(f"Collection: {one_line(name)}"),
            "Show only the papers of this collection",
            lambda name=name: main.set_view(ViewKey("collection", name)),
        )
    for search in app.state.saved_searches:
        yield SystemCommand(
            palette_text(f"Saved search: {one_line(search.name)}"),
            palette_text(one_line(search.query, 60)),
            lambda name=search.name: main.set_view(ViewKey("search", name)),
        )
    for kind, export in EXPORTERS.items():
        yield SystemCommand(
            f"Export the view as {export.label}",
            f"Write the papers in view, in order, to view-export.{export.suffix} in the "
            "data folder",
            lambda kind=kind: app.export_view(kind),
        )
    for kind, export in EXPORTERS.items():
        yield SystemCommand(
            f"Export bookmarks as {export.label}",
            f"Write bookmarks-export.{export.suffix} in the data folder",
            lambda kind=kind: app.export_bookmarks(kind),
        )
    if app.state.warnings or app.state.bookmarks_problem or app.state.problems:
        yield SystemCommand("Warnings", "Show the problems found at start-up", app.show_warnings)


def palette_text(text: str) -> str:
    """`text` as the command palette shows it: it reads markup, and Textual's `escape`
    leaves `[B]` alone, which then vanishes as an unknown style."""
    return text.replace("[", "\\[")
