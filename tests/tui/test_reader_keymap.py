"""The key table and the checks on `[keys]` and `ui.theme` made before the reader starts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperterm.index.config import Config, ConfigError, parse_config
from paperterm.index.session import Session
from paperterm.tui import keys
from paperterm.tui.app import check_theme, make_app
from paperterm.tui.contexts import CONTEXTS

CONFIG = Path("/home/u/.config/paperterm/config.toml")


def config_with_keys(body: str) -> Config:
    return parse_config(f"[keys]\n{body}\n", CONFIG)


def test_binding_ids_are_unique_and_described():
    ids = [spec.id for spec in keys.SPECS]
    assert len(ids) == len(set(ids))
    assert all(spec.description and spec.scope in keys.SCOPES for spec in keys.SPECS)
    assert all(keys.valid_key(k) for spec in keys.SPECS for k in keys.split_keys(spec.keys))


def test_the_defaults_only_shadow_by_design():
    """Where a default key is bound twice in one context, the inner binding is meant to win:
    `q` closes the reader and the help instead of quitting, `y` copies the chosen link or
    answers yes, Backspace in the facets sidebar drops a facet."""
    found = {clash[:3] for clash in keys.clashes(keys.effective_keys({}), CONTEXTS)}
    assert found == {
        ("close_reader", "quit", "q"),
        ("close_help", "quit", "q"),
        ("copy_chosen_link", "copy_link", "y"),
        ("confirm", "copy_link", "y"),
        ("drop_facet", "previous_view", "backspace"),
    }


def test_a_remap_becomes_a_textual_keymap():
    config = config_with_keys('bookmark = "m"\nhelp = "?, f1"\ncursor_down = "J,down"')
    assert keys.check_keymap(config, CONTEXTS) == {
        "bookmark": "m",
        "help": "question_mark,f1",
        "cursor_down": "J,down",
    }


def test_an_unknown_id_names_file_line_and_a_close_match():
    config = config_with_keys('\nbookmrk = "m"')
    with pytest.raises(ConfigError) as error:
        keys.check_keymap(config, CONTEXTS)
    assert str(error.value).startswith(f"{CONFIG}:3: keys.bookmrk: no such key binding")
    assert "'bookmark'" in str(error.value)


@pytest.mark.parametrize("value", ["ctlr+b", "blah", "ctrl+", "hyperspace+x", ","])
def test_unknown_key_names_are_errors(value):
    config = config_with_keys(f'bookmark = "{value}"')
    with pytest.raises(ConfigError) as error:
        keys.check_keymap(config, CONTEXTS)
    assert "keys.bookmark" in str(error.value)


def test_two_bindings_of_one_scope_on_the_same_key_are_an_error():
    config = config_with_keys('bookmark = "y"')
    with pytest.raises(ConfigError) as error:
        keys.check_keymap(config, CONTEXTS)
    assert str(error.value) == (
        f'{CONFIG}:2: keys.bookmark: "y" is already copy_link in the list '
        "(use another key, or remap copy_link too)"
    )


def test_a_key_of_an_inner_binding_is_a_clash():
    """The issue's case: `bookmark = "j"` was accepted, and `j` still moved the cursor."""
    config = config_with_keys('\nbookmark = "j"')
    with pytest.raises(ConfigError) as error:
        keys.check_keymap(config, CONTEXTS)
    assert str(error.value) == (
        f'{CONFIG}:3: keys.bookmark: "j" is already cursor_down in the list '
        "(use another key, or remap cursor_down too)"
    )


def test_a_clash_in_one_screen_only_names_it():
    config = config_with_keys('bookmark = "h"')
    with pytest.raises(ConfigError, match='"h" is already close_reader in the full-screen reader'):
        keys.check_keymap(config, CONTEXTS)


def test_the_later_of_two_remaps_is_blamed():
    config = config_with_keys('open = "m"\nbookmark = "m"')
    with pytest.raises(ConfigError, match=r":3: keys.bookmark: \"m\" is already open"):
        keys.check_keymap(config, CONTEXTS)


@pytest.mark.parametrize(
    "body",
    [
        'cursor_down = "k,down"\ncursor_up = "j,up"',
        'edit_tags = "n"\nedit_note = "t"',
        'quit = "q,Q"',  # `q` closes the reader first, as it does by default
        'close_reader = "escape"\nbookmark = "h"',
    ],
)
def test_swaps_and_the_defaults_shadowing_are_allowed(body):
    keys.check_keymap(config_with_keys(body), CONTEXTS)


@pytest.mark.parametrize(
    ("body", "key"),
    [
        ('bookmark = "ctrl+c"', "ctrl+c"),
        ('bookmark = "m, ctrl+s"', "ctrl+s"),
        ('search = "ctrl+q"', "ctrl+q"),
        ('open = "ctrl+z"', "ctrl+z"),
    ],
)
def test_reserved_keys_are_refused(body, key):
    with pytest.raises(ConfigError, match=re.escape(f'"{key}" is')):
        keys.check_keymap(config_with_keys(body), CONTEXTS)


def test_a_reserved_key_a_binding_has_by_default_stays():
    keys.check_keymap(config_with_keys('save_dialog = "ctrl+s,f2"'), CONTEXTS)
    keys.check_keymap(config_with_keys('suspend = "f12"\nbookmark = "ctrl+z"'), CONTEXTS)


def test_every_screen_has_a_key_context():
    """A screen without a context would escape the clash check."""
    from textual.screen import Screen

    import paperterm.tui.screens.agenda as agenda
    import paperterm.tui.screens.choose as choose
    import paperterm.tui.screens.dialogs as dialogs
    import paperterm.tui.screens.main as main
    import paperterm.tui.screens.read as read
    import paperterm.tui.screens.triage as triage
    import paperterm.tui.screens.watch_dialog as watch_dialog
    from paperterm.tui.contexts import SCREEN_CONTEXTS

    screens = {
        value
        for module in (agenda, choose, dialogs, main, read, triage, watch_dialog)
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, Screen)
        and value.__module__ == module.__name__
    }
    assert screens == set(SCREEN_CONTEXTS)


def test_the_same_key_in_different_screens_is_fine():
    config = config_with_keys('clear_search = "h"')  # `h` closes the full-screen reader
    assert keys.check_keymap(config, CONTEXTS) == {"clear_search": "h"}


def test_a_key_the_focused_widget_takes_first_is_a_clash():
    config = config_with_keys('fullscreen = "enter"')  # the list opens the paper on Enter
    with pytest.raises(ConfigError, match='"enter" is already open in the list'):
        keys.check_keymap(config, CONTEXTS)


@pytest.mark.parametrize(
    "key", ["j", "G", "question_mark", "ctrl+b", "alt+shift+x", "pagedown", "f5", "space", "?"]
)
def test_valid_keys(key):
    assert keys.valid_key(keys.split_keys(key)[0])


@given(st.text(max_size=30))
def test_any_key_string_is_accepted_or_a_config_error(value):
    config = Config(path=CONFIG, keys={"bookmark": value})
    try:
        keymap = keys.check_keymap(config, CONTEXTS)
    except ConfigError as error:
        assert str(error).startswith(f"{CONFIG}")
        assert "\n" not in str(error)
    else:
        assert all(keys.valid_key(k) for k in keymap["bookmark"].split(","))


def test_unknown_theme_is_a_config_error_with_a_suggestion():
    with pytest.raises(ConfigError) as error:
        check_theme(Config(path=CONFIG, theme="nord-dark"))
    assert str(error.value).startswith(f"{CONFIG}: ui.theme: unknown theme 'nord-dark'")
    check_theme(Config(theme="nord"))
    check_theme(Config())


def test_make_app_refuses_a_bad_keymap_before_starting(tmp_path):
    config = Config(path=CONFIG, keys={"nope": "x"})
    with pytest.raises(ConfigError):
        make_app(Session.create(tmp_path, [], config), config)


def test_make_app_applies_theme_and_keymap(tmp_path):
    config = Config(theme="gruvbox", keys={"bookmark": "m"})
    app = make_app(Session.create(tmp_path, [], config), config)
    assert app.theme == "gruvbox"
    assert app.state.key_text("bookmark") == "m"
    assert app.state.key_text("cursor_down") == "j/↓"


def test_unknown_theme_error_names_the_line():
    config = parse_config("[ui]\n\ntheme = 'nord-dark'\n", CONFIG)
    with pytest.raises(ConfigError, match=r"\.toml:3: ui\.theme: unknown theme 'nord-dark'"):
        check_theme(config)


async def test_a_swap_works_in_the_reader_and_shows_in_help_and_footer(tmp_path):
    from reader_helpers import INSTANT, settle

    from paperterm.tui.screens.dialogs import HelpScreen

    config = config_with_keys('cursor_down = "k, down"\ncursor_up = "j, up"\nzoom = "Z"')
    app = make_app(Session.create(tmp_path, [], config), config, timing=INSTANT, environ={})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("k", "k", "j")
        assert app.main.paper_list.cursor == 1
        assert "Z zoom" in app.screen.query_one("#key-footer").text
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        lines = app.screen.help_text().plain.splitlines()
        assert any(line.split()[:2] == ["k/↓", "cursor_down"] for line in lines)
        assert any(line.split()[:2] == ["j/↑", "cursor_up"] for line in lines)


def test_a_clash_of_app_wide_keys_is_everywhere():
    config = config_with_keys('open_link = "ctrl+z"')  # Ctrl+Z stays reserved while suspend has it
    with pytest.raises(ConfigError) as error:
        keys.check_keymap(config, CONTEXTS)
    assert str(error.value).endswith(
        'keys.open_link: "ctrl+z" is already suspend everywhere '
        "(use another key, or remap suspend too)"
    )
