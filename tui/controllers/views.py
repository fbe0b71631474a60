"""Views, places and moves of the main screen without widgets: the sidebar's entries,
saving a search as a view, where the screen is (`Place`) and the jump list, the next
unread paper, and what `R` asks.

Where the screen is is saved when the reader ends, restored when it starts, and pushed on
the jump list before a search, a view change or a followed related paper.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING

from paperterm.index.library.filters import ALL, WATCHED, Filters, ViewKey
from paperterm.index.library.op_store import LibraryError, LibrarySaveError
from paperterm.index.library.place import Place
from paperterm.index.library.sorting import DEFAULT_SORT, SORTS
from paperterm.index.text.display import one_line
from paperterm.tui.controllers.notice import Notice
from paperterm.tui.state import JUMP_DEPTH
from paperterm.tui.view import PaperRows, Row, ViewEntry, view_entries

if TYPE_CHECKING:
    from paperterm.tui.state import ReaderState

#: What the zoom key cycles through: both panes, the list only, the detail only.
ZOOMS = ("both", "list", "detail")


def next_zoom(zoom: str) -> str:
    return ZOOMS[(ZOOMS.index(zoom) + 1) % len(ZOOMS)]


def sidebar_entries(state: ReaderState) -> list[ViewEntry]:
    """The views sidebar's lines with their counts; "Watched" second while something is
    watched (its counts "…" until its papers are found)."""
    entries = view_entries(
        state.papers,
        state.collection_ids,
        state.bookmarks.entries,
        state.reading.entries,
        state.saved_searches,
        state.search_matches,
    )
    watching = state.watching
    if not watching.watch_list():
        return entries
    ids, read = watching.ids, state.reading.entries
    if ids is None:
        entries.insert(1, ViewEntry(WATCHED, WATCHED.name))
    else:
        unread = len(ids) - sum(map(read.__contains__, ids))
        entries.insert(1, ViewEntry(WATCHED, WATCHED.name, unread, len(ids)))
    return entries


def place_of(filters: Filters, query: str, sort: str, paper_id: str | None) -> Place:
    return Place(
        view=str(filters.view),
        query=query,
        sort=sort,
        unread_only=filters.unread_only,
        bookmarks_only=filters.bookmarks_only,
        paper=paper_id or "",
    )


def restored(state: ReaderState, place: Place) -> tuple[Filters, str]:
    """The filters and sort of `place`; a collection gone since shows all papers (once
    papers are read), an unknown sort the default."""
    view = ViewKey.parse(place.view) or ALL
    if view.kind == "collection" and view.name not in state.collections:
        view = ALL if state.papers else view
    sort = place.sort if place.sort in SORTS else DEFAULT_SORT
    return Filters(place.bookmarks_only, place.unread_only, view), sort


def push_jump(jumps: list[Place], place: Place) -> None:
    """Remember `place` for `ctrl+o` (one with a paper, not twice in a row)."""
    if place.paper and (not jumps or jumps[-1] != place):
        jumps.append(place)
        del jumps[:-JUMP_DEPTH]


def save_search(state: ReaderState, name: str, query: str) -> tuple[Notice, bool]:
    """Save `query` as the view `name`; what to tell the user, and whether it was kept
    (saved, or pending and retried)."""
    name = " ".join(name.split())
    if any(search.name == name for search in state.config.searches):
        return Notice(
            f"{name!r} is a search of the config file; choose another name", "warning"
        ), False
    try:
        state.searches.save_search(name, query)
    except LibrarySaveError as error:  # kept, counted, retried, and listed at exit
        text = f"The view {name!r} is not saved yet: {one_line(error.reason)}. Kept and retried"
        return Notice(text, "warning"), True
    except LibraryError as error:
        return Notice(one_line(str(error)), "error"), False
    return Notice(f"Saved the search as the view {name!r}"), True


def unread_in_view(rows: Sequence[Row], read: Collection[str]) -> list[str]:
    """The unread papers' ids among `rows`."""
    if isinstance(rows, PaperRows):  # every row a paper's: ids from the rows file
        ids: Sequence[str] = rows.ids
    else:
        ids = [row.id for row in rows if row.paper is not None]
    return [paper_id for paper_id in ids if paper_id not in read]


def mark_read_question(unread: int, yes: str) -> str:
    return (
        f"Mark the {unread} unread paper{'s' if unread != 1 else ''} "
        f"in view read? ({yes}: yes, any other key: no)"
    )


def neighbour_index(
    ids: Sequence[str],
    paper_row: Callable[[int], Row],
    start: int,
    step: int,
    unread: bool,
    read: Collection[str],
) -> int | None:
    """The index `step` rows from `start` (the next unread one that way, with `unread`);
    None past the end. A read paper's row is never made: its id decides."""
    index = start + step
    while 0 <= index < len(ids):
        if not unread or (ids[index] not in read and paper_row(index).paper is not None):
            return index
        index += step
    return None


def next_unread_id(ids: Sequence[str], read: Collection[str], cursor: int) -> str | None:
    """The first unread row after `cursor`, else the last unread one before it."""
    after = (i for i in ids[cursor + 1 :] if i not in read)
    before = (i for i in reversed(ids[:cursor]) if i not in read)
    return next(after, None) or next(before, None)
