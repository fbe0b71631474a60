"""`porter.stem` is Whoosh's Porter stemmer to the letter: the index's stems do not change."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st
from whoosh.lang.porter import stem as whoosh_stem

from paperterm.index.text import porter
from paperterm.index.text.porter import stem

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
