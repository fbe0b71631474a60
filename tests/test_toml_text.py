"""One reading of TOML errors for the config and the bookmarks file: file, line, column."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperterm.index.config import ConfigError, parse_config
from paperterm.index.library.bookmarks import BookmarksFileError, BookmarkStore
from paperterm.index.toml_text import TomlSyntaxError, parse_toml, syntax_error

#: (text, line, column, reason): tomllib's two ways of placing an error.
BROKEN = [
    ("[a]\n[a]\n", 2, 3, "Cannot declare ('a',) twice"),
    ('version = 1\nnote = "unterminated', 2, 21, "Unterminated string at end of file"),
    ("x = [1,\n", 2, 1, "Invalid value at end of file"),
    ("x = 1\ny = nope\n", 2, 5, "Invalid value"),
]


@pytest.mark.parametrize(("text", "line", "column", "why"), BROKEN)
def test_the_place_of_an_error_comes_as_numbers(text, line, column, why):
    with pytest.raises(TomlSyntaxError) as caught:
        parse_toml(text)
    assert (caught.value.line, caught.value.column, caught.value.why) == (line, column, why)
    assert caught.value.at("f.toml") == f"f.toml:{line}:{column}: {why}"


@pytest.mark.parametrize(("text", "line", "column", "why"), BROKEN)
def test_config_and_bookmarks_name_the_same_place(tmp_path: Path, text, line, column, why):
    config_path = tmp_path / "config.toml"
    with pytest.raises(ConfigError) as config_error:
        parse_config(text, config_path)
    assert str(config_error.value) == f"{config_path}:{line}:{column}: {why}"

    store = BookmarkStore(tmp_path / "bookmarks.toml")
    store.path.write_text(text, encoding="utf-8")
    with pytest.raises(BookmarksFileError) as bookmarks_error:
        store.load()
    assert str(bookmarks_error.value) == f"{store.path}:{line}:{column}: {why}"


def test_a_message_without_a_place_is_kept_on_one_line():
    assert syntax_error("odd\n  reason", "").at("f.toml") == "f.toml: odd reason"


@given(st.text(max_size=40))
def test_any_text_parses_or_is_placed_within_it(text):
    try:
        parse_toml(text)
    except TomlSyntaxError as error:
        assert "\n" not in error.why
        assert error.line is not None and error.column is not None
        lines = text.split("\n")
        assert 1 <= error.line <= len(lines)
        assert 1 <= error.column <= len(lines[error.line - 1]) + 1
