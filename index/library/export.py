"""Bookmarks exported as BibTeX, Markdown or JSON.

Pure functions of the bookmarks and a mapping paper id -> `Paper`. A bookmark whose paper is
not in the mapping (it left the corpus) is still exported, named by its stored title.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from paperterm.index.library.bookmarks import Bookmark
from paperterm.index.papers import Paper

Exporter = Callable[[Iterable[Bookmark], Mapping[str, Paper]], str]

# --- BibTeX -----------------------------------------------------------------------------------

# Every LaTeX special character as a command. Braces become \textbraceleft{} and
# \textbraceright{} rather than \{ and \}: BibTeX counts a brace even after a backslash, so
# escaped braces could unbalance the value. The only braces in an escaped value are "{}" pairs.
_LATEX_ESCAPES = {
    "\\": r"\textbackslash{}",
    "{": r"\textbraceleft{}",
    "}": r"\textbraceright{}",
    "%": r"\%",
    "#": r"\#",
    "&": r"\&",
    "$": r"\$",
    "_": r"\_",
    "^": r"\textasciicircum{}",
    "~": r"\textasciitilde{}",
}
_LATEX_TABLE = str.maketrans(_LATEX_ESCAPES)
_KEY_UNSAFE = re.compile(r"[^A-Za-z0-9_:.-]+")
_URL_UNSAFE = re.compile(r"[\s{}\\\"<>^`|\x00-\x1f\x7f]")
_AND = re.compile(r"\band\b", re.IGNORECASE)


def plain_text(text: str) -> str:
    """One line: white space collapsed, control and unpaired surrogate characters dropped."""
    kept = "".join(
        " " if char.isspace() else char
        for char in text
        if char.isspace() or unicodedata.category(char) not in ("Cc", "Cs")
    )
    return " ".join(kept.split())


def latex_escape(text: str) -> str:
    """`text` as a brace-balanced BibTeX/LaTeX value that prints literally."""
    return plain_text(text).translate(_LATEX_TABLE)


def _safe_url(url: str) -> str:
    """A URL with the characters BibTeX or Markdown could trip on percent-encoded."""
    return _URL_UNSAFE.sub(lambda m: "".join(f"%{b:02X}" for b in m[0].encode()), url.strip())


def bibtex_key(paper_id: str, used: set[str]) -> str:
    """A citation key from the paper id: only safe characters, unique (case-insensitively,
    as BibTeX compares keys) among `used`, which it extends."""
    base = _KEY_UNSAFE.sub("_", paper_id).strip("_") or "paper"
    key, number = base, 2
    while key.casefold() in used:
        key, number = f"{base}-{number}", number + 1
    used.add(key.casefold())
    return key


def _bibtex_author(name: str) -> str:
    escaped = latex_escape(name)
    # A name with a word "and" in it would split into two authors: brace it.
    return f"{{{escaped}}}" if _AND.search(escaped) else escaped


def export_bibtex(bookmarks: Iterable[Bookmark], papers: Mapping[str, Paper]) -> str:
    """One `@misc` entry per bookmark; every value escaped (see `latex_escape`), empty
    fields left out."""
    used: set[str] = set()
    entries = []
    for mark in bookmarks:
        paper = papers.get(mark.id)
        fields: list[tuple[str, str]] = [("title", latex_escape(_title(mark, paper)))]
        if paper is not None:
            authors = [_bibtex_author(name) for name in paper.authors if plain_text(name)]
            fields += [
                ("author", " and ".join(authors)),
                ("howpublished", latex_escape(paper.collection)),
                ("url", _safe_url(paper.links[0]) if paper.links else ""),
                ("doi", latex_escape(paper.doi)),
                ("eprint", latex_escape(paper.arxiv_id)),
                ("archiveprefix", "arXiv" if paper.arxiv_id else ""),
                ("abstract", latex_escape(paper.text or paper.abstract)),
                ("year", "" if paper.year is None else str(int(paper.year))),
            ]
        fields += [
            ("keywords", latex_escape(", ".join(mark.tags))),
            ("note", latex_escape(mark.note)),
        ]
        lines = [f"  {name} = {{{value}}}" for name, value in fields if value]
        key = bibtex_key(mark.id, used)
        entries.append(f"@misc{{{key},\n" + ",\n".join(lines) + "\n}\n")
    return "\n".join(entries)


# --- Markdown ---------------------------------------------------------------------------------

_MD_INLINE = re.compile(r"([\\`*_\[\]<>#|~&$])")
_MD_LINE_START = re.compile(r"^(?:(\d+)([.)])|([-+=]))")  # would start a list or heading
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
#: CommonMark's line endings (not `str.splitlines`'s: U+2028, U+0085... end no Markdown line).
_MD_LINE_END = re.compile(r"\r\n?|\n")


def markdown_escape(text: str) -> str:
    """One line that Markdown shows literally (no emphasis, links, HTML, lists)."""
    escaped = _MD_INLINE.sub(r"\\\1", plain_text(text))
    return _MD_LINE_START.sub(lambda m: f"{m[1]}\\{m[2]}" if m[1] else f"\\{m[3]}", escaped)


def export_markdown(bookmarks: Iterable[Bookmark], papers: Mapping[str, Paper]) -> str:
    """A heading per bookmark, then a line of facts, the abstract (display text), links
    and the note as a quote."""
    blocks = ["# Bookmarks"]
    for mark in bookmarks:
        paper = papers.get(mark.id)
        blocks.append(f"## {markdown_escape(_title(mark, paper))}")
        facts = [f"id {markdown_escape(mark.id)}"]
        if paper is not None:
            facts.append(markdown_escape(paper.collection))
        facts.append(f"bookmarked {mark.added.date().isoformat()}")
        if mark.tags:
            facts.append("tags: " + ", ".join(markdown_escape(tag) for tag in mark.tags))
        blocks.append(" · ".join(facts))
        if paper is None:
            blocks.append("*Not in the corpus any more.*")
        else:
            abstract = paper.text or paper.abstract
            paragraphs = (markdown_escape(part) for part in _PARAGRAPH_BREAK.split(abstract))
            blocks.extend(paragraph for paragraph in paragraphs if paragraph)
            if paper.links:
                blocks.append("\n".join(f"- <{_safe_url(url)}>" for url in paper.links))
        if mark.note.strip():
            quoted = (markdown_escape(line) for line in _MD_LINE_END.split(mark.note))
            blocks.append("\n".join(f"> {line}".rstrip() for line in quoted))
    return "\n\n".join(blocks) + "\n"


# --- JSON -------------------------------------------------------------------------------------


def export_json(bookmarks: Iterable[Bookmark], papers: Mapping[str, Paper]) -> str:
    """An array of objects: the bookmark's fields, `missing`, and the full paper record
    (`paper`, as `paperterm show --json` prints it; null when missing)."""
    records = []
    for mark in bookmarks:
        paper = papers.get(mark.id)
        records.append(
            {
                "id": mark.id,
                "added": mark.added.isoformat(),
                "title": _title(mark, paper),
                "tags": list(mark.tags),
                "note": mark.note,
                "missing": paper is None,
                "paper": paper.to_json() if paper is not None else None,
            }
        )
    return json.dumps(records, ensure_ascii=False, indent=2) + "\n"


def _title(mark: Bookmark, paper: Paper | None) -> str:
    """The paper's title or name; the stored title when the paper is missing; else the id."""
    candidates = [paper.title, paper.name] if paper is not None else []
    return next((title for title in [*candidates, mark.title] if plain_text(title)), mark.id)


@dataclass(frozen=True, slots=True)
class ExportFormat:
    """One export format: its name for people, the suffix of its files, its exporter."""

    label: str
    suffix: str
    export: Exporter


EXPORTERS: dict[str, ExportFormat] = {
    "bibtex": ExportFormat("BibTeX", "bib", export_bibtex),
    "markdown": ExportFormat("Markdown", "md", export_markdown),
    "json": ExportFormat("JSON", "json", export_json),
}
"""The formats `paperterm bookmarks export --format` and the reader's palette offer."""
