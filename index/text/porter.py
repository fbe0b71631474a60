"""The Porter stem of a word: Whoosh's `whoosh.lang.porter.stem` with step 1b and the measure
as Porter wrote them, in about half Whoosh's time.

Whoosh anchors two of step 1b's tests at the word's start (`_at_bl_iz` and `_step1b` are
`match`ed), so they held only for a whole word of two letters: "evaluating" kept
"evaluat" while "evaluation" gave "evalu", and a search for one missed the other. Here they
look at the word's end, as in Porter's paper ("conflated" -> "conflat", "hopping" -> "hop",
"evaluating" -> "evalu"). Whoosh also counts a y after a consonant as neither consonant nor
vowel, so no rule applied to a word whose first vowel is such a y ("dynamical", "physical"
and "asymptotic" were kept whole); here it is a vowel, as Porter defines it ("dynamical"
and "dynamic" -> "dynam"). Every other rule is Whoosh's to the letter, Porter's own two
departures included (`logi` -> `log`, `bli` -> `ble`). A suffix is looked for with
`str.endswith` rather than Whoosh's suffix patterns, which try every alternative at every
position of the word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_STEP2 = {
    "ational": "ate", "tional": "tion", "enci": "ence", "anci": "ance", "izer": "ize",
    "bli": "ble", "alli": "al", "entli": "ent", "eli": "e", "ousli": "ous", "ization": "ize",
    "ation": "ate", "ator": "ate", "alism": "al", "iveness": "ive", "fulness": "ful",
    "ousness": "ous", "aliti": "al", "iviti": "ive", "biliti": "ble", "logi": "log",
}  # fmt: skip
_STEP3 = {
    "icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic", "ful": "",
    "ness": "",
}  # fmt: skip
_STEP4 = (
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ou",
    "ism", "ate", "iti", "ous", "ive", "ize",
)  # fmt: skip


def _longest_first(suffixes: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(suffixes, key=len, reverse=True))


#: Each step's suffixes, longest first: `^(.+?)(a|b|...)$` keeps the shortest stem, so the
#: longest suffix the word ends with (a stem of one character at least).
_STEP2_SUFFIXES = _longest_first(_STEP2)
_STEP3_SUFFIXES = _longest_first(_STEP3)
_STEP4_SUFFIXES = _longest_first(_STEP4)

#: Porter's consonant: a letter but a, e, i, o and u, and but a y after a consonant; so a run of
#: consonants starts with any of them and goes on without a y, and a run of vowels starts
#: with a vowel or that y ("dynamical": d-y-n, m = 1).
_VOWEL = "[aeiouy]"
_CONS_SEQ = "[^aeiou][^aeiouy]*"
_VOWEL_SEQ = _VOWEL + "[aeiou]*"
# m > 0
_mgr0 = re.compile("^(" + _CONS_SEQ + ")?" + _VOWEL_SEQ + _CONS_SEQ)
# m == 1
_meq1 = re.compile("^(" + _CONS_SEQ + ")?" + _VOWEL_SEQ + _CONS_SEQ + "(" + _VOWEL_SEQ + ")?$")
# m > 1
_mgr1 = re.compile("^(" + _CONS_SEQ + ")?" + _VOWEL_SEQ + _CONS_SEQ + _VOWEL_SEQ + _CONS_SEQ)
# a vowel in the stem
_s_v = re.compile("^(" + _CONS_SEQ + ")?" + _VOWEL)
_c_v = re.compile("^" + _CONS_SEQ + _VOWEL + "[^aeiouwxy]$")
_step1b = re.compile("([^aeiouylsz])\\1$")


def _suffix(word: str, suffixes: tuple[str, ...]) -> str:
    """The longest of `suffixes` that `word` ends with after one character at least."""
    for suffix in suffixes:
        if word.endswith(suffix) and len(word) > len(suffix):
            return suffix
    return ""


def stem(w: str) -> str:
    """The Porter stem of a lower-case word (the module's docstring says how it differs from
    `whoosh.lang.porter.stem`)."""
    if len(w) < 3:
        return w
    first_is_y = w[0] == "y"
    if first_is_y:
        w = "Y" + w[1:]
    # Step 1a
    if w.endswith("s"):
        if w.endswith(("sses", "ies")):
            w = w[:-2]
        elif w[-2] != "s":
            w = w[:-1]
    # Step 1b
    if w.endswith("eed"):
        if _mgr0.match(w[:-3]):
            w = w[:-1]
    elif w.endswith(("ed", "ing")):
        root = w[:-2] if w.endswith("ed") else w[:-3]
        if _s_v.match(root):
            w = root
            if w.endswith(("at", "bl", "iz")):
                w += "e"
            elif _step1b.search(w):
                w = w[:-1]
            elif _c_v.match(w):
                w += "e"
    # Step 1c
    if w.endswith("y"):
        root = w[:-1]
        if _s_v.match(root):
            w = root + "i"
    # Step 2
    if w.endswith(_STEP2_SUFFIXES) and (suffix := _suffix(w, _STEP2_SUFFIXES)):
        root = w[: -len(suffix)]
        if _mgr0.match(root):
            w = root + _STEP2[suffix]
    # Step 3
    if w.endswith(_STEP3_SUFFIXES) and (suffix := _suffix(w, _STEP3_SUFFIXES)):
        root = w[: -len(suffix)]
        if _mgr0.match(root):
            w = root + _STEP3[suffix]
    # Step 4
    if w.endswith(_STEP4_SUFFIXES) and (suffix := _suffix(w, _STEP4_SUFFIXES)):
        root = w[: -len(suffix)]
        if _mgr1.match(root):
            w = root
    elif w.endswith(("sion", "tion")) and len(w) > 4:
        root = w[:-3]
        if _mgr1.match(root):
            w = root
    # Step 5
    if w.endswith("e") and len(w) > 1:
        root = w[:-1]
        if _mgr1.match(root) or (_meq1.match(root) and not _c_v.match(root)):
            w = root
    if w.endswith("ll") and _mgr1.match(w):
        w = w[:-1]
    if first_is_y:
        w = "y" + w[1:]
    return w
