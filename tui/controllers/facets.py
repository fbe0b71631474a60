"""The facets sidebar without widgets: its lines from the counts of the papers in the list
(index/library/facets.py), and the values chosen, which narrow the view through
`Filters.facets` (so `allowed_ids` applies them with the other filters).

Several values combine with AND, within one facet too: the list keeps the papers that have
each value chosen, and every count says what one more choice would leave.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from paperterm.index.library.facets import FACETS, count_facets

if TYPE_CHECKING:
    from paperterm.index.library.bookmarks import Bookmark
    from paperterm.tui.view import Row

Chosen = tuple[tuple[str, str], ...]


class FacetEntry(NamedTuple):
    """One line of the sidebar: a facet's heading (`value` None) or one of its values with
    how many papers in the list have it, and whether it is chosen."""

    facet: str
    value: str | None
    papers: int = 0
    chosen: bool = False


def count_rows(
    rows: Sequence[Row],
    bookmarks: Mapping[str, Bookmark],
    decisions: Mapping[str, str],
    read: Container[str],
    topics: Mapping[str, str] | None = None,
) -> dict[str, dict[str, int]]:
    """`count_facets` over the papers of `rows` (a bookmark whose paper is gone counts
    nowhere; `topics`: those computed for a corpus that has none). Reads every row's
    paper: call it from a worker."""
    papers = [row.paper for row in rows if row.paper is not None]
    return count_facets(papers, bookmarks, decisions, read, topics=topics)


def facet_entries(counts: Mapping[str, Mapping[str, int]], chosen: Chosen) -> list[FacetEntry]:
    """The sidebar's lines: each facet with a value (in `FACETS`' order), its heading and
    its values with a paper in the list; a chosen value is listed even with none."""
    picked = set(chosen)
    entries: list[FacetEntry] = []
    for facet in FACETS:
        values = {value: count for value, count in counts.get(facet, {}).items() if count}
        for name, value in chosen:
            if name == facet:
                values.setdefault(value, 0)
        if not values:
            continue
        entries.append(FacetEntry(facet, None))
        entries += [
            FacetEntry(facet, value, count, (facet, value) in picked)
            for value, count in values.items()
        ]
    return entries


def choose(chosen: Chosen, facet: str, value: str) -> Chosen:
    """`chosen` with (facet, value) added at the end, or taken out when it is there (Enter
    on a chosen value undoes it)."""
    pair = (facet, value)
    if pair in chosen:
        return tuple(item for item in chosen if item != pair)
    return (*chosen, pair)


def drop_last(chosen: Chosen) -> Chosen:
    """`chosen` without the value chosen last (Backspace)."""
    return chosen[:-1]


def chosen_text(chosen: Iterable[tuple[str, str]]) -> str:
    """The values chosen as the status line names them: `status: Oral · tag: later`."""
    return " · ".join(f"{facet}: {value}" for facet, value in chosen)
