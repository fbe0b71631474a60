"""`single_spaced` is `" ".join(text.split())`, whichever way it gets there."""

from __future__ import annotations

import re
import sys

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from paperterm.index.text.spaces import (
    is_printable,
    is_printable_but_newlines,
    single_spaced,
    unglued_sentences,
)

#: Every character `str.split` splits at, the space first.
WHITE_SPACE = [chr(code) for code in range(sys.maxunicode + 1) if chr(code).isspace()]


def test_every_white_space_but_the_space_is_unprintable() -> None:
    """What the shortcut rests on: a printable text's only white space is the space."""
    assert WHITE_SPACE[0] != " " and " " in WHITE_SPACE
    assert [char for char in WHITE_SPACE if char.isprintable()] == [" "]


@pytest.mark.parametrize(
    ("text", "spaced"),
    [
        ("", ""),
        ("one two", "one two"),
        ("wrapped\nline", "wrapped line"),
        ("two  spaces", "two spaces"),
        (" leading", "leading"),
        ("trailing ", "trailing"),
        ("a\u00a0b\u2009c", "a b c"),
        ("file\x1cseparator", "file separator"),
        ("tab\tand\r\nbreak", "tab and break"),
        ("\n", ""),
    ],
)
def test_white_space_made_single(text: str, spaced: str) -> None:
    assert single_spaced(text) == spaced


@given(st.text(alphabet=st.sampled_from([*WHITE_SPACE, "a", "é", "\x00", "\u200b"])))
@example("a \nb")
@example("a\n b")
def test_the_same_as_splitting_and_joining_white_space(text: str) -> None:
    assert single_spaced(text) == " ".join(text.split())


@given(st.text())
def test_the_same_as_splitting_and_joining_any_text(text: str) -> None:
    assert single_spaced(text) == " ".join(text.split())


#: ASCII, its controls and DEL among them, and a few characters past it.
_PRINTABLE_ALPHABET = st.characters(max_codepoint=127) | st.sampled_from(["é", "\u200b", "\x85"])


@given(st.text(alphabet=_PRINTABLE_ALPHABET), st.integers(0, 120))
@example("\x7f", 100)
@example("\n", 100)
def test_printable_as_str_isprintable_says(text: str, padding: int) -> None:
    """Long ASCII text is looked at as bytes: the same answer (short text, the method's)."""
    for padded in (text, "a" * padding + text, text + " " * padding):
        assert is_printable(padded) == padded.isprintable()
        without_newlines = padded.replace("\n", "")
        assert is_printable_but_newlines(padded) == without_newlines.isprintable()


@pytest.mark.parametrize(
    ("glued", "spaced"),
    [
        ("the specific disease.This work explores", "the specific disease. This work explores"),
        ("labeled images.We applied it.Then", "labeled images. We applied it. Then"),
        ("in robotics.An open problem", "in robotics. An open problem"),
    ],
)
def test_a_sentence_glued_to_the_one_before_gets_its_space(glued: str, spaced: str) -> None:
    assert unglued_sentences(glued) == spaced


@pytest.mark.parametrize(
    "text",
    [
        "code at github.com/org/repo and huggingface.co",
        "version v1.2 of the U.S. survey, e.g. This one",
        "written in Node.js, e.g.Paper",
        "a sentence. Another sentence.",
        "",
    ],
)
def test_dotted_names_and_spaced_sentences_are_left_alone(text: str) -> None:
    assert unglued_sentences(text) == text


@given(st.text(alphabet="aZ. b", max_size=40))
def test_ungluing_only_adds_spaces_after_stops_and_leaves_no_glued_sentence(text: str) -> None:
    unglued = unglued_sentences(text)
    assert unglued.replace(". ", ".") == text.replace(". ", ".")
    assert not re.search(r"[a-z]{2}\.[A-Z][a-z]", unglued)
