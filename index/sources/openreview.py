"""OpenReview notes as its API gives them and openreview-py saves them: API v2
(`content.<field>.value`) or v1 (`content.<field>` plain), as a list or `{"notes": [...]}`.

Read from each note: title, abstract, authors, authorids, keywords, TL;DR, venue (its status
word, "ICLR 2024 oral", is the status), primary area, the forum link
(`https://openreview.net/forum?id=<forum>`) and the PDF (relative to openreview.net), the
code link, and the year of publication (`pdate`, else `cdate`, else the venue id).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from paperterm.index.papers import Paper
from paperterm.index.problems import Problem, sorted_out
from paperterm.index.sources.files import DEFAULT_READ, ReadAs
from paperterm.index.sources.json_documents import records_of
from paperterm.index.sources.record_fields import (
    build_paper,
    status_word,
    text_of,
    with_fields,
    year_of,
)

SITE = "https://openreview.net"
#: Our fields by the content fields that give them, the first present winning.
_CONTENT = {
    "title": ("title",),
    "abstract": ("abstract",),
    "authors": ("authors",),
    "author_ids": ("authorids",),
    "keywords": ("keywords",),
    "tldr": ("TLDR", "TL;DR", "tldr", "one-sentence_summary"),
    "venue": ("venue",),
    "topic": ("primary_area", "research_area", "area"),
    "pdf": ("pdf",),
    "code": ("code", "code_link", "github"),
}


def value_of(content: Mapping[str, Any], name: str) -> Any:
    """A content field's value: v2 wraps it (`{"value": ...}`), v1 does not."""
    value = content.get(name)
    if isinstance(value, Mapping) and "value" in value:
        return value["value"]
    return value


def parse(
    path: Path, text: str, collection: str | None = None, read_as: ReadAs = DEFAULT_READ
) -> tuple[list[Paper], list[Problem]]:
    records, problems = records_of(path, text)
    found: list[Paper | Problem] = []
    for line, note in records:
        if not isinstance(note, dict) or not isinstance(note.get("content"), dict):
            found.append(Problem(str(path), line, "not an OpenReview note (no content); skipped"))
            continue
        ours = note_fields(note)
        ours = with_fields(ours, note, read_as.fields)
        paper = build_paper(ours, path, line, collection, separator=read_as.separator, site=SITE)
        found.append(Problem(str(path), line, paper) if isinstance(paper, str) else paper)
    return sorted_out(path, found, problems, "no papers found")


def note_fields(note: Mapping[str, Any]) -> dict[str, Any]:
    content = note["content"]
    ours: dict[str, Any] = {}
    for field, names in _CONTENT.items():
        for name in names:
            value = value_of(content, name)
            if value not in (None, "", []):
                ours[field] = value
                break
    venue = text_of(ours.get("venue"))
    if venue and status_word(venue) != " ".join(venue.split()):
        ours["status"] = venue
    forum = text_of(note.get("forum")) or text_of(note.get("id"))
    if forum:
        ours["openreview"] = forum
        ours["id"] = forum
    year = _year(note) or year_of(value_of(content, "venueid")) or year_of(venue)
    if year is not None:
        ours["year"] = year
    return ours


def _year(note: Mapping[str, Any]) -> int | None:
    for key in ("pdate", "odate", "cdate", "tcdate"):
        stamp = note.get(key)
        if isinstance(stamp, (int, float)) and not isinstance(stamp, bool) and stamp > 0:
            try:
                when = datetime.datetime.fromtimestamp(stamp / 1000, datetime.timezone.utc)
            except (OverflowError, OSError, ValueError):
                continue
            return when.year
    return None
