"""Facets: how many of a set of papers have each value of status, type, session, topic,
track, collection, tag, decision and read.

`count_facets` takes one pass over the papers with plain dicts (it runs on every search in
the reader). A paper counts once per value it has: under each of its collections and each
of its bookmark's tags; a field it leaves empty counts nowhere (the total says how many
papers there are). `session` is the session's name, else the start's day (`2025-12-05`)
when the paper has a start but no session. `decision` always holds keep, maybe, skip and
none (undecided), and `read` read and unread, zeros included. Values are ordered by count,
most first, then by value.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping

from paperterm.index.library.bookmark_record import Bookmark
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
) -> dict[str, dict[str, int]]:
    """Each facet's counts over `papers` (see the module's docstring)."""
    status: dict[str, int] = {}
    kind: dict[str, int] = {}
    session: dict[str, int] = {}
    topic: dict[str, int] = {}
    track: dict[str, int] = {}
    collection: dict[str, int] = {}
    tag: dict[str, int] = {}
    decided = dict.fromkeys((*DECISIONS, UNDECIDED), 0)
    reads = {"read": 0, "unread": 0}
    for paper in papers:
        paper_id = paper.id
        if paper.status:
            status[paper.status] = status.get(paper.status, 0) + 1
        if paper.type:
            kind[paper.type] = kind.get(paper.type, 0) + 1
        when = paper.session or paper.start[:10]
        if when:
            session[when] = session.get(when, 0) + 1
        if paper.topic:
            topic[paper.topic] = topic.get(paper.topic, 0) + 1
        if paper.track:
            track[paper.track] = track.get(paper.track, 0) + 1
        for name in paper.collections:
            collection[name] = collection.get(name, 0) + 1
        mark = bookmarks.get(paper_id)
        if mark is not None:
            for name in mark.tags:
                tag[name] = tag.get(name, 0) + 1
        decided[decisions.get(paper_id, UNDECIDED)] += 1
        reads["read" if paper_id in read else "unread"] += 1
    counted = (status, kind, session, topic, track, collection, tag)
    found = {name: _ordered(values) for name, values in zip(FACETS, counted, strict=False)}
    found["decision"] = decided
    found["read"] = reads
    return found


def _ordered(counts: dict[str, int]) -> dict[str, int]:
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))
