"""The `Paper` record every layer shares, and the helpers that give it a stable identity."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any

from paperterm.index.text.spaces import single_spaced


@dataclass(slots=True)
class Paper:
    """One abstract and what we know or derive about it.

    `abstract` is the text as the source gave it; `text` is the display text (emphasis and
    math rendered, control characters removed). `title` is the source's title as published
    (LaTeX decoded); when the source has none it is a headline derived from the abstract and
    `title_derived` is set. `name` is the method or system the abstract coins (derived, and
    shown apart from the title, never glued to it). `collections` lists every collection that
    holds the paper (more than one when duplicates across sources were merged); `collection`
    is the first.

    `entry_type` and `fields` keep what a bibliography needs beyond the fields above, so that
    exports and copies give the record back as published: the BibTeX entry type as the
    source wrote it (`InProceedings`; "" for other sources) and the bibliographic fields by
    lower-case BibTeX name (booktitle, pages, volume, publisher, editor, series, url, pdf,
    eprint, and the title and author as written). Their values are LaTeX as the source wrote
    it when `entry_type` is set (a BibTeX source), plain text otherwise. Plain values only
    (str -> str): the index stores papers with `marshal`. `fields` also holds the ids
    registries give the paper, which join its records from several sources
    (`sources/identity.py`): `openreview` (forum id), `pmlr` (`v235/smith24a`), `acl`
    (Anthology id), `virtual_site` (host and path of its page); a parser may give them as
    links instead.
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
    title_derived: bool = False
    entry_type: str = ""
    fields: dict[str, str] = field(default_factory=dict)
    affiliations: list[str] = field(default_factory=list)
    author_ids: list[str] = field(default_factory=list)
    venue: str = ""
    status: str = ""
    type: str = ""
    track: str = ""
    topic: str = ""
    keywords: list[str] = field(default_factory=list)
    tldr: str = ""
    session: str = ""
    room: str = ""
    start: str = ""
    end: str = ""
    poster: str = ""

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
        if self.title_derived:
            record["title_derived"] = True
        if self.entry_type:
            record["entry_type"] = self.entry_type
        if self.fields:
            record["fields"] = dict(self.fields)
        for name in CONFERENCE_FIELDS:
            value = getattr(self, name)
            if value:
                record[name] = list(value) if isinstance(value, list) else value
        return record

    @classmethod
    def from_json(cls, record: Mapping[str, Any]) -> Paper:
        conference: dict[str, Any] = {
            name: (list(record[name]) if isinstance(record[name], list) else record[name])
            for name in CONFERENCE_FIELDS
            if name in record
        }
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
            title_derived=bool(record.get("title_derived", False)),
            entry_type=record.get("entry_type", ""),
            fields=dict(record.get("fields", {})),
            **conference,
        )


#: The fields a conference's own data gives beyond a bibliography's, in `to_json`'s order.
CONFERENCE_FIELDS = (
    "affiliations",
    "author_ids",
    "venue",
    "status",
    "type",
    "track",
    "topic",
    "keywords",
    "tldr",
    "session",
    "room",
    "start",
    "end",
    "poster",
)


def name_label(paper: Paper) -> str:
    """The derived name as a label of its own beside the title: "" when the title says it
    already (in any case: "Re-DiffiNet" in "Re-Diffinet: ..."), so it is never shown twice
    nor glued to a title as published."""
    name = paper.name.strip()
    return name if name and name.casefold() not in paper.title.casefold() else ""


#: The fields of a `Paper` in order: files keep papers as tuples of them (`paper_tuple`,
#: `Paper(*row)`), which load far faster than dicts.
PAPER_FIELDS = tuple(f.name for f in fields(Paper))


def paper_tuple(paper: Paper) -> tuple[Any, ...]:
    return tuple(getattr(paper, name) for name in PAPER_FIELDS)


def normalize_for_id(text: str) -> str:
    """Case, width and white space folded, so that re-wrapping a paragraph keeps its id
    (white space made single only when it has some to change)."""
    return single_spaced(unicodedata.normalize("NFKC", text)).casefold()


@lru_cache(maxsize=1024)
def content_id(text: str) -> str:
    """A short id from the content alone: the same on every machine and in any file order.
    (Cached for the texts of late: a parser makes a record's id from its abstract, and
    preparing the record asks again whether its id is its abstract's,
    `preparing._is_content_id`, of every abstract of a plain-text list.)"""
    return digest_id(normalize_for_id(text))


def digest_id(normalized: str) -> str:
    """`content_id` of text already passed through `normalize_for_id`. hashlib is imported
    here: the reader's start needs no id made, and hashlib loads OpenSSL."""
    import hashlib

    return hashlib.sha256(normalized.encode("utf-8")).hexdigest()[:12]
