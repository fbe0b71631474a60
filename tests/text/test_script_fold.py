"""Super- and subscript letters and digits written plain (`words.fold_scripts`)."""

from __future__ import annotations

import sys
import unicodedata

import pytest

from paperterm.index.text.words import SCRIPT_BLOCKS, fold_scripts, words_of


@pytest.mark.parametrize(
    ("word", "plain"),
    [("s²ip", "s2ip"), ("x₁", "x1"), ("h₂o", "h2o"), ("mc²", "mc2"), ("ᴬb", "ab"), ("xⁿ", "xn"),
     ("plain", "plain"), ("é²", "é2")],
)  # fmt: skip
def test_scripts_are_folded_to_plain_lower_case(word, plain):
    assert fold_scripts(word) == plain
    assert words_of(fold_scripts(word)) == [plain] and words_of(word) == [word]  # same bounds


def test_the_blocks_hold_every_super_and_subscript_letter_and_digit():
    blocks = [range(first, last + 1) for first, last in SCRIPT_BLOCKS]
    for code in range(0x80, sys.maxunicode + 1):
        char = chr(code)
        decomposed = unicodedata.decomposition(char).split()
        if len(decomposed) != 2 or decomposed[0] not in ("<super>", "<sub>"):
            continue
        if char.isalnum() and chr(int(decomposed[1], 16)).isalnum():
            assert any(code in block for block in blocks), hex(code)
            assert fold_scripts(char) == chr(int(decomposed[1], 16)).lower()
