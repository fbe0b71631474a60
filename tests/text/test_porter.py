"""`porter.stem` is Whoosh's Porter stemmer with step 1b as Porter wrote it: Whoosh's tests
of that step, anchored at the word's end instead of its start, give every stem."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from whoosh.lang import porter as whoosh_porter

from paperterm.index.text import porter
from paperterm.index.text.porter import stem


class _AtTheEnd:
    """A pattern whose `match` looks anywhere (its `$` keeps it at the word's end)."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern

    def match(self, word: str) -> re.Match[str] | None:
        return self.pattern.search(word)


def whoosh_stem(word: str) -> str:
    """Whoosh's Porter stem with step 1b's two tests at the word's end."""
    kept = whoosh_porter._at_bl_iz, whoosh_porter._step1b
    whoosh_porter._at_bl_iz, whoosh_porter._step1b = map(_AtTheEnd, kept)
    try:
        return str(whoosh_porter.stem(word))
    finally:
        whoosh_porter._at_bl_iz, whoosh_porter._step1b = kept


@pytest.mark.parametrize(
    ("word", "expected"),
    [  # Porter's own examples of step 1b, then words it used to keep apart
        ("conflated", "conflat"),
        ("troubled", "troubl"),
        ("sized", "size"),
        ("hopping", "hop"),
        ("tanned", "tan"),
        ("falling", "fall"),
        ("hissing", "hiss"),
        ("fizzed", "fizz"),
        ("failing", "fail"),
        ("filing", "file"),
        ("evaluating", "evalu"),
        ("evaluation", "evalu"),
        ("generating", "gener"),
        ("generation", "gener"),
        ("optimizing", "optim"),
        ("optimization", "optim"),
    ],
)
def test_step_1b_stems_as_porter_wrote_it(word: str, expected: str) -> None:
    assert stem(word) == expected


#: The suffixes and letters the rules turn on, to build words that reach every step.
_PIECES = [
    *porter._STEP2,
    *porter._STEP3,
    *porter._STEP4,
    *["sion", "tion", "ion", "e", "ll", "s", "sses", "ies", "ed", "eed", "ing", "y", "at"],
    *["bl", "iz", "tt", "str", "pr", "qu"],
    *"abcdouwxyY1_.éß论",
]


def test_every_short_word_stems_as_whoosh_stems_it() -> None:
    letters = "aeiouysltbzcdnm"
    for length in range(1, 5):
        for letters_of in itertools.product(letters, repeat=length):
            word = "".join(letters_of)
            assert stem(word) == whoosh_stem(word), word


@settings(max_examples=3000)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=6).map("".join))
def test_words_of_suffixes_stem_as_whoosh_stems_them(word: str) -> None:
    assert stem(word) == whoosh_stem(word)


@settings(max_examples=1000)
@given(st.text(alphabet=st.characters(categories=("Ll", "Lu", "Nd")) | st.sampled_from("_.")))
def test_any_word_stems_as_whoosh_stems_it(word: str) -> None:
    assert stem(word) == whoosh_stem(word)
