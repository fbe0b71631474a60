"""The facets sidebar's rules without widgets (tui/controllers/facets.py) and the facets
in the search request and the status line."""

from __future__ import annotations

from pathlib import Path

from paperterm.index.config import Config
from paperterm.index.library.bookmarks import BookmarkStore
from paperterm.index.papers import Paper
from paperterm.tui.controllers.facets import (
    FacetEntry,
    choose,
    chosen_text,
    count_rows,
    drop_last,
    facet_entries,
)
from paperterm.tui.controllers.search import SearchControl
from paperterm.tui.controllers.status_line import ListFacts, status_parts
from paperterm.tui.state import ReaderState, Timing
from paperterm.tui.view import Row


def make_state(tmp_path: Path) -> ReaderState:
    timing = Timing(debounce=0, bookmark_poll=None)
    state = ReaderState(Config(), BookmarkStore.in_dir(tmp_path), lambda key: f"<{key}>", timing)
    papers = [
        Paper(id="p1", collection="A", abstract="x", title="Zebra", status="Oral"),
        Paper(id="p2", collection="A", abstract="y", title="Apple", status="Poster"),
        Paper(id="p3", collection="B", abstract="z", title="Mango", status="Poster"),
    ]
    state.corpus_loaded(papers, [], building=False)
    return state


def test_choosing_a_value_again_takes_it_back_and_backspace_drops_the_last():
    chosen = choose((), "status", "Oral")
    chosen = choose(chosen, "tag", "later")
    assert chosen == (("status", "Oral"), ("tag", "later"))
    assert choose(chosen, "status", "Oral") == (("tag", "later"),)
    assert drop_last(chosen) == (("status", "Oral"),)
    assert drop_last(()) == ()
    assert chosen_text(chosen) == "status: Oral · tag: later"


def test_entries_list_the_facets_with_papers_and_keep_a_chosen_value():
    counts = {
        "status": {"Poster": 2, "Oral": 1},
        "type": {},
        "decision": {"keep": 0, "maybe": 0, "skip": 0, "none": 3},
    }
    entries = facet_entries(counts, (("decision", "keep"),))
    assert entries == [
        FacetEntry("status", None),
        FacetEntry("status", "Poster", 2),
        FacetEntry("status", "Oral", 1),
        FacetEntry("decision", None),
        FacetEntry("decision", "none", 3),
        FacetEntry("decision", "keep", 0, chosen=True),
    ]


def test_count_rows_counts_the_papers_of_the_rows(tmp_path):
    state = make_state(tmp_path)
    rows = [Row("p2", state.by_id["p2"]), Row("gone", None, missing_title="Gone")]
    counts = count_rows(rows, {}, {"p2": "keep"}, {"p2"})
    assert counts["status"] == {"Poster": 1}
    assert counts["decision"]["keep"] == 1
    assert counts["read"] == {"read": 1, "unread": 0}


def test_a_request_and_the_status_line_take_the_facets_chosen(tmp_path):
    state = make_state(tmp_path)
    control = SearchControl(state)
    control.filters = control.filters._replace(facets=(("status", "Poster"),))
    prepared = control.prepare("")
    assert prepared is not None and prepared.allowed == {"p2", "p3"}
    assert control.filtered
    facts = ListFacts(2, 2, 2, 0, True, control.filters, "corpus", False, None)
    texts = [part.text for part in status_parts(state, facts)]
    assert "status: Poster" in texts
