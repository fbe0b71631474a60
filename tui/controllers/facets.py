"""The facets sidebar without widgets: its lines from the counts of the papers in the list
(index/library/facets.py), and the values chosen, which narrow the view through
`Filters.facets` (so `allowed_ids` applies them with the other filters).

Several values combine with AND, within one facet too: the list keeps the papers that have
each value chosen, and every count says what one more choice would leave.

The counts come from the corpus's `FacetTable` (made once, by the first count that needs
it), so a count reads no paper.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from paperterm.index.library.facet_table import FacetTable, table_positions
from paperterm.index.library.facets import FACETS, count_facets
from paperterm.tui.view import PaperRows

if TYPE_CHECKING:
    from paperterm.index.library.bookmarks import Bookmark
    from paperterm.index.papers import Paper
    from paperterm.tui.view import Row

Chosen = tuple[tuple[str, str], ...]


class FacetEntry(NamedTuple):
    """One line of the sidebar: a facet's heading (`value` None) or one of its values with
    how many papers in the list have it, and whether it is chosen."""

    facet: str
    value: str | None
    papers: int = 0
    chosen: bool = False


class TableKeeper:
    """The facet table of the corpus counted last: made by the first count that needs it
    (a count of another thread waits for it, rather than making a second)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._table: FacetTable | None = None

    def made(self, papers: Sequence[Paper]) -> FacetTable | None:
        """The table of `papers` when it is made already (never makes one)."""
        table = self._table
        if table is None or table.papers is not papers or len(table.ids) != len(papers):
            return None
        return table

    def table(
        self, papers: Sequence[Paper], pause: Callable[[], object] | None = None
    ) -> FacetTable:
        """The table of `papers` (the same object, as long); `pause`: as `FacetTable.of`."""
        with self._lock:
            table = self.made(papers)
            if table is None:
                table = self._table = FacetTable.of(papers, pause)
            return table


def count_rows(
    rows: Sequence[Row],
    bookmarks: Mapping[str, Bookmark],
    decisions: Mapping[str, str],
    read: Container[str],
    topics: Mapping[str, str] | None = None,
    *,
    table: FacetTable | None = None,
    pause: Callable[[], object] | None = None,
) -> dict[str, dict[str, int]]:
    """`count_facets` over the papers of `rows` (a bookmark whose paper is gone counts
    nowhere; `topics`: those computed for a corpus that has none). From `table` when the
    rows' papers are its papers (no paper read; `pause` between its chunks), else reading
    every row's paper: call it from a worker."""
    positions = None if table is None else _positions(rows, table)
    if table is not None and positions is not None:
        return table.count(positions, bookmarks, decisions, read, topics=topics, pause=pause)
    papers = [row.paper for row in rows if row.paper is not None]
    return count_facets(papers, bookmarks, decisions, read, topics=topics)


def _positions(rows: Sequence[Row], table: FacetTable) -> Sequence[int] | None:
    """Where the papers of `rows` are in `table`, or None when one is not there."""
    if isinstance(rows, PaperRows) and rows.papers is table.papers:
        return range(len(table.ids)) if rows.positions is None else rows.positions
    return table_positions(table, [row.id for row in rows if row.paper is not None])


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
