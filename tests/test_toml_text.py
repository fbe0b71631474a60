"""One reading of TOML errors for the config and the bookmarks file: file, line, column."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperterm.index.config import ConfigError, parse_config
from paperterm.index.library.bookmarks import BookmarksFileError, BookmarkStore
from paperterm.index.toml_text import MAX_NESTING, TomlSyntaxError, parse_toml, syntax_error

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


# --- nesting: refused past MAX_NESTING, placed on its line, never a RecursionError ----------

DEEPEST = MAX_NESTING


def nested(depth: int, opening: str = "[", closing: str = "]") -> str:
    return opening * depth + closing * depth


@pytest.mark.parametrize("depth", [DEEPEST + 1, 500, 5000])
def test_deeper_nesting_is_one_error_on_its_line(depth):
    document = parse_toml(f"x = {nested(DEEPEST)}")  # the limit itself is read
    value, levels = document["x"], 1
    while value:
        value, levels = value[0], levels + 1
    assert levels == DEEPEST
    text = f'version = 1\n# {"[" * 200}\nnote = "{"[" * 200}"\nx = {nested(depth)}\n'
    with pytest.raises(TomlSyntaxError) as caught:
        parse_toml(text)
    assert caught.value.at("f.toml") == (
        f"f.toml:4: values are nested more than {MAX_NESTING} levels deep"
    )


def test_deep_inline_tables_and_dotted_keys_are_refused_too():
    with pytest.raises(TomlSyntaxError, match="nested more than") as caught:
        parse_toml("a = 1\nx = " + "{k = " * 300 + "1" + "}" * 300)
    assert caught.value.line == 2
    with pytest.raises(TomlSyntaxError, match="nested more than") as caught:
        parse_toml("a = 1\n" + ".".join(["k"] * 150) + " = 1\nb = [1]\n")
    assert caught.value.line == 2


def test_deep_nesting_in_config_and_bookmarks_names_the_file_and_line(tmp_path: Path):
    text = f"\n\nx = {nested(500)}\n"
    with pytest.raises(ConfigError, match=r"^c\.toml:3: values are nested more than"):
        parse_config(text, Path("c.toml"))
    path = tmp_path / "bookmarks.toml"
    path.write_text("version = 1\n" + text, encoding="utf-8")
    with pytest.raises(BookmarksFileError) as caught:
        BookmarkStore(path).load()
    assert str(caught.value) == f"{path}:4: values are nested more than {MAX_NESTING} levels deep"


@given(st.integers(1, 1200), st.booleans(), st.integers(0, 3))
def test_any_nesting_is_read_or_refused_with_a_line(depth, tables, blank_lines):
    value = ("{k = " * depth + "1" + "}" * depth) if tables else nested(depth)
    text = "\n" * blank_lines + f"x = {value}\n"
    try:
        parse_toml(text)
    except TomlSyntaxError as error:
        assert depth > DEEPEST
        assert error.line == blank_lines + 1
    else:
        assert depth <= DEEPEST
