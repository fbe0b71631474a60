"""`paperterm read`, `unread`, and `list --unread | --read --sort --view` (issue 13)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from paperterm.index.library.reading import READING_FILENAME, ReadingStore
from paperterm.tui.cli.main import main


@pytest.fixture
def env(tmp_path, monkeypatch) -> Path:
    """The data dir; a config with one saved search."""
    data = tmp_path / "data"
    config = tmp_path / "config.toml"
    config.write_text('[[searches]]\nname = "dna"\nquery = "DNA"\n', encoding="utf-8")
    monkeypatch.setenv("PAPERTERM_DATA_DIR", str(data))
    monkeypatch.setenv("PAPERTERM_CONFIG", str(config))
    return data


@pytest.fixture
def run(env, capsys):
    def invoke(*args: str) -> tuple[int, str, str]:
        code = main(list(args))
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return invoke


def listed(run, *args: str) -> list[dict]:
    code, out, err = run("list", "--json", *args)
    assert code == 0, err
    return json.loads(out)


def test_read_and_unread_change_the_state_and_the_json_records_say_it(run, env):
    papers = listed(run)
    assert all(p["read"] is False and p["bookmarked"] is False for p in papers)
    first, second = papers[0]["id"], papers[1]["id"]
    code, out, _ = run("read", first[:6], second)
    assert code == 0
    assert out.splitlines()[0].startswith(f"read {first}  ")
    assert [p["id"] for p in listed(run, "--read")] == [first, second]
    assert len(listed(run, "--unread")) == 36
    assert run("bookmarks", "add", first)[0] == 0
    record = listed(run)[0]
    assert record["read"] is True and record["bookmarked"] is True
    code, out, _ = run("show", first, "--json")
    assert json.loads(out)["read"] is True
    assert run("unread", first)[0] == 0
    assert [p["id"] for p in listed(run, "--read")] == [second]
    assert "[read]" in (env / READING_FILENAME).read_text(encoding="utf-8")


def test_an_unknown_id_changes_nothing(run, env):
    first = listed(run)[0]["id"]
    code, _, err = run("read", first, "nosuchpaper")
    assert code == 2
    assert err.strip() == "paperterm: no paper with id 'nosuchpaper'"
    assert listed(run, "--read") == []


def test_unread_keeps_papers_that_left_the_corpus_unless_named(run, env):
    store = ReadingStore.in_dir(env)
    store.load()
    from paperterm.index.library.reading import mark_read

    store.apply(mark_read(["gone-from-corpus"]))
    assert run("read", listed(run)[0]["id"])[0] == 0
    store.load()
    assert "gone-from-corpus" in store.entries  # a vanished paper is kept
    assert run("unread", "gone-from-corpus")[0] == 0
    store.load()
    assert "gone-from-corpus" not in store.entries
    assert run("unread", "never-read")[0] == 0  # already unread: idempotent


def test_list_by_view_and_sort(run):
    assert [p["title"][:8] for p in listed(run, "--view", "dna")] == ["Caduceus"]
    chinese = listed(run, "--view", "ICML 2024 论文列表")
    assert len(chinese) == 19
    titles = [p["title"].casefold() for p in listed(run, "--sort", "title")]
    assert titles == sorted(titles)
    code, _, err = run("list", "--view", "dnaa")
    assert code == 2
    assert "no view named 'dnaa' (did you mean 'dna'?)" in err
    code, _, err = run("list", "--sort", "sideways")
    assert code == 2 and "invalid choice" in err
    code, _, err = run("list", "--read", "--unread")
    assert code == 2 and "not allowed with" in err


def test_unread_first_and_like_my_bookmarks(run):
    papers = listed(run)
    ids = [p["id"] for p in papers]
    run("read", ids[0], ids[1])
    assert [p["id"] for p in listed(run, "--sort", "unread")][-2:] == ids[:2]
    caduceus = next(p["id"] for p in papers if p["title"].startswith("Caduceus"))
    run("bookmarks", "add", caduceus)
    liked = [p["id"] for p in listed(run, "--sort", "like")]
    assert liked[-3:] == sorted(liked[-3:], key=ids.index)  # read or bookmarked: last
    assert set(liked[-3:]) == {ids[0], ids[1], caduceus}


def test_a_damaged_reading_file_is_a_one_line_error_where_it_is_needed(run, env):
    first = listed(run)[0]["id"]
    (env / READING_FILENAME).write_text("version = 1\n[read]\nx = 'yesterday'\n", "utf-8")
    code, _, err = run("list", "--unread")
    assert code == 2
    assert err.count("\n") == 1
    assert f"{env / READING_FILENAME}:3:" in err
    assert run("read", first)[:1] == (2,)
    code, out, _ = run("list")  # plain `list` needs no reading state
    assert code == 0 and len(out.splitlines()) == 38
    assert (env / READING_FILENAME).read_text("utf-8") == "version = 1\n[read]\nx = 'yesterday'\n"


def test_a_save_that_fails_is_exit_1_and_keeps_nothing(run, env, monkeypatch):
    from paperterm.index import user_files

    first = listed(run)[0]["id"]

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(user_files, "atomic_write_bytes", disk_full)
    code, _, err = run("read", first)
    assert code == 1
    assert "cannot save reading state: No space left on device; the change was not saved" in err


def test_export_a_view_as_a_reading_list_in_every_format(run, env, tmp_path):
    papers = listed(run, "--view", "ICML 2024 论文列表")
    run("read", papers[0]["id"])
    unread = [p for p in papers if p["id"] != papers[0]["id"]]
    view = ("--view", "ICML 2024 论文列表", "--unread")
    code, out, err = run("export", "--format", "markdown", *view)
    assert code == 0, err
    assert out.startswith("# ICML 2024 论文列表 · unread\n")
    assert [line[3:] for line in out.splitlines() if line.startswith("## ")] == [
        p["title"] for p in unread
    ]
    code, out, _ = run("export", "--format", "csv", *view, "--sort", "title")
    rows = list(csv.DictReader(io.StringIO(out, newline="")))
    assert [row["title"] for row in rows] == sorted((p["title"] for p in unread), key=str.casefold)
    target = tmp_path / "dna.bib"
    code, out, _ = run("export", "--format", "bibtex", "--view", "dna", "-o", str(target))
    assert code == 0 and out == f"1 paper written to {target}\n"
    assert target.read_text("utf-8").startswith("@") and "Caduceus" in target.read_text("utf-8")
    code, out, _ = run("export", "--format", "ris", "--view", "dna")
    assert out.startswith("TY  - ") and out.count("ER  -") == 1
    code, _, err = run("export", "--format", "ris", "--view", "nowhere")
    assert code == 2 and "no view named 'nowhere'" in err
