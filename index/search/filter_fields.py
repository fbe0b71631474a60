"""The conference fields a query filters on (`status:oral`, `session:"Poster Session 3"`),
each an index field of its own in both engines, holding its words as written (case folded,
not stemmed). Light to import: the reader's start loads it with the schema."""

from __future__ import annotations

from collections.abc import Callable

from paperterm.index.papers import Paper

#: Index field -> the text of it a paper's document holds (several values joined by " ; ",
#: as authors are, so that no phrase runs from one into the next).
FILTER_FIELDS: dict[str, Callable[[Paper], str]] = {
    "status": lambda paper: paper.status,
    "type": lambda paper: paper.type,
    "session": lambda paper: paper.session,
    "topic": lambda paper: paper.topic,
    "track": lambda paper: paper.track,
    "affiliations": lambda paper: " ; ".join(paper.affiliations),
    "keywords": lambda paper: " ; ".join(paper.keywords),
}


def filter_texts(paper: Paper) -> list[str]:
    """The paper's text of each filter field, in `FILTER_FIELDS`' order."""
    return [text(paper) for text in FILTER_FIELDS.values()]
