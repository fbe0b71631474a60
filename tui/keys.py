"""Every key binding of the reader, in one table: ids, default keys, descriptions.

The widgets build their `BINDINGS` from this table, the help screen lists it (with the
user's remaps applied), and `[keys]` in the config is checked against it before the app
starts. A binding id names an action wherever it appears, so remapping `cursor_down` moves
the cursor in the list and scrolls the detail alike. Textual is imported only where a
binding is made or a key name checked, so that `paperterm doctor` reads the table without it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from paperterm.index.config import Config, check_key_ids

if TYPE_CHECKING:
    from textual.binding import Binding, BindingType

MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})


@dataclass(frozen=True, slots=True)
class KeySpec:
    """One binding: `scope` says where it acts (and groups it in the help screen)."""

    id: str
    keys: str
    action: str
    description: str
    scope: str
    show: bool = True
    priority: bool = False

    def binding(self) -> Binding:
        from textual.binding import Binding

        return Binding(
            self.keys,
            self.action,
            self.description,
            show=self.show,
            priority=self.priority,
            id=self.id,
            tooltip=self.description,
        )


#: Scopes in the order the help screen shows them, with their headings.
SCOPES = {
    "app": "Everywhere",
    "main": "Main screen",
    "list": "List and detail",
    "reader": "Full-screen reader",
    "dialog": "Dialogs",
    "question": "Questions (such as R's)",
}

SPECS: tuple[KeySpec, ...] = (
    KeySpec("quit", "q", "quit", "Quit", "app"),
    KeySpec("quit_anywhere", "ctrl+q", "quit", "Quit (also while typing)", "app", priority=True),
    KeySpec("help", "question_mark", "help", "Show the keys", "app"),
    KeySpec("command_palette", "ctrl+p", "command_palette", "Commands", "app", priority=True),
    KeySpec("bookmark", "b", "toggle_bookmark", "Bookmark or unbookmark the paper", "app"),
    KeySpec("bookmarks_only", "B", "bookmarks_only", "Show only bookmarks (toggle)", "app"),
    KeySpec("copy_link", "y", "copy_link", "Copy the paper's link (or its citation)", "app"),
    KeySpec("copy_bibtex", "Y", "copy_bibtex", "Copy the paper's BibTeX entry", "app"),
    KeySpec("open_link", "o", "open_link", "Open the paper's page in a browser", "app"),
    KeySpec("links", "L", "links", "Every link: the paper's, code and data (open, copy)", "app"),
    KeySpec("edit_tags", "t", "edit_tags", "Edit the bookmark's tags", "app"),
    KeySpec("edit_note", "n", "edit_note", "Edit the bookmark's note", "app"),
    KeySpec("suspend", "ctrl+z", "suspend_process", "Suspend (fg in the shell resumes)", "app"),
    KeySpec("read_next", "space", "read_next", "Mark read, go to the next unread paper", "app"),
    KeySpec("toggle_read", "r", "toggle_read", "Mark the paper read or unread", "app"),
    KeySpec("undo", "u", "undo", "Undo the last change of reading state or bookmarks", "app"),
    KeySpec(
        "jump_back",
        "ctrl+o",
        "jump_back",
        "Back to where you were before a search or a jump",
        "app",
    ),
    KeySpec("search", "slash", "focus_search", "Search", "main"),
    KeySpec("next_pane", "tab", "next_pane", "Next pane", "main"),
    KeySpec("previous_pane", "shift+tab", "previous_pane", "Previous pane", "main"),
    KeySpec("fullscreen", "f", "fullscreen", "Read the paper full screen", "main"),
    KeySpec("back", "escape", "back", "Leave the search box, then clear the search", "main"),
    KeySpec("clear_search", "x", "clear_search", "Clear the search and filters", "main"),
    KeySpec("unread_only", "U", "unread_only", "Show only unread papers (toggle)", "main"),
    KeySpec("mark_view_read", "R", "mark_view_read", "Mark every paper in view read", "main"),
    KeySpec(
        "sort", "s", "cycle_sort", "Sort: corpus, relevance, title, unread, newest, like", "main"
    ),
    KeySpec("views", "v", "toggle_views", "Views: collections, tags, saved searches", "main"),
    KeySpec("save_search", "S", "save_search", "Save the search as a view", "main"),
    KeySpec(
        "snippets",
        "w",
        "toggle_snippets",
        "Show or hide where the query matched, under each result",
        "main",
    ),
    KeySpec(
        "search_as_typed",
        "ctrl+r",
        "search_as_typed",
        "Search the words as typed (undo a typo correction)",
        "main",
    ),
    KeySpec("cursor_down", "j,down", "cursor_down", "Down", "list"),
    KeySpec("cursor_up", "k,up", "cursor_up", "Up", "list"),
    KeySpec("first", "g,home", "first", "First", "list"),
    KeySpec("last", "G,end", "last", "Last", "list"),
    KeySpec("page_down", "pagedown", "page_down", "Page down", "list"),
    KeySpec("page_up", "pageup", "page_up", "Page up", "list"),
    KeySpec("open", "enter", "open", "Open the paper (in the list) or read it full screen", "list"),
    KeySpec("close_reader", "escape,h,q", "close", "Back to the list", "reader"),
    KeySpec("next_paper", "right_square_bracket", "next_paper", "Next paper", "reader"),
    KeySpec("previous_paper", "left_square_bracket", "previous_paper", "Previous paper", "reader"),
    KeySpec("close_dialog", "escape", "close", "Close the dialog (without saving)", "dialog"),
    KeySpec("close_help", "q", "close", "Close the help", "dialog"),
    KeySpec("save_dialog", "ctrl+s", "save", "Save the tags or the note", "dialog"),
    KeySpec("confirm", "y", "confirm", "Yes (any other key: no)", "question", priority=True),
    KeySpec("copy_chosen_link", "y", "copy", "Copy the chosen link (links dialog)", "dialog"),
)

BY_ID = {spec.id: spec for spec in SPECS}


def bindings(*ids: str) -> list[BindingType]:
    """The `Binding`s for these ids, for a widget's `BINDINGS`."""
    return [BY_ID[binding_id].binding() for binding_id in ids]


def scope_bindings(scope: str) -> list[BindingType]:
    return [spec.binding() for spec in SPECS if spec.scope == scope]


@cache
def _named_keys() -> frozenset[str]:
    from textual.keys import Keys

    return frozenset(key.value for key in Keys) | {"space", "tab", "enter", "escape"}


def valid_key(key: str) -> bool:
    """Whether Textual can ever deliver `key` (e.g. `j`, `ctrl+b`, `pagedown`, `question_mark`)."""
    from textual.keys import REPLACED_KEYS, key_to_character

    *modifiers, name = key.split("+") if key != "+" else ["+"]
    if not name or any(modifier not in MODIFIERS for modifier in modifiers):
        return False
    if len(name) == 1:
        return name.isprintable() and not name.isspace()
    return name in _named_keys() or key_to_character(REPLACED_KEYS.get(name, name)) is not None


def split_keys(keys: str) -> list[str]:
    """A `[keys]` value as Textual's key names: `"j, down"` -> `["j", "down"]`, `"?"` ->
    `["question_mark"]`."""
    from textual.keys import _character_to_key

    return [_character_to_key(key) if len(key) == 1 else key for key in raw_keys(keys)]


def raw_keys(keys: str) -> list[str]:
    """A `[keys]` value's keys as written: `"j, down"` -> `["j", "down"]`."""
    return [key.strip() for key in keys.split(",") if key.strip()]


def check_keymap(config: Config) -> dict[str, str]:
    """The `[keys]` table as a Textual keymap; raises `ConfigError` for an unknown id, a key
    name Textual does not know, or two bindings of one scope on the same key."""
    check_key_ids(config, BY_ID)
    keymap: dict[str, str] = {}
    for binding_id, value in config.keys.items():
        keys = split_keys(value)
        if not keys:
            raise config.key_error(binding_id, "names no key")
        for raw, key in zip(raw_keys(value), keys, strict=True):
            if not valid_key(key):
                raise config.key_error(binding_id, f"{raw!r} is not a key name Textual knows")
        keymap[binding_id] = ",".join(keys)
    clash = find_clash(effective_keys(keymap))
    if clash is not None:
        first, second, key = clash
        culprit = second if second in config.keys else first
        other = first if culprit == second else second
        raise config.key_error(culprit, f"{key!r} is already the key of {other!r}")
    return keymap


def effective_keys(keymap: Mapping[str, str]) -> dict[str, list[str]]:
    """Binding id -> the keys that trigger it, with the keymap applied."""
    return {spec.id: split_keys(keymap.get(spec.id, spec.keys)) for spec in SPECS}


class KeyLabels:
    """How a binding's keys read on screen now, remaps applied: `key_text("cursor_down")` is
    `j/↓`. `display` is the app's `get_key_display`, so keys read as Textual shows them."""

    def __init__(self, keymap: Mapping[str, str], display: Callable[[Binding], str]) -> None:
        self._keys = effective_keys(keymap)
        self._display = display

    def __call__(self, binding_id: str) -> str:
        binding = BY_ID[binding_id].binding()
        return "/".join(self._display(binding.with_key(key)) for key in self._keys[binding_id])


def find_clash(keys: Mapping[str, Iterable[str]]) -> tuple[str, str, str] | None:
    """Two ids of the same scope sharing a key, as (first id, second id, key)."""
    owners: dict[tuple[str, str], str] = {}
    for spec in SPECS:
        for key in keys[spec.id]:
            other = owners.setdefault((spec.scope, key), spec.id)
            if other != spec.id:
                return other, spec.id, key
    return None
