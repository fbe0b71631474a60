"""A prepared record (`Prepared`): a paper as one source gives it, rendered and enriched
on its own, with the keys that find its duplicates (`MergeKey`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from paperterm.index.papers import (
    Paper,
    paper_tuple,
)

#: A record's id, identity digests, abstract digest, whether it is known only by its
#: abstract, its title's digest and its first author's folded surname (`Prepared`).
MergeKey = tuple[str, list[str], str, bool, str, str]


@dataclass(slots=True)
class Prepared:
    """A rendered record enriched as if no other record were the same paper, with what
    merging needs to know about it (`merge_prepared`). Most papers are in one source only,
    and then this is the paper."""

    paper: Paper
    #: The record's own links, before enriching (a merged paper's links are built from
    #: every record's).
    own_links: list[str]
    #: Digests of what makes two records the same paper (`_identities`).
    identities: list[str]
    #: Digest of the folded abstract ("" without one); `anonymous`: the paper is known only
    #: by its abstract (a content id, like the seeds', whose titles are derived).
    abstract: str
    anonymous: bool
    #: Whether the source gave the title (a derived one does not count for the suffix an
    #: id gets when another paper has it already).
    titled: bool
    #: A derived title's next headlines (`enrich.ALTERNATIVES`), for `distinct_titles`.
    alternatives: list[str] = field(default_factory=list)
    #: Digest of the folded title when it may join records on its own ("" otherwise:
    #: `TITLE_JOIN_WORDS`), and the first author's folded surname, which tells apart two
    #: papers with one title.
    title_key: str = ""
    surname: str = ""

    def key(self) -> MergeKey:
        """What `plan_merge` needs of the record."""
        paper = self.paper
        return (
            paper.id,
            self.identities,
            self.abstract,
            self.anonymous,
            self.title_key,
            self.surname,
        )

    def to_tuple(self) -> tuple[Any, ...]:
        return (
            paper_tuple(self.paper),
            self.own_links,
            self.identities,
            self.abstract,
            self.anonymous,
            self.titled,
            self.alternatives,
            self.title_key,
            self.surname,
        )

    @classmethod
    def from_tuple(cls, row: tuple[Any, ...]) -> Prepared:
        paper = Paper(*row[0])
        return cls(paper, *row[1:])
