"""The key table and the checks on `[keys]` and `ui.theme` made before the reader starts."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperterm.index.config import Config, ConfigError, parse_config
from paperterm.index.session import Session
from paperterm.tui import keys
from paperterm.tui.app import check_theme, make_app

CONFIG = Path("/home/u/.config/paperterm/config.toml")


def config_with_keys(body: str) -> Config:
    return parse_config(f"[keys]\n{body}\n", CONFIG)


def test_binding_ids_are_unique_and_described():
    ids = [spec.id for spec in keys.SPECS]
    assert len(ids) == len(set(ids))
    assert all(spec.description and spec.scope in keys.SCOPES for spec in keys.SPECS)
    assert all(keys.valid_key(k) for spec in keys.SPECS for k in keys.split_keys(spec.keys))


def test_the_defaults_do_not_clash():
    assert keys.find_clash(keys.effective_keys({})) is None


def test_a_remap_becomes_a_textual_keymap():
    config = config_with_keys('bookmark = "m"\nhelp = "?, f1"\ncursor_down = "n,down"')
    assert keys.check_keymap(config) == {
        "bookmark": "m",
        "help": "question_mark,f1",
        "cursor_down": "n,down",
    }


def test_an_unknown_id_names_file_line_and_a_close_match():
    config = config_with_keys('\nbookmrk = "m"')
    with pytest.raises(ConfigError) as error:
        keys.check_keymap(config)
    assert str(error.value).startswith(f"{CONFIG}:3: keys.bookmrk: no such key binding")
    assert "'bookmark'" in str(error.value)


@pytest.mark.parametrize("value", ["ctlr+b", "blah", "ctrl+", "hyperspace+x", ","])
def test_unknown_key_names_are_errors(value):
    config = config_with_keys(f'bookmark = "{value}"')
    with pytest.raises(ConfigError) as error:
        keys.check_keymap(config)
    assert "keys.bookmark" in str(error.value)


def test_two_bindings_of_one_scope_on_the_same_key_are_an_error():
    config = config_with_keys('bookmark = "y"')
    with pytest.raises(ConfigError) as error:
        keys.check_keymap(config)
    assert "keys.bookmark: 'y' is already the key of 'copy_link'" in str(error.value)


def test_the_same_key_in_different_scopes_is_fine():
    config = config_with_keys('fullscreen = "enter"')
    assert keys.check_keymap(config) == {"fullscreen": "enter"}


@pytest.mark.parametrize(
    "key", ["j", "G", "question_mark", "ctrl+b", "alt+shift+x", "pagedown", "f5", "space", "?"]
)
def test_valid_keys(key):
    assert keys.valid_key(keys.split_keys(key)[0])


@given(st.text(max_size=30))
def test_any_key_string_is_accepted_or_a_config_error(value):
    config = Config(path=CONFIG, keys={"bookmark": value})
    try:
        keymap = keys.check_keymap(config)
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
