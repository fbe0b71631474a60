"""A bookmark as it is held in memory (`Bookmark`), and the form its tags take.

Apart from bookmarks.py (the file and its store, which names both as its own) so that the
changes to bookmarks (bookmark_ops.py), which make these, can be imported where a change is
made rather than with the store: the reader's start makes none (issue 14).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from paperterm.index.library.op_store import one_line


@dataclass(frozen=True, slots=True)
class Bookmark:
    """One saved paper. `added` is timezone-aware UTC; `extra` keeps keys this version
    does not know, so that saving never drops what a person or a newer paperterm wrote."""

    id: str
    added: datetime
    title: str = ""
    tags: tuple[str, ...] = ()
    note: str = ""
    extra: Mapping[str, object] = field(default_factory=dict, hash=False)


def normalize_tags(tags: Iterable[str]) -> tuple[str, ...]:
    """Tags on one line (white space runs as one space: a line end inside a tag would come
    back from the TOML file as another line end, `\r\n` as `\n`), without empty ones or
    repeats, in first-seen order."""
    seen: dict[str, None] = {}
    for tag in tags:
        tag = one_line(tag)
        if tag:
            seen.setdefault(tag, None)
    return tuple(seen)
