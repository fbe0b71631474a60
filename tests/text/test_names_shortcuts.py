"""The shortcuts name detection takes to be cheap: each must answer as the full test it
stands in for, or taking it would change names."""

from __future__ import annotations

import re

from hypothesis import example, given
from hypothesis import strategies as st

from paperterm.index.text import names

_COUNTED_PIECES = [
    "Foo", "foo", "FOO", "Foo Bar", "foo bar", "-", "_", " ", ".", "x", "é", "É", "K", "ſ",
    "ı", "İ", "1", "+",
]  # fmt: skip


@example("Foo-foo FOO foo_ foo", "Foo")
@example("foo foo foo", "foo foo")
@example("Kfoo kelvin Foo", "k")
@given(
    st.lists(st.sampled_from(_COUNTED_PIECES), max_size=14).map("".join),
    st.sampled_from(["Foo", "foo bar", "Foo Foo", "X.1", "k", "s", "i", "É", "Fooé"]),
)
def test_a_word_is_counted_as_by_its_pattern(text, token):
    """`_count` counts by `str.find` where it may: what the pattern it stands in for finds
    (case ignored, not inside a longer word, matches not overlapping)."""
    pattern = r"(?<![\w-])" + re.escape(token) + r"(?![\w-])"
    assert names._count(text, token) == len(re.findall(pattern, text, re.IGNORECASE))


_END_PIECES = [
    "we", "We", "call", "called", "which", "this", "the", "our", "Our", "proposed", "own",
    "method", "solution", "towards", "of", "X-1", "É", "ſ", ",", '"', "“", " ", "  ", "\n",
    "x",
]  # fmt: skip


@example("our proposed method ", "_POSSESSIVE_APPOSITIVE")
@example("which we call the “", "_CALLED")
@example("we call this X the \n", "_CALLED")
@given(
    st.lists(st.sampled_from(_END_PIECES), max_size=16).map("".join),
    st.sampled_from(["_CALLED", "_POSSESSIVE", "_POSSESSIVE_APPOSITIVE", "_OBJECT_OF"]),
)
def test_a_pattern_that_ends_its_text_is_looked_for_in_the_end_only(text, name):
    """A pattern anchored at the end of its text ("$") finds a match in the end that holds
    as many spaces as its longest match (`_tail`) when it finds one in the whole text."""
    pattern, spaces = getattr(names, name), getattr(names, f"{name}_SPACES")
    assert bool(pattern.search(text, names._tail(text, spaces))) == bool(pattern.search(text))


_PASSIVE_PIECES = [
    "propos", "proposed", "ed", "d", "e", "built", "buil", "t", "devised", "creat",
    "presented", " ", "x", "É",
]  # fmt: skip


@example("proposed", 0, 8)
@example("xbuilt", 1, 5)
@given(
    st.lists(st.sampled_from(_PASSIVE_PIECES), max_size=10).map("".join),
    st.integers(0, 40),
    st.integers(0, 40),
)
def test_passive_verbs_are_found_from_their_stems_as_by_one_search(text, low, high):
    """`_has_passive_verb` looks for "built" and the stems before "ed": it finds a passive
    verb in `text[low:high]` when one search for them all does."""
    search = re.compile("|".join(names._PASSIVE_VERBS)).search
    assert names._has_passive_verb(text[low:high]) == bool(search(text, low, high))
