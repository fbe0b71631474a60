"""White space made single without cutting a text into words when it has nothing to change.

`" ".join(text.split())` makes an object of every word: ~15 us for an abstract, and a build
did it three times an abstract (cleaning a JSON field, rendering each paragraph, one_line)
to texts that mostly had nothing to change. `single_spaced` looks first, with passes that
make nothing.
"""

from __future__ import annotations


def single_spaced(text: str) -> str:
    """`" ".join(text.split())`: every run of white space one space, none at either end.

    A printable text has no white space but the space (every other character `str.split`
    splits at is a control, a separator or a format character, none printable); line
    breaks become spaces first. Without two spaces in a row or one at either end, such a
    text is as `split` and `join` would make it."""
    spaced = text.replace("\n", " ") if "\n" in text else text
    if not spaced.isprintable():
        return " ".join(text.split())
    return printable_single_spaced(spaced)


def printable_single_spaced(text: str) -> str:
    """`single_spaced` of a text known to be printable (its only white space the space)."""
    if "  " in text or text.startswith(" ") or text.endswith(" "):
        return " ".join(text.split())
    return text
