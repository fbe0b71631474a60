"""BibTeX out: a paper's entry as published when it came from BibTeX, a generated one
otherwise.

A paper read from BibTeX keeps its entry type and fields (`Paper.entry_type`,
`Paper.fields`: LaTeX as the source wrote it, with what it inherits from its volume written
in), so its entry is given back as published: `@InProceedings` with booktitle, pages,
volume, publisher, url, pdf, doi, eprint and the authors as written. Other papers get an
entry made from the record: `@inproceedings` or `@article` when the source named a venue,
`@inproceedings` with the venue as booktitle for a conference's record
(`export_items.conference_paper`), `@misc` otherwise; every value escaped (see
`latex_escape`). The bookmark's tags and note are added as `keywords` and `note` (after
the source's keywords).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from paperterm.index.library.export_items import (
    ExportItem,
    conference_paper,
    pdf_link,
    plain_text,
    url_text,
    venue,
)
from paperterm.index.links import primary_link
from paperterm.index.papers import Paper

# Every LaTeX special character as a command. Braces become \textbraceleft{} and
# \textbraceright{} rather than \{ and \}: BibTeX counts a brace even after a backslash, so
# escaped braces could unbalance the value. The only braces in an escaped value are "{}" pairs.
_LATEX_ESCAPES = {
    "\\": r"\textbackslash{}",
    "{": r"\textbraceleft{}",
    "}": r"\textbraceright{}",
    "%": r"\%",
    "#": r"\#",
    "&": r"\&",
    "$": r"\$",
    "_": r"\_",
    "^": r"\textasciicircum{}",
    "~": r"\textasciitilde{}",
}
_LATEX_TABLE = str.maketrans(_LATEX_ESCAPES)
_KEY_UNSAFE = re.compile(r"[^A-Za-z0-9_:.-]+")
_AND = re.compile(r"\band\b", re.IGNORECASE)
#: Fields written first, in this order, when an entry has them.
_FIRST = ("title", "author")
#: Generated entries: the type a venue field implies.
_VENUE_TYPES = (("journal", "article"), ("booktitle", "inproceedings"))
_VENUE_FIELDS = ("journal", "booktitle", "pages", "volume", "number", "publisher")
#: Fields the source and the bookmark may both give: both are kept, joined.
_JOINED = {"keywords": ", ", "note": "; "}


def latex_escape(text: str) -> str:
    """`text` as a brace-balanced BibTeX/LaTeX value that prints literally."""
    return plain_text(text).translate(_LATEX_TABLE)


def bibtex_key(paper_id: str, used: set[str]) -> str:
    """A citation key from the paper id: only safe characters, unique (case-insensitively,
    as BibTeX compares keys) among `used`, which it extends."""
    base = _KEY_UNSAFE.sub("_", paper_id).strip("_") or "paper"
    key, number = base, 2
    while key.casefold() in used:
        key, number = f"{base}-{number}", number + 1
    used.add(key.casefold())
    return key


def _balanced(value: str) -> bool:
    """BibTeX's rule: every brace counts, even after a backslash."""
    depth = 0
    for char in value:
        depth += (char == "{") - (char == "}")
        if depth < 0:
            return False
    return depth == 0


def _as_written(value: str) -> str:
    """A source's LaTeX value on one line, control characters dropped; escaped as text
    when its braces do not balance (it could not be written back as it is)."""
    kept = "".join(ch for ch in value if ch.isspace() or unicodedata.category(ch) != "Cc")
    kept = " ".join(kept.split())
    return kept if _balanced(kept) else latex_escape(kept)


def _bibtex_author(name: str) -> str:
    escaped = latex_escape(name)
    # A name with a word "and" in it would split into two authors: brace it.
    return f"{{{escaped}}}" if _AND.search(escaped) else escaped


def _authors(paper: Paper) -> str:
    return " and ".join(_bibtex_author(name) for name in paper.authors if plain_text(name))


def _record_fields(paper: Paper, title: str) -> list[tuple[str, str]]:
    """What the record adds to any entry when the entry lacks it."""
    return [
        ("title", latex_escape(title)),
        ("author", _authors(paper)),
        ("year", "" if paper.year is None else str(int(paper.year))),
        ("doi", latex_escape(paper.doi)),
        ("eprint", latex_escape(paper.arxiv_id)),
        ("archiveprefix", "arXiv" if paper.arxiv_id else ""),
    ]


def _published(paper: Paper, title: str) -> tuple[str, list[tuple[str, str]]]:
    """The entry as the BibTeX source has it."""
    fields = [(name, _as_written(value)) for name, value in paper.fields.items()]
    fields.append(("abstract", _as_written(paper.abstract)))
    return paper.entry_type, fields + _record_fields(paper, title)


def _generated(paper: Paper, title: str) -> tuple[str, list[tuple[str, str]]]:
    """An entry made from the record of a paper that did not come from BibTeX."""
    entry_type = next((kind for name, kind in _VENUE_TYPES if paper.fields.get(name)), "")
    if not entry_type:
        entry_type = "inproceedings" if conference_paper(paper) else "misc"
    fields = _record_fields(paper, title)
    fields += [(name, latex_escape(paper.fields.get(name, ""))) for name in _VENUE_FIELDS]
    if entry_type == "inproceedings":
        fields.append(("booktitle", latex_escape(venue(paper))))
    if entry_type == "misc":
        fields.append(("howpublished", latex_escape(paper.collection)))
    link = primary_link(paper)
    pdf = pdf_link(paper)
    fields += [
        ("url", url_text(link)),
        ("pdf", url_text(pdf) if pdf != link else ""),
        ("abstract", latex_escape(paper.text or paper.abstract)),
    ]
    fields.append(("keywords", latex_escape(", ".join(paper.keywords))))
    return entry_type, fields


def bibtex_entry(item: ExportItem, used: set[str] | None = None) -> str:
    """One entry; `used` holds the keys given so far (the key is made unique among them)."""
    paper = item.paper
    if paper is None:
        entry_type, fields = "misc", [("title", latex_escape(item.title))]
    elif paper.entry_type:
        entry_type, fields = _published(paper, item.title)
    else:
        entry_type, fields = _generated(paper, item.title)
    tags = ", ".join(item.tags)
    fields += [("keywords", latex_escape(tags)), ("note", latex_escape(item.note))]
    chosen: dict[str, str] = {}
    for name, value in fields:
        if name in _JOINED and name in chosen and value:
            chosen[name] = f"{chosen[name]}{_JOINED[name]}{value}"  # the source's, then ours
        elif value:
            chosen.setdefault(name, value)
    order = [name for name in _FIRST if name in chosen]
    order += [name for name in chosen if name not in _FIRST]
    lines = [f"  {name} = {{{chosen[name]}}}" for name in order]
    key = bibtex_key(item.id, used if used is not None else set())
    return f"@{entry_type}{{{key},\n" + ",\n".join(lines) + "\n}\n"


def export_bibtex(items: Iterable[ExportItem]) -> str:
    """One entry per item, keys unique."""
    used: set[str] = set()
    return "\n".join(bibtex_entry(item, used) for item in items)
