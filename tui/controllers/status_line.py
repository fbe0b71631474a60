"""The main screen's status line as parts (tui/status.py fits them to the width) and the
warnings shown above it."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from paperterm.index.library.filters import ALL, Filters
from paperterm.index.library.sorting import DEFAULT_SORT, SORTS, effective_sort
from paperterm.index.text.display import one_line
from paperterm.tui.status import STATE, Part, count_part, filter_part
from paperterm.tui.view import position_text, unread_text, unsaved_text

if TYPE_CHECKING:
    from paperterm.tui.state import ReaderState


class ListFacts(NamedTuple):
    """What the status line says of the list: papers in view, rows shown, unread rows,
    the cursor, whether a filter or a query narrows it, its filters and sort, whether the
    rows have a relevance order, and the sort the view waits for (None: none)."""

    in_view: int
    rows: int
    unread: int
    cursor: int
    filtered: bool
    filters: Filters
    sort: str
    searching: bool
    waiting_sort: str | None


def status_parts(state: ReaderState, facts: ListFacts) -> list[Part]:
    """The facts first: `K of N papers · U unread` and what narrows the view, which stay
    at every width (abbreviated); then the states no toast repeats (unsaved changes,
    read-only files, indexing); then what makes room first (the sort, the position
    `12/38`, the index's state, warnings)."""
    filters = facts.filters
    parts = [count_part(facts.in_view, len(state.papers), facts.filtered)]
    if state.papers:
        unread = unread_text(facts.unread, facts.rows, facts.in_view)
        parts.append(Part(unread, short=f"{facts.unread} unread"))
    if filters.view != ALL:
        parts.append(filter_part(one_line(filters.view.label, 40)))
    if filters.facets:
        from paperterm.tui.controllers.facets import chosen_text  # once a facet is chosen

        parts.append(filter_part(one_line(chosen_text(filters.facets), 60)))
    if filters.unread_only:
        parts.append(filter_part("unread only", "unread only"))
    if filters.bookmarks_only:
        parts.append(filter_part("bookmarks only", "★ only"))
    sort = effective_sort(facts.sort, facts.searching)
    if facts.waiting_sort is not None:
        parts.append(Part(f"sorting by {SORTS[facts.waiting_sort]}…", keep=4))
    elif sort != effective_sort(DEFAULT_SORT, facts.searching):
        waiting = sort == "like" and state.ranking is None
        parts.append(Part(f"sort: {SORTS[sort]}{' (ranking…)' if waiting else ''}", keep=4))
    parts += _store_parts(state)
    if facts.rows:
        parts.append(Part(position_text(facts.cursor, facts.rows), keep=3))
    parts.append(_index_part(state))
    if state.warnings:
        count = len(state.warnings)
        parts.append(Part(f"{count} warning{'s' if count != 1 else ''}", keep=2))
    return parts


def _store_parts(state: ReaderState) -> list[Part]:
    """Unsaved changes and read-only files of the bookmarks, the reading state, the
    decisions and the saved searches."""
    parts = []
    for store, what in ((state.bookmarks, "bookmark"), (state.reading, "reading")):
        problem = state.bookmarks_problem if what == "bookmark" else state.problems.get(what)
        unsaved = unsaved_text(store.unsaved, what)
        if unsaved:
            parts.append(Part(unsaved, keep=STATE, short=f"{store.unsaved} unsaved"))
        elif problem:
            noun = "bookmarks" if what == "bookmark" else "reading state"
            how = "read-only" if store.read_only else "not saved"
            parts.append(Part(f"{noun} {how}", keep=STATE, short=how))
    for count, what in (
        (state.unsaved_decisions, "decision"),
        (state.searches.unsaved, "saved search"),
        (state.unsaved_watches, "watch"),
    ):
        if count:
            text = unsaved_text(count, what)
            parts.append(Part(text, keep=STATE, short=f"{count} unsaved"))
    return parts


def _index_part(state: ReaderState) -> Part:
    index_state = state.index_state
    if index_state in ("loading", "opening", "indexing", "updating"):
        text = {
            "loading": "loading papers…",
            "opening": "opening the index…",
            "indexing": indexing_text(state),
            "updating": "updating the index…",
        }[index_state]
        return Part(text, keep=STATE - 1)
    text = {"ready": "index ready", "memory": "in-memory index", "failed": "index failed"}[
        index_state
    ]
    return Part(text, keep=1 if index_state == "ready" else STATE - 1)


def indexing_text(state: ReaderState) -> str:
    """`indexing 12,000 of 50,000 · 21 of 85 MB` (papers read and indexed so far, of about
    how many, and the bytes of the source files read)."""
    if not state.index_total:
        return "indexing…"
    text = f"indexing {state.index_done:,} of {state.index_total:,}"
    if state.index_size:
        text += f" · {state.index_read / 1e6:,.0f} of {state.index_size / 1e6:,.0f} MB"
    return text


def warnings_text(state: ReaderState) -> str:
    """The line above the status line: each problem with the library's files."""
    problems = [state.bookmarks_problem, *state.problems.values()]
    return "\n".join(f"⚠ {problem}" for problem in problems if problem)
