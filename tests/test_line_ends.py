"""Issue 10: every file is split into lines by its format's own rules, not `str.splitlines`.

`str.splitlines` also ends lines at U+2028, U+2029, U+0085, form feeds, \\x1c-\\x1e...,
which JSON strings, TOML strings, BibTeX fields and plain text may all hold (jq and
`json.dumps(ensure_ascii=False)` write U+2028 unescaped). One case per reader and writer of
lines in paperterm: JSON Lines, TOML (config and bookmarks), BibTeX, the plain-text lists,
and the Markdown export.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from paperterm.index.config import ConfigError, parse_config
from paperterm.index.library.bookmarks import Bookmark, BookmarksFileError, BookmarkStore
from paperterm.index.library.export import export_markdown
from paperterm.index.library.export_items import bookmark_items
from paperterm.index.sources.loader import load_file

#: Characters `str.splitlines` splits at that the formats below keep inside a line.
NOT_LINE_ENDS = "\u2028\u2029\u0085"


def test_json_lines_keep_records_with_unicode_line_separators(tmp_path: Path) -> None:
    records = [
        {"title": f"Paper {n}: a{NOT_LINE_ENDS}b", "abstract": f"Text{NOT_LINE_ENDS}here {n}."}
        for n in range(3)
    ]
    lines = [json.dumps(record, ensure_ascii=False) for record in records]
    lines.insert(2, "{not json")
    path = tmp_path / "papers.jsonl"
    path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")  # CRLF is JSON space
    papers, problems = load_file(path)
    assert sorted(paper.line for paper in papers) == [1, 2, 4]
    assert [(problem.line, problem.message[:14]) for problem in problems] == [(3, "not valid JSON")]


def test_config_errors_name_the_right_line_after_a_line_separator() -> None:
    text = f'[ui]\ntheme = "a{NOT_LINE_ENDS}b"\n\n[search]\nlimit = true\n'
    with pytest.raises(ConfigError, match=r"c\.toml:5: search\.limit: must be a whole number"):
        parse_config(text, Path("c.toml"))


def test_bookmarks_errors_name_the_right_line_after_a_line_separator(tmp_path: Path) -> None:
    path = tmp_path / "bookmarks.toml"
    path.write_text(
        'version = 1\n\n[[bookmarks]]\nid = "a"\nadded = 2024-05-01T00:00:00Z\n'
        f'note = "x{NOT_LINE_ENDS}y"\n\n[[bookmarks]]\nid = 5\n',
        encoding="utf-8",
    )
    with pytest.raises(BookmarksFileError) as caught:
        BookmarkStore(path).load()
    assert caught.value.line == 8


def test_bibtex_entries_after_a_line_separator_keep_their_lines(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(
        f"@article{{one,\n  title = {{A{NOT_LINE_ENDS}B}},\n  abstract = {{Some text.}}\n}}\n\n"
        "@article{two,\n  title = {Second},\n  abstract = {More text.}\n}\n",
        encoding="utf-8",
    )
    papers, problems = load_file(path)
    assert problems == []
    assert {paper.title[:6]: paper.line for paper in papers}["Second"] == 6


def test_plain_text_lists_split_only_at_real_line_ends(tmp_path: Path) -> None:
    """Lines end at \\n, \\r\\n or \\r (the list format's rule); paragraphs at blank lines."""
    path = tmp_path / "list.txt"
    path.write_text(
        f"My list\n\nFirst abstract{NOT_LINE_ENDS}goes on here.\r\n\r\nSecond one.\rstill.\n",
        encoding="utf-8",
    )
    papers, problems = load_file(path)
    assert problems == []
    assert [paper.line for paper in papers] == [3, 5]
    assert "goes on here" in papers[0].abstract


def test_markdown_export_quotes_a_note_by_markdown_lines() -> None:
    mark = Bookmark(
        "a", datetime(2024, 5, 1, tzinfo=timezone.utc), "T", note=f"one{NOT_LINE_ENDS}two\nthree"
    )
    quote = [
        line
        for line in export_markdown(bookmark_items([mark], {})).split("\n")
        if line.startswith(">")
    ]
    assert quote == ["> one two", "> three"]
