"""The status line's parts fitted to a width (tui/status.py) and the footer's fitting."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len

from paperterm.tui.status import FACT, STATE, Part, count_part, filter_part, fit_status
from paperterm.tui.widgets.key_footer import fit_footer

PARTS = [
    count_part(3, 38, True),
    filter_part("bookmarks only", "★ only"),
    Part("35 unread", short="35 unr."),
    Part("2 bookmark changes not saved", keep=STATE, short="2 unsaved"),
    Part("index ready", keep=1),
    Part("1 warning", keep=2),
    Part("? keys  ^p commands", keep=0),
]


def test_everything_when_it_fits():
    line = fit_status(PARTS, 200)
    assert line.startswith("3 of 38 papers · bookmarks only · 35 unread · 2 bookmark changes")
    assert line.endswith("index ready · 1 warning · ? keys  ^p commands")


def test_decorations_go_first_lowest_keep_first():
    assert fit_status(PARTS, 90) == (
        "3 of 38 papers · bookmarks only · 35 unread · 2 bookmark changes not saved · 1 warning"
    )
    assert fit_status(PARTS, 76) == (
        "3 of 38 papers · bookmarks only · 35 unread · 2 bookmark changes not saved"
    )


def test_facts_and_states_take_their_short_forms_from_the_last():
    assert fit_status(PARTS, 60) == "3 of 38 papers · bookmarks only · 35 unread · 2 unsaved"
    assert fit_status(PARTS, 40) == "3/38 · ★ only · 35 unr. · 2 unsaved"


def test_then_states_go_and_below_the_short_forms_the_line_is_cut():
    assert fit_status(PARTS, 30) == "3/38 · ★ only · 35 unr."
    assert fit_status(PARTS, 20) == "3/38 · ★ only · 35 …"
    assert fit_status(PARTS, 0) == ""


def test_at_38_cells_a_filtered_search_keeps_its_reason():
    """The issue's case: at 40 columns "3 of 38 papers ·…" hid "bookmarks only"."""
    parts = [
        count_part(1, 38, True),
        filter_part("bookmarks only", "★ only"),
        Part("index ready", keep=1),
    ]
    assert fit_status(parts, 38) == "1 of 38 papers · bookmarks only"
    assert fit_status(parts, 20) == "1/38 · ★ only"


@given(
    st.lists(
        st.builds(
            Part,
            st.text(min_size=1, max_size=30).filter(str.isprintable),
            st.integers(0, FACT),
            st.text(max_size=8).filter(str.isprintable),
        ),
        max_size=8,
    ),
    st.integers(0, 200),
)
def test_always_within_the_width_and_every_fact_kept_while_it_can_be(parts, width):
    line = fit_status(parts, width)
    assert cell_len(line) <= width
    shown = [part for part in parts if part.text]
    if cell_len(" · ".join(part.text for part in shown)) <= width:
        assert line == " · ".join(part.text for part in shown)


def test_the_footer_keeps_whole_items_and_the_help_key():
    items = [("/", "search"), ("⏎", "open"), ("b", "bookmark"), ("B", "bookmarks only")]
    tail = ("?", "all keys")
    assert fit_footer(items, tail, 80) == [*items, tail]
    assert fit_footer(items, tail, 30) == [("/", "search"), ("⏎", "open"), tail]
    assert fit_footer(items, None, 8) == [("/", "search")]
