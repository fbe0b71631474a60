"""The status line as a list of prioritized parts, fitted to the width it has (no Textual).

A narrow window must not hide why the list looks as it does: "3 of 38 papers · bookmarks
only" cut to "3 of 38 papers ·…" leaves a one-result search unexplained. So the parts say
what they are: facts (the count, the active filter or view, the unread count) stay at every
width from 40 columns, in their short form if need be; decorations (the index state,
warnings, the key hints) make room, the least important first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rich.cells import cell_len

from paperterm.index.text.display import one_line
from paperterm.tui.view import count_text

JOIN = " · "
#: `Part.keep` of a fact: never dropped.
FACT = 100
#: `keep` of long-lived states (unsaved changes, read-only bookmarks, indexing): the last
#: decorations to go, since no toast repeats them.
STATE = 50


class Part(NamedTuple):
    """One part of the status line. `short` is its abbreviation (none: it has none);
    `keep` orders what goes when space is short: lower first, `FACT` never. A named tuple,
    not a frozen dataclass: cheaper to define as the reader starts."""

    text: str
    keep: int = FACT
    short: str = ""


def fit_status(parts: Sequence[Part], width: int) -> str:
    """`parts` joined by ` · ` within `width` cells: decorations dropped (lowest `keep`
    first, the later of equals first), long-lived states last; before those, facts and
    states take their short forms (from the last); then the line is cut with `…` (only
    below the 40 columns the reader is drawn from)."""
    shown = [part for part in parts if part.text]
    texts = {id(part): part.text for part in shown}

    def line() -> str:
        return JOIN.join(texts[id(part)] for part in shown)

    def drop(low: int, high: int) -> bool:
        """Drop parts with `low <= keep < high` until the line fits; whether it does."""
        order = sorted(
            (part for part in shown if low <= part.keep < high),
            key=lambda part: (part.keep, -shown.index(part)),
        )
        for part in order:
            if cell_len(line()) <= width:
                return True
            shown.remove(part)
        return cell_len(line()) <= width

    if drop(0, STATE):
        return line()
    for part in reversed(shown):
        if cell_len(line()) <= width:
            return line()
        if part.short:
            texts[id(part)] = part.short
    if drop(STATE, FACT):
        return line()
    return cut(line(), width)


def cut(text: str, width: int) -> str:
    """`text` within `width` cells, ending in `…` when it was cut."""
    if cell_len(text) <= width:
        return text
    if width <= 0:
        return ""
    while text and cell_len(text + "…") > width:
        text = text[:-1]
    return text + "…"


# --- the parts the screens use ----------------------------------------------------------------


def count_part(in_view: int, total: int, filtered: bool) -> Part:
    """`view.count_text`, `3 of 38 papers` abbreviated to `3/38`."""
    return Part(
        count_text(in_view, total, filtered), short=f"{in_view}/{total}" if filtered else ""
    )


def filter_part(label: str, short: str = "") -> Part:
    """An active filter or view: a fact, abbreviated to a dozen cells at most."""
    return Part(label, short=short or one_line(label, 12))


def collection_part(name: str) -> Part:
    return Part(f"collection: {one_line(name, 30)}", short=one_line(name, 14))
