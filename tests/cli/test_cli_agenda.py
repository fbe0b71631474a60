"""`paperterm agenda` over the kept papers, `paperterm watch`, `list --watched` and the
`watched` field, with the config's `[agenda]` and `[watch]`."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import icalendar
from locations import FIXTURES

from paperterm.index.library import watches
from paperterm.tui.cli import planning

CONFERENCE = str(FIXTURES / "agenda.json")


def decide(run, decision: str, *ids: str) -> None:
    code, _, err = run("decide", decision, *ids, "--source", CONFERENCE)
    assert code == 0, err


def agenda_json(run, *args: str) -> dict:
    code, out, err = run("agenda", "--json", "--source", CONFERENCE, *args)
    assert code == 0, err
    return json.loads(out)


def test_the_agenda_holds_the_kept_papers_by_day_and_session(run):
    assert agenda_json(run) == {"days": [], "unscheduled": []}
    decide(run, "keep", "ag-orals", "ag-posters", "ag-noend", "ag-none")
    decide(run, "maybe", "ag-maybe")
    agenda = agenda_json(run)
    assert [day["date"] for day in agenda["days"]] == ["2025-12-03", "2025-12-04"]
    first = agenda["days"][0]["sessions"]
    assert [(s["name"], s["room"], s["clash"]) for s in first] == [
        ("Oral Session 1", "Room 101", True),
        ("Poster Session 1", "Hall B", True),
    ]
    assert first[1]["papers"] == [
        {"id": "ag-posters", "title": "Graph Priors for Tabular Data", "poster": "#12"}
    ]
    assert first[0]["start"] == "2025-12-03T10:00:00-08:00"
    later = agenda["days"][1]["sessions"]
    assert [(s["name"], s["end"]) for s in later] == [("Poster Session 2", None)]
    assert agenda["unscheduled"] == [{"id": "ag-none", "title": "A Paper Without a Session"}]
    with_maybe = agenda_json(run, "--maybe")
    assert [s["name"] for s in with_maybe["days"][1]["sessions"]] == [
        "Oral Session 2",
        "Poster Session 2",
    ]
    paris = agenda_json(run, "--tz", "Europe/Paris")
    assert paris["days"][0]["sessions"][0]["start"] == "2025-12-03T19:00:00+01:00"


def test_the_calendar_has_one_event_per_session_and_parses_back(run, tmp_path):
    decide(run, "keep", "ag-orals", "ag-posters", "ag-noend", "ag-none")
    target = tmp_path / "week.ics"
    code, out, err = run("agenda", "--ics", str(target), "--source", CONFERENCE)
    assert code == 0, err
    assert out == f"calendar written to {target}\n"
    calendar = icalendar.Calendar.from_ical(target.read_bytes())
    events = {str(e["SUMMARY"]): e for e in calendar.walk("VEVENT")}
    assert set(events) == {"Oral Session 1", "Poster Session 1", "Poster Session 2"}
    orals = events["Oral Session 1"]
    assert str(orals["LOCATION"]) == "Room 101"
    start = orals.decoded("DTSTART")
    assert isinstance(start, datetime) and start.utcoffset() == timedelta(hours=-8)
    assert "Sparse Attention Revisited" in str(orals["DESCRIPTION"])
    no_end = events["Poster Session 2"]
    assert no_end.decoded("DTEND") - no_end.decoded("DTSTART") == timedelta(minutes=60)
    uids = {str(e["UID"]) for e in events.values()}
    again = tmp_path / "again.ics"
    assert run("agenda", "--ics", str(again), "--source", CONFERENCE)[0] == 0
    reparsed = icalendar.Calendar.from_ical(again.read_bytes())
    assert {str(e["UID"]) for e in reparsed.walk("VEVENT")} == uids


def test_default_minutes_comes_from_the_config(run, tmp_path):
    (tmp_path / "no-config.toml").write_text("[agenda]\ndefault_minutes = 90\n", "utf-8")
    decide(run, "keep", "ag-noend")
    code, out, _ = run("agenda", "--ics", "-", "--source", CONFERENCE)
    assert code == 0
    event = icalendar.Calendar.from_ical(out.encode()).walk("VEVENT")[0]
    assert event.decoded("DTEND") - event.decoded("DTSTART") == timedelta(minutes=90)


def test_the_config_time_zone_shows_times_there_and_tz_wins(run, tmp_path):
    (tmp_path / "no-config.toml").write_text("[agenda]\ntime_zone = 'Europe/Paris'\n", "utf-8")
    decide(run, "keep", "ag-orals")
    start = agenda_json(run)["days"][0]["sessions"][0]["start"]
    assert start == "2025-12-03T19:00:00+01:00"
    tokyo = agenda_json(run, "--tz", "Asia/Tokyo")["days"][0]["sessions"][0]["start"]
    assert tokyo == "2025-12-04T03:00:00+09:00"


def test_markdown_to_stdout_and_to_a_file(run, tmp_path):
    decide(run, "keep", "ag-orals")
    code, out, _ = run("agenda", "--source", CONFERENCE)
    assert code == 0 and out.startswith("# Agenda\n") and "Oral Session 1" in out
    target = tmp_path / "plan.md"
    assert run("agenda", "--md", str(target), "--source", CONFERENCE)[0] == 0
    assert target.read_text("utf-8") == out


def test_an_unknown_zone_is_a_usage_error(run):
    code, _, err = run("agenda", "--tz", "Mars/Olympus", "--source", CONFERENCE)
    assert code == 2 and err.count("\n") == 1 and "Mars/Olympus" in err


def test_watch_add_list_remove_and_list_watched(run):
    assert run("watch", "add", "author", "Lea", "Muller")[0] == 0
    assert run("watch", "add", "word", "diffusion", "model")[0] == 0
    out = run("watch", "list", "--json")[1]
    assert json.loads(out) == ["author:Lea Muller", "word:diffusion model"]
    out = run("list", "--watched", "--json", "--source", CONFERENCE)[1]
    assert [(r["id"], r["watched"]) for r in json.loads(out)] == [
        ("ag-orals", ["author:Lea Muller"]),
        ("ag-posters", ["word:diffusion model"]),
    ]
    out = run("show", "ag-orals", "--json", "--source", CONFERENCE)[1]
    assert json.loads(out)["watched"] == ["author:Lea Muller"]
    assert run("watch", "remove", "author", "Léa Müller")[0] == 0
    out = run("watch", "list")[1]
    assert out == "word:diffusion model\n"
    assert run("watch", "add", "author", "--")[0] == 2


def test_the_config_watch_lists_come_first(run, tmp_path):
    (tmp_path / "no-config.toml").write_text('[watch]\nauthors = ["Alan Turing"]\n', "utf-8")
    assert run("watch", "add", "word", "tabular")[0] == 0
    out = run("watch", "list")[1]
    assert out.splitlines() == ["author:Alan Turing", "word:tabular"]
    out = run("list", "--watched", "--source", CONFERENCE)[1]
    assert [line.split()[0] for line in out.splitlines()] == ["ag-posters", "ag-noend"]


def test_the_parser_knows_the_watch_kinds():
    assert planning.KINDS == watches.KINDS


def test_export_takes_watched_too(run, tmp_path: Path):
    assert run("watch", "add", "author", "Grace Hopper")[0] == 0
    out = run("export", "--format", "json", "--watched", "--source", CONFERENCE)[1]
    assert [r["id"] for r in json.loads(out)] == ["ag-posters"]
