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
