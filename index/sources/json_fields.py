"""Any JSON or JSON Lines list of records read by the source's `[sources.fields]` table
(our field = their key or dotted path): for exports whose names no other parser knows.
Our fields not named there are taken from the record's keys of the same name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from paperterm.index.papers import Paper
from paperterm.index.problems import Problem, sorted_out
from paperterm.index.sources.files import DEFAULT_READ, OUR_FIELDS, ReadAs
from paperterm.index.sources.json_documents import records_of
from paperterm.index.sources.json_records import _lines
from paperterm.index.sources.record_fields import build_paper, with_fields


def parse(
    path: Path, text: str, collection: str | None = None, read_as: ReadAs = DEFAULT_READ
) -> tuple[list[Paper], list[Problem]]:
    lines = path.suffix.lower() in (".jsonl", ".ndjson") or read_as.format == "jsonl"
    records, problems = _lines(path, text) if lines else records_of(path, text)
    found: list[Paper | Problem] = []
    for line, record in records:
        if not isinstance(record, dict):
            found.append(Problem(str(path), line, "record is not a JSON object; skipped"))
            continue
        ours: dict[str, Any] = {name: record[name] for name in OUR_FIELDS if name in record}
        ours = with_fields(ours, record, read_as.fields)
        paper = build_paper(ours, path, line, collection, separator=read_as.separator)
        found.append(Problem(str(path), line, paper) if isinstance(paper, str) else paper)
    return sorted_out(path, found, problems, "no papers found")
