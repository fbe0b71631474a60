"""The agenda: days, sessions, clashes, time zones, and its JSON, Markdown and ICS forms."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta, timezone

import icalendar
import pytest
from hypothesis import given
from hypothesis import strategies as st
from locations import CORPORA

from paperterm.index.papers import Paper
from paperterm.index.planning.agenda import UnknownZoneError, build_agenda, parse_time
from paperterm.index.planning.agenda_ics import agenda_ics

CONFERENCES = CORPORA / "conferences"
NOW = datetime(2025, 11, 1, 9, 0, tzinfo=timezone.utc)


def paper(pid: str, **fields: object) -> Paper:
    fields.setdefault("title", f"Title {pid}")
    return Paper(id=pid, collection="conf", abstract=f"abstract {pid}", **fields)  # type: ignore[arg-type]


def week() -> list[Paper]:
    """Two overlapping sessions in different rooms (one in -07:00, one in +02:00 at the same
    instant), one later in the same room as the first, one without an end, one without a
    time, one without a session."""
    return [
        paper(
            "a",
            session="Orals 1",
            room="Hall A",
            start="2025-12-05T10:00:00-07:00",
            end="2025-12-05T11:00:00-07:00",
            poster="#12",
            links=["https://openreview.net/forum?id=aaa"],
        ),
        paper(
            "b",
            session="Posters 2",
            room="Hall B",
            start="2025-12-05T19:30:00+02:00",
            end="2025-12-05T21:00:00+02:00",
            poster="#9",
        ),
        paper(
            "c",
            session="Orals 1",
            room="Hall A",
            start="2025-12-05T10:00:00-07:00",
            end="2025-12-05T11:00:00-07:00",
            poster="#2",
        ),
        paper(
            "d",
            session="Orals 3",
            room="Hall A",
            start="2025-12-05T10:30:00-07:00",
            end="2025-12-05T12:00:00-07:00",
        ),
        paper("e", session="Keynote", room="Hall K", start="2025-12-06T09:00:00-07:00"),
        paper("f", session="Workshop posters", poster="17"),
        paper("g"),
    ]


def test_groups_by_day_then_session_with_posters_in_order() -> None:
    agenda = build_agenda(week())
    data = agenda.to_json()
    assert [day["date"] for day in data["days"]] == ["2025-12-05", "2025-12-06", None]
    first = data["days"][0]["sessions"]
    assert [s["name"] for s in first] == ["Orals 1", "Orals 3", "Posters 2"]
    assert first[0]["papers"] == [
        {"id": "c", "title": "Title c", "poster": "#2"},
        {"id": "a", "title": "Title a", "poster": "#12"},
    ]
    assert first[0]["room"] == "Hall A"
    assert first[0]["start"] == "2025-12-05T10:00:00-07:00"
    assert first[0]["end"] == "2025-12-05T11:00:00-07:00"
    assert data["unscheduled"] == [{"id": "g", "title": "Title g"}]


def test_json_has_exactly_the_documented_keys() -> None:
    data = json.loads(json.dumps(build_agenda(week()).to_json()))
    assert set(data) == {"days", "unscheduled"}
    for day in data["days"]:
        assert set(day) == {"date", "sessions"}
        for session in day["sessions"]:
            assert set(session) == {"name", "room", "start", "end", "papers", "clash"}
            for item in session["papers"]:
                assert set(item) == {"id", "title", "poster"}
    assert all(set(item) == {"id", "title"} for item in data["unscheduled"])


def test_overlapping_sessions_in_different_places_clash() -> None:
    sessions = {s.name: s for s in build_agenda(week()).sessions}
    # Orals 1 (17:00-18:00 UTC) overlaps Posters 2 (17:30-19:00 UTC, another offset) in
    # another room; Orals 3 overlaps both, in Orals 1's room but Posters 2's other room.
    assert sessions["Orals 1"].clash
    assert sessions["Posters 2"].clash
    assert sessions["Orals 3"].clash
    assert not sessions["Keynote"].clash
    assert not sessions["Workshop posters"].clash


def test_a_clash_names_the_sessions_it_clashes_with() -> None:
    sessions = {s.name: s for s in build_agenda(week()).sessions}
    assert [s.name for s in sessions["Orals 1"].clashes_with] == ["Posters 2"]
    assert [s.name for s in sessions["Posters 2"].clashes_with] == ["Orals 1", "Orals 3"]
    assert sessions["Posters 2"].clashes_with[0].place == "Orals 1 (Hall A)"
    assert sessions["Keynote"].clashes_with == []


def test_same_room_overlap_and_back_to_back_sessions_do_not_clash() -> None:
    papers = [
        paper("a", session="S1", room="R", start="2025-12-05T10:00:00-07:00",
              end="2025-12-05T11:00:00-07:00"),
        paper("b", session="S2", room="R", start="2025-12-05T10:30:00-07:00",
              end="2025-12-05T11:30:00-07:00"),
        paper("c", session="S3", room="Q", start="2025-12-05T11:30:00-07:00",
              end="2025-12-05T12:00:00-07:00"),
    ]  # fmt: skip
    assert not any(s.clash for s in build_agenda(papers).sessions)


def test_a_session_without_an_end_lasts_the_default_minutes() -> None:
    papers = [
        paper("a", session="Open end", room="R", start="2025-12-05T10:00:00-07:00"),
        paper("b", session="Later", room="Q", start="2025-12-05T10:45:00-07:00",
              end="2025-12-05T11:00:00-07:00"),
    ]  # fmt: skip
    assert all(s.clash for s in build_agenda(papers).sessions)  # 60 minutes by default
    short = build_agenda(papers, default_minutes=30)
    assert not any(s.clash for s in short.sessions)
    assert short.to_json()["days"][0]["sessions"][0]["end"] is None


def test_another_zone_moves_sessions_across_days() -> None:
    agenda = build_agenda(week(), tz="Asia/Tokyo")
    data = agenda.to_json()
    # 10:00 -07:00 on the 5th is 02:00 +09:00 on the 6th.
    assert data["days"][0]["date"] == "2025-12-06"
    assert data["days"][0]["sessions"][0]["start"] == "2025-12-06T02:00:00+09:00"
    assert data["days"][0]["sessions"][0]["name"] == "Orals 1"


def test_an_unknown_zone_is_a_clear_error() -> None:
    with pytest.raises(UnknownZoneError, match="Mars/Olympus"):
        build_agenda(week(), tz="Mars/Olympus")


def test_times_parse_with_offsets_z_and_none() -> None:
    assert parse_time("2025-12-05T10:00:00Z") == datetime(2025, 12, 5, 10, tzinfo=timezone.utc)
    assert parse_time("2025-12-05T10:00:00") == datetime(2025, 12, 5, 10, tzinfo=timezone.utc)
    assert parse_time("2025-12-05T10:00:00-07:00").utcoffset() == timedelta(hours=-7)  # type: ignore[union-attr]
    assert parse_time("next tuesday") is None
    assert parse_time("") is None


def test_markdown_names_days_sessions_rooms_and_clashes() -> None:
    text = build_agenda(week()).to_markdown()
    assert "## 2025-12-05 (Friday)" in text
    assert "### 10:00–11:00 UTC-07:00 · Orals 1 · Hall A · **clash**" in text
    assert "09:00–10:00 (assumed) UTC-07:00 · Keynote · Hall K" in text
    assert "- #12 Title a <https://openreview.net/forum?id=aaa>" in text
    assert "## Sessions without a time" in text
    assert "## Not scheduled\n\n- Title g" in text


# ICS


def events(data: bytes) -> dict[str, icalendar.Event]:
    calendar = icalendar.Calendar.from_ical(data)
    return {str(event["summary"]): event for event in calendar.walk("VEVENT")}


def test_ics_has_one_event_per_timed_session() -> None:
    found = events(agenda_ics(build_agenda(week()), now=NOW))
    assert sorted(found) == ["Keynote", "Orals 1", "Orals 3", "Posters 2"]
    orals = found["Orals 1"]
    assert str(orals["location"]) == "Hall A"
    start, end = orals.decoded("dtstart"), orals.decoded("dtend")
    assert start == datetime(2025, 12, 5, 17, tzinfo=timezone.utc)
    assert start.utcoffset() == timedelta(hours=-7)
    assert end - start == timedelta(hours=1)
    posters = found["Posters 2"]
    assert posters.decoded("dtstart").utcoffset() == timedelta(hours=2)
    description = str(orals["description"])
    assert description.splitlines() == [
        "Title c (poster #2)",
        "Title a (poster #12) https://openreview.net/forum?id=aaa",
    ]
    assert orals.decoded("dtstamp") == NOW


def test_ics_end_missing_is_start_plus_default_minutes() -> None:
    keynote = events(agenda_ics(build_agenda(week(), default_minutes=45), now=NOW))["Keynote"]
    assert keynote.decoded("dtend") - keynote.decoded("dtstart") == timedelta(minutes=45)


def test_ics_uid_is_stable_across_papers_and_zones() -> None:
    first = {k: str(e["uid"]) for k, e in events(agenda_ics(build_agenda(week()), now=NOW)).items()}
    fewer = [p for p in week() if p.id != "a"]
    again = agenda_ics(build_agenda(fewer, tz="Europe/Paris"), now=NOW + timedelta(days=3))
    second = {k: str(e["uid"]) for k, e in events(again).items()}
    assert first == second
    assert len(set(first.values())) == len(first)


def unfold(data: bytes) -> list[str]:
    """RFC 5545 3.1: lines end in CRLF; a line starting with a space or tab continues the
    previous one (the CRLF and that one character removed)."""
    text = data.decode("utf-8")
    assert text.endswith("\r\n")
    assert "\n" not in text.replace("\r\n", "")
    physical = text.split("\r\n")[:-1]
    assert all(len(line.encode("utf-8")) <= 75 for line in physical)
    lines: list[str] = []
    for line in physical:
        if line[:1] in (" ", "\t"):
            lines[-1] += line[1:]
        else:
            lines.append(line)
    return lines


def parse_content_lines(data: bytes) -> list[dict[str, object]]:
    """A second, minimal reader: the VEVENTs as {NAME: (params, value)}, and each VTIMEZONE's
    TZOFFSETTO by TZID, with TEXT values unescaped and DATE-TIMEs made aware."""
    zones: dict[str, timedelta] = {}
    found: list[dict[str, object]] = []
    stack: list[str] = []
    current: dict[str, tuple[dict[str, str], str]] = {}
    zone_id = ""
    for line in unfold(data):
        head, _, value = line.partition(":")
        name, *raw_params = head.split(";")
        params = dict(p.split("=", 1) for p in raw_params)
        if name == "BEGIN":
            stack.append(value)
            current = {} if value == "VEVENT" else current
            continue
        if name == "END":
            assert stack.pop() == value
            if value == "VEVENT":
                found.append(dict(current))
            continue
        if stack[-1] == "VTIMEZONE" and name == "TZID":
            zone_id = value
        elif stack[-1] == "STANDARD" and name == "TZOFFSETTO":
            sign = -1 if value[0] == "-" else 1
            zones[zone_id] = sign * timedelta(hours=int(value[1:3]), minutes=int(value[3:5]))
        elif stack[-1] == "VEVENT":
            current[name] = (params, value)
    assert not stack
    events_out: list[dict[str, object]] = []
    for event in found:
        out: dict[str, object] = {}
        for name, (params, value) in event.items():  # type: ignore[misc]
            if name in ("DTSTART", "DTEND", "DTSTAMP"):
                moment = datetime.strptime(value.rstrip("Z"), "%Y%m%dT%H%M%S")
                tz = timezone.utc if value.endswith("Z") else timezone(zones[params["TZID"]])
                out[name] = moment.replace(tzinfo=tz)
            else:
                out[name] = re.sub(r"\\([\\;,nN])", lambda m: {"n": "\n", "N": "\n"}.get(
                    m.group(1), m.group(1)), value)  # fmt: skip
        events_out.append(out)
    return events_out


def test_ics_reads_back_with_a_second_parser() -> None:
    data = agenda_ics(build_agenda(week()), now=NOW)
    by_summary = {e["SUMMARY"]: e for e in parse_content_lines(data)}
    assert sorted(by_summary) == ["Keynote", "Orals 1", "Orals 3", "Posters 2"]  # type: ignore[type-var]
    posters = by_summary["Posters 2"]
    assert posters["DTSTART"] == datetime(2025, 12, 5, 17, 30, tzinfo=timezone.utc)
    assert posters["DTSTART"].utcoffset() == timedelta(hours=2)  # type: ignore[attr-defined]
    assert posters["LOCATION"] == "Hall B"
    assert posters["DESCRIPTION"] == "Title b (poster #9)"
    keynote = by_summary["Keynote"]
    assert keynote["DTEND"] - keynote["DTSTART"] == timedelta(hours=1)  # type: ignore[operator]
    assert all(e["DTSTAMP"] == NOW and str(e["UID"]).endswith("@paperterm.agenda")
               for e in by_summary.values())  # fmt: skip


def test_ics_survives_long_and_special_text() -> None:
    title = "Ünïcode, commas; semicolons \\ backslashes and a very long title " * 4
    papers = [paper("z", title=title.strip(), session="S, with; marks", room="Hall C,D,E",
                    start="2025-12-05T16:30:00+05:30", poster="#1")]  # fmt: skip
    data = agenda_ics(build_agenda(papers), now=NOW)
    (event,) = parse_content_lines(data)
    assert event["SUMMARY"] == "S, with; marks"
    assert event["LOCATION"] == "Hall C,D,E"
    assert event["DESCRIPTION"] == f"{title.strip()} (poster #1)"
    assert event["DTSTART"].utcoffset() == timedelta(hours=5, minutes=30)  # type: ignore[attr-defined]
    (same,) = events(data).values()
    assert str(same["description"]) == f"{title.strip()} (poster #1)"


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["", "S1", "S2", "S3"]),
            st.sampled_from(["", "R1", "R2"]),
            st.one_of(st.just(""), st.datetimes(
                min_value=datetime(2025, 1, 1), max_value=datetime(2025, 1, 3),
                timezones=st.sampled_from([timezone.utc, timezone(timedelta(hours=-7)),
                                           timezone(timedelta(hours=5, minutes=30))]),
            ).map(datetime.isoformat)),
        ),
        max_size=12,
    )
)  # fmt: skip
def test_every_chosen_paper_appears_once(rows: list[tuple[str, str, str]]) -> None:
    papers = [paper(str(i), session=s, room=r, start=t) for i, (s, r, t) in enumerate(rows)]
    agenda = build_agenda(papers)
    data = agenda.to_json()
    ids = [p["id"] for d in data["days"] for s in d["sessions"] for p in s["papers"]]
    ids += [p["id"] for p in data["unscheduled"]]
    assert sorted(ids) == sorted(p.id for p in papers)
    timed = [s for s in agenda.sessions if s.start is not None]
    assert len(parse_content_lines(agenda_ics(agenda, now=NOW))) == len(timed)


# Real conference records (read here with a tiny mapping: no parser for them yet)


def _neurips_papers() -> list[Paper]:
    path = CONFERENCES / "neurips2025-orals-posters-sample.json"
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    records = json.loads(path.read_text("utf-8"))["results"]
    return [
        Paper(
            id=str(r["id"]),
            collection="NeurIPS 2025",
            abstract=r["abstract"],
            title=r["name"],
            authors=[a["fullname"] for a in r["authors"]],
            session=r["session"] or "",
            room=r["room_name"] or "",
            start=r["starttime"] or "",
            end=r["endtime"] or "",
            poster=r.get("poster_position") or "",
            links=[r["paper_url"]] if r.get("paper_url") else [],
            venue="NeurIPS 2025",
        )
        for r in records
    ]


def test_neurips_2025_records() -> None:
    agenda = build_agenda(_neurips_papers())
    data = agenda.to_json()
    assert [d["date"] for d in data["days"]] == ["2025-12-05", "2025-12-08"]
    posters = data["days"][0]["sessions"]
    assert [(s["name"], s["room"], s["start"], len(s["papers"])) for s in posters] == [
        ("San Diego Poster Session 6", "Exhibit Hall C,D,E", "2025-12-05T16:30:00-08:00", 2)
    ]
    assert [p["poster"] for p in posters[0]["papers"]] == ["#2449", "#2504"]
    assert not any(s.clash for s in agenda.sessions)
    found = events(agenda_ics(agenda, now=NOW))
    assert set(found) == {"San Diego Poster Session 6", "Oral Session 17"}
    oral = found["Oral Session 17"]
    assert oral.decoded("dtend") - oral.decoded("dtstart") == timedelta(minutes=15)
    assert "openreview.net/forum?id=1kPO9vCRbg" in str(oral["description"])
    assert len(parse_content_lines(agenda_ics(agenda, now=NOW))) == 2


def test_ml4ps_2025_workshop_records() -> None:
    path = CONFERENCES / "ml4ps2025-workshop.json"
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    records = json.loads(path.read_text("utf-8"))
    papers = [
        Paper(
            id=f"ml4ps-{n}",
            collection="ML4PS 2025",
            abstract=r["abstract"] or "",
            title=r["title"],
            session=r.get("session") or "",
            room=r.get("room_name") or "",
            start=r.get("starttime") or "",
            end=r.get("endtime") or "",
            poster=str(r.get("poster_position") or ""),
        )
        for n, r in enumerate(records[:40])
    ]
    agenda = build_agenda(papers)
    data = agenda.to_json()
    assert [d["date"] for d in data["days"]] == [None]  # sessions, no times
    names = [s["name"] for s in data["days"][0]["sessions"]]
    assert "ML4PhysicalSciences 2025 Workshop" in names
    positions = [int(p["poster"]) for s in data["days"][0]["sessions"] for p in s["papers"]
                 if s["name"] == "ML4PhysicalSciences 2025 Workshop"]  # fmt: skip
    assert positions == sorted(positions)
    assert events(agenda_ics(agenda, now=NOW)) == {}
    assert not data["unscheduled"]
