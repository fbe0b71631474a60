"""What the list shows: the query in the search box, the filters and the view, as plain
state; the requests a search makes, what its results become, and what an empty list says.

Search as you type: every change bumps a generation number; the first key of a burst runs
at once, later keys within `search.debounce_ms` are folded into one run when the pause ends.
A result whose generation is not the latest is dropped, so a slow old query can never
overwrite a newer one.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Container, Sequence
from typing import TYPE_CHECKING, NamedTuple

from paperterm.index.library.filters import ALL, Filters, allowed_ids
from paperterm.index.search.query_text import blank_query
from paperterm.index.text.display import one_line
from paperterm.tui.view import Row, no_match_text

if TYPE_CHECKING:
    from paperterm.index.library.sorting import SortKeys
    from paperterm.index.search.hits import Matcher, Results
    from paperterm.index.search.query import ParsedQuery
    from paperterm.tui.state import ReaderState


class ViewRequest(NamedTuple):
    """One recomputation of the list: the query and the ids the filters allow, as they were
    when it was asked for, and where the cursor goes after it. `generation` tells a result
    that came too late (a newer request was made since) from the latest."""

    generation: int
    text: str
    allowed: set[str] | None
    keep_id: str | None
    keep_index: int | None = None


class View(NamedTuple):
    """What the list shows: its rows, how many papers match (a search may show fewer), the
    query's notes, a "did you mean", the matcher that highlights the query's words, and,
    when words of the query were corrected, the query that ran and what changed."""

    rows: Sequence[Row]
    in_view: int
    notes: Sequence[str] = ()
    suggestion: str = ""
    matcher: Matcher | None = None
    corrected: str = ""
    corrections: Sequence[tuple[str, str]] = ()


class TagFilters(NamedTuple):
    """The `tag:` filters of the search box's query."""

    tags: Sequence[str] = ()
    excluded: Sequence[str] = ()
    #: A last `tag:` still being typed.
    prefixes: Sequence[str] = ()


class Prepared(NamedTuple):
    """A request's inputs, read from the box, the filters and the saved searches' papers.
    `matches`: the saved search's papers when the view is one."""

    text: str
    parsed: ParsedQuery | None
    tags: TagFilters
    has_clauses: bool
    matches: list[str] | None
    allowed: set[str] | None


def parse_box(text: str) -> ParsedQuery | None:
    """The search box's query; None when it is blank, as at the start, which so does
    without the query module (imported on the first query, after the first frame)."""
    if blank_query(text):
        return None
    from paperterm.index.search.query import parse_query

    return parse_query(text)


def names_a_topic(text: str) -> bool:
    """Whether the box's query has a `topic:` clause (which computed topics answer)."""
    parsed = parse_box(text)
    if parsed is None:
        return False
    from paperterm.index.search.topic_clauses import has_topic_clause

    return has_topic_clause(parsed)


def tag_filters(parsed: ParsedQuery | None) -> TagFilters:
    if parsed is None:
        return TagFilters()
    return TagFilters(parsed.tags, parsed.excluded_tags, parsed.tag_prefixes)


def has_clauses(text: str) -> bool:
    """Whether the box's query searches (more than filters and notes)."""
    parsed = parse_box(text)
    return parsed is not None and bool(parsed.clauses)


def view_of(results: Results) -> View:
    """The view of a search's results, in the engine's order."""
    return View(
        [Row(hit.paper.id, hit.paper) for hit in results.hits],
        results.total,
        results.notes,
        results.suggestion,
        results.matcher or None,
        results.corrected,
        results.corrections,
    )


class SearchControl:
    """The query state of the main screen's list: the filters, the generation of the latest
    request and of the one shown, the view shown, and whether the list waits for the index.
    """

    def __init__(self, state: ReaderState) -> None:
        self.state = state
        self._filters = Filters()
        #: Where in `state.read_here` the current filters began: papers read after it stay
        #: in an unread-only view until the filters change.
        self.visit_from = 0
        self.generation = 0
        self.applied = 0
        self.view = View(rows=[], in_view=0)
        self.filtered = False
        self.waiting_for_index = False
        self.last_run = -1e9
        self.focus_results = False
        #: The paper to put the cursor on, once in view.
        self.restore_id: str | None = None
        #: The papers an author's view holds (`ViewKey("author", …)`).
        self.author_ids: frozenset[str] = frozenset()
        #: The query, filters and corpus (its sort keys) of the rows shown.
        self.shown_for: tuple[str, Filters, SortKeys] | None = None

    @property
    def filters(self) -> Filters:
        return self._filters

    @filters.setter
    def filters(self, filters: Filters) -> None:
        if filters != self._filters:
            self.visit_from = len(self.state.read_here)
        self._filters = filters

    def _read(self) -> Container[str]:
        """The read papers an unread-only view leaves out: not those read here since the
        view was entered."""
        entries = self.state.reading.entries
        read_here = self.state.read_here
        if not self._filters.unread_only or len(read_here) <= self.visit_from:
            return entries
        return _ReadBefore(entries, frozenset(read_here[self.visit_from :]))

    def typed(self) -> float:
        """A change in the box: a new generation; the seconds to wait before running it
        (at most zero: run now)."""
        self.generation += 1
        timing = self.state.timing
        self.state.typed_at = timing.clock()
        return timing.debounce - (timing.clock() - self.last_run)

    def start_run(self, bump: bool) -> None:
        """A run starts now (`bump`: as a new request)."""
        if bump:
            self.generation += 1
        self.last_run = self.state.timing.clock()

    def searching(self, text: str) -> bool:
        """Whether the rows have a relevance order: a query, or a saved search's view."""
        return has_clauses(text) or self.filters.view.kind == "search"

    def saved_search_gone(self) -> bool:
        """The view is a saved search deleted meanwhile: the view goes back to all papers."""
        view = self.filters.view
        state = self.state
        if view.kind != "search" or view.name in state.search_matches:
            return False
        if view.name in {s.name for s in state.saved_searches}:
            return False
        self.filters = self.filters._replace(view=ALL)
        return True

    def prepare(self, text: str) -> Prepared | None:
        """What a request reads; None while the view is a saved search whose papers are
        found once the index is ready (the list waits for it)."""
        state = self.state
        parsed = parse_box(text)
        tags = tag_filters(parsed)
        view = self.filters.view
        matches = state.search_matches.get(view.name) if view.kind == "search" else None
        if view.kind == "search" and matches is None:
            self.wait_for_index()
            return None
        if view.kind == "watched":  # none until the watched papers are found
            watched = state.watching.ids
            search_ids: Collection[str] | None = watched if watched is not None else []
        elif view.kind == "author":
            search_ids = self.author_ids
        else:
            search_ids = matches
        allowed = allowed_ids(
            state.papers,
            state.marks,
            self.filters,
            *tags,
            read=self._read(),
            search_ids=search_ids,
            decisions=state.decisions.entries if self.filters.facets else None,
            topics=state.topics,
        )
        clauses = parsed is not None and bool(parsed.clauses)
        self.filtered = clauses or allowed is not None
        return Prepared(text, parsed, tags, clauses, matches, allowed)

    def wait_for_index(self) -> None:
        """The latest request waits for the index: nothing newer is on its way."""
        self.waiting_for_index = True
        self.applied = self.generation

    def shown(self, request: ViewRequest, view: View) -> None:
        self.applied = request.generation
        self.shown_for = (request.text, self.filters, self.state.sort_keys)
        self.view = view

    def keep_on_show(self, keep_id: str | None) -> str | None:
        """Where the cursor goes as a view is shown: the restored place's paper first."""
        if self.restore_id is not None and self.state.papers:
            keep_id, self.restore_id = self.restore_id, None
        return keep_id

    def empty_message(self, text: str) -> list[str]:
        """What the list says when it is empty."""
        state = self.state
        parsed = parse_box(text)  # a space at its end counts
        if not state.papers:
            if state.index_state == "loading":
                return ["Loading papers…"]
            if state.index_state == "indexing":
                return ["Reading the sources…"]
            return ["No papers. Add sources in the config file (see config.example.toml)."]
        if parsed is not None and parsed.clauses:
            lines = [no_match_text(one_line(text.strip(), 60), self.filters)]
            if self.view.suggestion:
                lines.append(f"Did you mean: {one_line(self.view.suggestion, 60)}?")
                lines.append("Press Enter in the search box to search for it.")
            return lines
        return self.filter_message(tag_filters(parsed))

    def filter_message(self, query_tags: TagFilters) -> list[str]:
        view = self.filters.view
        if query_tags.tags or view.kind == "tag":
            tags = [*query_tags.tags, *([view.name] if view.kind == "tag" else [])]
            return [f"No bookmark has the tag {', '.join(tags)}."]
        if query_tags.prefixes:
            return [f"No bookmark has a tag that starts with {query_tags.prefixes[0]}."]
        if self.filters.unread_only:
            key = self.state.key_text("unread_only")
            return ["Every paper in this view is read.", f"Press {key} to list them all."]
        if self.filters.bookmarks_only:
            key = self.state.key_text("bookmark")
            return ["No bookmarks yet.", f"Press {key} on a paper to bookmark it."]
        if view.kind == "watched":
            key = self.state.key_text("watch")
            return ["No paper has a watched author or word.", f"Press {key} on a paper to watch."]
        return ["No papers in view."]

    def note_parts(self, box: Callable[[], str]) -> list[str]:
        """The note under the search box: a correction and the key that undoes it, the
        fallback, a budget cut, or why search waits. `box` gives the box's text, read
        only when the note depends on it."""
        state = self.state
        view = self.view
        parts: list[str] = []
        if self.waiting_for_index:
            if state.index_state == "failed":
                parts.append(f"search is off: {state.index_error}")
            else:
                parts.append(f"search starts when the index is ready ({state.index_percent}%)")
            return parts
        if view.corrected:
            from paperterm.index.search.hits import correction_note  # a search's only

            how = state.key_text("search_as_typed")
            parts += correction_note(view.corrected, view.corrections, how)
        parts += view.notes
        if not view.notes and state.searchable and has_clauses(box()):
            parts.append(f"searching the {state.searchable:,} papers indexed so far")
        return parts


class _ReadBefore:
    """The read papers but `kept` (a `Container` for `allowed_ids`)."""

    def __init__(self, read: Container[str], kept: frozenset[str]) -> None:
        self.read, self.kept = read, kept

    def __contains__(self, paper_id: object) -> bool:
        return paper_id in self.read and paper_id not in self.kept
