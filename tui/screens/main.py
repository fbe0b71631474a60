"""The main screen: search box, list and detail panes, progress and status lines.

Search as you type: every change bumps a generation number; the first key of a burst runs
at once, later keys within `search.debounce_ms` are folded into one run when the pause ends.
Queries run in an exclusive thread worker; a result whose generation is not the latest is
dropped, so a slow old query can never overwrite a newer one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.containers import Container, Horizontal
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Input, Label, ProgressBar, Static

from paperterm.index.library.filters import Filters, allowed_ids
from paperterm.index.search.hits import Matcher, Results, correction_note
from paperterm.index.search.query import ParsedQuery, parse_query, pin_words
from paperterm.index.text.display import one_line
from paperterm.tui import keys
from paperterm.tui.screens.base import PaperScreen
from paperterm.tui.screens.read import ReadScreen
from paperterm.tui.state import ReaderState
from paperterm.tui.status import STATE, Part, collection_part, count_part, filter_part
from paperterm.tui.view import (
    Row,
    fit_note,
    missing_rows,
    paper_rows,
    unsaved_text,
)
from paperterm.tui.widgets.detail import PaperDetail
from paperterm.tui.widgets.paper_list import PaperList

if TYPE_CHECKING:
    from paperterm.index.search.searcher import Searcher


@dataclass(frozen=True, slots=True)
class ViewRequest:
    """One recomputation of the list: the query and the ids the filters allow, as they were
    when it was asked for, and where the cursor goes after it. `generation` tells a result
    that came too late (a newer request was made since) from the latest."""

    generation: int
    text: str
    allowed: set[str] | None
    keep_id: str | None
    keep_index: int | None = None


@dataclass(frozen=True, slots=True)
class View:
    """What the list shows: its rows, how many papers match (a search may show fewer), the
    query's notes, a "did you mean", the matcher that highlights the query's words, and,
    when words of the query were corrected, the query that ran and what changed."""

    rows: list[Row]
    in_view: int
    notes: Sequence[str] = ()
    suggestion: str = ""
    matcher: Matcher | None = None
    corrected: str = ""
    corrections: Sequence[tuple[str, str]] = ()


class SearchDone(Message):
    def __init__(self, request: ViewRequest, results: Results) -> None:
        super().__init__()
        self.request = request
        self.results = results


#: What the zoom key cycles through: both panes, the list only, the detail only.
ZOOMS = ("both", "list", "detail")


class MainScreen(PaperScreen):
    BINDINGS = keys.scope_bindings("main")
    #: The key table's scopes of this screen, shown first in the help.
    KEY_SCOPES = ("main", "list")

    class Ready(Message):
        """The screen's widgets are mounted: the app may start loading (its workers'
        messages update them)."""

    def __init__(self, state: ReaderState) -> None:
        super().__init__(state)
        self.filters = Filters()
        self.generation = 0
        self.applied = 0
        self.view = View(rows=[], in_view=0)
        self.filtered = False
        self.waiting_for_index = False
        self._timer: Timer | None = None
        self._last_run = -1e9
        self._focus_results = False
        self._all_rows: list[Row] | None = None
        self._texts: dict[str, str] = {}
        self.zoom = "both"

    def compose(self) -> ComposeResult:
        with Horizontal(id="search-bar"):
            yield Label(Text("Search"), id="search-label")
            yield Input(
                placeholder='words, "a phrase", title:…, author:…, tag:…, -word',
                id="search-input",
                compact=True,
                # Selecting on focus would let the next key replace letters that arrived
                # with the `/` (see take_stray_key); Ctrl+U clears the box instead.
                select_on_focus=False,
            )
        yield Static(id="search-note")
        with Container(id="panes"):
            yield PaperList(self.state.bookmarks.is_bookmarked, id="list")
            yield PaperDetail(id="detail")
        with Horizontal(id="progress-row"):
            yield Label(Text("Building the search index "), id="progress-label")
            yield ProgressBar(total=100, show_eta=False, id="progress")
        yield Static(id="warning-bar")
        yield from self.compose_footer()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one(PaperList).focus()
        self.post_message(self.Ready())
        self.update_status()

    def _size_classes(self, width: int, height: int) -> None:
        super()._size_classes(width, height)
        self.set_class(width >= self.state.config.side_by_side_min_width, "-side")
        self._update_note()  # it wraps to the new width

    # --- widgets -------------------------------------------------------------------------

    @property
    def search_input(self) -> Input:
        return self.query_one("#search-input", Input)

    @property
    def paper_list(self) -> PaperList:
        return self.query_one("#list", PaperList)

    @property
    def detail(self) -> PaperDetail:
        return self.query_one("#detail", PaperDetail)

    def current_row(self) -> Row | None:
        return self.paper_list.current

    @property
    def pending(self) -> bool:
        """Also while a search waits for its debounce (a running search is a worker)."""
        return super().pending or self._timer is not None

    # --- what the app tells us -----------------------------------------------------------

    def papers_changed(self) -> None:
        self._all_rows = None
        current = self.current_row()
        self.run_search(keep_id=current.id if current else None)

    def progress_changed(self, done: int, total: int) -> None:
        self.query_one("#progress", ProgressBar).update(total=max(total, 1), progress=done)
        self.update_status()

    def index_changed(self) -> None:
        if self.waiting_for_index:
            self.waiting_for_index = False
            self.run_search(keep_id=None)
        if self.detail.row is not None:
            self.request_related(self.detail)
        self.update_status()

    def bookmarks_changed(self) -> None:
        parsed = parse_query(self.search_input.value)
        if self.filters.bookmarks_only or parsed.tagged:
            current = self.current_row()
            self.run_search(keep_id=current.id if current else None, keep_index=True)
        self.paper_list.refresh()
        self._show_detail(self.current_row(), reset=False)
        self.update_status()

    # --- filters -------------------------------------------------------------------------

    def toggle_bookmarks_only(self) -> None:
        self.set_filters(Filters(not self.filters.bookmarks_only, self.filters.collection))

    def set_collection(self, name: str | None) -> None:
        self.set_filters(Filters(self.filters.bookmarks_only, name))

    def set_filters(self, filters: Filters) -> None:
        self.filters = filters
        current = self.current_row()
        self.run_search(keep_id=current.id if current else None)

    def clear_all(self) -> None:
        self.filters = Filters()
        if self.search_input.value:
            self.search_input.value = ""  # the Changed message runs the search
        else:
            self.set_filters(Filters())

    # --- searching -----------------------------------------------------------------------

    @on(Input.Changed, "#search-input")
    def _query_changed(self, event: Input.Changed) -> None:
        self.request_search()

    def request_search(self) -> None:
        """Search soon: at once after a pause in typing, else when the debounce ends."""
        self.generation += 1
        timing = self.state.timing
        if self._timer is not None:
            return  # a run is scheduled; it will read the latest query
        wait = timing.debounce - (timing.clock() - self._last_run)
        if wait <= 0:
            self.run_search(keep_id=None, bump=False)
        else:
            self._timer = self.set_timer(wait, self._timer_fired)

    def _timer_fired(self) -> None:
        self._timer = None
        self.run_search(keep_id=None, bump=False)

    def flush_search(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
            self.run_search(keep_id=None, bump=False)

    def run_search(
        self, keep_id: str | None, *, bump: bool = True, keep_index: bool = False
    ) -> None:
        """Recompute the view now (the query in the box, the filters, the bookmarks)."""
        if bump:
            self.generation += 1
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        state = self.state
        self._last_run = state.timing.clock()
        text = self.search_input.value
        parsed = parse_query(text)
        marks = state.marks
        tags = (parsed.tags, parsed.excluded_tags, parsed.tag_prefixes)
        allowed = allowed_ids(state.papers, marks, self.filters, *tags)
        self.filtered = bool(parsed.clauses or allowed is not None)
        index = self.paper_list.cursor if keep_index else None
        if not parsed.clauses and keep_id is None and index is None:
            # Leaving a search (Esc, Ctrl+U) keeps the paper you were on.
            current = self.current_row()
            keep_id = current.id if current else None
        request = ViewRequest(self.generation, text, allowed, keep_id, index)
        if not parsed.clauses:
            self.waiting_for_index = False
            rows = self._rows(allowed)
            if self.filters.bookmarks_only or parsed.tags or parsed.tag_prefixes:
                rows = rows + missing_rows(marks, state.by_id, allowed)
            self._apply(request, View(rows, len(rows), parsed.notes))
            return
        if state.searcher is None:
            self.waiting_for_index = True
            self.applied = request.generation
            self.update_status()
            return
        self._search(state.searcher, request)

    def _rows(self, allowed: set[str] | None) -> list[Row]:
        if allowed is not None:
            return paper_rows(self.state.papers, allowed)
        if self._all_rows is None:
            self._all_rows = paper_rows(self.state.papers, None)
        return self._all_rows

    @work(thread=True, exclusive=True, exit_on_error=False, group="search")
    def _search(self, searcher: Searcher, request: ViewRequest) -> None:
        limit = self.state.config.search_limit
        with self.state.search_lock:
            if request.generation != self.generation:
                return  # a newer query is on its way: skip this one
            results = searcher.search(
                request.text, limit=limit, snippets=False, allowed=request.allowed
            )
        self.post_message(SearchDone(request, results))

    def on_search_done(self, message: SearchDone) -> None:
        if message.request.generation != self.generation:
            return  # stale
        results = message.results
        rows = [Row(hit.paper.id, hit.paper) for hit in results.hits]
        view = View(
            rows,
            results.total,
            results.notes,
            results.suggestion,
            results.matcher or None,
            results.corrected,
            results.corrections,
        )
        self._apply(message.request, view)

    def _apply(self, request: ViewRequest, view: View) -> None:
        self.applied = request.generation
        self.view = view
        rows = view.rows
        keep_id = request.keep_id
        paper_list = self.paper_list
        if request.keep_index is not None and keep_id is not None and rows:
            found = next((i for i, row in enumerate(rows) if row.id == keep_id), None)
            if found is None:
                keep_id = rows[min(request.keep_index, len(rows) - 1)].id
        paper_list.set_rows(
            rows, keep_id=keep_id, empty_message=self._empty_message(), matcher=view.matcher
        )
        if self._focus_results:
            self._focus_results = False
            if rows:
                paper_list.move_to(0)
                self.set_focus(paper_list)
        self.update_status()

    def _empty_message(self) -> list[str]:
        parsed = parse_query(self.search_input.value)  # a space at its end counts
        text = self.search_input.value.strip()
        if not self.state.papers:
            if self.state.index_state == "loading":
                return ["Loading papers…"]
            return ["No papers. Add sources in the config file (see config.example.toml)."]
        if parsed.clauses:
            lines = [f"No papers match “{one_line(text, 60)}”."]
            if self.view.suggestion:
                lines.append(f"Did you mean: {one_line(self.view.suggestion, 60)}?")
                lines.append("Press Enter in the search box to search for it.")
            return lines
        return self._filter_message(parsed)

    def _filter_message(self, parsed: ParsedQuery) -> list[str]:
        if parsed.tags:
            return [f"No bookmark has the tag {', '.join(parsed.tags)}."]
        if parsed.tag_prefixes:
            return [f"No bookmark has a tag that starts with {parsed.tag_prefixes[0]}."]
        if self.filters.bookmarks_only:
            key = self.state.key_text("bookmark")
            return ["No bookmarks yet.", f"Press {key} on a paper to bookmark it."]
        return ["No papers in view."]

    # --- panes ---------------------------------------------------------------------------

    def on_paper_list_highlighted(self, message: PaperList.Highlighted) -> None:
        # The list's frame goes out first; the detail (a longer layout) follows it.
        self.call_after_refresh(self._show_current)

    def _show_current(self) -> None:
        self._show_detail(self.current_row())

    def _show_detail(self, row: Row | None, reset: bool = True) -> None:
        detail = self.detail
        mark = self.state.bookmarks.get(row.id) if row is not None else None
        before = detail.row.id if detail.row is not None else None
        detail.show(row, mark, self.view.matcher, reset=reset)
        if row is not None and row.id != before:
            self.request_related(detail)

    def on_paper_list_opened(self, message: PaperList.Opened) -> None:
        self.read_full_screen(message.row)

    def on_paper_detail_open_requested(self, message: PaperDetail.OpenRequested) -> None:
        if self.detail.row is not None:
            self.read_full_screen(self.detail.row)

    def on_paper_detail_related_chosen(self, message: PaperDetail.RelatedChosen) -> None:
        self.read_full_screen(Row(message.paper.id, message.paper))

    def read_full_screen(self, row: Row) -> None:
        self.app.push_screen(ReadScreen(self.state, row, self.view.matcher))

    # --- keys ----------------------------------------------------------------------------

    @on(Input.Submitted, "#search-input")
    def _query_submitted(self, event: Input.Submitted) -> None:
        if self.applied != self.generation or self._timer is not None:
            self._focus_results = True
            self.flush_search()
            return
        paper_list = self.paper_list
        if paper_list.rows:
            paper_list.move_to(0)
            self.set_focus(paper_list)
        elif self.view.suggestion:
            self.search_input.value = self.view.suggestion

    def take_stray_key(self, event: events.Key) -> None:
        """A printable key that bubbled up to the app while the search box has the focus was
        read together with the `/` (a fast typist, a paste, one SSH packet) and sent to the
        list before the focus moved; the box would have kept it. It belongs in the box."""
        box = self.search_input
        if self.focused is box and event.is_printable and event.character:
            event.stop()
            box.insert_text_at_cursor(event.character)

    def action_focus_search(self) -> None:
        # At once, not on the next loop turn (as `Widget.focus` does): keys that came in the
        # same read as the `/` must already go to the box, not act as list keys.
        self.set_focus(self.search_input)

    def action_next_pane(self) -> None:
        self.focus_next()

    def action_previous_pane(self) -> None:
        self.focus_previous()

    def action_fullscreen(self) -> None:
        row = self.current_row()
        if row is not None:
            self.read_full_screen(row)

    def action_back(self) -> None:
        """Esc: leave the search box; then clear the query; then the filters."""
        box = self.search_input
        if self.focused is box:
            self.set_focus(self.paper_list)
        elif box.value:
            box.value = ""
        elif self.filters.active:
            self.set_filters(Filters())
        else:
            self.set_focus(self.paper_list)

    def action_zoom(self) -> None:
        """Both panes, then the list only, then the detail only (each with the focus)."""
        zoom = ZOOMS[(ZOOMS.index(self.zoom) + 1) % len(ZOOMS)]
        self.zoom = zoom
        self.set_class(zoom == "list", "-zoom-list")
        self.set_class(zoom == "detail", "-zoom-detail")
        if zoom == "detail":
            self.set_focus(self.detail)
        elif zoom == "list" or self.focused is None:
            self.set_focus(self.paper_list)
        self.update_footer()

    def action_clear_search(self) -> None:
        self.clear_all()

    def action_toggle_snippets(self) -> None:
        paper_list = self.paper_list
        paper_list.toggle_snippets()
        shown = "shown" if paper_list.show_snippets else "hidden"
        self.notify(f"Where the query matched: {shown} under each title", timeout=3)

    def action_search_as_typed(self) -> None:
        """After a typo correction: search the words as typed (`=word` in the box, which
        the user sees and can take back)."""
        if self.view.corrections:
            box = self.search_input
            box.value = pin_words(box.value, [typed for typed, _ in self.view.corrections])
            box.cursor_position = len(box.value)

    # --- status --------------------------------------------------------------------------

    def _set_text(self, selector: str, text: str, *, layout: bool = True) -> None:
        """Update a one-line label only when its text changes (each update costs a frame;
        `layout=False` for labels whose size is fixed)."""
        widget = self.query_one(selector, Static)
        if self._texts.get(selector) != text:
            self._texts[selector] = text
            widget.update(Text(text), layout=layout)

    def update_status(self) -> None:
        """The facts first (the count, what narrows the view), which stay at every width;
        then the states no toast repeats (unsaved changes, read-only bookmarks, indexing);
        then what makes room first (the index's state, warnings, the key hint)."""
        state = self.state
        parts = [count_part(self.view.in_view, len(state.papers), self.filtered)]
        if self.filters.bookmarks_only:
            parts.append(filter_part("bookmarks only", "★ only"))
        if self.filters.collection is not None:
            parts.append(collection_part(self.filters.collection))
        unsaved = unsaved_text(len(state.bookmarks.pending))
        if unsaved:
            parts.append(Part(unsaved, keep=STATE, short=f"{len(state.bookmarks.pending)} unsaved"))
        elif state.bookmarks_problem:
            read_only = state.bookmarks.read_only
            parts.append(
                Part(
                    "bookmarks read-only" if read_only else "bookmarks not saved",
                    keep=STATE,
                    short="read-only" if read_only else "not saved",
                )
            )
        index_state = state.index_state
        if index_state in ("loading", "opening", "indexing"):
            text = {
                "loading": "loading papers…",
                "opening": "opening the index…",
                "indexing": f"indexing {state.index_percent}%",
            }[index_state]
            parts.append(Part(text, keep=STATE - 1))
        else:
            text = {"ready": "index ready", "memory": "in-memory index", "failed": "index failed"}[
                index_state
            ]
            parts.append(Part(text, keep=1 if index_state == "ready" else STATE - 1))
        if state.warnings:
            count = len(state.warnings)
            parts.append(Part(f"{count} warning{'s' if count != 1 else ''}", keep=2))
        self.status_line.set_parts([*parts, *self.hint_part()])
        self.set_class(index_state in ("loading", "indexing"), "-indexing")
        self._update_note()
        problem = state.bookmarks_problem
        self._set_text("#warning-bar", f"⚠ {problem}" if problem else "")
        self.query_one("#warning-bar").display = bool(problem)

    def _update_note(self) -> None:
        """The note under the search box (a correction and the key that undoes it, the
        fallback, a budget cut...), in two lines at most, fitted to the width."""
        state = self.state
        view = self.view
        parts: list[str] = []
        if self.waiting_for_index:
            if state.index_state == "failed":
                parts.append(f"search is off: {state.index_error}")
            else:
                parts.append(f"search starts when the index is ready ({state.index_percent}%)")
        else:
            if view.corrected:
                how = state.key_text("search_as_typed")
                parts += correction_note(view.corrected, view.corrections, how)
            parts += view.notes
        lines = fit_note(parts, max(self.size.width - 2, 10))
        self._set_text("#search-note", "\n".join(lines))
        self.query_one("#search-note").display = bool(lines)
