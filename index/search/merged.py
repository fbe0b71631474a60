"""The records of a build's sources as the build holds them: keys, and what merging them
changed.

A build does not hold its papers (500,000 arXiv rows would take gigabytes): each source's
prepared records stay in its record file (`source_records.py`) and the build holds their
merge keys and titles. Merging duplicates is planned on the keys (`joining.plan_merge`);
the few records it changes (a paper that took in another's collections, an id given a
suffix) are read and merged here and held, and every other record is read again from its
file, a source at a time, when a part (`papers`) or the papers file (`paper_tuples`) is
written.
"""

from __future__ import annotations

import copy
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paperterm.index.links import Known, paper_links
from paperterm.index.papers import PAPER_FIELDS, Paper, paper_tuple
from paperterm.index.search.records import SOURCE, RecordFile, no_collection
from paperterm.index.search.source_records import SourceRecords, count_words, iter_records
from paperterm.index.search.whoosh.index import documents_digest
from paperterm.index.sources.enrich import title_changes
from paperterm.index.sources.joining import NOT_JOINED, absorb, given_fields, plan_merge
from paperterm.index.sources.prepared import Prepared

_COLLECTIONS = PAPER_FIELDS.index("collections")
_TITLE = PAPER_FIELDS.index("title")


class MergedCorpus:
    """Every source's records (their files in `folder`), duplicates merged, derived titles
    made distinct: what the parts and the papers file are written from."""

    def __init__(self, folder: Path, sources: list[SourceRecords]) -> None:
        self.folder = folder
        self.sources = sources
        self.starts: list[int] = []
        total = 0
        for source in sources:
            self.starts.append(total)
            total += source.count
        self._files: dict[int, RecordFile] = {}
        try:
            self._merge(sources)
        finally:
            for files in self._files.values():
                files.close()
            self._files.clear()

    def _merge(self, sources: list[SourceRecords]) -> None:
        keys = [key for source in sources for key in source.keys]
        files: dict[str, int] = {}
        groups = [
            files.setdefault(str(source.file.path), len(files))
            for source in sources
            for _ in range(source.count)
        ]
        into, renamed = plan_merge(keys, self._texts, groups)
        #: The records not listed: merged into others, or dropped (`NOT_JOINED`).
        self.absorbed = {index for index, first in enumerate(into) if first != index}
        #: Each record merged into another: the record it merged into.
        self.into = {index: into[index] for index in self.absorbed if into[index] != NOT_JOINED}
        #: Records merging changed, merged (by position in the corpus).
        self.changed: dict[int, Prepared] = {}
        #: Each source's report (`reports`), as counts so far.
        self._given = [Counter(source.fields) for source in sources]
        self._joined = [0] * len(sources)
        self._dropped = [0] * len(sources)
        absorbed_papers: list[Paper] = []
        for index in sorted(self.absorbed):
            spot = self._spot(index)[0]
            dropped = into[index] == NOT_JOINED
            first = None if dropped else self.changed.get(into[index]) or self._load(into[index])
            later = self._load(index)
            absorbed_papers.append(later.paper)
            self._given[spot].subtract(given_fields(later))
            if first is None:
                self._dropped[spot] += 1
                continue
            self._joined[spot] += 1
            self._given[spot].update(absorb(first, later))
            self.changed[into[index]] = first
        for record in self.changed.values():
            record.paper.links = paper_links(Known(urls=record.own_links, text=record.paper.text))
        for index, paper_id in renamed.items():
            record = self.changed.get(index) or self._load(index)
            record.paper.id = paper_id
            self.changed[index] = record
        #: The vocabulary's counts of the records merged into others (the sources' counts
        #: hold them).
        self.absorbed_words = count_words(absorbed_papers)
        self.titles = self._distinct_titles()
        touched = self.absorbed | set(self.changed)
        self.dirty = {self._spot(index)[0] for index in touched}
        self.counts = [source.count for source in sources]
        for index in self.absorbed:
            self.counts[self._spot(index)[0]] -= 1
        self._digests: dict[int, str] = {}

    def reports(self) -> list[dict[str, Any]]:
        """How each source's records joined the papers: `added` (papers it brought),
        `joined` (records merged into a paper listed already), `not_joined` (records of a
        source that only enriches which joined none), `fields` (field -> papers it gave it
        to: its own papers' fields and what its joined records gave)."""
        return [
            {
                "added": source.count - joined - dropped,
                "joined": joined,
                "not_joined": dropped,
                "fields": {name: count for name, count in given.items() if count > 0},
            }
            for source, joined, dropped, given in zip(
                self.sources, self._joined, self._dropped, self._given, strict=True
            )
        ]

    def _spot(self, index: int) -> tuple[int, int]:
        spot = bisect_right(self.starts, index) - 1
        while index - self.starts[spot] >= self.sources[spot].count:
            spot -= 1  # an empty source starts where the next one does
        return spot, index - self.starts[spot]

    def _load(self, index: int) -> Prepared:
        spot, local = self._spot(index)
        if spot not in self._files:
            self._files[spot] = RecordFile(
                self.folder / self.sources[spot].cache, SOURCE, header=False
            )
        return Prepared.from_tuple(self._files[spot].get(local))

    def _texts(self, index: int) -> tuple[str, str]:
        record = self._load(index)
        return (record.paper.title if record.titled else "", record.paper.abstract)

    def _distinct_titles(self) -> dict[int, str]:
        """The new titles of the papers whose derived titles repeat an earlier title."""
        staying: list[int] = []
        pairs: list[tuple[str, bool]] = []
        others: list[list[str]] = []
        for index, title, derived, alternatives in self._staying_titles():
            staying.append(index)
            pairs.append((title, derived))
            others.append(alternatives)
        changes = title_changes(pairs, lambda position: others[position])
        return {staying[position]: title for position, title in changes.items()}

    def _staying_titles(self) -> Iterator[tuple[int, str, bool, list[str]]]:
        """(position, title, derived, other headlines) of each paper merging leaves."""
        absorbed, changed = self.absorbed, self.changed
        for start, source in zip(self.starts, self.sources, strict=True):
            for index, (title, derived, alternatives) in enumerate(source.titles, start):
                if index in absorbed:
                    continue
                record = changed.get(index)
                if record is not None:
                    yield index, record.paper.title, record.paper.title_derived, record.alternatives
                else:
                    yield index, title, derived, alternatives

    def alone(self, spots: int) -> bool:
        """Whether the first `spots` sources' papers are, as merged and listed here, the
        papers of a corpus of those sources alone, in the same order (`paper_tuples` of
        both give the same tuples for them).

        Merging is planned in one pass in corpus order (`plan_merge`): where a record goes
        and the id it keeps or gets depend on the records before it only, and a record
        merges into an earlier one, which it changes. So the first sources' records merge
        as they do alone unless a later record merges into one of them. Derived titles are
        made distinct in one pass in corpus order too (`title_changes`), each against the
        titles before it and every title that was not derived: the first sources' listed
        titles are those they have alone unless a later paper brings a title not derived
        that none of theirs is (case folded)."""
        if any(self._dropped):
            return False  # what a source that only enriches drops depends on the others
        end = sum(source.count for source in self.sources[:spots])
        if any(first < end for index, first in self.into.items() if index >= end):
            return False
        theirs: set[str] = set()
        later: set[str] = set()
        for index, title, derived, _ in self._staying_titles():
            if not derived:
                (theirs if index < end else later).add(title.casefold())
        return later <= theirs

    def papers(self, spot: int) -> Iterator[Paper]:
        """Source `spot`'s papers as merged (with the headlines their own abstracts gave, as
        their documents have them: not the listed titles)."""
        start = self.starts[spot]
        path = self.folder / self.sources[spot].cache
        for local, record in enumerate(iter_records(path)):
            index = start + local
            if index in self.absorbed:
                continue
            yield self.changed.get(index, record).paper

    def paper_tuples(self, first: int = 0) -> Iterator[tuple[Any, ...]]:
        """`Listing.paper_tuples`: every paper as merged (of source `first` on)."""
        return self.listing().paper_tuples(first)

    def listing(self) -> Listing:
        """What listing the papers takes (for another process: `rows_process.py`)."""
        files = [source.cache for source in self.sources]
        return Listing(self.folder, files, self.starts, self.absorbed, self.changed, self.titles)

    def digest(self, spot: int) -> str:
        """`documents_digest` of source `spot`'s papers as merged."""
        if spot not in self.dirty:
            return self.sources[spot].digest
        if spot not in self._digests:
            self._digests[spot] = documents_digest(self.papers(spot))
        return self._digests[spot]

    def spans(self, spots: Iterable[int]) -> Iterator[Paper]:
        for spot in spots:
            yield from self.papers(spot)


@dataclass(slots=True)
class Listing:
    """What the papers file and the rows file are written from (`MergedCorpus.listing`):
    each source's record file (its name), where its records start in the corpus, and
    what merging changed. It pickles small (merging changes few records), so that another
    process writes the rows file of a large corpus from it (`rows_process.py`)."""

    folder: Path
    files: list[str]
    starts: list[int]
    absorbed: set[int]
    changed: dict[int, Prepared]
    titles: dict[int, str]

    def paper_tuples(self, first: int = 0) -> Iterator[tuple[Any, ...]]:
        """Every paper as merged (of source `first` on), with its listed title, as its
        `paper_tuple`, in corpus order: what the papers file holds. A record merging left
        alone gives the tuple it holds, not made a `Paper` and a tuple again."""
        absorbed, changed, titles = self.absorbed, self.changed, self.titles
        for spot, name in enumerate(self.files[first:], first):
            start = self.starts[spot]
            cache = RecordFile(self.folder / name, SOURCE, header=False)
            try:
                with no_collection():
                    for local in range(cache.count):
                        index = start + local
                        if index in absorbed:
                            continue
                        stored = cache.get(local)
                        row = stored[0]
                        record = changed.get(index)
                        if record is None and row[_COLLECTIONS]:
                            # Only the listed title may differ: the tuple with it put in,
                            # not a `Paper` made (an add may rename most papers).
                            title = titles.get(index)
                            yield (
                                row if title is None else (*row[:_TITLE], title, *row[_TITLE + 1 :])
                            )
                        else:
                            record = record or Prepared.from_tuple(stored)
                            yield paper_tuple(self._listed(index, record.paper))
            finally:
                cache.close()

    def _listed(self, index: int, paper: Paper) -> Paper:
        """`paper` with its listed title (a copy when that is another)."""
        if index in self.titles:
            paper = copy.copy(paper)
            paper.title = self.titles[index]
        return paper
