"""CSV export: no cell a spreadsheet would run as a formula."""

from __future__ import annotations

import csv
import io
from datetime import datetime, timezone

from hypothesis import example, given, settings
from hypothesis import strategies as st

from paperterm.index.library.bookmarks import Bookmark
from paperterm.index.library.csv_export import FORMULA_STARTS, export_csv, inert_cell
from paperterm.index.library.export_items import paper_items
from paperterm.index.papers import Paper

HYPERLINK = '=HYPERLINK("http://evil","x")'
DDE = "+cmd|' /C calc'!A0"


def cells(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text, newline="")))


def exported(**fields: object) -> dict[str, str]:
    paper = Paper(id="p1", collection="c", **fields)  # type: ignore[arg-type]
    mark = Bookmark(
        id="p1", added=datetime(2024, 5, 1, tzinfo=timezone.utc), tags=["@tag"], note="-note"
    )
    [row] = cells(export_csv(paper_items([paper], {"p1": mark})))
    return row


def test_formula_cells_get_a_leading_quote() -> None:
    row = exported(
        abstract=DDE, text=DDE, title=HYPERLINK, authors=["@SUM(A1:A9)"], fields={"pages": "-1"}
    )
    assert row["title"] == "'" + HYPERLINK
    assert row["abstract"] == "'" + DDE
    assert row["authors"] == "'@SUM(A1:A9)"
    assert row["pages"] == "'-1"  # a negative number too: the documented rule
    assert (row["tags"], row["note"]) == ("'@tag", "'-note")


def test_ordinary_cells_are_left_as_they_are() -> None:
    row = exported(abstract="We study graphs.", title="Graphs = trees?", year=2024)
    assert (row["title"], row["abstract"], row["year"]) == (
        "Graphs = trees?",
        "We study graphs.",
        "2024",
    )


def test_inert_cell_quotes_tab_and_carriage_return_starts() -> None:
    assert inert_cell("\t=1") == "'\t=1"
    assert inert_cell("\r=1") == "'\r=1"
    assert inert_cell("'=1") == "'=1"  # already text


@settings(max_examples=200, deadline=None)
@given(title=st.text(), abstract=st.text(), author=st.text())
@example(title=HYPERLINK, abstract=DDE, author="=1+1")
def test_no_cell_starts_a_formula(title: str, abstract: str, author: str) -> None:
    row = exported(abstract=abstract, text=abstract, title=title, authors=[author])
    assert not [value for value in row.values() if value.startswith(FORMULA_STARTS)]
