"""The headlines' shortcuts around their slowest patterns find what the patterns find."""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from paperterm.index.text import headline_form, headlines


def _joined(pieces: st.SearchStrategy[str], most: int) -> st.SearchStrategy[str]:
    """Texts of up to `most` pieces, each one of `pieces` or up to 3 characters of any."""
    return st.lists(pieces | st.text(max_size=3), max_size=most).map("".join)


# Pieces of sentences near what the shortcuts test: connectives in any case, commas with
# and without whitespace after, the words a boilerplate match holds, and the characters
# `re.IGNORECASE` takes for ASCII letters ("İ", "ı", "ſ", the Kelvin sign).
_PIECES = st.sampled_from(
    [
        "However", "however", "HOWEVER", "In addition", "in Particular", "to this end",
        "On the other hand", "first", "Firstly", "strengthen", "then", "thus", "Hence",
        ",", ", ", ",\t", ",\u00a0", ",\u2009", ",\n ", "  ", " ", ".", "; ", "x",
        "the code", "Code", " is ", "are made publicly ", "available", "AVAILABLE", " at ",
        "release", "released", "our models", "open-sourced", "open sourced", "can be found on",
        "github", "GitHub", "https://", "answer this question affirmatively",
        "to the best of our knowledge", "extensive experiments show", "experimental results ",
        "results show that", "This paper is organized", "\u0130", "\u0131", "\u017f",
        "\u212a", "avaılable", "relea\u017fe", "experiment\u017f show", "GİTHUB", "\u212aNOWLEDGE",
    ]
)  # fmt: skip
_SENTENCES = _joined(_PIECES, 24)


@given(_SENTENCES)
@example("We strengthen, then, the claim.")
@example("Firstly,x, In Addition,  the rest")
@example("İn addition, the rest")
@example("In the β case, however,\u2009the rest")
@example("FİRST,\u00a0the ſame")
def test_a_connective_goes_as_the_pattern_takes_it(sentence: str):
    expected = headlines._CONNECTIVE.sub("", sentence, count=1)
    assert headline_form.without_connective(sentence) == expected


#: The boilerplate alternatives as one pattern: what `headline_form.is_boilerplate` finds.
_BOILERPLATE = re.compile(
    "|".join(part for _, part in headline_form._BOILERPLATE_PARTS), re.IGNORECASE
)


@given(_SENTENCES)
@example("The code is avaİlable at the site")
@example("Code is made publicly avaılable")
@example("To the best of our \u212anowledge, nothing")
def test_boilerplate_is_found_as_the_pattern_finds_it(text: str):
    assert headline_form.is_boilerplate(text) == bool(_BOILERPLATE.search(text))


@pytest.mark.parametrize(
    ("sentence", "rest"),
    [
        ("However, the memory overhead grows.", "the memory overhead grows."),
        ("In this way, as a result,   the bound.", "as a result,   the bound."),
        ("On the other hand,\tthe rest.", "the rest."),
        ("The rest, however,no space.", "The rest, however,no space."),
        ("No connective here.", "No connective here."),
    ],
)
def test_connectives(sentence: str, rest: str):
    assert headline_form.without_connective(sentence) == rest


_CLAIM_PIECES = st.sampled_from(
    [
        "We", "we", "WE", " we ", "; we ", ";we ", ", we ", "This paper", "this work",
        "Our study", "the present paper", "THE PRESENT WORK", " also ", " further ",
        " newly ", "propose", "introduces", "show", "shows that ", "aim", "seek to ",
        "used", "train", " on ", " and study", " to ", " a method", "that ", "them",
        "however", "\u0130", "\u0131", "\u017f", "\u212a", "\n", ". ", "x",
    ]
)  # fmt: skip
_CLAIMS = _joined(_CLAIM_PIECES, 16)


@given(_CLAIMS)
@example("we propose a method")
@example("Thus, we show that it works; we also prove it")
@example("In this paper we study the problem")
@example("It works; we propose a method")
def test_a_claim_is_found_where_the_pattern_finds_it(sentence: str):
    expected = headlines._CLAIM.search(sentence)
    found = headlines._claim_search(sentence, headline_form.ascii_lowered(sentence))
    assert (found and (found.span(), found.groupdict())) == (
        expected and (expected.span(), expected.groupdict())
    )


_ABBREVIATION_PIECES = st.sampled_from(
    [
        "stochastic gradient descent", "Stochastic Gradient Descent", "(SGD)", "(sGD)", "(GD)",
        "(gd)", "(SGD", "SGD)", "(", ")", " ", "  ", "-", "a", "large language models",
        "(LLMs)", "Mixture-of-Experts", "(MoE)", "one two three four five six seven eight nine ",
        "\u00e9", ", ", "x(y) ",
    ]
)  # fmt: skip
_ABBREVIATIONS = _joined(_ABBREVIATION_PIECES, 16)


@given(_ABBREVIATIONS)
@example("we use stochastic gradient descent (SGD) and large language models (LLMs) here")
@example("so one two three four five six seven eight (OTTFFSSE) more")
@example("a (b) stochastic gradient descent (SGD)")
def test_abbreviations_are_made_where_the_pattern_makes_them(text: str):
    expected = headline_form._ABBREVIATED.sub(headline_form._abbreviate, text)
    assert headline_form._abbreviated(text) == expected


def _plain_cut_position(text: str, limit: int) -> int:
    """`_cut_position` as a scan of the spaces from the left: its specification."""
    before_word, after_comma, boundary = 0, 0, 0
    position = text.find(" ")
    while 0 < position <= limit:
        boundary = position
        if position >= limit // 3:
            following = text[position + 1 : position + 12].split(" ", 1)[0].lower()
            if following in headline_form._BREAK_WORDS:
                before_word = position
            elif text[position - 1] == ",":
                after_comma = position
        position = text.find(" ", position + 1)
    return before_word or after_comma or boundary or limit


_CUT_PIECES = st.sampled_from(
    [" ", "  ", ", ", ",", "with", "For", "WITHOUT", "withoutx", "word", "x", "İn", "a-b"]
)


@given(_joined(_CUT_PIECES, 40), st.integers(0, 60))
@example("a method, for fast, search of words", 20)
@example(" leading space then words", 10)
def test_a_headline_is_cut_where_a_scan_of_its_spaces_cuts_it(text: str, limit: int):
    assert headline_form._cut_position(text, limit) == _plain_cut_position(text, limit)


@given(st.text())
@example("İ ı ſ \u212a, K")
def test_the_lowered_text_holds_what_ignoring_case_matches(text: str):
    lowered = headline_form.ascii_lowered(text)
    assert len(lowered) == len(text)
    for mark in string.ascii_lowercase + " ,;":
        pattern = re.compile(re.escape(mark), re.IGNORECASE)
        for position in range(len(text)):
            assert bool(pattern.match(text, position)) == (lowered[position] == mark)


#: `headline_form._CLAUSE_END` as first written: a space or none, then one of the marks.
_CLAUSE_END_AS_WRITTEN = re.compile(
    r" ?(?:[;:] | [–—] |\. |\.$|, (?:which|where|while|whereas|thus|and (?:we|it|then|thus|"
    r"show|demonstrate)|but|leading|resulting|allowing|enabling|making|yielding|showing|"
    r"providing|achieving|as|since|so|because|although|though|we|it|i\.e\.|e\.g\.|\w+ly\b|that|"
    r"was|were|is|are|has|have)\b| \((?:\d|[ivx]+|[a-e])\) | and (?:show|demonstrate|prove|"
    r"find|evaluate)\b)"
)
_CLAUSE_PIECES = st.sampled_from(
    [
        " ", "  ", ";", ": ", ":", " – ", "—", ". ", ".", ",", ", ", "which", "thus", "and we",
        "and then", "mainly", "ly", "i.e.", "e.g.", "is", "have", " (", ")", "1", "iv", "a",
        "f", " and ", "show", "evaluate", "word", "x", "\n", "\u00e9",
    ]
)  # fmt: skip


@given(_joined(_CLAUSE_PIECES, 24))
@example("a method ; for x")
@example("a method  , which works")
@example("first (iv) then. ")
@example("ends with a dot.")
def test_a_clause_ends_where_the_pattern_as_written_ends_it(text: str):
    expected = _CLAUSE_END_AS_WRITTEN.search(text)
    found = headline_form._CLAUSE_END.search(text)
    assert (found and found.start()) == (expected and expected.start())


_WORD_PIECES = st.sampled_from(
    ["word", "Word", "’", "'", "-", "_", "9", " ", ", ", "(x)", "İ", "\u0307", "é", "ß", "ǅ"]
)


@given(_joined(_WORD_PIECES, 16) | st.text(st.characters(max_codepoint=127)))
@example("Fast, (robust) search's x-y_z 1.5%")
@example("İstanbul ǅ")
def test_words_are_those_the_pattern_finds_lowered(text: str):
    expected = [word.lower() for word in headline_form._WORDS.findall(text)]
    assert headline_form._words(text) == expected


_PASSIVE_PIECES = st.sampled_from(
    [
        "A", "an", "AN", " ", ", ", "In this paper, ", "in this work ", "method", "framework",
        " is ", " are ", "IS ", "proposed", "Presented", "INTRODUCED", "develop", "developed",
        "propoſed", "\u0130ntroduced", "\u212a", ".", "x",
    ]
)  # fmt: skip


@given(_joined(_PASSIVE_PIECES, 16))
@example("A new method is proposed")
@example("In this paper, an approach for x is PRESENTED here")
@example("A method for all things is propoſed")
def test_a_passive_claim_holds_one_of_its_verbs(sentence: str):
    lowered = headline_form.ascii_lowered(sentence)
    if headlines._PASSIVE_CLAIM.match(sentence):
        assert any(verb in lowered for verb in headlines._PASSIVE_VERBS)
