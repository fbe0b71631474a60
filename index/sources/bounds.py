"""How large one record may be: every parser's records pass through `bound` (the loader
calls it before rendering), so a build's memory stays bounded whatever one record holds.

A value over its limit is cut (a list keeps its first items), with one warning naming the
record (file:line). Sizes are in characters (a character of ASCII text is a byte):

- abstract: `ABSTRACT_LIMIT`, 1,000,000 (1 MB of ASCII text);
- title and name: `TITLE_LIMIT`, 2,000;
- id, collection, doi, arXiv id, each author, affiliation, author id and keyword, and the
  conference fields (venue, status, type, track, topic, session, room, start, end, poster):
  `SHORT_LIMIT`, 10,000 each;
- tldr, and each bibliographic field (`Paper.fields`, BibTeX's `author` of a paper with
  thousands of authors included): `FIELD_LIMIT`, 200,000 each;
- lists (authors, affiliations, author ids, keywords, collections): `LIST_LIMIT`, 10,000
  items each; bibliographic fields: `FIELDS_LIMIT`, 100 of them;
- links: `LINKS_LIMIT`, 100; a link over `LINK_LIMIT` (256 KiB) is dropped, not cut (a cut
  URL leads elsewhere).

A record whose id was derived from its abstract keeps that id (derived before the cut). A
parser may cut a value it reads to `SOURCE_LIMIT` before decoding its markup (JSON does, for
the abstract: its cleaning copies the text several times over); what is left is then bound
as above.
"""

from __future__ import annotations

from operator import attrgetter
from pathlib import Path

from paperterm.index.papers import Paper
from paperterm.index.problems import Problem
from paperterm.index.sources.enrich import render

ABSTRACT_LIMIT = 1_000_000
TITLE_LIMIT = 2_000
SHORT_LIMIT = 10_000
FIELD_LIMIT = 200_000
LIST_LIMIT = 10_000
FIELDS_LIMIT = 100
LINKS_LIMIT = 100
LINK_LIMIT = 256 * 1024
#: The most of one source value a parser need read: its markup decoded, it is still over
#: `ABSTRACT_LIMIT` unless the markup and white space were most of it.
SOURCE_LIMIT = 4 * ABSTRACT_LIMIT

_TEXT_LIMITS = (
    ("abstract", ABSTRACT_LIMIT),
    ("title", TITLE_LIMIT),
    ("name", TITLE_LIMIT),
    ("id", SHORT_LIMIT),
    ("collection", SHORT_LIMIT),
    ("doi", SHORT_LIMIT),
    ("arxiv_id", SHORT_LIMIT),
    ("tldr", FIELD_LIMIT),
    *(
        (name, SHORT_LIMIT)
        for name in (
            "venue", "status", "type", "track", "topic", "session", "room", "start", "end",
            "poster",
        )
    ),
)  # fmt: skip
_LISTS = ("authors", "affiliations", "author_ids", "keywords", "collections")
#: Every text value but the abstract; and every list of texts (`_within`).
_TEXTS = attrgetter(*(name for name, _ in _TEXT_LIMITS[1:]))
_TEXT_LISTS = attrgetter("links", *_LISTS)


def _within(paper: Paper) -> bool:
    """Whether `paper` is surely within every limit, in few steps (a build asks it of every
    record): its abstract within its own, and the other values of each kind together within
    the smallest limit (their lengths are summed by joining them, the quickest way)."""
    if len(paper.abstract) > ABSTRACT_LIMIT or len("".join(_TEXTS(paper))) > TITLE_LIMIT:
        return False
    for values in _TEXT_LISTS(paper):
        if len(values) > LINKS_LIMIT or len("".join(values)) > TITLE_LIMIT:
            return False
    fields = paper.fields
    return len(fields) <= FIELDS_LIMIT and len("".join(fields.values())) <= TITLE_LIMIT


def bound(paper: Paper, path: str = "") -> Problem | None:
    """Cut `paper`'s values that are over their limits (in place); the warning that says
    what was cut, at the record's file (`paper.source`, else `path`) and line, or None."""
    if _within(paper):
        return None
    cut: list[str] = []
    for name, limit in _TEXT_LIMITS:
        value = getattr(paper, name)
        if len(value) > limit:
            setattr(paper, name, value[:limit])
            cut.append(f"{name} to {limit:,} characters")
    for name in _LISTS:
        values = getattr(paper, name)
        if values and (len(values) > LIST_LIMIT or max(map(len, values)) > SHORT_LIMIT):
            setattr(paper, name, [value[:SHORT_LIMIT] for value in values[:LIST_LIMIT]])
            cut.append(f"{name} to {LIST_LIMIT:,} of {SHORT_LIMIT:,} characters each")
    links = paper.links
    if links and (len(links) > LINKS_LIMIT or max(map(len, links)) > LINK_LIMIT):
        paper.links = [url for url in links if len(url) <= LINK_LIMIT][:LINKS_LIMIT]
        cut.append(f"links to {LINKS_LIMIT} of at most {LINK_LIMIT // 1024} KiB each")
    fields = paper.fields
    if fields and (len(fields) > FIELDS_LIMIT or max(map(len, fields.values())) > FIELD_LIMIT):
        kept = list(fields.items())[:FIELDS_LIMIT]
        paper.fields = {key[:SHORT_LIMIT]: value[:FIELD_LIMIT] for key, value in kept}
        cut.append(f"fields to {FIELDS_LIMIT} of {FIELD_LIMIT:,} characters each")
    if not cut:
        return None
    record = paper.id[:40] + ("…" if len(paper.id) > 40 else "")
    where = paper.source or path
    return Problem(where, paper.line, f"record {record!r} too large: cut {'; '.join(cut)}")


def rendered(paper: Paper, problems: list[Problem], path: Path) -> Paper:
    """A parser's record bounded (`bound`; its warning added to `problems`) and rendered
    (`enrich.render`): what the loader makes of every record of every source."""
    cut = bound(paper, str(path))
    if cut is not None:
        problems.append(cut)
    return render(paper)
