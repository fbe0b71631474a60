"""The agenda of chosen papers: by day, then session (start-end, room), clashes flagged.

`build_agenda` groups the papers a caller chose (the kept ones, say) by the session they
are presented in. Times are shown in the conference's own offsets, as the data gives them
(`start`/`end` in ISO 8601 with an offset; a time without one is read as UTC), or in the
IANA zone `tz`. A session is one (conference, name, start, end, room): its conference is
the paper's venue, else its collection.

- Days are the sessions' start dates in the zone shown, earliest first; sessions that have
  a name but no readable start time (a workshop's poster list) form a last day whose date
  is None.
- Two sessions clash when their times overlap and they are not known to be in the same
  room (a room missing from either counts as another place); each names the others in
  `clashes_with`. A session without an end
  lasts `default_minutes`.
- Papers with neither a session nor a start time are `unscheduled`.

`Agenda.to_json` gives the CLI's JSON, `to_markdown` a printable plan, and `to_ics`
(agenda_ics.py: `agenda_ics(agenda)`) a calendar with one event per session.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone, tzinfo

from paperterm.index.links import primary_link
from paperterm.index.papers import Paper

DEFAULT_MINUTES = 60
_DIGITS = re.compile(r"(\d+)")


class UnknownZoneError(ValueError):
    """`tz` names no IANA time zone this machine knows."""


@dataclass(frozen=True, slots=True)
class AgendaPaper:
    id: str
    title: str
    poster: str = ""
    link: str = ""

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "title": self.title, "poster": self.poster}


@dataclass(slots=True)
class AgendaSession:
    """One session holding chosen papers. `start`/`end` are in the zone shown; `end` is
    None when the data gives none (`until` is then the assumed end)."""

    name: str
    room: str
    start: datetime | None
    end: datetime | None
    conference: str = ""
    papers: list[AgendaPaper] = field(default_factory=list)
    clash: bool = False
    default_minutes: int = DEFAULT_MINUTES
    #: The sessions it clashes with, in time order.
    clashes_with: list[AgendaSession] = field(default_factory=list, repr=False, compare=False)

    @property
    def place(self) -> str:
        """The name and room, as a clash names it: `Poster Session 1 (Hall B)`."""
        name = self.name or "a session without a name"
        return f"{name} ({self.room})" if self.room else name

    @property
    def until(self) -> datetime | None:
        """The end, else the start plus the default length (None without a start)."""
        if self.start is None:
            return None
        if self.end is not None and self.end > self.start:
            return self.end
        return self.start + timedelta(minutes=self.default_minutes)

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "room": self.room,
            "start": self.start.isoformat() if self.start else None,
            "end": self.end.isoformat() if self.end else None,
            "papers": [paper.to_json() for paper in self.papers],
            "clash": self.clash,
        }


@dataclass(slots=True)
class AgendaDay:
    date: date | None
    sessions: list[AgendaSession] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {
            "date": self.date.isoformat() if self.date else None,
            "sessions": [session.to_json() for session in self.sessions],
        }


@dataclass(slots=True)
class Agenda:
    days: list[AgendaDay] = field(default_factory=list)
    unscheduled: list[AgendaPaper] = field(default_factory=list)
    default_minutes: int = DEFAULT_MINUTES

    @property
    def sessions(self) -> list[AgendaSession]:
        return [session for day in self.days for session in day.sessions]

    def to_json(self) -> dict[str, object]:
        return {
            "days": [day.to_json() for day in self.days],
            "unscheduled": [{"id": p.id, "title": p.title} for p in self.unscheduled],
        }

    def to_markdown(self) -> str:
        lines = ["# Agenda", ""]
        for day in self.days:
            heading = day.date.strftime("%Y-%m-%d (%A)") if day.date else "Sessions without a time"
            lines += [f"## {heading}", ""]
            for session in day.sessions:
                lines += [f"### {_session_heading(session)}", ""]
                lines += [f"- {_paper_line(paper)}" for paper in session.papers]
                lines.append("")
        if self.unscheduled:
            lines += ["## Not scheduled", ""]
            lines += [f"- {_paper_line(paper)}" for paper in self.unscheduled]
            lines.append("")
        if not self.days and not self.unscheduled:
            lines += ["Nothing chosen yet.", ""]
        return "\n".join(lines)


def build_agenda(
    papers: Iterable[Paper], *, tz: str | None = None, default_minutes: int = DEFAULT_MINUTES
) -> Agenda:
    """The agenda of `papers` (see the module's docstring); `UnknownZoneError` for a `tz`
    that names no zone."""
    zone = zone_named(tz) if tz else None
    sessions: dict[tuple[str, str, str, str, str], AgendaSession] = {}
    unscheduled: list[AgendaPaper] = []
    for paper in papers:
        title = paper.title or paper.name or paper.id
        item = AgendaPaper(paper.id, title, paper.poster, primary_link(paper))
        start, end = parse_time(paper.start), parse_time(paper.end)
        if not paper.session.strip() and start is None:
            unscheduled.append(item)
            continue
        if start is None:
            end = None
        conference = paper.venue or paper.collection
        key = (conference, paper.session.strip(), _instant(start), _instant(end), paper.room)
        session = sessions.get(key)
        if session is None:
            session = sessions[key] = AgendaSession(
                name=paper.session.strip(),
                room=paper.room,
                start=_shown(start, zone),
                end=_shown(end, zone),
                conference=conference,
                default_minutes=default_minutes,
            )
        session.papers.append(item)
    for session in sessions.values():
        session.papers.sort(key=_paper_order)
    _flag_clashes([s for s in sessions.values() if s.start is not None])
    return Agenda(_days(sessions.values()), sorted(unscheduled, key=_paper_order), default_minutes)


def zone_named(name: str) -> tzinfo:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise UnknownZoneError(
            f"unknown time zone {name!r} (an IANA name such as 'America/Los_Angeles')"
        ) from None


def parse_time(text: str) -> datetime | None:
    """An ISO 8601 date and time (with its offset; none is read as UTC), else None."""
    text = text.strip()
    if not text:
        return None
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def _instant(moment: datetime | None) -> str:
    return moment.astimezone(timezone.utc).isoformat() if moment else ""


def _shown(moment: datetime | None, zone: tzinfo | None) -> datetime | None:
    if moment is None or zone is None:
        return moment
    return moment.astimezone(zone)


def _flag_clashes(sessions: list[AgendaSession]) -> None:
    """Mark every pair of overlapping sessions not known to share a room."""
    timed = sorted(sessions, key=lambda s: (s.start, s.until))
    for index, first in enumerate(timed):
        first_until = first.until
        assert first.start is not None and first_until is not None
        for other in timed[index + 1 :]:
            assert other.start is not None
            if other.start >= first_until:
                break
            if not (first.room and first.room == other.room):
                first.clash = other.clash = True
                first.clashes_with.append(other)
                other.clashes_with.append(first)


def _days(sessions: Iterable[AgendaSession]) -> list[AgendaDay]:
    by_day: dict[date | None, list[AgendaSession]] = {}
    for session in sessions:
        by_day.setdefault(session.start.date() if session.start else None, []).append(session)
    days = [AgendaDay(day, by_day[day]) for day in sorted(d for d in by_day if d is not None)]
    if None in by_day:
        days.append(AgendaDay(None, by_day[None]))
    for day in days:
        day.sessions.sort(key=_session_order)
    return days


def _session_order(session: AgendaSession) -> tuple[object, ...]:
    start = session.start.astimezone(timezone.utc) if session.start else None
    return (start is None, start or datetime.min, _natural(session.name), session.room)


def _paper_order(paper: AgendaPaper) -> tuple[object, ...]:
    return (paper.poster == "", _natural(paper.poster), paper.title.casefold(), paper.id)


def _natural(text: str) -> tuple[tuple[int, object], ...]:
    """A sort key where "#12" follows "#9"."""
    parts = _DIGITS.split(text.casefold())
    return tuple((1, int(part)) if part.isdigit() else (0, part) for part in parts if part)


def session_times(session: AgendaSession) -> str:
    """`10:00–11:00 UTC-08:00` (an end the data lacks is marked "(assumed)"); "" without
    a start."""
    if session.start is None:
        return ""
    until = session.until
    assert until is not None
    end = until.strftime("%H:%M") + ("" if session.end else " (assumed)")
    return f"{session.start.strftime('%H:%M')}–{end} {_offset(session.start)}"


def _session_heading(session: AgendaSession) -> str:
    parts = []
    if session.start is not None:
        parts.append(session_times(session))
    parts.append(session.name or "(session without a name)")
    if session.room:
        parts.append(session.room)
    heading = " · ".join(parts)
    return heading + " · **clash**" if session.clash else heading


def _offset(moment: datetime) -> str:
    offset = moment.utcoffset() or timedelta()
    sign = "-" if offset < timedelta() else "+"
    minutes = abs(int(offset.total_seconds())) // 60
    return f"UTC{sign}{minutes // 60:02d}:{minutes % 60:02d}"


def _paper_line(paper: AgendaPaper) -> str:
    line = f"{paper.poster} {paper.title}" if paper.poster else paper.title
    return f"{line} <{paper.link}>" if paper.link else line
