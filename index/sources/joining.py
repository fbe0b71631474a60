"""Joining the records of one paper: which records are the same paper (`plan_merge`, on
their merge keys alone, as a build holds them), what the paper takes from each
(`absorb`: each field from the first record that has it), and what a source gave
(`given_fields`). `loader` prepares the records and their keys."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from paperterm.index.papers import content_id

if TYPE_CHECKING:
    from paperterm.index.sources.prepared import MergeKey, Prepared

#: `plan_merge`'s place of a record it drops: one of a source without abstracts that joined
#: no paper of another source (a source that only enriches: `plan_merge`).
NOT_JOINED = -1
#: What `given_fields` and a source's report (`absorb`) name, in this order.
REPORTED_FIELDS = (
    "title", "abstract", "authors", "affiliations", "author_ids", "year", "doi", "arxiv_id",
    "venue", "status", "type", "track", "topic", "keywords", "tldr", "session", "room",
    "start", "end", "poster", "links",
)  # fmt: skip


#: The other fields a paper takes, each from a later record when it has none itself.
_TAKEN_FIELDS = (
    "year", "doi", "arxiv_id", "venue", "status", "type", "track", "topic", "keywords", "tldr",
    "session", "room", "start", "end", "poster",
)  # fmt: skip


def absorb(first: Prepared, later: Prepared) -> list[str]:
    """`first` lists `later`'s collections and takes what it lacked (abstract, authors,
    year, status, ...): each field comes from the first record that has it. Affiliations
    and author ids come with the authors, or alone when they are as many as the authors
    `first` has. Returns the `REPORTED_FIELDS` taken."""
    paper, other = first.paper, later.paper
    taken: list[str] = []
    for name in other.collections:
        if name not in paper.collections:
            paper.collections.append(name)
    for url in later.own_links:
        if url not in first.own_links:
            first.own_links.append(url)
            if "links" not in taken:
                taken.append("links")
    if later.titled and not first.titled:  # a source's title beats a derived one
        paper.title, paper.title_derived, first.titled = other.title, False, True
        taken.append("title")
    if other.abstract and not paper.abstract:  # a source that only enriches came first
        paper.abstract, paper.text, paper.name = other.abstract, other.text, other.name
        taken.append("abstract")
    if other.authors and not paper.authors:
        paper.authors = other.authors
        paper.affiliations, paper.author_ids = other.affiliations, other.author_ids
        taken += [
            name for name in ("authors", "affiliations", "author_ids") if getattr(other, name)
        ]
    for name in ("affiliations", "author_ids"):
        theirs = getattr(other, name)
        if theirs and not getattr(paper, name) and len(theirs) == len(paper.authors):
            setattr(paper, name, theirs)
            taken.append(name)
    for name in _TAKEN_FIELDS:
        value = getattr(other, name)
        if value not in (None, "", []) and getattr(paper, name) in (None, "", []):
            setattr(paper, name, value)
            taken.append(name)
    if other.entry_type and not paper.entry_type:
        # A BibTeX entry describes the record as published; its fields are LaTeX, so they
        # replace plain ones rather than mix with them.
        paper.entry_type, paper.fields = other.entry_type, dict(other.fields)
    elif bool(other.entry_type) == bool(paper.entry_type):
        paper.fields = {**other.fields, **paper.fields}
    return taken


def plan_merge(
    keys: Sequence[MergeKey],
    texts: Callable[[int], tuple[str, str]],
    groups: Sequence[object] | None = None,
) -> tuple[list[int], dict[int, str]]:
    """How records merge, from their keys alone (a build holds the keys of every record,
    not the records): for each record, the position of the record it merges into (its
    own when it stays; `NOT_JOINED` when it is dropped: `drop_unjoined`), and the new ids
    of the records that stay under another one (a paper with the id of an earlier,
    different paper). `texts(i)`: record i's title ("" when derived) and abstract, asked
    only for such a record. `groups[i]`: record i's source file (None: one file).

    Records are the same paper when they share an identity (DOI, arXiv id, registry id,
    title and abstract) or an abstract one of them is known by alone; else, records of
    different files, by their folded title alone, unless both name a first author and
    the surnames differ. Sameness is transitive: a record with the identities of two
    papers makes them one (the earlier keeps its place)."""
    into: list[int] = []
    by_identity: dict[str, int] = {}
    by_abstract: dict[str, int] = {}
    anonymous_by_abstract: dict[str, int] = {}
    #: Title digest -> (paper, surname, group) of each record with it (a tuple when one).
    by_title: dict[str, Any] = {}
    ids: set[str] = set()
    renamed: dict[int, str] = {}
    #: A paper merged into an earlier one, when a record names both (union-find parents).
    parent: dict[int, int] = {}

    def find(paper: int) -> int:
        while paper in parent:
            paper = parent[paper]
        return paper

    for index, (paper_id, identities, abstract, anonymous, title, surname) in enumerate(keys):
        first = None
        for key in identities:
            found = by_identity.get(key)
            if found is None:
                continue
            found = find(found)
            if first is None:
                first = found
            elif found != first:  # the record joins two papers: they are one
                first, later = min(first, found), max(first, found)
                parent[later] = first
                renamed.pop(later, None)
        if first is None and abstract:
            table = by_abstract if anonymous else anonymous_by_abstract
            first = table.get(abstract)
            first = None if first is None else find(first)
        group = groups[index] if groups is not None else None
        if first is None and title and groups is not None:
            first = _same_title(by_title.get(title), surname, group)
            first = None if first is None else find(first)
        if first is None:
            first = index
            if paper_id in ids:
                title, text = texts(index)
                paper_id = f"{paper_id}~{content_id(title + chr(10) + text)[:6]}"
                while paper_id in ids:
                    paper_id += "~"
                renamed[index] = paper_id
            ids.add(paper_id)
        into.append(first)
        for key in identities:
            by_identity.setdefault(key, first)
        if abstract:
            by_abstract.setdefault(abstract, first)
            if anonymous:
                anonymous_by_abstract.setdefault(abstract, first)
        if title and groups is not None:
            held = by_title.get(title)
            entry = (first, surname, group)
            by_title[title] = entry if held is None else [*_entries(held), entry]
    if parent:
        into = [find(first) for first in into]
    if groups is not None:
        drop_unjoined(into, groups, [bool(key[2]) for key in keys])
        for index in [index for index in renamed if into[index] == NOT_JOINED]:
            del renamed[index]
    return into, renamed


def _entries(held: Any) -> list[tuple[int, str, object]]:
    return [held] if isinstance(held, tuple) else held


def _same_title(held: Any, surname: str, group: object) -> int | None:
    """The paper of an earlier record of another file with the title (`held`), whose first
    author's surname is this one's (or either names none)."""
    if held is None:
        return None
    for first, their_surname, their_group in _entries(held):
        if their_group != group and (not surname or not their_surname or surname == their_surname):
            return int(first)
    return None


def drop_unjoined(into: list[int], groups: Sequence[object], abstracts: Sequence[bool]) -> None:
    """A source without abstracts only enriches: unless every source is such a one, its
    records that joined no record of another source are dropped (`NOT_JOINED` in `into`,
    with those merged into them). `groups[i]`: record i's source; `abstracts[i]`: whether
    it has an abstract."""
    with_abstracts = {group for group, has in zip(groups, abstracts, strict=True) if has}
    enriching = set(groups) - with_abstracts
    if not enriching or not with_abstracts:
        return
    joined = {
        first
        for index, first in enumerate(into)
        if first != index and groups[index] != groups[first]
    }
    for index, first in enumerate(into):
        if first != NOT_JOINED and groups[first] in enriching and first not in joined:
            into[index] = NOT_JOINED


def given_fields(record: Prepared) -> list[str]:
    """The `REPORTED_FIELDS` the record gives (a derived title is not given)."""
    paper = record.paper
    given = ["title"] if record.titled and not paper.title_derived else []
    for name in REPORTED_FIELDS[1:]:
        value = getattr(paper, name)
        if value is not None and value != "" and value != []:
            given.append(name)
    return given
