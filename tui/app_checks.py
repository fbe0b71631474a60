"""The reader's own config checks, made before the app: `[keys]` and `ui.theme`."""

from __future__ import annotations

import difflib

from textual.theme import BUILTIN_THEMES

from paperterm.index.config import Config
from paperterm.tui import keys


def check_theme(config: Config) -> None:
    if config.theme is None or config.theme in BUILTIN_THEMES:
        return
    close = difflib.get_close_matches(config.theme, list(BUILTIN_THEMES), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise config.error(
        "ui.theme",
        f"unknown theme {config.theme!r}{hint}; themes: {', '.join(sorted(BUILTIN_THEMES))}",
    )


def check_reader_config(config: Config) -> dict[str, str]:
    """The reader's own config checks (`[keys]`, `ui.theme`); the keymap to apply. Without
    a `[keys]` table nothing is remapped and no two keys can clash: the contexts (which
    import every screen) are read only when there are remaps to check."""
    keymap: dict[str, str] = {}
    if config.keys:
        from paperterm.tui.contexts import CONTEXTS

        keymap = keys.check_keymap(config, CONTEXTS)
    check_theme(config)
    return keymap
