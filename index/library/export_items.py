"""What an export is made of: papers, each with its bookmark when it has one.

Every export format takes a sequence of `ExportItem`s, so the same exporters serve the
bookmarks (`bookmark_items`: a bookmark whose paper left the corpus is still exported, named
by its stored title) and any list of papers, such as the reader's current view
(`paper_items`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from paperterm.index.library.bookmarks import Bookmark
from paperterm.index.papers import Paper
from paperterm.index.text.field_text import plain

_URL_UNSAFE = re.compile(r"[\s{}\\\"<>^`|\x00-\x1f\x7f]")
_BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
_PDF = re.compile(r"\.pdf$|/pdf[/?]", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ExportItem:
    """One paper to export: `paper` is None for a bookmark whose paper is gone."""

    id: str
    paper: Paper | None = None
    mark: Bookmark | None = None

    @property
    def title(self) -> str:
        """The paper's title or name; the stored title when the paper is missing; else the
        id."""
        paper, mark = self.paper, self.mark
        candidates = [paper.title, paper.name] if paper is not None else []
        stored = [mark.title] if mark is not None else []
        return next((title for title in [*candidates, *stored] if plain_text(title)), self.id)

    @property
    def tags(self) -> tuple[str, ...]:
        return tuple(self.mark.tags) if self.mark is not None else ()

    @property
    def note(self) -> str:
        return self.mark.note if self.mark is not None else ""


def bookmark_items(
    marks: Iterable[Bookmark], papers: Mapping[str, Paper], tag: str | None = None
) -> list[ExportItem]:
    """The bookmarks in their order (only those tagged `tag`, compared case-insensitively,
    when given), each with its paper when the corpus still has it."""
    wanted = tag.casefold() if tag is not None else None
    return [
        ExportItem(mark.id, papers.get(mark.id), mark)
        for mark in marks
        if wanted is None or wanted in (name.casefold() for name in mark.tags)
    ]


def paper_items(
    papers: Iterable[Paper], marks: Mapping[str, Bookmark] | None = None
) -> list[ExportItem]:
    """Papers in their order (a view, a search), with their bookmarks when they have one."""
    marks = marks or {}
    return [ExportItem(paper.id, paper, marks.get(paper.id)) for paper in papers]


def plain_text(text: str) -> str:
    """One line: white space collapsed; control, bidi control and unpaired surrogate
    characters dropped (a bidi override would reorder what follows it on the line)."""
    kept = "".join(
        " " if char.isspace() else char
        for char in text
        if char.isspace()
        or (unicodedata.category(char) not in ("Cc", "Cs") and char not in _BIDI_CONTROLS)
    )
    return " ".join(kept.split())


def url_text(url: str) -> str:
    """A URL with the characters BibTeX, Markdown, RIS or CSV could trip on percent-encoded."""
    return _URL_UNSAFE.sub(lambda m: "".join(f"%{b:02X}" for b in m[0].encode()), url.strip())


def pdf_link(paper: Paper) -> str:
    """The paper's PDF: the source's `pdf` field, else its first link that is a PDF."""
    given = paper.fields.get("pdf", "") if not paper.entry_type else ""
    links = [given] if given else []
    links += [url for url in paper.links if _PDF.search(url)]
    return next((url for url in links if url.startswith(("http://", "https://"))), "")


def field_text(paper: Paper, name: str) -> str:
    """A bibliographic field as plain text: a BibTeX source's LaTeX decoded."""
    value = paper.fields.get(name, "")
    return plain(value) if paper.entry_type else plain_text(value)


def venue(paper: Paper) -> str:
    """Where the paper appeared: its proceedings or journal as the source names them, else
    the conference its record names (`Paper.venue`)."""
    return field_text(paper, "booktitle") or field_text(paper, "journal") or plain(paper.venue)


def conference_paper(paper: Paper) -> bool:
    """Whether the record is a conference's: it names the venue, or a status or session
    (which only a conference gives)."""
    return bool(paper.venue or paper.status or paper.session)
