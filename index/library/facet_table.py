"""A corpus's facets as columns: for each paper (by its position in the corpus) its status,
type, session-or-day, topic and track as a small int into that facet's value table, and its
collections as the number of its set of collections.

Made once per corpus (`FacetTable.of`, which reads every paper); afterwards
`FacetTable.count` counts any list of positions with a few C-level passes and no paper
read, with the same results as `count_facets` over those papers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Container, Hashable, Iterable, Mapping, Sequence
from itertools import compress
from operator import attrgetter, itemgetter
from threading import Lock
from typing import Any, Generic, TypeVar

from paperterm.index.library.bookmarks import Bookmark
from paperterm.index.library.facets import (
    FACETS,
    StateTally,
    ordered_counts,
    remember_table,
)
from paperterm.index.papers import PAPER_FIELDS, Paper
from paperterm.index.search.records import PaperList, no_collection

#: The facets held as one value per paper.
COLUMNS = ("status", "type", "session", "topic", "track")
#: Positions counted between two calls of a count's `pause`.
CHUNK = 8192

_Value = TypeVar("_Value", bound=Hashable)


class _Column(Generic[_Value]):
    """One facet's value per paper, as ints into `values`."""

    def __init__(self) -> None:
        self.codes: list[int] = []
        self.values: list[_Value] = []
        self._code: dict[_Value, int] = {}

    def code_of(self, value: _Value) -> int | None:
        return self._code.get(value)

    def add(self, value: _Value) -> None:
        code = self._code.get(value)
        if code is None:
            code = self._code[value] = len(self.values)
            self.values.append(value)
        self.codes.append(code)


class FacetTable:
    """The facets of `papers` by position (see the module's docstring). `ids`: each paper's
    id, in order."""

    def __init__(
        self,
        papers: Sequence[Paper],
        ids: Sequence[str],
        columns: Mapping[str, _Column[str]],
        sets: _Column[tuple[str, ...]],
    ) -> None:
        self.papers = papers
        self.ids = ids
        self._columns = dict(columns)
        self._sets = sets  # each paper's collections
        self._positions: Mapping[str, int] | None = None
        self._computed: tuple[Mapping[str, str], _Column[str]] | None = None
        self._all: tuple[dict[str, _Column[Any]], dict[str, Counter[int]]] | None = None
        self._lock = Lock()

    @classmethod
    def of(cls, papers: Sequence[Paper], pause: Callable[[], object] | None = None) -> FacetTable:
        """The table of `papers`, reading each once; `pause` is called every `CHUNK`
        papers (a reader's worker lets the interface run there)."""
        columns: dict[str, _Column[str]] = {name: _Column() for name in COLUMNS}
        status, kind, session, topic, track = (columns[name].add for name in COLUMNS)
        sets: _Column[tuple[str, ...]] = _Column()
        ids: list[str] = []
        add_id = ids.append
        read = _reader(papers)
        count = len(papers)
        for start in range(0, count, CHUNK):
            with no_collection():
                for index in range(start, min(start + CHUNK, count)):
                    (paper_id, status_, kind_, session_, start_, topic_, track_, in_) = read(index)
                    add_id(paper_id)
                    status(status_)
                    kind(kind_)
                    session(session_ or start_[:10])
                    topic(topic_)
                    track(track_)
                    sets.add(tuple(in_))
            if pause is not None:
                pause()
        table = cls(papers, ids, columns, sets)
        remember_table(table)
        return table

    def position_of(self, paper_id: str) -> int | None:
        """The position of the paper of this id (the last, as `PaperList.positions`)."""
        positions = self._positions
        if positions is None:
            positions = getattr(self.papers, "positions", None)
            if not isinstance(positions, Mapping):
                positions = {paper_id: index for index, paper_id in enumerate(self.ids)}
            self._positions = positions
        return positions.get(paper_id)

    def count(
        self,
        positions: Sequence[int] | None,
        bookmarks: Mapping[str, Bookmark],
        decisions: Mapping[str, str],
        read: Container[str],
        *,
        topics: Mapping[str, str] | None = None,
        pause: Callable[[], object] | None = None,
    ) -> dict[str, dict[str, int]]:
        """`count_facets` over the papers at `positions` (None: every paper); `pause` is
        called between chunks of `CHUNK` positions."""
        columns: dict[str, _Column[Any]] = dict(self._columns)
        if topics:
            columns["topic"] = self._with_topics(topics)
        columns["collection"] = self._sets
        every = positions is None or positions == range(len(self.ids))
        tallies = self._every(columns) if every else None
        fresh = {name: Counter[int]() for name in columns}
        state = StateTally(bookmarks, decisions, read)
        chosen = range(len(self.ids)) if positions is None else positions
        for start in range(0, len(chosen), CHUNK):
            chunk = chosen[start : start + CHUNK]
            if tallies is None:
                for name, column in columns.items():
                    fresh[name].update(map(column.codes.__getitem__, chunk))
            state.add(list(map(self.ids.__getitem__, chunk)))
            if pause is not None:
                pause()
        found = {
            name: ordered_counts(_values(counts, columns[name].values))
            for name, counts in (tallies or fresh).items()
            if name != "collection"
        }
        collections: Counter[str] = Counter()
        for number, many in (tallies or fresh)["collection"].items():
            for name in self._sets.values[number]:
                collections[name] += many
        found["collection"] = ordered_counts(collections)
        found.update(state.counts())
        return {name: found[name] for name in FACETS}

    def having(
        self, facet: str, values: set[str], topics: Mapping[str, str] | None = None
    ) -> set[str]:
        """The ids of the papers having each of `values` in `facet` (one of `COLUMNS` or
        collection), as `facet_ids` finds them."""
        if facet == "collection":
            sets = self._sets
            numbers = {n for n, names in enumerate(sets.values) if values <= set(names)}
            return set(compress(self.ids, map(numbers.__contains__, sets.codes)))
        if len(values) > 1:
            return set()  # a paper has one value in each of the other facets
        column = self._with_topics(topics) if facet == "topic" and topics else self._columns[facet]
        code = column.code_of(next(iter(values)))
        if code is None:
            return set()
        return set(compress(self.ids, map(code.__eq__, column.codes)))

    def _every(self, columns: Mapping[str, _Column[Any]]) -> dict[str, Counter[int]]:
        """Each column's codes counted over every paper (kept, for these columns)."""
        with self._lock:
            kept = self._all
            if kept is not None and all(kept[0][name] is columns[name] for name in columns):
                return kept[1]
            tallies = {name: Counter(column.codes) for name, column in columns.items()}
            self._all = (dict(columns), tallies)
            return tallies

    def _with_topics(self, topics: Mapping[str, str]) -> _Column[str]:
        """The topic column with `topics` (id -> label) for papers without a topic of their
        own (made once per `topics`)."""
        with self._lock:
            computed = self._computed
            if computed is not None and computed[0] is topics:
                return computed[1]
            own = self._columns["topic"]
            column: _Column[str] = _Column()
            label = topics.get
            for paper_id, code in zip(self.ids, own.codes, strict=True):
                column.add(own.values[code] or label(paper_id, ""))
            self._computed = (topics, column)
            return column


#: The fields a table is made of, in the order `_reader` gives them.
_READ = ("id", "status", "type", "session", "start", "topic", "track", "collections")


def _reader(papers: Sequence[Paper]) -> Callable[[int], tuple[Any, ...]]:
    """Paper index -> its `_READ` fields; from a `PaperList`'s file when it is one (no
    `Paper` made or kept)."""
    if isinstance(papers, PaperList):
        pick = itemgetter(*(PAPER_FIELDS.index(name) for name in _READ))
        fields = papers.fields
        return lambda index: pick(fields(index))
    get = attrgetter(*_READ)
    return lambda index: get(papers[index])


def _values(counts: Counter[int], values: Sequence[Any]) -> Counter[str]:
    return Counter(dict(zip(map(values.__getitem__, counts), counts.values(), strict=True)))


def table_positions(table: FacetTable, ids: Iterable[str]) -> list[int] | None:
    """The positions of the papers of `ids` in `table`, or None when one is not there."""
    found: list[int] = []
    for paper_id in ids:
        position = table.position_of(paper_id)
        if position is None:
            return None
        found.append(position)
    return found
