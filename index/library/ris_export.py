"""RIS out: the tagged format Zotero, EndNote and Mendeley import.

One record per paper: `TY` (the type: a conference paper, a journal article...), then one
`TAG  - value` line per field, repeatable tags (`AU`, `UR`, `KW`) once per value, and `ER`
to close. Every value is one line of plain text (RIS has no escapes: a line break would
start a new tag).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from paperterm.index.library.export_items import (
    ExportItem,
    conference_paper,
    field_text,
    pdf_link,
    plain_text,
    url_text,
    venue,
)
from paperterm.index.links import split_links
from paperterm.index.papers import Paper
from paperterm.index.text.person_names import split_name

#: BibTeX entry types as RIS reference types.
RIS_TYPES = {
    "inproceedings": "CPAPER", "conference": "CPAPER", "article": "JOUR", "book": "BOOK",
    "incollection": "CHAP", "inbook": "CHAP", "phdthesis": "THES", "mastersthesis": "THES",
    "thesis": "THES", "techreport": "RPRT", "report": "RPRT", "unpublished": "UNPB",
    "proceedings": "CONF", "online": "ELEC", "misc": "GEN",
}  # fmt: skip
_PAGES = re.compile(r"\s*(\w+)\s*[-–—]+\s*(\w+)\s*$")


def _type(paper: Paper) -> str:
    if paper.entry_type:
        return RIS_TYPES.get(paper.entry_type.lower(), "GEN")
    if paper.fields.get("booktitle") or (
        conference_paper(paper) and not paper.fields.get("journal")
    ):
        return "CPAPER"
    return "JOUR" if paper.fields.get("journal") else "GEN"


def _author(name: str) -> str:
    given, family = split_name(name)
    return f"{family}, {given}" if given else family


def _pages(paper: Paper) -> list[tuple[str, str]]:
    pages = field_text(paper, "pages")
    match = _PAGES.match(pages)
    if match:
        return [("SP", match.group(1)), ("EP", match.group(2))]
    return [("SP", pages)]


def _paper_tags(paper: Paper) -> list[tuple[str, str]]:
    own, other = split_links(paper)
    tags = [("TI", paper.title)]
    tags += [("AU", _author(name)) for name in paper.authors]
    tags += [
        ("PY", "" if paper.year is None else str(paper.year)),
        ("T2", venue(paper)),
        *_pages(paper),
        ("VL", field_text(paper, "volume")),
        ("IS", field_text(paper, "number")),
        ("PB", field_text(paper, "publisher")),
        ("DO", paper.doi),
    ]
    tags += [("KW", word) for word in paper.keywords]
    tags += [("UR", url_text(url)) for url in [*own, *other]]
    tags += [("L1", url_text(pdf_link(paper))), ("AB", paper.text or paper.abstract)]
    return tags


def ris_record(item: ExportItem) -> str:
    paper = item.paper
    tags = [("TY", _type(paper) if paper is not None else "GEN"), ("ID", item.id)]
    tags += _paper_tags(paper) if paper is not None else [("TI", item.title)]
    tags += [("KW", tag) for tag in item.tags]
    tags.append(("N1", item.note))
    lines = [f"{tag}  - {plain_text(value)}" for tag, value in tags if plain_text(value)]
    return "\n".join([*lines, "ER  - "]) + "\n"


def export_ris(items: Iterable[ExportItem]) -> str:
    return "\n".join(ris_record(item) for item in items)
