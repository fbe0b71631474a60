"""An agenda as an iCalendar file (RFC 5545), written with the `icalendar` library.

One VEVENT per timed session: SUMMARY the session's name, LOCATION its room, DTSTART and
DTEND in the session's own offset (an end the data lacks is the start plus the agenda's
default minutes), DESCRIPTION the chosen titles with poster positions and links. The UID is
a hash of conference, session name, start instant and room, never of the papers, so that a
calendar updates the event on a re-export instead of adding a second one. Sessions without
a time have no event.

Each offset becomes a VTIMEZONE of its own (TZID `UTC-0800`): iCalendar has no way to write
a time with a bare offset, and a fixed zone keeps the wall-clock time the data gives.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import icalendar

    from paperterm.index.planning.agenda import Agenda, AgendaSession

PRODID = "-//paperterm//agenda//EN"
UID_DOMAIN = "paperterm.agenda"


def agenda_ics(agenda: Agenda, *, now: datetime | None = None) -> bytes:
    """The calendar's bytes (CRLF lines, folded at 75 octets by the library)."""
    import icalendar

    stamp = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
    calendar = icalendar.Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    events = []
    zones: dict[str, timedelta] = {}
    for session in agenda.sessions:
        if session.start is None:
            continue
        until = session.until
        assert until is not None
        start, end = _fixed(session.start, zones), _fixed(until, zones)
        event = icalendar.Event()
        event.add("uid", session_uid(session))
        event.add("dtstamp", stamp)
        event.add("dtstart", start)
        event.add("dtend", end)
        event.add("summary", session.name or "Session")
        if session.room:
            event.add("location", session.room)
        event.add("description", session_description(session))
        events.append(event)
    for name, offset in sorted(zones.items()):
        calendar.add_component(_vtimezone(name, offset))
    for event in events:
        calendar.add_component(event)
    data: bytes = calendar.to_ical()
    return data


def session_uid(session: AgendaSession) -> str:
    """Stable across re-exports and display zones: conference, name, start instant, room."""
    start = session.start.astimezone(timezone.utc).isoformat() if session.start else ""
    key = "\x1f".join((session.conference, session.name, start, session.room))
    return f"{hashlib.sha256(key.encode('utf-8')).hexdigest()[:32]}@{UID_DOMAIN}"


def session_description(session: AgendaSession) -> str:
    lines = []
    for paper in session.papers:
        line = f"{paper.title} (poster {paper.poster})" if paper.poster else paper.title
        lines.append(f"{line} {paper.link}" if paper.link else line)
    return "\n".join(lines)


def zone_id(offset: timedelta) -> str:
    minutes = int(offset.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    minutes = abs(minutes)
    return f"UTC{sign}{minutes // 60:02d}{minutes % 60:02d}"


def _fixed(moment: datetime, zones: dict[str, timedelta]) -> datetime:
    """`moment` in a fixed zone of its own offset (UTC itself for offset zero)."""
    offset = moment.utcoffset() or timedelta()
    if not offset:
        return moment.astimezone(timezone.utc)
    name = zone_id(offset)
    zones[name] = offset
    return moment.astimezone(timezone(offset, name))


def _vtimezone(name: str, offset: timedelta) -> icalendar.Timezone:
    import icalendar

    standard = icalendar.TimezoneStandard()
    standard.add("dtstart", datetime(1970, 1, 1))
    standard.add("tzoffsetfrom", offset)
    standard.add("tzoffsetto", offset)
    standard.add("tzname", name)
    zone = icalendar.Timezone()
    zone.add("tzid", name)
    zone.add_component(standard)
    return zone
