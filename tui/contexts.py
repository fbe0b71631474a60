"""Where keys act together: for each place the focus can be, the bindings of the focused
widget, its screen and the app, read from their own `BINDINGS` (so a key added to a widget
is checked with no list to update here). `[keys]` remaps are checked against these contexts
for clashes (tui/keys.py); a test checks that every screen has a context.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.dom import DOMNode

from paperterm.tui import keys
from paperterm.tui.screens.agenda import AgendaList, AgendaScreen, PathScreen
from paperterm.tui.screens.choose import ChoiceScreen
from paperterm.tui.screens.dialogs import (
    ConfirmScreen,
    HelpScreen,
    LineScreen,
    LinksScreen,
    NameScreen,
    NoteScreen,
    TagsScreen,
    WarningsScreen,
)
from paperterm.tui.screens.main import MainScreen
from paperterm.tui.screens.read import ReadScreen
from paperterm.tui.screens.triage import TriageCard, TriageScreen
from paperterm.tui.screens.watch_dialog import WatchScreen
from paperterm.tui.widgets.detail import PaperDetail, ScrollingText
from paperterm.tui.widgets.facets import FacetsPane
from paperterm.tui.widgets.paper_list import PaperList
from paperterm.tui.widgets.views import ViewsPane


def binding_ids(node: type[DOMNode]) -> tuple[str, ...]:
    """The ids of the table's bindings a widget or screen class declares (its own and
    inherited `BINDINGS`, as Textual merges them)."""
    ids: dict[str, None] = {}
    for cls in reversed(node.__mro__):
        for binding in getattr(cls, "BINDINGS", None) or ():
            if isinstance(binding, Binding) and binding.id in keys.BY_ID:
                ids[binding.id] = None
    return tuple(ids)


#: The app's bindings (ReaderApp.BINDINGS is the "app" scope), active everywhere.
APP_LAYER = tuple(spec.id for spec in keys.SPECS if spec.scope == "app")


def context(name: str, *nodes: type[DOMNode]) -> keys.KeyContext:
    """The context of focus on `nodes[0]` inside the others (innermost first), in the app."""
    return keys.KeyContext(name, (*(binding_ids(node) for node in nodes), APP_LAYER))


#: Screens, by class, with the contexts of the widgets that can have the focus in them.
SCREEN_CONTEXTS: dict[type[DOMNode], tuple[keys.KeyContext, ...]] = {
    MainScreen: (
        context("the list", PaperList, MainScreen),
        context("the detail pane", PaperDetail, MainScreen),
        context("the views sidebar", ViewsPane, MainScreen),
        context("the facets sidebar", FacetsPane, MainScreen),
    ),
    ReadScreen: (context("the full-screen reader", PaperDetail, ReadScreen),),
    TriageScreen: (context("triage", TriageCard, TriageScreen),),
    HelpScreen: (context("the help", ScrollingText, HelpScreen),),
    WarningsScreen: (context("the warnings", ScrollingText, WarningsScreen),),
    LineScreen: (context("a one-line dialog", LineScreen),),
    TagsScreen: (context("the tags dialog", TagsScreen),),
    NameScreen: (context("the name dialog", NameScreen),),
    ConfirmScreen: (context("a question", ConfirmScreen),),
    NoteScreen: (context("the note dialog", NoteScreen),),
    LinksScreen: (context("the links dialog", LinksScreen),),
    AgendaScreen: (context("the agenda", AgendaList, AgendaScreen),),
    PathScreen: (context("the calendar file dialog", PathScreen),),
    ChoiceScreen: (context("the authors dialog", ChoiceScreen),),
    WatchScreen: (context("the watch dialog", WatchScreen),),
}

CONTEXTS: tuple[keys.KeyContext, ...] = tuple(
    item for contexts in SCREEN_CONTEXTS.values() for item in contexts
)
