"""Plain-text outputs print each field on its own line: a source's line breaks, escape
sequences and bidi controls cannot add a line (a fake `Id:`) or reorder one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SPOOF = "\nId: spoofed-id"
RECORDS = [
    {
        "id": "real-one" + SPOOF,
        "title": "Graph walks",
        "abstract": "We study graph walks on large sparse graphs.",
        "url": "https://example.org/paper" + SPOOF,
    },
    {
        "id": "real-two",
        "title": "Sparse graphs",
        "abstract": "Sparse graphs \u202eon walks\u202c and more graph walks.",
        "url": "https://example.org/two\r\x1b[2KId: spoofed-id\u2028Id: spoofed-id",
    },
]


@pytest.fixture
def source(tmp_path: Path) -> str:
    path = tmp_path / "spoof.json"
    path.write_text(json.dumps(RECORDS), encoding="utf-8")
    return str(path)


def spoofed(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("Id: spoofed-id")]


def test_show_folds_a_url_holding_a_line_break(run, source):
    for key in ("real-two", "real-one"):
        code, out, err = run("show", key, "--source", source)
        assert code == 0, err
        assert spoofed(out) == []
        ids = [line for line in out.splitlines() if line.startswith("Id: ")]
        assert len(ids) == 1, out
        links = [line for line in out.splitlines() if line.startswith("Link: ")]
        assert links and all("spoofed-id" in line for line in links)
        assert "\x1b" not in out and "\r" not in out


def test_list_and_search_print_one_line_per_paper(run, source):
    code, out, err = run("list", "--source", source)
    assert code == 0, err
    assert len(out.splitlines()) == 2 and spoofed(out) == []
    assert out.splitlines()[0].startswith("real-one Id: spoofed-id  Graph walks")
    code, out, err = run("search", "graph", "walks", "--source", source)
    assert code == 0, err
    ranked = [line for line in out.splitlines() if line[:3].strip().endswith(".")]
    assert len(ranked) == 2 and spoofed(out) == []


def test_bookmark_and_read_lines_fold_the_id(run, source):
    code, out, err = run("bookmarks", "add", "real-one", "--source", source)
    assert code == 0, err
    assert out.count("\n") == 1 and spoofed(out) == []
    code, out, err = run("bookmarks", "list", "--source", source)
    assert code == 0, err
    assert out.count("\n") == 1 and spoofed(out) == []
    code, out, err = run("read", "real-one", "--source", source)
    assert code == 0, err
    assert out.count("\n") == 1 and spoofed(out) == []


def test_markdown_export_drops_bidi_controls(run, source, tmp_path):
    assert run("bookmarks", "add", "real-two", "--source", source)[0] == 0
    note = ("bookmarks", "note", "real-two", "read \u202eon walks\u202c first")
    assert run(*note, "--source", source)[0] == 0
    target = tmp_path / "marks.md"
    code, _, err = run(
        "bookmarks", "export", "--format", "markdown", "-o", str(target), "--source", source
    )
    assert code == 0, err
    text = target.read_text(encoding="utf-8")
    assert "> read on walks first" in text
    assert "\u202e" not in text and "\u202c" not in text
