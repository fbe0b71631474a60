"""What a record shows of its conference fields (`index/record_view.py`)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from paperterm.index.papers import Paper
from paperterm.index.record_view import credited_authors, record_lines, schedule_line, when


def paper(**fields: object) -> Paper:
    return Paper("p", "C", "An abstract.", **fields)


def test_authors_get_their_affiliation_when_known():
    shown = paper(authors=["Ada", "Alan", "Grace"], affiliations=["UCL", " "])
    assert credited_authors(shown) == ["Ada (UCL)", "Alan", "Grace"]


def test_when_reads_iso_times_and_keeps_others_as_given():
    same_day = paper(start="2025-12-03T11:00:00-08:00", end="2025-12-03T14:00:00-08:00")
    assert when(same_day) == "2025-12-03 11:00–14:00 -08:00"
    next_day = paper(start="2025-12-03T23:00:00+00:00", end="2025-12-04T01:00:00+00:00")
    assert when(next_day) == "2025-12-03 23:00–2025-12-04 01:00 +00:00"
    assert when(paper(start="Tue 3pm", end="4pm")) == "Tue 3pm – 4pm"
    assert when(paper(end="2025-12-03T14:00:00")) == ""


def test_the_schedule_line_skips_a_type_that_repeats_the_status():
    shown = paper(status="Oral", type="oral", session="Oral 2A", room="Hall", poster="12")
    assert schedule_line(shown) == "Oral · Oral 2A · Hall · poster 12"
    assert schedule_line(paper()) == ""


@given(
    st.text(max_size=40),
    st.text(max_size=40),
    st.lists(st.text(max_size=10), max_size=4),
    st.lists(st.text(max_size=10), max_size=6),
)
def test_any_values_show_without_error(start, end, authors, affiliations):
    shown = paper(start=start, end=end, authors=authors, affiliations=affiliations, status=end)
    assert len(credited_authors(shown)) == len(authors)
    lines = record_lines(shown)
    assert all(value for _, value in lines)
    assert isinstance(schedule_line(shown), str)
