"""The week-planning loop on real conference exports read by their own parsers (NeurIPS
2025's orals-posters records with sessions and times, the ML4PS 2025 workshop list with
poster numbers and no times): decide, agenda (JSON and calendar), watch, topics. Skips
without ../shared."""

from __future__ import annotations

import json
from datetime import timedelta

import icalendar
import pytest
from locations import CORPORA

CONFERENCES = CORPORA / "conferences"
NEURIPS = CONFERENCES / "neurips2025-orals-posters-sample.json"
ML4PS = CONFERENCES / "ml4ps2025-workshop.json"

pytestmark = pytest.mark.skipif(
    not (NEURIPS.is_file() and ML4PS.is_file()), reason="needs ../shared/corpora/conferences"
)


def sources() -> list[str]:
    return ["--source", str(NEURIPS), "--source", str(ML4PS)]


def records(run) -> list[dict]:
    code, out, err = run("list", "--json", *sources())
    assert code == 0, err
    return json.loads(out)


def test_kept_papers_of_two_real_exports_make_an_agenda_and_a_calendar(run, tmp_path):
    papers = records(run)
    timed = [p for p in papers if p.get("start")]
    untimed = [p for p in papers if p.get("session") and not p.get("start")]
    assert len(timed) >= 2 and len(untimed) >= 2
    kept = [timed[0]["id"], timed[1]["id"], untimed[0]["id"], untimed[1]["id"]]
    assert run("decide", "keep", *kept, *sources())[0] == 0
    code, out, err = run("agenda", "--json", *sources())
    assert code == 0, err
    agenda = json.loads(out)
    sessions = [s for day in agenda["days"] for s in day["sessions"]]
    by_name = {s["name"]: s for s in sessions}
    first = by_name[timed[0]["session"]]
    assert first["start"] == timed[0]["start"] and first["end"] == timed[0]["end"]
    assert first["room"] == timed[0]["room"]
    listed = {p["id"]: p["poster"] for s in sessions for p in s["papers"]}
    assert set(listed) == set(kept)
    assert listed[timed[0]["id"]] == timed[0]["poster"]
    assert agenda["unscheduled"] == []

    target = tmp_path / "week.ics"
    assert run("agenda", "--ics", str(target), *sources())[0] == 0
    calendar = icalendar.Calendar.from_ical(target.read_bytes())
    events = {str(event["SUMMARY"]): event for event in calendar.walk("VEVENT")}
    assert timed[0]["session"] in events  # the untimed workshop has no event
    start = events[timed[0]["session"]].decoded("DTSTART")
    assert start.utcoffset() == timedelta(hours=-8)  # San Diego, as the data says
    assert timed[0]["title"] in str(events[timed[0]["session"]]["DESCRIPTION"])


def test_watching_an_author_and_topics_on_real_exports(run):
    papers = records(run)
    author = papers[0]["authors"][0]
    assert run("watch", "add", "author", author, *sources())[0] == 0
    code, out, err = run("list", "--watched", "--json", *sources())
    assert code == 0, err
    watched = json.loads(out)
    assert papers[0]["id"] in {p["id"] for p in watched}
    assert all(any(w.startswith("author:") for w in p["watched"]) for p in watched)
    code, out, err = run("topics", "--json", *sources())
    assert code == 0, err
    topics = json.loads(out)
    covered = {paper_id for topic in topics for paper_id in topic["ids"]}
    assert len(covered) >= 0.95 * len(papers)
    assert all(3 <= len(topic["words"]) <= 5 for topic in topics)
