"""A conference's record in the CLI: `show` prints its fields, exports carry them."""

from __future__ import annotations

import csv
import io
import json

import bibtexparser
from locations import FIXTURES

CONFERENCE = str(FIXTURES / "conference.json")


def test_show_prints_the_conference_fields(run):
    code, out, err = run("show", "vs-101", "--source", CONFERENCE)
    assert code == 0, err
    lines = out.splitlines()
    assert "Authors: Ada Lovelace (University of London), Alan Turing" in lines
    for line in (
        "Venue: NeurIPS 2025",
        "Status: Oral",
        "Type: Oral",
        "Topic: Deep Learning->Generative Models",
        "Keywords: flow matching, graphs",
        "TL;DR: Flows that respect sparsity.",
        "Session: Poster Session 3",
        "Room: Exhibit Hall C",
        "When: 2025-12-03 11:00–14:00 -08:00",
        "Poster: #1001",
    ):
        assert line in lines
    _, tutorial, _ = run("show", "vs-103", "--source", CONFERENCE)
    assert "Type: Tutorial" in tutorial.splitlines()
    assert "Status:" not in tutorial and "When:" not in tutorial


def test_show_json_carries_the_fields(run):
    code, out, _ = run("show", "vs-102", "--json", "--source", CONFERENCE)
    assert code == 0
    record = json.loads(out)
    assert record["affiliations"] == ["Yale University"]
    assert record["keywords"] == ["tabular data", "priors"]
    assert (record["status"], record["session"], record["poster"]) == (
        "Poster",
        "Poster Session 1",
        "#2002",
    )


def _exported(run, fmt: str) -> str:
    ids = ["vs-101", "vs-102", "vs-103"]
    assert run("bookmarks", "add", *ids, "--source", CONFERENCE)[0] == 0
    code, out, err = run("bookmarks", "export", "--format", fmt, "--source", CONFERENCE)
    assert code == 0, err
    return out


def test_bibtex_export_makes_conference_papers_inproceedings(run):
    library = bibtexparser.parse_string(_exported(run, "bibtex"))
    assert library.failed_blocks == []
    entries = {entry.key: entry for entry in library.entries}
    for key in ("vs-101", "vs-102", "vs-103"):
        assert entries[key].entry_type == "inproceedings"
        assert entries[key].fields_dict["booktitle"].value == "NeurIPS 2025"
    assert entries["vs-101"].fields_dict["keywords"].value == "flow matching, graphs"


def test_ris_export_gives_conference_papers_with_their_venue(run):
    records = _exported(run, "ris").split("ER  - ")
    first = records[0].splitlines()
    assert "TY  - CPAPER" in first
    assert "T2  - NeurIPS 2025" in first
    assert "KW  - flow matching" in first


def test_csv_export_fills_venue_status_and_session(run):
    rows = {row["id"]: row for row in csv.DictReader(io.StringIO(_exported(run, "csv")))}
    assert rows["vs-101"]["venue"] == "NeurIPS 2025"
    assert rows["vs-101"]["status"] == "Oral"
    assert rows["vs-101"]["session"] == "Poster Session 3"
    assert rows["vs-102"]["poster"] == "#2002"
    assert rows["vs-103"]["status"] == ""


def test_markdown_export_shows_status_and_session(run):
    text = _exported(run, "markdown")
    section = text.split("## Flow Matching for Sparse Graphs", 1)[1].split("##", 1)[0]
    assert "Oral" in section and "Poster Session 3" in section


ENRICH = str(FIXTURES / "conference_enrich.json")


def test_sources_reports_what_each_source_gave(run):
    code, out, err = run("sources", "--json", "--source", CONFERENCE, "--source", ENRICH)
    assert code == 0, err
    site, enrich = json.loads(out)
    assert (site["path"], site["format"], site["records"]) == (CONFERENCE, "json", 3)
    assert (site["added"], site["joined"], site["not_joined"]) == (3, 0, 0)
    assert (enrich["added"], enrich["joined"], enrich["not_joined"]) == (0, 2, 1)
    assert enrich["fields"] == {"author_ids": 2, "track": 2}
    assert list(site["fields"])[:3] == ["title", "abstract", "authors"]
    code, out, _ = run("sources", "--source", CONFERENCE, "--source", ENRICH)
    assert code == 0
    assert out.splitlines()[1] == (
        f"{ENRICH}: json, 3 records, 0 added, 2 joined, 1 not joined; fields: author_ids 2, track 2"
    )


def test_doctor_prints_each_source_once_built(run):
    assert run("index", "--source", CONFERENCE, "--source", ENRICH)[0] == 0
    code, out, _ = run("doctor", "--source", CONFERENCE, "--source", ENRICH)
    assert code == 0
    lines = [line for line in out.splitlines() if line.startswith("ok  source: ")]
    assert len(lines) == 2
    assert lines[1].startswith(f"ok  source: {ENRICH}: json, 3 records, 0 added, 2 joined")
