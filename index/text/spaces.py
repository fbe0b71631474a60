"""White space made single without cutting a text into words when it has nothing to change.

`" ".join(text.split())` makes an object of every word, and a build did it three times an
abstract (cleaning a JSON field, rendering each paragraph, one_line)
to texts that mostly had nothing to change. `single_spaced` looks first, with passes that
make nothing.
"""

from __future__ import annotations

import re

#: ASCII's printable characters (`str.isprintable`'s, space to tilde), and the newline.
_ASCII_PRINTABLE = bytes(range(0x20, 0x7F))
_ASCII_PRINTABLE_OR_NEWLINE = _ASCII_PRINTABLE + b"\n"
#: Characters from which deleting bytes is faster than `str.isprintable` (measured: ~100;
#: a name or a title is shorter, an abstract ~1,000).
_BYTES_FROM = 100


def is_printable(text: str) -> bool:
    """`text.isprintable()`, in less of its time for a long ASCII text (`str.isprintable`
    looks up every character's Unicode record): ASCII text is
    printable when deleting its bytes from space to tilde leaves none."""
    if len(text) >= _BYTES_FROM and text.isascii():
        return not text.encode("ascii").translate(None, _ASCII_PRINTABLE)
    return text.isprintable()


def is_printable_but_newlines(text: str) -> bool:
    """Whether every character of `text` but its newlines is printable (without copying a
    text that has none)."""
    if len(text) >= _BYTES_FROM and text.isascii():
        return not text.encode("ascii").translate(None, _ASCII_PRINTABLE_OR_NEWLINE)
    return text.isprintable() if "\n" not in text else text.replace("\n", "").isprintable()


def single_spaced(text: str) -> str:
    """`" ".join(text.split())`: every run of white space one space, none at either end.

    A printable text has no white space but the space (every other character `str.split`
    splits at is a control, a separator or a format character, none printable); line
    breaks become spaces first. Without two spaces in a row or one at either end, such a
    text is as `split` and `join` would make it."""
    spaced = text.replace("\n", " ") if "\n" in text else text
    if not is_printable(spaced):
        return " ".join(text.split())
    return printable_single_spaced(spaced)


def printable_single_spaced(text: str) -> str:
    """`single_spaced` of a text known to be printable (its only white space the space)."""
    if "  " in text or text.startswith(" ") or text.endswith(" "):
        return " ".join(text.split())
    return text


#: A full stop with the next sentence glued to it ("disease.This work"): a word of two small
#: letters or more, the stop, then a capitalized word. A dotted name (`github.com`, `v1.2`,
#: `e.g.`, `U.S.`) has no capital right after its dot. The stop comes first in the pattern:
#: a literal lets the search skip to each stop rather than try every character.
_GLUED_SENTENCE = re.compile(r"\.(?=[A-Z][a-z])(?<=[a-z]{2}\.)")


def unglued_sentences(text: str) -> str:
    """`text` with a space after each full stop that a source glued to the next sentence
    ("disease.This" -> "disease. This"): glued, the two words would be one word that no
    search for either finds."""
    return _GLUED_SENTENCE.sub(". ", text) if "." in text else text
