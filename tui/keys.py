"""Every key binding of the reader, in one table: ids, default keys, descriptions.

The widgets build their `BINDINGS` from this table; the help screen, the footer, the command
palette and `paperterm keys` list it (with the user's remaps applied); and `[keys]` in the
config is checked against it before the app starts. A binding id names an action wherever it
appears, so remapping `cursor_down` moves the cursor in the list and scrolls the detail
alike. A new `KeySpec` shows in the help, the palette (`command`) and `paperterm keys` by
itself; `footer` ranks it among the keys the footer teaches.

Clashes are checked per `KeyContext`: the bindings active at once (the focused widget's, its
screen's, the app's; tui/contexts.py lists them from the widgets' own `BINDINGS`). Two ids
on one key there are an error, unless the defaults already have one shadow the other (`q`
closes the reader instead of quitting). Textual is imported only where a binding is made or
a key name checked, so that `paperterm doctor` reads the table without it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from paperterm.index.config import Config, check_key_ids

if TYPE_CHECKING:
    from textual.binding import Binding, BindingType

MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})


class KeySpec(NamedTuple):
    """One binding: `scope` says where it acts (and groups it in the help screen). A named
    tuple, not a frozen dataclass: cheaper to define as the reader starts."""

    id: str
    keys: str
    action: str
    description: str
    scope: str
    show: bool = True
    priority: bool = False
    #: Its rank among the keys the footer shows (1 first; 0: never in the footer).
    footer: int = 0
    #: Its label in the footer (a word or two); the description when empty.
    short: str = ""
    #: Whether the command palette offers it (with its key).
    command: bool = True

    @property
    def label(self) -> str:
        return self.short or self.description

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
    "facets": "Facets sidebar",
    "reader": "Full-screen reader",
    "triage": "Triage (one paper at a time)",
    "agenda": "Agenda (the kept papers by day and session)",
    "dialog": "Dialogs",
    "question": "Questions (such as R's)",
}

SPECS: tuple[KeySpec, ...] = (
    KeySpec("quit", "q", "quit", "Quit", "app", footer=20),
    KeySpec(
        "quit_anywhere",
        "ctrl+q",
        "quit",
        "Quit (also while typing)",
        "app",
        priority=True,
        footer=21,
        short="quit",
        command=False,
    ),
    KeySpec("help", "question_mark", "help", "Show the keys", "app"),
    KeySpec(
        "command_palette",
        "ctrl+p",
        "command_palette",
        "Commands",
        "app",
        priority=True,
        footer=12,
        short="commands",
        command=False,
    ),
    KeySpec(
        "bookmark",
        "b",
        "toggle_bookmark",
        "Bookmark or unbookmark the paper",
        "app",
        footer=3,
        short="bookmark",
    ),
    KeySpec(
        "bookmarks_only",
        "B",
        "bookmarks_only",
        "Show only bookmarks (toggle)",
        "app",
        footer=6,
        short="bookmarks only",
    ),
    KeySpec(
        "copy_link",
        "y",
        "copy_link",
        "Copy the paper's link (or its citation)",
        "app",
        footer=7,
        short="copy link",
    ),
    KeySpec("copy_bibtex", "Y", "copy_bibtex", "Copy the paper's BibTeX entry", "app"),
    KeySpec(
        "open_link",
        "o",
        "open_link",
        "Open the paper's page in a browser",
        "app",
        footer=8,
        short="open page",
    ),
    KeySpec("links", "L", "links", "Every link: the paper's, code and data (open, copy)", "app"),
    KeySpec("edit_tags", "t", "edit_tags", "Edit the bookmark's tags", "app"),
    KeySpec("edit_note", "n", "edit_note", "Edit the bookmark's note", "app"),
    KeySpec("suspend", "ctrl+z", "suspend_process", "Suspend (fg in the shell resumes)", "app"),
    KeySpec(
        "read_next",
        "space",
        "read_next",
        "Mark read, go to the next unread paper",
        "app",
        footer=3,
        short="read, next",
    ),
    KeySpec(
        "toggle_read",
        "r",
        "toggle_read",
        "Mark the paper read or unread",
        "app",
        footer=8,
        short="read",
    ),
    KeySpec("undo", "u", "undo", "Undo the last change of reading state or bookmarks", "app"),
    KeySpec(
        "jump_back",
        "ctrl+o",
        "jump_back",
        "Back to where you were before a search or a jump",
        "app",
    ),
    KeySpec("search", "slash", "focus_search", "Search", "main", footer=1, short="search"),
    KeySpec(
        "next_pane", "tab", "next_pane", "Next pane", "main", footer=9, short="pane", command=False
    ),
    KeySpec("previous_pane", "shift+tab", "previous_pane", "Previous pane", "main", command=False),
    KeySpec("fullscreen", "f", "fullscreen", "Read the paper full screen", "main"),
    KeySpec(
        "back",
        "escape",
        "back",
        "Leave the search box, then clear the search",
        "main",
        footer=10,
        short="back",
        command=False,
    ),
    KeySpec("clear_search", "x", "clear_search", "Clear the search and filters", "main"),
    KeySpec("unread_only", "U", "unread_only", "Show only unread papers (toggle)", "main"),
    KeySpec("mark_view_read", "R", "mark_view_read", "Mark every paper in view read", "main"),
    KeySpec(
        "sort", "s", "cycle_sort", "Sort: corpus, relevance, title, unread, newest, like", "main"
    ),
    KeySpec("views", "v", "toggle_views", "Views: collections, tags, saved searches", "main"),
    KeySpec("save_search", "S", "save_search", "Save the search as a view", "main"),
    KeySpec(
        "facets",
        "F",
        "toggle_facets",
        "Facet counts (status, session, tag...); Enter narrows",
        "main",
    ),
    KeySpec(
        "snippets",
        "w",
        "toggle_snippets",
        "Show or hide where the query matched, under each result",
        "main",
    ),
    KeySpec(
        "watch",
        "W",
        "watch",
        "Watch (or unwatch) an author of the paper or the searched words",
        "main",
    ),
    KeySpec(
        "row_density",
        "D",
        "row_density",
        "Rows: whole titles with authors, or one line each",
        "main",
    ),
    KeySpec(
        "search_as_typed",
        "ctrl+r",
        "search_as_typed",
        "Search the words as typed (undo a typo correction)",
        "main",
        footer=11,
        short="as typed",
    ),
    KeySpec(
        "zoom",
        "z",
        "zoom",
        "List only, detail only, or both (for small windows)",
        "main",
        footer=5,
        short="zoom",
    ),
    KeySpec(
        "triage",
        "T",
        "triage",
        "Triage the view: keep, maybe or skip one paper at a time",
        "main",
    ),
    KeySpec(
        "agenda",
        "A",
        "agenda",
        "The agenda of the kept papers, clashes flagged",
        "main",
    ),
    KeySpec(
        "author_papers",
        "a",
        "author_papers",
        "The other papers of one of the paper's authors",
        "main",
    ),
    KeySpec(
        "previous_view",
        "backspace",
        "previous_view",
        "Back to the view before an author's papers",
        "main",
    ),
    KeySpec("cursor_down", "j,down", "cursor_down", "Down", "list"),
    KeySpec("cursor_up", "k,up", "cursor_up", "Up", "list"),
    KeySpec("first", "g,home", "first", "First", "list"),
    KeySpec("last", "G,end", "last", "Last", "list"),
    KeySpec("page_down", "pagedown", "page_down", "Page down", "list"),
    KeySpec("page_up", "pageup", "page_up", "Page up", "list"),
    KeySpec(
        "open",
        "enter",
        "open",
        "Open the paper (in the list) or read it full screen",
        "list",
        footer=2,
        short="open",
    ),
    KeySpec(
        "drop_facet",
        "backspace",
        "drop_facet",
        "Take back the facet value chosen last",
        "facets",
    ),
    KeySpec(
        "close_reader", "escape,h,q", "close", "Back to the list", "reader", footer=1, short="back"
    ),
    KeySpec(
        "next_paper",
        "right_square_bracket",
        "next_paper",
        "Next paper",
        "reader",
        footer=2,
        short="next",
    ),
    KeySpec(
        "previous_paper",
        "left_square_bracket",
        "previous_paper",
        "Previous paper",
        "reader",
        footer=2,
        short="previous",
    ),
    KeySpec("triage_keep", "1", "keep", "Keep: mark read, go to the next undecided", "triage"),
    KeySpec("triage_maybe", "2", "maybe", "Maybe: mark read, go to the next undecided", "triage"),
    KeySpec("triage_skip", "3", "skip", "Skip: mark read, go to the next undecided", "triage"),
    KeySpec(
        "agenda_open",
        "enter,l",
        "show_paper",
        "Show the paper in the list",
        "agenda",
        footer=2,
        short="show",
    ),
    KeySpec(
        "agenda_maybe",
        "M",
        "toggle_maybe",
        "Show the maybe papers too (toggle)",
        "agenda",
        footer=4,
        short="maybe",
    ),
    KeySpec(
        "agenda_export",
        "e",
        "export",
        "Write the agenda as a calendar file (iCalendar)",
        "agenda",
        footer=3,
        short="calendar",
    ),
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


class KeyContext(NamedTuple):
    """Bindings active at once, as binding ids in layers, innermost (the focused widget)
    first: a key of an inner layer shadows the same key further out. `name` says where, in
    an error: "in the list". A named tuple, not a frozen dataclass: cheaper to define as
    the reader starts, where none is made before the first frame."""

    name: str
    layers: tuple[tuple[str, ...], ...]


#: Keys a binding may not take: Textual's (Ctrl+C copies and interrupts) and the terminal's
#: software flow control (Ctrl+S stops output, Ctrl+Q resumes it, before paperterm sees
#: them wherever the terminal or a multiplexer does flow control itself). A binding keeps
#: such a key only when it has it by default (`quit_anywhere` is Textual's own Ctrl+Q).
RESERVED = {
    "ctrl+c": "Textual's copy and interrupt key",
    "ctrl+s": "the terminal's flow control (XOFF: stops output) in many setups",
    "ctrl+q": "the terminal's flow control (XON: resumes output) in many setups",
}


def check_keymap(config: Config, contexts: Sequence[KeyContext]) -> dict[str, str]:
    """The `[keys]` table as a Textual keymap; raises `ConfigError` for an unknown id, a key
    name Textual does not know, a reserved key, or a key two bindings would share in one of
    `contexts` (the defaults' own shadowing excepted). Swaps are fine: the clash check
    looks at the keys with every remap applied."""
    check_key_ids(config, BY_ID)
    keymap: dict[str, str] = {}
    for binding_id, value in config.keys.items():
        keys = split_keys(value)
        if not keys:
            raise config.key_error(binding_id, "names no key")
        defaults = split_keys(BY_ID[binding_id].keys)
        for raw, key in zip(raw_keys(value), keys, strict=True):
            if not valid_key(key):
                raise config.key_error(binding_id, f"{raw!r} is not a key name Textual knows")
            if key in RESERVED and key not in defaults:
                raise config.key_error(
                    binding_id, f'"{raw}" is reserved: {RESERVED[key]}; use another key'
                )
        keymap[binding_id] = ",".join(keys)
    effective = effective_keys(keymap)
    allowed = {clash[:3] for clash in clashes(effective_keys({}), contexts)}
    for clash in clashes(effective, contexts):
        first, second, key, where = clash
        if clash[:3] in allowed:
            continue
        remapped = [id_ for id_ in (first, second) if id_ in config.keys] or [second]
        culprit = max(remapped, key=lambda id_: config.key_lines.get(id_, 0))
        other = second if culprit == first else first
        raw = _as_written(key, config.keys.get(culprit, key))
        raise config.key_error(
            culprit,
            f'"{raw}" is already {other} {where} (use another key, or remap {other} too)',
        )
    return keymap


def _as_written(key: str, value: str) -> str:
    """`key` as the user wrote it in `value` (`?` rather than `question_mark`)."""
    for raw, name in zip(raw_keys(value), split_keys(value), strict=True):
        if name == key:
            return raw
    return key


def effective_keys(keymap: Mapping[str, str]) -> dict[str, list[str]]:
    """Binding id -> the keys that trigger it, with the keymap applied."""
    return {spec.id: split_keys(keymap.get(spec.id, spec.keys)) for spec in SPECS}


def clashes(
    keys: Mapping[str, Iterable[str]], contexts: Sequence[KeyContext]
) -> list[tuple[str, str, str, str]]:
    """Every pair of ids sharing a key where both are active, as (first id, second id, key,
    where): the one nearer the focus (which wins) first, else in the table's order; where
    is "everywhere" or the first context it happens in ("in the list")."""
    found: dict[tuple[str, str, str], list[str]] = {}
    for context in contexts:
        outer: dict[str, str] = {}
        for layer in context.layers:
            inner: dict[str, str] = {}
            for binding_id in layer:
                for key in keys[binding_id]:
                    owner = outer.get(key) or inner.setdefault(key, binding_id)
                    if owner != binding_id:
                        places = found.setdefault((owner, binding_id, key), [])
                        if context.name not in places:
                            places.append(context.name)
            for key, binding_id in inner.items():
                outer.setdefault(key, binding_id)
    return [
        (*pair, "everywhere" if len(places) == len(contexts) else f"in {places[0]}")
        for pair, places in found.items()
    ]


class KeyLabels:
    """How a binding's keys read on screen now, remaps applied: `key_text("cursor_down")` is
    `j/↓`. `display` is the app's `get_key_display`, so keys read as Textual shows them."""

    def __init__(self, keymap: Mapping[str, str], display: Callable[[Binding], str]) -> None:
        self._keys = effective_keys(keymap)
        self._display = display

    def __call__(self, binding_id: str) -> str:
        binding = BY_ID[binding_id].binding()
        return "/".join(self._display(binding.with_key(key)) for key in self._keys[binding_id])


# --- the footer ------------------------------------------------------------------------------

#: The most keys the footer shows (then the help key, for the rest).
FOOTER_MOST = 7


@cache
def _typed_keys() -> frozenset[str]:
    from textual.keys import _character_to_key

    printable = (chr(code) for code in range(32, 127))
    return frozenset(_character_to_key(char) for char in printable) | {"space"}


def typed(key: str) -> bool:
    """Whether a text box takes `key` as text (so no binding acts on it while typing)."""
    return key in _typed_keys() or (len(key) == 1 and key.isprintable())


def footer_ids(active: Iterable[tuple[str, str]], typing: bool) -> list[str]:
    """The ids the footer shows, most useful first: of the (binding id, key) pairs active
    now, those the table ranks for the footer; while typing in a box, not those whose key
    the box takes as text."""
    ranks: dict[str, int] = {}
    for binding_id, key in active:
        spec = BY_ID.get(binding_id)
        if spec is None or not spec.footer or (typing and typed(key)):
            continue
        ranks[binding_id] = spec.footer
    order = {spec.id: number for number, spec in enumerate(SPECS)}
    ranked = sorted(ranks, key=lambda binding_id: (ranks[binding_id], order[binding_id]))
    return ranked[:FOOTER_MOST]
