"""Bookmark exports: BibTeX that bibtexparser reads back, Markdown, JSON."""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone

import bibtexparser
from hypothesis import example, given, settings
from hypothesis import strategies as st

from paperterm.index.library.bibtex_export import bibtex_key, export_bibtex, latex_escape
from paperterm.index.library.bookmarks import Bookmark
from paperterm.index.library.export import (
    EXPORTERS,
    export_json,
    export_markdown,
    markdown_escape,
)
from paperterm.index.library.export_items import bookmark_items, plain_text
from paperterm.index.papers import Paper

ADDED = datetime(2024, 5, 1, 12, 30, tzinfo=timezone.utc)

HOSTILE = r"Cost 100% of {x}} \\ & $\mathbf{x}_t$ #1 ~a^b_c @misc{k, title={t}} } { \end"

PAPER = Paper(
    id="3f2a9c01b7de",
    collection="ICML 2024 论文列表",
    abstract=r"We study $\mathbf{x}_t$ and *xT* at $36\times$ speed.",
    text="We study 𝐱_t and xT at 36× speed.\n\nSecond paragraph: {braces} 100% # & $.",
    title="Scaling {Laws} for 50% of $x$",
    authors=["Ada Lovelace", "Smith and Sons", "Grace Hopper"],
    links=["https://example.org/a%20b?q={1}", "https://arxiv.org/abs/2401.00001"],
    year=2024,
    doi="10.1000/x_y",
    arxiv_id="2401.00001",
)


def mark(paper_id: str, **fields: object) -> Bookmark:
    return Bookmark(id=paper_id, added=ADDED, **fields)


_LATEX_COMMANDS = {
    "textbackslash": "\\",
    "textbraceleft": "{",
    "textbraceright": "}",
    "textasciicircum": "^",
    "textasciitilde": "~",
}
_LATEX_ESCAPE = re.compile(r"\\(?:([a-z]+)\{\}|([%#&$_]))")


def unlatex(value: str) -> str:
    """What LaTeX prints for an escaped value (the inverse of the escapes export uses)."""
    return _LATEX_ESCAPE.sub(lambda m: _LATEX_COMMANDS[m[1]] if m[1] else m[2], value)


def braces_balance(value: str) -> bool:
    """BibTeX's rule: every brace counts, even after a backslash."""
    depth = 0
    for char in value:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def parse_bibtex(text: str) -> dict[str, dict[str, str]]:
    library = bibtexparser.parse_string(text)
    assert library.failed_blocks == []
    assert library.comments == []  # nothing leaked out of an entry
    entries = {entry.key: {f.key: f.value for f in entry.fields} for entry in library.entries}
    assert len(entries) == len(library.entries)
    for fields in entries.values():
        assert all(braces_balance(value) for value in fields.values())
    return entries


# --- BibTeX -----------------------------------------------------------------------------------


def test_bibtex_round_trips_through_bibtexparser() -> None:
    marks = [
        mark(PAPER.id, title="stored", tags=("ml", "to read"), note=HOSTILE),
        mark("gone-paper", title=HOSTILE, note="left the corpus"),
    ]
    text = export_bibtex(bookmark_items(marks, {PAPER.id: PAPER}))
    entries = parse_bibtex(text)
    assert list(entries) == ["3f2a9c01b7de", "gone-paper"]
    assert text.startswith("@misc{3f2a9c01b7de,\n")

    present = entries["3f2a9c01b7de"]
    assert unlatex(present["title"]) == "Scaling {Laws} for 50% of $x$"
    assert unlatex(present["abstract"]) == plain_text(PAPER.text)
    assert present["author"] == "Ada Lovelace and {Smith and Sons} and Grace Hopper"
    assert unlatex(present["howpublished"]) == "ICML 2024 论文列表"
    assert present["url"] == "https://example.org/a%20b?q=%7B1%7D"
    assert unlatex(present["doi"]) == "10.1000/x_y"
    assert present["eprint"] == "2401.00001" and present["archiveprefix"] == "arXiv"
    assert present["year"] == "2024"
    assert unlatex(present["keywords"]) == "ml, to read"
    assert unlatex(present["note"]) == plain_text(HOSTILE)

    gone = entries["gone-paper"]  # exported from what the bookmark stored
    assert set(gone) == {"title", "note"}
    assert unlatex(gone["title"]) == plain_text(HOSTILE)


def test_bibtex_keys_are_sanitised_and_unique() -> None:
    used: set[str] = set()
    keys = [bibtex_key(paper_id, used) for paper_id in ["a b,{c}", "a_b_c", "A_B_C", "论文", ""]]
    assert keys == ["a_b_c", "a_b_c-2", "A_B_C-3", "paper", "paper-2"]
    assert all(re.fullmatch(r"[A-Za-z0-9_:.-]+", key) for key in keys)


def test_latex_escape_leaves_no_unbalanced_or_active_character() -> None:
    escaped = latex_escape(HOSTILE + "\x00\x1b[31m\n\tend")
    assert braces_balance(escaped)
    assert unlatex(escaped) == plain_text(HOSTILE + "\x00\x1b[31m\n\tend")
    assert "\x00" not in escaped and "\n" not in escaped
    # Outside our commands no character LaTeX treats specially is left bare.
    bare = _LATEX_ESCAPE.sub("", escaped)
    assert not set(bare) & set("\\{}%#&$_^~")


_hostile_text = st.text(
    st.one_of(st.characters(), st.sampled_from('\\{}%#&$_^~@,="\n-+*>.)`<|1 ')), max_size=60
)


def split_authors(value: str) -> list[str]:
    """A BibTeX author list split on " and " outside braces, outer braces removed."""
    names, depth, start = [], 0, 0
    for index, char in enumerate(value):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth == 0 and value.startswith(" and ", index):
            names.append(value[start:index])
            start = index + len(" and ")
    names.append(value[start:])
    return [name[1:-1] if name.startswith("{") and name.endswith("}") else name for name in names]


@settings(max_examples=200, deadline=None)
@given(
    ids=st.lists(_hostile_text.filter(str.strip), min_size=1, max_size=4, unique=True),
    title=_hostile_text,
    abstract=_hostile_text,
    note=_hostile_text,
    tags=st.lists(_hostile_text.filter(str.strip), max_size=3, unique=True),
    authors=st.lists(_hostile_text, max_size=3),
    link=_hostile_text,
)
def test_hostile_text_cannot_break_a_bibtex_entry(
    ids: list[str],
    title: str,
    abstract: str,
    note: str,
    tags: list[str],
    authors: list[str],
    link: str,
) -> None:
    papers = {
        paper_id: Paper(
            id=paper_id,
            collection=title,
            abstract=abstract,
            text=abstract,
            title=title,
            authors=authors,
            links=[link],
        )
        for paper_id in ids[::2]  # every other bookmark's paper is missing
    }
    marks = [mark(paper_id, title=title, tags=tuple(tags), note=note) for paper_id in ids]
    entries = parse_bibtex(export_bibtex(bookmark_items(marks, papers)))
    assert len(entries) == len(marks)
    for fields, bookmark in zip(entries.values(), marks, strict=True):
        present = bookmark.id in papers
        decoded = {name: unlatex(value) for name, value in fields.items()}
        assert decoded.get("title", "") == (plain_text(title) or plain_text(bookmark.id))
        assert decoded.get("note", "") == plain_text(note)
        assert decoded.get("keywords", "") == plain_text(", ".join(tags))
        assert decoded.get("abstract", "") == (plain_text(abstract) if present else "")
        assert decoded.get("howpublished", "") == (plain_text(title) if present else "")
        expected_authors = [plain_text(name) for name in authors if plain_text(name)]
        assert [unlatex(name) for name in split_authors(fields.get("author", ""))] == (
            expected_authors if present and expected_authors else [""]
        )
        assert not set(fields.get("url", "")) & set(" \t\n{}\\")


# --- Markdown ---------------------------------------------------------------------------------

_MD_UNESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")  # CommonMark: \ before ASCII punctuation


def unmarkdown(text: str) -> str:
    return _MD_UNESCAPE.sub(r"\1", text)


def test_markdown_has_a_section_per_bookmark() -> None:
    marks = [
        mark(PAPER.id, tags=("ml",), note="first line\n\nthird *line*"),
        mark("gone", title="# Not a heading [link](x)"),
    ]
    text = export_markdown(bookmark_items(marks, {PAPER.id: PAPER}))
    sections = text.split("\n## ")
    assert sections[0] == "# Bookmarks\n"
    assert len(sections) == 3

    present = sections[1].rstrip("\n").split("\n\n")
    assert unmarkdown(present[0]) == PAPER.title
    assert present[1].startswith(
        "id 3f2a9c01b7de · Ada Lovelace, Smith and Sons, Grace Hopper · ICML 2024 论文列表 · "
        "2024 · bookmarked 2024-05-01"
    )
    assert unmarkdown(present[2]) == "We study 𝐱_t and xT at 36× speed."
    assert unmarkdown(present[3]) == "Second paragraph: {braces} 100% # & $."
    assert (
        present[4]
        == "- <https://example.org/a%20b?q=%7B1%7D>\n- <https://arxiv.org/abs/2401.00001>"
    )
    assert present[5] == "> first line\n>\n> third \\*line\\*"

    gone = sections[2].split("\n\n")
    assert unmarkdown(gone[0]) == "# Not a heading [link](x)"
    assert "Not in the corpus" in gone[2]


def test_markdown_escape_defuses_line_starts() -> None:
    for text in ("- item", "+ item", "1. item", "12) item", "= setext", "> quote", "# h"):
        escaped = markdown_escape(text)
        assert escaped.startswith("\\") or escaped[escaped.index("\\") - 1].isdigit()
        assert unmarkdown(escaped) == text


_BLOCK_START = re.compile(r"[#>*=+\-~`<|]|\d+[.)]|\s")  # what could open a Markdown block


@settings(max_examples=200, deadline=None)
@given(title=_hostile_text, note=_hostile_text, abstract=_hostile_text)
@example(title="# t", note="- n\n\n> q\n1. x", abstract="- a\n\n+ b\n\n12) c\n\n= d\n\n`e`")
def test_hostile_text_cannot_add_markdown_structure(title: str, note: str, abstract: str) -> None:
    paper = Paper(id="p", collection="c", abstract=abstract, text=abstract, title=title)
    blocks = (
        export_markdown(bookmark_items([mark("p", note=note)], {"p": paper}))
        .rstrip("\n")
        .split("\n\n")
    )
    assert blocks[0] == "# Bookmarks"
    assert blocks[1].startswith("## ")
    assert unmarkdown(blocks[1][3:]) == (plain_text(title) or "p")
    assert blocks[2].startswith("id p · c · bookmarked ")
    quote = blocks.pop() if note.strip() else ""
    assert all(line == ">" or line.startswith("> ") for line in quote.splitlines())
    quoted = [line.removeprefix(">").removeprefix(" ") for line in quote.splitlines()]
    note_lines = re.split(r"\r\n?|\n", note)  # Markdown's line ends, not str.splitlines's
    assert [unmarkdown(line) for line in quoted] == (
        [plain_text(line) for line in note_lines] if note.strip() else []
    )
    paragraphs = blocks[3:]
    expected = [plain_text(part) for part in re.split(r"\n[ \t]*\n", abstract)]
    assert [unmarkdown(part) for part in paragraphs] == [part for part in expected if part]
    for line in [blocks[1][3:], *paragraphs, *quoted]:
        assert "\n" not in line and not _BLOCK_START.match(line), line

    missing = export_markdown(bookmark_items([mark("q", title=title)], {})).split("\n\n")
    assert unmarkdown(missing[1].removeprefix("## ")) == (plain_text(title) or "q")


# --- JSON -------------------------------------------------------------------------------------


def test_json_holds_bookmark_fields_and_the_paper_record() -> None:
    marks = [
        mark(PAPER.id, title="stored", tags=("ml",), note="n"),
        mark("gone", title="Stored title"),
    ]
    records = json.loads(export_json(bookmark_items(marks, {PAPER.id: PAPER})))
    assert records[0] == {
        "id": PAPER.id,
        "added": "2024-05-01T12:30:00+00:00",
        "title": PAPER.title,
        "tags": ["ml"],
        "note": "n",
        "missing": False,
        "paper": PAPER.to_json(),
    }
    assert Paper.from_json(records[0]["paper"]).to_json() == PAPER.to_json()
    assert records[1]["missing"] is True and records[1]["paper"] is None
    assert records[1]["title"] == "Stored title"
    assert datetime.fromisoformat(records[1]["added"]) == ADDED


def test_every_format_is_offered_and_exports_nothing_for_no_bookmarks() -> None:
    assert set(EXPORTERS) == {"bibtex", "ris", "csv", "markdown", "json"}
    assert export_bibtex(bookmark_items([], {})) == ""
    assert json.loads(export_json(bookmark_items([], {}))) == []
    assert export_markdown(bookmark_items([], {})) == "# Bookmarks\n"
