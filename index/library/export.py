"""Exports: BibTeX, RIS, CSV, Markdown and JSON, of bookmarks or of any list of papers.

Every exporter is a pure function of a sequence of `ExportItem`s (export_items.py: papers,
each with its bookmark when it has one), so the bookmarks (`bookmark_items`) and any view of
the reader (`paper_items`) export alike. `EXPORTERS` is the one table of formats: the CLI's
`--format`, the reader's palette and view exports all read it. BibTeX, RIS and CSV have
modules of their own; Markdown and JSON are here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from paperterm.index.library.bibtex_export import export_bibtex
from paperterm.index.library.csv_export import export_csv
from paperterm.index.library.export_items import ExportItem, plain_text, url_text
from paperterm.index.library.ris_export import export_ris

Exporter = Callable[[Sequence[ExportItem]], str]

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


def export_markdown(items: Sequence[ExportItem], heading: str = "Bookmarks") -> str:
    """`heading`, then a section per paper: a line of facts, the abstract (display text),
    links and the bookmark's note as a quote."""
    blocks = [f"# {markdown_escape(heading)}"]
    for item in items:
        paper, mark = item.paper, item.mark
        blocks.append(f"## {markdown_escape(item.title)}")
        facts = [f"id {markdown_escape(item.id)}"]
        if paper is not None:
            if paper.authors:
                facts.append(markdown_escape(_byline(paper.authors)))
            facts.append(markdown_escape(paper.collection))
            if paper.year is not None:
                facts.append(str(paper.year))
            facts += [markdown_escape(value) for value in (paper.status, paper.session) if value]
        if mark is not None:
            facts.append(f"bookmarked {mark.added.date().isoformat()}")
        if item.tags:
            facts.append("tags: " + ", ".join(markdown_escape(tag) for tag in item.tags))
        blocks.append(" · ".join(facts))
        if paper is None:
            blocks.append("*Not in the corpus any more.*")
        else:
            abstract = paper.text or paper.abstract
            paragraphs = (markdown_escape(part) for part in _PARAGRAPH_BREAK.split(abstract))
            blocks.extend(paragraph for paragraph in paragraphs if paragraph)
            if paper.links:
                blocks.append("\n".join(f"- <{url_text(url)}>" for url in paper.links))
        if item.note.strip():
            quoted = (markdown_escape(line) for line in _MD_LINE_END.split(item.note))
            blocks.append("\n".join(f"> {line}".rstrip() for line in quoted))
    return "\n\n".join(blocks) + "\n"


# --- JSON -------------------------------------------------------------------------------------


def export_json(items: Sequence[ExportItem]) -> str:
    """An array of objects: the bookmark's fields (`added` is null for a paper that is not
    bookmarked), `missing`, and the full paper record (`paper`, as `paperterm show --json`
    prints it; null when missing)."""
    records = [
        {
            "id": item.id,
            "added": item.mark.added.isoformat() if item.mark is not None else None,
            "title": item.title,
            "tags": list(item.tags),
            "note": item.note,
            "missing": item.paper is None,
            "paper": item.paper.to_json() if item.paper is not None else None,
        }
        for item in items
    ]
    return json.dumps(records, ensure_ascii=False, indent=2) + "\n"


def _byline(authors: Sequence[str]) -> str:
    return ", ".join(authors[:3]) + (" et al." if len(authors) > 3 else "")


@dataclass(frozen=True, slots=True)
class ExportFormat:
    """One export format: its name for people, the suffix of its files, its exporter, and
    for a format with a title of its own (Markdown's heading) the exporter that takes one."""

    label: str
    suffix: str
    export: Exporter
    titled: Callable[[Sequence[ExportItem], str], str] | None = None

    def text(self, items: Sequence[ExportItem], title: str | None = None) -> str:
        """The export of `items`; `title` names the list where the format has room for it
        (a reading list's view), else the format's own default is kept."""
        if title is not None and self.titled is not None:
            return self.titled(items, title)
        return self.export(items)


EXPORTERS: dict[str, ExportFormat] = {
    "bibtex": ExportFormat("BibTeX", "bib", export_bibtex),
    "ris": ExportFormat("RIS (Zotero, EndNote)", "ris", export_ris),
    "csv": ExportFormat("CSV", "csv", export_csv),
    "markdown": ExportFormat("Markdown", "md", export_markdown, export_markdown),
    "json": ExportFormat("JSON", "json", export_json),
}
"""The formats `paperterm bookmarks export --format`, `paperterm export --format` (a view:
a reading list) and the reader's palette offer."""
