"""`paperterm decide`, `list --decision`, the `decision` field, `export --decision` and
`paperterm facets`."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path

import pytest
from locations import FIXTURES

from paperterm.index.library.decisions import DecisionStore
from paperterm.index.library.reading import READING_FILENAME, ReadingStore
from paperterm.index.toml_text import parse_toml

CONFERENCE = str(FIXTURES / "agenda.json")


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


def listed(run, *args: str) -> list[dict]:
    code, out, err = run("list", "--json", *args)
    assert code == 0, err
    return json.loads(out)


def test_decide_marks_read_and_the_records_say_it(run, data):
    papers = listed(run)
    assert all(p["decision"] is None for p in papers)
    first, second, third = (p["id"] for p in papers[:3])
    code, out, err = run("decide", "keep", first[:6], second)
    assert code == 0, err
    assert out.splitlines()[0] == f"keep {first}  {papers[0]['title']}"
    assert run("decide", "skip", third)[0] == 0
    assert [p["id"] for p in listed(run, "--decision", "keep")] == [first, second]
    assert [p["id"] for p in listed(run, "--decision", "skip")] == [third]
    assert len(listed(run, "--decision", "none")) == len(papers) - 3
    assert listed(run, "--decision", "maybe") == []
    record = listed(run, "--decision", "keep")[0]
    assert record["decision"] == "keep" and record["read"] is True
    out = run("show", first, "--json")[1]
    assert json.loads(out)["decision"] == "keep"
    out = run("search", papers[0]["title"], "--json", "--limit", "1")[1]
    hit = json.loads(out)["hits"][0]
    assert hit["id"] == first and hit["decision"] == "keep"


def test_decide_is_idempotent_and_clear_keeps_the_read(run, data):
    first = listed(run)[0]["id"]
    assert run("decide", "maybe", first)[0] == 0
    text = (data / READING_FILENAME).read_text("utf-8")
    assert run("decide", "maybe", first)[0] == 0
    assert (data / READING_FILENAME).read_text("utf-8") == text
    assert run("decide", "clear", first)[0] == 0
    record = listed(run)[0]
    assert record["decision"] is None and record["read"] is True
    assert run("decide", "clear", "never-decided")[0] == 0  # already undecided


def test_decide_reads_ids_from_stdin(run, monkeypatch):
    ids = [p["id"] for p in listed(run)[:3]]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join([ids[0], "", ids[1], ids[2]]) + "\n"))
    code, out, err = run("decide", "skip", "-")
    assert code == 0, err
    assert len(out.splitlines()) == 3
    assert [p["id"] for p in listed(run, "--decision", "skip")] == ids


def test_an_unknown_id_changes_nothing(run, data):
    first = listed(run)[0]["id"]
    code, _, err = run("decide", "keep", first, "nosuchpaper")
    assert code == 2
    assert err.strip() == "paperterm: no paper with id 'nosuchpaper'"
    assert listed(run, "--decision", "keep") == []
    code, _, err = run("decide", "later", first)
    assert code == 2 and err.count("\n") == 1


def test_an_unsaved_decision_is_one_line_and_exit_1(run, monkeypatch):
    from paperterm.index import user_files

    first = listed(run)[0]["id"]

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(user_files, "atomic_write_bytes", disk_full)
    code, _, err = run("decide", "keep", first)
    assert code == 1
    assert err.count("\n") == 1
    assert "cannot save decisions: No space left on device; the change was not saved" in err


def test_a_version_1_reading_file_migrates_on_the_first_decision(run, data):
    papers = listed(run)
    first, second = papers[0]["id"], papers[1]["id"]
    data.mkdir(parents=True, exist_ok=True)
    (data / READING_FILENAME).write_text(
        f"version = 1\n\n[read]\n{first} = 2024-05-01T12:00:00+00:00\n", encoding="utf-8"
    )
    assert listed(run, "--read")[0]["id"] == first
    assert run("decide", "keep", second)[0] == 0
    text = (data / READING_FILENAME).read_text("utf-8")
    assert "version = 2" in text
    reading = ReadingStore.in_dir(data)
    reading.load()
    assert str(reading.read_at(first)) == "2024-05-01 12:00:00+00:00"
    assert reading.is_read(second)
    decisions = DecisionStore.in_dir(data)
    decisions.load()
    assert decisions.entries == {second: "keep"}


def test_the_version_1_file_main_wrote_migrates_keeping_every_read_mark(run, data):
    """`reading_v1.toml` is a file paperterm wrote before decisions existed (its `read` and
    `unread` commands, then a store marking ids no corpus has): the first decision writes
    version 2 with every read time of it, a paper that left the corpus and a quoted id too."""
    v1 = (FIXTURES / "reading_v1.toml").read_text("utf-8")
    before = parse_toml(v1)
    assert before["version"] == 1 and len(before["read"]) == 4
    data.mkdir(parents=True)
    (data / READING_FILENAME).write_text(v1, encoding="utf-8")
    assert [p["id"] for p in listed(run, "--read", "--source", CONFERENCE)] == [
        "ag-orals",
        "ag-noend",
    ]
    assert (data / READING_FILENAME).read_text("utf-8") == v1  # reading it writes nothing
    assert run("decide", "keep", "ag-posters", "--source", CONFERENCE)[0] == 0
    assert run("decide", "skip", "ag-orals", "--source", CONFERENCE)[0] == 0
    after = parse_toml((data / READING_FILENAME).read_text("utf-8"))
    assert after["version"] == 2
    assert after["decision"] == {"ag-posters": "keep", "ag-orals": "skip"}
    assert {k: v for k, v in after["read"].items() if k != "ag-posters"} == before["read"]
    read = listed(run, "--read", "--source", CONFERENCE)
    assert [p["id"] for p in read] == ["ag-orals", "ag-posters", "ag-noend"]


def test_export_the_kept_papers_in_every_format(run):
    papers = listed(run)
    kept = [papers[0], papers[2]]
    assert run("decide", "keep", *(p["id"] for p in kept))[0] == 0
    code, out, _ = run("export", "--format", "csv", "--decision", "keep")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out, newline="")))
    assert [row["title"] for row in rows] == [p["title"] for p in kept]
    out = run("export", "--format", "markdown", "--decision", "keep")[1]
    assert out.startswith("# All papers · kept\n")
    assert [line[3:] for line in out.splitlines() if line.startswith("## ")] == [
        p["title"] for p in kept
    ]
    out = run("export", "--format", "bibtex", "--decision", "keep")[1]
    assert out.count("\n@") + out.startswith("@") == 2
    out = run("export", "--format", "ris", "--decision", "keep")[1]
    assert out.count("ER  -") == 2
    out = run("export", "--format", "json", "--decision", "keep")[1]
    assert len(json.loads(out)) == 2


def test_facets_count_all_papers_or_a_search(run):
    code, out, err = run("facets", "--json", "--source", CONFERENCE)
    assert code == 0, err
    counted = json.loads(out)
    assert counted["total"] == 5
    facets = counted["facets"]
    assert facets["status"] == {"Poster": 2, "Oral": 1, "Spotlight": 1}
    assert facets["session"]["Oral Session 1"] == 1
    assert facets["decision"] == {"keep": 0, "maybe": 0, "skip": 0, "none": 5}
    assert facets["read"] == {"read": 0, "unread": 5}
    assert run("decide", "keep", "ag-orals", "--source", CONFERENCE)[0] == 0
    assert run("bookmarks", "add", "ag-orals", "--source", CONFERENCE)[0] == 0
    assert run("bookmarks", "tag", "ag-orals", "attention", "--source", CONFERENCE)[0] == 0
    out = run("facets", "attention", "--json", "--source", CONFERENCE)[1]
    counted = json.loads(out)
    assert counted["total"] == 1
    assert counted["facets"]["decision"]["keep"] == 1
    assert counted["facets"]["tag"] == {"attention": 1}
    assert counted["facets"]["read"] == {"read": 1, "unread": 0}
    out = run("facets", "--source", CONFERENCE)[1]
    assert out.splitlines()[0] == "5 papers" and "  Oral Session 1" in out


def test_the_commands_printed_for_unsaved_decisions_run(run):
    from paperterm.index.library.decisions import SetDecision
    from paperterm.index.library.pending import decision_commands

    first = listed(run)[0]["id"]
    (line,) = decision_commands([SetDecision(("--odd", first), "maybe")])
    words = line.split()
    assert words[:4] == ["paperterm", "decide", "maybe", "--"]
    code, _, err = run(*words[1:])
    assert code == 2 and "'--odd'" in err  # every id is checked, even one like an option
    assert run("decide", "maybe", "--", first)[0] == 0
    assert [p["id"] for p in listed(run, "--decision", "maybe")] == [first]
