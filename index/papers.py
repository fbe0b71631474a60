"""The `Paper` record every layer shares, and the helpers that give it a stable identity."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

_WS = re.compile(r"\s+")


@dataclass(slots=True)
class Paper:
    """One abstract and what we know or derive about it.

    `abstract` is the text as the source gave it; `text` is the display text (emphasis and
    math rendered, control characters removed). `name` and `title` are derived from the
    abstract when the source has none. `collections` lists every collection that holds the
    paper (more than one when duplicates across sources were merged); `collection` is the first.
    """

    id: str
    collection: str
    abstract: str
    text: str = ""
    title: str = ""
    name: str = ""
    links: list[str] = field(default_factory=list)
    authors: list[str] = field(default_factory=list)
    year: int | None = None
    doi: str = ""
    arxiv_id: str = ""
    source: str = ""
    line: int = 0
    collections: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.collections:
            self.collections = [self.collection]

    def to_json(self) -> dict[str, object]:
        """The full record as the CLI's `list --json` and `show --json` print it."""
        record: dict[str, object] = {
            "id": self.id,
            "name": self.name,
            "title": self.title,
            "collection": self.collection,
            "abstract": self.abstract,
            "text": self.text,
            "links": list(self.links),
        }
        if self.authors:
            record["authors"] = list(self.authors)
        if self.year is not None:
            record["year"] = self.year
        if self.doi:
            record["doi"] = self.doi
        if self.arxiv_id:
            record["arxiv_id"] = self.arxiv_id
        if len(self.collections) > 1:
            record["collections"] = list(self.collections)
        return record

    @classmethod
    def from_json(cls, record: Mapping[str, Any]) -> Paper:
        return cls(
            id=record["id"],
            collection=record["collection"],
            abstract=record["abstract"],
            text=record.get("text", ""),
            title=record.get("title", ""),
            name=record.get("name", ""),
            links=list(record.get("links", [])),
            authors=list(record.get("authors", [])),
            year=record.get("year"),
            doi=record.get("doi", ""),
            arxiv_id=record.get("arxiv_id", ""),
            source=record.get("source", ""),
            line=record.get("line", 0),
            collections=list(record.get("collections", [])),
        )


def normalize_for_id(text: str) -> str:
    """Case, width and white space folded, so that re-wrapping a paragraph keeps its id."""
    return _WS.sub(" ", unicodedata.normalize("NFKC", text)).strip().casefold()


def content_id(text: str) -> str:
    """A short id from the content alone: the same on every machine and in any file order."""
    return digest_id(normalize_for_id(text))


def digest_id(normalized: str) -> str:
    """`content_id` of text already passed through `normalize_for_id`."""
    return hashlib.sha256(normalized.encode("utf-8")).hexdigest()[:12]
