"""`porter.stem` is Whoosh's Porter stemmer with step 1b and the measure as Porter wrote them:
Whoosh's tests of that step anchored at the word's end instead of its start, and its
consonant and vowel runs as Porter defines them (a y after a consonant is a vowel), give
every stem."""

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


#: Porter's runs of consonants and vowels: a consonant is a letter other than a, e, i, o, u,
#: and other than y after a consonant (Porter's own JavaScript port writes them so).
_C = "[^aeiou][^aeiouy]*"
_V = "[aeiouy][aeiou]*"
_PORTERS_MEASURE = {
    "_mgr0": re.compile(f"^({_C})?{_V}{_C}"),
    "_meq1": re.compile(f"^({_C})?{_V}{_C}({_V})?$"),
    "_mgr1": re.compile(f"^({_C})?{_V}{_C}{_V}{_C}"),
    "_s_v": re.compile(f"^({_C})?[aeiouy]"),
    "_c_v": re.compile(f"^{_C}[aeiouy][^aeiouwxy]$"),
}


def whoosh_stem(word: str) -> str:
    """Whoosh's Porter stem with step 1b's two tests at the word's end and Porter's
    measure."""
    replaced = {
        "_at_bl_iz": _AtTheEnd(whoosh_porter._at_bl_iz),
        "_step1b": _AtTheEnd(whoosh_porter._step1b),
        **_PORTERS_MEASURE,
    }
    kept = {name: getattr(whoosh_porter, name) for name in replaced}
    for name, value in replaced.items():
        setattr(whoosh_porter, name, value)
    try:
        return str(whoosh_porter.stem(word))
    finally:
        for name, value in kept.items():
            setattr(whoosh_porter, name, value)


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


@pytest.mark.parametrize(
    ("word", "expected"),
    [  # a y after a consonant is a vowel (the stems of the original algorithm's reference)
        ("dynamical", "dynam"),
        ("dynamic", "dynam"),
        ("physical", "physic"),
        ("physics", "physic"),
        ("asymptotically", "asymptot"),
        ("asymptotic", "asymptot"),
        ("synthetic", "synthet"),
        ("hybridization", "hybrid"),
        ("typical", "typic"),
        ("crying", "cry"),
        ("enjoying", "enjoi"),
        ("yearly", "yearli"),
    ],
)
def test_a_y_after_a_consonant_is_a_vowel(word: str, expected: str) -> None:
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
