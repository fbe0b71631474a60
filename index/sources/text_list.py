"""The plain-text list format of the seeds: a header line naming the list, then one abstract
per paragraph (paragraphs separated by blank lines)."""

from __future__ import annotations

from pathlib import Path

from paperterm.index.papers import Paper, content_id
from paperterm.index.problems import Problem

_HEADER_MAX = 120


def looks_like_header(paragraph: list[str]) -> bool:
    """A list name is one short line that does not read like a sentence."""
    if len(paragraph) != 1:
        return False
    line = paragraph[0]
    return len(line) <= _HEADER_MAX and not line.endswith((".", "?", "!"))


def parse(
    path: Path, text: str, collection: str | None = None
) -> tuple[list[Paper], list[Problem]]:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    paragraphs: list[tuple[int, list[str]]] = []
    current: list[str] = []
    start = 0
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if line:
            if not current:
                start = number
            current.append(line)
        elif current:
            paragraphs.append((start, current))
            current = []
    if current:
        paragraphs.append((start, current))

    problems: list[Problem] = []
    name = collection
    if paragraphs and looks_like_header(paragraphs[0][1]):
        header = paragraphs.pop(0)[1][0]
        name = name or header
    if not name:
        name = path.stem
    if not paragraphs:
        problems.append(Problem(str(path), 0, "no abstracts found"))
    papers = []
    for line_no, paragraph in paragraphs:
        abstract = " ".join(paragraph)
        papers.append(
            Paper(
                id=content_id(abstract),
                collection=name,
                abstract=abstract,
                source=str(path),
                line=line_no,
            )
        )
    return papers, problems
