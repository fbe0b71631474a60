"""CSV out: one row per paper, for spreadsheets and scripts (`csv` module, Excel dialect:
values with commas, quotes or line breaks are quoted, so abstracts keep their paragraphs).

No cell is read as a formula: a cell that starts with `=`, `+`, `-`, `@`, a tab or a
carriage return gets a leading `'` (OWASP's rule for CSV injection), which spreadsheet tools
show as text. A negative number or a title that starts with "-" gets it too.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable

from paperterm.index.library.export_items import (
    ExportItem,
    field_text,
    pdf_link,
    plain_text,
    venue,
)
from paperterm.index.links import primary_link, split_links

COLUMNS = (
    "id", "title", "authors", "year", "venue", "volume", "pages", "publisher", "collections",
    "doi", "arxiv_id", "url", "pdf", "code_links", "abstract", "bookmarked", "tags", "note",
    "entry_type", "status", "type", "session", "room", "start", "end", "poster",
)  # fmt: skip
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
#: What a spreadsheet reads as the start of a formula (or of a cell it may run as one).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def inert_cell(value: str) -> str:
    """`value` as a cell no spreadsheet runs: a leading `'` where it could start a
    formula (`FORMULA_STARTS`)."""
    return f"'{value}" if value.startswith(FORMULA_STARTS) else value


def _paragraphs(text: str) -> str:
    parts = (plain_text(part) for part in _PARAGRAPH_BREAK.split(text))
    return "\n\n".join(part for part in parts if part)


def csv_row(item: ExportItem) -> dict[str, str]:
    paper, mark = item.paper, item.mark
    row = dict.fromkeys(COLUMNS, "")
    row["id"] = item.id
    row["title"] = item.title
    if paper is not None:
        row.update(
            authors="; ".join(paper.authors),
            year="" if paper.year is None else str(paper.year),
            venue=venue(paper),
            volume=field_text(paper, "volume"),
            pages=field_text(paper, "pages"),
            publisher=field_text(paper, "publisher"),
            collections="; ".join(paper.collections),
            doi=paper.doi,
            arxiv_id=paper.arxiv_id,
            url=primary_link(paper),
            pdf=pdf_link(paper),
            code_links=" ".join(split_links(paper)[1]),
            entry_type=paper.entry_type,
            status=paper.status,
            type=paper.type,
            session=paper.session,
            room=paper.room,
            start=paper.start,
            end=paper.end,
            poster=paper.poster,
        )
    if mark is not None:
        row.update(bookmarked=mark.added.date().isoformat(), tags="; ".join(mark.tags))
    row = {name: plain_text(value) for name, value in row.items()}
    # Only these two keep their paragraphs.
    row["abstract"] = _paragraphs(paper.text or paper.abstract) if paper is not None else ""
    row["note"] = _paragraphs(item.note)
    return {name: inert_cell(value) for name, value in row.items()}


def export_csv(items: Iterable[ExportItem]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS)
    writer.writeheader()
    writer.writerows(csv_row(item) for item in items)
    return out.getvalue()
