"""The papers of an author: an index of the corpus's authors, matched as watch lists match
them (index/planning/watch.py).

An author with an OpenReview id (`paper.author_ids`, at the author's position) is found by
that id, so homonyms stay apart; an author without one by name, folded (accents, case,
"Last, First", spaces and hyphens) and with initials standing for the one full name of the
corpus they fit (`WatchMatcher`'s rules: "Y. LeCun" is "Yann LeCun" when the corpus holds
no other full name with that family name and those initials).

The index is built once per corpus (`AuthorIndex.of(papers)`, reading every paper) and is
then asked without reading a paper again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from paperterm.index.papers import Paper
from paperterm.index.planning.watch import WatchList, WatchMatcher


class Author(NamedTuple):
    """An author as a paper names them: the name as written and the OpenReview id ("" when
    the data has none)."""

    name: str
    author_id: str = ""

    @property
    def label(self) -> str:
        """How a view names the author: the name, and the id when there is one."""
        return f"{self.name} ({self.author_id})" if self.author_id else self.name


def paper_authors(paper: Paper) -> list[Author]:
    """The paper's authors in order, each with their id when the data has one."""
    ids = list(paper.author_ids)
    found: list[Author] = []
    for index, name in enumerate(paper.authors):
        author_id = ids[index].strip() if index < len(ids) and ids[index] else ""
        if name.strip() or author_id:
            found.append(Author(name.strip(), author_id))
    return found


class AuthorIndex:
    """Author id -> paper ids, and name key -> paper ids (a name under its own key and under
    the full name its initials resolve to), in corpus order."""

    def __init__(self, papers: Iterable[Paper]) -> None:
        papers = papers if isinstance(papers, Sequence) else list(papers)
        names = {name for paper in papers for name in paper.authors}
        # A matcher with nothing watched resolves names against the corpus's full names.
        self._matcher = WatchMatcher(WatchList(), names)
        self._by_id: dict[str, list[str]] = {}
        self._by_key: dict[str, list[str]] = {}
        self._position: dict[str, int] = {}
        for paper in papers:
            self._position.setdefault(paper.id, len(self._position))
            for author in paper_authors(paper):
                if author.author_id:
                    _add(self._by_id, author.author_id, paper.id)
                for key in self._keys(author.name):
                    _add(self._by_key, key, paper.id)

    def _keys(self, name: str) -> set[str]:
        """The name's key, and the full name's its initials stand for (WatchMatcher's
        rules, the same cache)."""
        if not name:
            return set()
        key, resolved = self._matcher.author_keys(name)
        return {k for k in (key, resolved) if k}

    def papers_of(self, author: Author) -> list[str]:
        """The ids of the papers by `author` (by id when it has one, else by name), each
        once, in corpus order."""
        if author.author_id:
            return list(self._by_id.get(author.author_id, ()))
        keys = self._keys(author.name)
        found: dict[str, None] = {}
        for key in keys:
            found.update(dict.fromkeys(self._by_key.get(key, ())))
        if len(keys) > 1:  # two keys' lists: back in corpus order
            return sorted(found, key=self._position.__getitem__)
        return list(found)


def _add(table: dict[str, list[str]], key: str, paper_id: str) -> None:
    ids = table.setdefault(key, [])
    if not ids or ids[-1] != paper_id:
        ids.append(paper_id)
