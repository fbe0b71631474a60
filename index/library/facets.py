"""Facets: how many of a set of papers have each value of status, type, session, topic,
track, collection, tag, decision and read.

`count_facets` runs on every search in the reader, so it counts in C (`Counter`). A paper
counts once per value it has: under each of its collections and each of its bookmark's
tags; a field it leaves empty counts nowhere (the total says how many papers there are).
`session` is the session's name, else the start's day (`2025-12-05`) when the paper has a
start but no session. `decision` always holds keep, maybe, skip and none (undecided), and
`read` read and unread, zeros included. Values are ordered by count, most first, then by
value.

`facet_ids` is the narrowing: the papers that have every (facet, value) chosen, values of
one facet included (AND throughout, so a count always says what one more choice leaves).
"""

from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from itertools import chain, compress
from operator import attrgetter, not_
from typing import Protocol

from paperterm.index.library.bookmarks import Bookmark
from paperterm.index.library.reading import DECISIONS
from paperterm.index.papers import Paper

#: The facets, in the order they are shown.
FACETS = ("status", "type", "session", "topic", "track", "collection", "tag", "decision", "read")
#: The value of `decision` for a paper with none.
UNDECIDED = "none"


def count_facets(
    papers: Iterable[Paper],
    bookmarks: Mapping[str, Bookmark],
    decisions: Mapping[str, str],
    read: Container[str],
    *,
    topics: Mapping[str, str] | None = None,
) -> dict[str, dict[str, int]]:
    """Each facet's counts over `papers` (see the module's docstring). Each facet is one
    `Counter` pass over attributes fetched by `operator.attrgetter`: the loops run in C,
    faster than one Python loop over the papers. `topics`: topics computed for a corpus
    that has none (id -> label), for the papers without a topic of their own."""
    chosen = papers if isinstance(papers, list) else list(papers)
    ids = list(map(_ID, chosen))
    found: dict[str, dict[str, int]] = {}
    for name, own in _FIELDS:
        field: Callable[[Paper], str] = own
        if name == "topic" and topics:
            field = _topic_or_computed(topics)
        found[name] = ordered_counts(Counter(map(field, chosen)))
    found["session"] = ordered_counts(Counter(map(_session_or_day, chosen)))
    found["collection"] = ordered_counts(Counter(chain.from_iterable(map(_COLLECTIONS, chosen))))
    found.update(state_counts(ids, bookmarks, decisions, read))
    return {name: found[name] for name in FACETS}


def state_counts(
    ids: Sequence[str],
    bookmarks: Mapping[str, Bookmark],
    decisions: Mapping[str, str],
    read: Container[str],
) -> dict[str, dict[str, int]]:
    """The counts of the facets of the user's library (tag, decision, read) over the papers
    of `ids`, as `count_facets` counts them."""
    tally = StateTally(bookmarks, decisions, read)
    tally.add(ids)
    return tally.counts()


class StateTally:
    """`state_counts` a part of the ids at a time."""

    def __init__(
        self, bookmarks: Mapping[str, Bookmark], decisions: Mapping[str, str], read: Container[str]
    ) -> None:
        self._marks = bookmarks.get
        self._decision = decisions.get
        self._read = read.__contains__
        self._tags: Counter[str] = Counter()
        self._decided: Counter[str | None] = Counter()
        self._done = 0
        self._total = 0

    def add(self, ids: Sequence[str]) -> None:
        """Count the papers of `ids` too."""
        marks = filter(None, map(self._marks, ids))
        self._tags.update(chain.from_iterable(map(_TAGS, marks)))
        self._decided.update(map(self._decision, ids))
        self._done += sum(map(self._read, ids))
        self._total += len(ids)

    def counts(self) -> dict[str, dict[str, int]]:
        decided = self._decided
        decision = {name: decided[name] for name in DECISIONS}
        decision[UNDECIDED] = decided[None]
        return {
            "tag": ordered_counts(Counter(self._tags)),
            "decision": decision,
            "read": {"read": self._done, "unread": self._total - self._done},
        }


def facet_ids(
    papers: Iterable[Paper],
    chosen: Iterable[tuple[str, str]],
    bookmarks: Mapping[str, Bookmark],
    decisions: Mapping[str, str],
    read: Container[str],
    *,
    topics: Mapping[str, str] | None = None,
) -> set[str]:
    """The ids of `papers` that have every (facet, value) of `chosen`, as `count_facets`
    counts them (a tag compares as written; an unknown facet matches nothing). Papers are
    read only for a facet of theirs (a `PaperList`'s ids come from its rows), and not at all
    once their `FacetTable` is made."""
    wanted: dict[str, set[str]] = {}
    for facet, value in chosen:
        wanted.setdefault(facet, set()).add(value)
    if any(facet not in FACETS for facet in wanted):
        return set()
    table = table_of(papers)
    ids: Sequence[str] | None = getattr(papers, "ids", None)
    listed: list[Paper] | None = None
    if table is not None:
        ids = table.ids
    elif ids is None or not _STATE_FACETS.issuperset(wanted):
        listed = papers if isinstance(papers, list) else list(papers)
        ids = list(map(_ID, listed))
    found = set(ids)
    for facet, values in wanted.items():
        if table is not None and facet not in _STATE_FACETS:
            found &= table.having(facet, values, topics)
        else:
            found &= _having(facet, values, ids, listed, bookmarks, decisions, read, topics)
    return found


def _having(
    facet: str,
    values: set[str],
    ids: Sequence[str],
    papers: list[Paper] | None,
    bookmarks: Mapping[str, Bookmark],
    decisions: Mapping[str, str],
    read: Container[str],
    topics: Mapping[str, str] | None = None,
) -> set[str]:
    """The ids having each of `values` in `facet` (of `ids`, or any for tag and decision)."""
    if facet == "tag":
        return {i for i, mark in bookmarks.items() if values <= set(mark.tags)}
    if facet == "collection":
        assert papers is not None
        return {paper.id for paper in papers if values <= set(paper.collections)}
    if len(values) > 1:
        return set()  # a paper has one value in each of the other facets
    (value,) = values
    if facet == "decision":
        if value == UNDECIDED:
            return {i for i in ids if not decisions.get(i)}
        return {i for i, decision in decisions.items() if decision == value}
    if facet == "read":
        done = map(read.__contains__, ids)
        if value == "read":
            return set(compress(ids, done))
        return set(compress(ids, map(not_, done))) if value == "unread" else set()
    assert papers is not None
    field: Callable[[Paper], str] = _session_or_day if facet == "session" else attrgetter(facet)
    if facet == "topic" and topics:
        field = _topic_or_computed(topics)
    return set(compress(ids, map(value.__eq__, map(field, papers))))


#: The facets of the user's library, not of the papers' fields.
_STATE_FACETS = frozenset({"tag", "decision", "read"})
_ID = attrgetter("id")
_COLLECTIONS = attrgetter("collections")
_TAGS = attrgetter("tags")
#: The facets that are a field's value as it is.
_FIELDS = tuple((name, attrgetter(name)) for name in ("status", "type", "topic", "track"))


def _topic_or_computed(topics: Mapping[str, str]) -> Callable[[Paper], str]:
    """A paper's own topic, else the one computed for it (`topics`: id -> label)."""
    computed = topics.get

    def topic(paper: Paper) -> str:
        return paper.topic or computed(paper.id, "")

    return topic


def _session_or_day(paper: Paper) -> str:
    return paper.session or paper.start[:10]


def ordered_counts(counts: Counter[str]) -> dict[str, int]:
    """Most first, then by value; the empty value (a field left empty) is dropped."""
    counts.pop("", None)
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


class NarrowingTable(Protocol):
    """What `facet_ids` asks of a corpus's facet table (`facet_table.FacetTable`)."""

    @property
    def papers(self) -> object: ...

    @property
    def ids(self) -> Sequence[str]: ...

    def having(
        self, facet: str, values: set[str], topics: Mapping[str, str] | None = None
    ) -> set[str]: ...


_latest: weakref.ref[NarrowingTable] | None = None


def remember_table(table: NarrowingTable) -> None:
    """Keep a weak reference to the table made last, for `table_of`."""
    global _latest
    _latest = weakref.ref(table)


def table_of(papers: Sequence[Paper] | Iterable[Paper]) -> NarrowingTable | None:
    """The table made last, when it is of `papers` and something still keeps it (the
    reader's facets sidebar does), else None."""
    made = _latest() if _latest is not None else None
    if made is None or made.papers is not papers or not isinstance(papers, Sequence):
        return None
    return made if len(made.ids) == len(papers) else None
