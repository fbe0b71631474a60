"""People's names as the reader shows them ("Ada Lovelace", first name first): the family
name for a row's "Lovelace et al." and for formats that want "Lovelace, Ada" (RIS). A name
written in Chinese, Japanese or Korean script puts the family name first ("王 小明")."""

from __future__ import annotations

from paperterm.index.text.words import has_cjk

#: Lower-case words that belong to the family name before it: "Jan-Willem van de Meent".
_PARTICLES = frozenset((
    "von", "van", "der", "den", "de", "del", "della", "da", "di", "du", "la", "le", "dos",
    "das", "ter", "ten", "zu", "al", "el", "bin", "ibn", "st.",
))  # fmt: skip
_SUFFIXES = frozenset(("jr", "jr.", "sr", "sr.", "ii", "iii", "iv"))


def split_name(name: str) -> tuple[str, str]:
    """(given names, family name) of a name written first name first, or family name
    first in CJK script; a one-word name is all family name."""
    words = name.split()
    if len(words) > 1 and has_cjk(words[0]):
        return " ".join(words[1:]), words[0]
    suffix = []
    if len(words) > 2 and words[-1].lower() in _SUFFIXES:
        suffix = [words.pop()]
    if len(words) < 2:
        return "", " ".join(words + suffix)
    start = len(words) - 1
    while start > 1 and words[start - 1] in _PARTICLES:
        start -= 1
    return " ".join(words[:start]), " ".join(words[start:] + suffix)


def family_name(name: str) -> str:
    return split_name(name)[1]
