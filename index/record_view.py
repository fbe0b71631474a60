"""What a record shows of its conference fields, as text: the lines `paperterm show` prints
and the detail pane's compact line, made here once for both faces."""

from __future__ import annotations

from datetime import datetime

from paperterm.index.papers import Paper


def affiliation_of(paper: Paper, position: int) -> str:
    """The affiliation of the author at `position` (`affiliations` is parallel to
    `authors`), "" when the source gave none."""
    return paper.affiliations[position] if position < len(paper.affiliations) else ""


def credited_authors(paper: Paper) -> list[str]:
    """Each author with their affiliation in parentheses when the source gave one (a
    missing or empty one adds nothing)."""
    shown = []
    for position, author in enumerate(paper.authors):
        affiliation = affiliation_of(paper, position)
        shown.append(f"{author} ({affiliation})" if affiliation.strip() else author)
    return shown


def when(paper: Paper) -> str:
    """The paper's time slot as a person reads it: "2025-12-03 11:00–14:00 -08:00" (the end's
    date too when it is another day); each time as given when it is not ISO 8601; "" with
    no start."""
    if not paper.start:
        return ""
    start = _moment(paper.start)
    end = _moment(paper.end) if paper.end else None
    if start is None:
        return f"{paper.start} – {paper.end}" if paper.end else paper.start
    shown = start.strftime("%Y-%m-%d %H:%M")
    if paper.end and end is None:
        shown += f" – {paper.end}"
    elif end is not None:
        same_day = end.date() == start.date()
        shown += "–" + end.strftime("%H:%M" if same_day else "%Y-%m-%d %H:%M")
    offset = start.strftime("%z")
    if offset:
        shown += f" {offset[:3]}:{offset[3:]}"
    return shown


def _moment(text: str) -> datetime | None:
    try:
        return datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None


def record_lines(paper: Paper) -> list[tuple[str, str]]:
    """(label, value) of each conference field the paper has, in the order `show` prints
    them: Venue, Status, Type, Track, Topic, Keywords, TL;DR, Session, Room, When, Poster."""
    lines = [
        ("Venue", paper.venue),
        ("Status", paper.status),
        ("Type", paper.type),
        ("Track", paper.track),
        ("Topic", paper.topic),
        ("Keywords", ", ".join(word for word in paper.keywords if word)),
        ("TL;DR", paper.tldr),
        ("Session", paper.session),
        ("Room", paper.room),
        ("When", when(paper)),
        ("Poster", paper.poster),
    ]
    return [(label, value) for label, value in lines if value]


def schedule_line(paper: Paper) -> str:
    """The compact line of the detail pane: status · type · session · room · time · poster
    (those the paper has; the type not when it repeats the status; "" for none)."""
    kind = "" if paper.type.casefold() == paper.status.casefold() else paper.type
    parts = [paper.status, kind, paper.session, paper.room, when(paper)]
    if paper.poster:
        parts.append(f"poster {paper.poster}")
    return " · ".join(part for part in parts if part)
