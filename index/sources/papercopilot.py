"""papercopilot's paperlists JSON: a list of `{id, title, status, track, author ("a;b"),
authorids, aff ("a;b"), site, oa, or, proceeding, pdf, github, arxiv, ...}`, without
abstracts (it enriches another source of the same conference).

`id` is the paper's OpenReview forum id when it looks like one (not papercopilot's own
`site_...` ids); `site` is the virtual-site page; `oa`/`or`, `proceeding`, `pdf`,
`project` are links; `github` is the code.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from paperterm.index.papers import Paper
from paperterm.index.problems import Problem, sorted_out
from paperterm.index.sources.files import DEFAULT_READ, ReadAs
from paperterm.index.sources.json_documents import records_of
from paperterm.index.sources.record_fields import (
    build_paper,
    openreview_forum,
    split_names,
    text_of,
    with_fields,
)

_LINK_KEYS = ("site", "oa", "or", "proceeding", "project", "pdf")


def parse(
    path: Path, text: str, collection: str | None = None, read_as: ReadAs = DEFAULT_READ
) -> tuple[list[Paper], list[Problem]]:
    records, problems = records_of(path, text)
    found: list[Paper | Problem] = []
    for line, record in records:
        if not isinstance(record, dict):
            found.append(Problem(str(path), line, "record is not a JSON object; skipped"))
            continue
        ours = copilot_fields(record, read_as.separator)
        ours = with_fields(ours, record, read_as.fields)
        paper = build_paper(ours, path, line, collection, separator=read_as.separator)
        found.append(Problem(str(path), line, paper) if isinstance(paper, str) else paper)
    return sorted_out(path, found, problems, "no papers found")


def copilot_fields(record: Mapping[str, Any], separator: str = "") -> dict[str, Any]:
    """Our fields from a record; its authors cut at `separator`, else ";" when the value
    has one, else ","."""
    raw_id = text_of(record.get("id")).strip()
    forum = "" if raw_id.startswith("site_") else openreview_forum(raw_id)
    if not forum:
        links = (text_of(record.get(key)) for key in ("or", "oa", "forum"))
        forum = next((openreview_forum(url) for url in links if "openreview.net" in url), "")
    ours: dict[str, Any] = {
        "id": forum or raw_id,
        "openreview": forum,
        "title": record.get("title"),
        "abstract": record.get("abstract"),
        "authors": _authors(record.get("author") or record.get("authors"), separator),
        "author_ids": record.get("authorids"),
        "affiliations": record.get("aff"),
        "status": record.get("status"),
        "track": record.get("track"),
        "keywords": record.get("keywords"),
        "topic": record.get("primary_area"),
        "tldr": record.get("tldr"),
        "year": record.get("year"),
        "doi": record.get("doi"),
        "arxiv": record.get("arxiv"),
        "code": record.get("github"),
        "url": [text_of(record.get(key)) for key in _LINK_KEYS if key != "pdf"],
        "pdf": record.get("pdf"),
    }
    return {key: value for key, value in ours.items() if value not in (None, "", [])}


def _authors(value: Any, separator: str) -> Any:
    if not isinstance(value, str):
        return value
    return split_names(value, separator or (";" if ";" in value else ","))
