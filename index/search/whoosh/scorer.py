"""Plans run over Whoosh's index files term at a time: the scores Whoosh gives, for a tenth of
the work.

Whoosh runs a query as a tree of matcher objects that step through the documents together,
scoring each match with a few dozen Python calls, so a frequent word is slow. This runs
the same plan (plan.py) one term at a time: each term's postings are read from each
segment's postings file (whoosh/postings.py: arrays, no unpickling), scored from a table
of the 256 field lengths a document can have (Whoosh keeps lengths in one byte) and
gathered in dicts; groups,
phrases, boosts and exclusions are then set operations. Scores are Whoosh's BM25F (same
idf, average lengths, B and K1, the same boosts), summed in another order, so they agree
to ~1e-12; ties go to the earlier document, as in Whoosh (tests/search/test_whoosh_scorer.py
runs both on the same plans).

A plan of all its words reads its rarest group whole and each next one only for the papers
matching those before, as boosts and a phrase's words are read only for the papers they can
add to: a document is picked in C for a tenth of the cost of scoring it, and the frequent
word of `large language models` is mostly ruled out (a first run read and scored 75,000
postings at 50,000 abstracts for 8,342 matches). A term read so is not kept; the next time
it is wanted it is read whole and kept, as the words typed so far come back at every key.

Phrases need positions: those of a phrase's words are read from the same files, each kept as
a set of (document, position) pairs made one number each, and a paper matches when the words
follow each other there: found by looking up the phrase's starts in those sets, in C, not by
a Python step per candidate paper.
"""

from __future__ import annotations

import heapq
import sys
from array import array
from collections import Counter, OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, compress, repeat
from math import log
from operator import add, and_, mul, sub
from typing import Any, TypeAlias

from whoosh.codec.whoosh3 import LENGTHS_COLUMN
from whoosh.scoring import BM25F
from whoosh.searching import Searcher as WhooshSearcher
from whoosh.util.numeric import byte_to_length

from paperterm.index.search.boost_share import shared_boosts
from paperterm.index.search.plan import AnyOf, Phrase, Plan, Term
from paperterm.index.search.whoosh import private as whoosh_private  # noqa: F401  (checks the private names)
from paperterm.index.search.whoosh.postings import UINT32, Entry, PostingsTable

#: Document -> score.
Scores = dict[int, float]
#: A term's weights in a leaf: one each, or one number for all.
_Weights: TypeAlias = "Sequence[float] | float"
#: A term's postings in a leaf: documents' numbers in the leaf, the leaf's first number,
#: their weights, the leaf's length bytes (a list: its `__getitem__` is the quickest).
_Block: TypeAlias = tuple[Sequence[int], int, _Weights, list[int]]
#: Documents a plan's part is scored for (`PlanScorer._alternative`): a set, or a dict's
#: keys (the dict: its `__contains__` is a built-in method, a keys view's a slot wrapper,
#: which a `map` calls slower, as it does an int's `__add__` or a bytes'
#: `__getitem__`: the mapped steps below use `operator`'s functions and lists instead).
Within: TypeAlias = "set[int] | dict[int, float]"
#: Terms whose postings are kept from one query to the next (the words typed so far come
#: back at every keystroke), up to this many postings in all: 12 bytes each, 24 MB.
CACHE_POSTINGS = 2_000_000
#: The same for the positions phrases read, up to this many positions in all (~66 bytes
#: each in a frozenset of places, 26 MB; the bench's four phrases hold 282,000 at 50,000).
CACHE_VALUES = 400_000
#: A word's place in a document as one number: `(position << DOC_BITS) + document`, with
#: documents numbered below 2**32 (the postings file keeps them in 32 bits). A phrase's
#: start is a word's place less the word's place in the phrase: its position may fall below
#: 0, and stay that document's. The document in the low bits spreads places over a set's
#: hash table (which its low bits index); positions there made a frozenset of places
#: slower to build and to look up.
DOC_BITS = 32
_DOC = (1 << DOC_BITS) - 1
#: Which 32-bit half of a 64-bit number is the low one, in memory.
_LOW_HALF = 0 if sys.byteorder == "little" else 1
#: A term's postings in a leaf from which on its scores are looked up in rows of products
#: made first (`_scored`): 256 multiplications a row, one row a weight.
ROW_POSTINGS = 1024
#: Terms whose infos (where their postings are, how many) are kept: ~300 bytes each.
CACHE_TERM_INFOS = 100_000


class PlanScorer:
    """Runs plans on one Whoosh searcher. Not thread-safe (nor is the searcher)."""

    def __init__(self, searcher: WhooshSearcher) -> None:
        self.searcher = searcher
        self.weighting = searcher.weighting
        if type(self.weighting) is not BM25F:
            raise ValueError("only BM25F scoring is run term at a time")
        self._leaves = [(leaf.reader(), offset) for leaf, offset in searcher.leaf_searchers()]
        self._tables = [_table(reader) for reader, _ in self._leaves]
        self._count = int(searcher.doc_count_all())
        self._lengths: dict[tuple[int, str], list[int]] = {}
        self._bases: dict[str, _Bases] = {}
        self._infos: dict[tuple[str, str], list[tuple[int, Entry]]] = {}
        self._cache: OrderedDict[tuple[str, str], _TermPostings] = OrderedDict()
        self._cached = 0
        self._value_cache: OrderedDict[tuple[str, str], frozenset[int]] = OrderedDict()
        self._values_cached = 0
        #: Terms read for some documents only, since last read whole.
        self._read_in_part: set[tuple[str, str]] = set()

    def forget(self) -> None:
        """Drop what is kept of the terms read (postings, positions, term infos, terms read
        in part), so that the next query reads its terms as a first one does."""
        self._cache.clear()
        self._cached = 0
        self._value_cache.clear()
        self._values_cached = 0
        self._infos.clear()
        self._read_in_part.clear()

    # --- a plan ----------------------------------------------------------------------------

    def collect(
        self, plan: Plan, limit: int | None, allowed: set[int] | None
    ) -> tuple[list[tuple[int, float]], int]:
        """The best `limit` documents `plan` matches (all when None), among `allowed`, with
        their scores, best first (the earlier document first among equals), and how many
        documents match in all."""
        if not self._count:  # no documents: no idf either (the log of 0)
            return [], 0
        if plan.requires_all and plan.required:
            groups, common = self._narrowed_groups(plan.required)
            scores = _all_of(groups, common)
        else:
            groups = [self._group(group, None) for group in plan.required]
        if not groups:
            scores = dict.fromkeys(range(self.searcher.doc_count_all()), 1.0)
        elif not plan.requires_all:
            matched: Counter[int] = Counter()
            for group in groups:
                matched.update(group.keys())
            least = max(1, plan.minimum or 1)
            scores = {}
            for group in groups:
                for docnum, score in group.items():
                    if matched[docnum] >= least:
                        scores[docnum] = scores.get(docnum, 0.0) + score
        if plan.excluded:
            for excluded in plan.excluded:
                for docnum in self._group_docs(excluded):
                    scores.pop(docnum, None)
        if allowed is not None:
            scores = {docnum: s for docnum, s in scores.items() if docnum in allowed}
        if plan.boosts and scores:
            boosts = [self._alternative(boost, scores) for boost in plan.boosts]
            if plan.share_boosts:
                boosts = shared_boosts(plan.boosts, boosts, len(plan.required))
            extra = _sum_of(boosts)
            _add_into(scores, extra, extra.keys())  # documents of `scores` only
        return _best(scores, limit), len(scores)

    def _narrowed_groups(self, required: Sequence[AnyOf]) -> tuple[list[Scores], Iterable[int]]:
        """Each group's scores of the documents that may match them all (in the plan's
        order), and the documents that match them all: the cheapest group's whole, then
        each next only of the documents matching those before (`_alternative`'s `within`),
        so that a frequent word's postings are not scored where the rarer ones rule a paper
        out; the last one's documents are those in every group. None once none can be."""
        found: list[Scores] = [{} for _ in required]
        scores: Scores | None = None
        for place in sorted(range(len(required)), key=lambda place: required[place].cost):
            scores = found[place] = self._group(required[place], scores)
            if not scores:
                return [{}], ()
        assert scores is not None  # a group was read: `required` is not empty
        return found, scores.keys()

    def _group(self, group: AnyOf, within: Within | None) -> Scores:
        return _sum_of([self._alternative(choice, within) for choice in group.alternatives])

    def _group_docs(self, group: AnyOf) -> set[int]:
        docs: set[int] = set()
        for alternative in group.alternatives:
            if isinstance(alternative, Term):
                docs.update(self._term_scores(alternative.field, alternative.text))
            else:
                docs.update(self._phrase(alternative, None))
        return docs

    def _alternative(self, alternative: Term | Phrase, within: Within | None) -> Scores:
        """The alternative's scores, of the documents in `within` only (None: all)."""
        if isinstance(alternative, Term):
            return self._term(alternative.field, alternative.text, alternative.weight, within)
        return self._phrase(alternative, within)

    # --- terms and phrases -----------------------------------------------------------------

    def _term(self, fieldname: str, text: str, boost: float, within: Within | None) -> Scores:
        """BM25F of each document holding the term (of those in `within`, None: all), times
        `boost` (a Whoosh `Term` query's score: `bm25(idf, weight, length, ...) * boost`): a
        new dict, the caller's."""
        if within is None:
            return self._term_scores(fieldname, text, boost)
        scores = self._term_scores_within(fieldname, text, within)
        if boost == 1.0:
            return scores
        return dict(zip(scores, map(mul, scores.values(), repeat(boost)), strict=True))

    def _term_scores(self, fieldname: str, text: str, boost: float = 1.0) -> Scores:
        """A term's documents (ascending) and their scores times `boost`, from the cache or
        read now: a new dict, the caller's."""
        key = (fieldname, text)
        found = self._cache.pop(key, None)
        if found is not None:
            self._cache[key] = found  # now the most recently used
            values = found.scores if boost == 1.0 else map(mul, found.scores, repeat(boost))
            return dict(zip(found.docs, values, strict=True))
        scores = self._read_term(fieldname, text)
        if len(scores) <= CACHE_POSTINGS:  # else it would only push out what is kept
            self._keep_postings(key, _TermPostings(array("I", scores), array("d", scores.values())))
        if boost != 1.0:  # values replaced in place: the keys stay as they are
            scores.update(zip(scores, map(mul, scores.values(), repeat(boost)), strict=True))
        return scores

    def _term_scores_within(self, fieldname: str, text: str, within: Within) -> Scores:
        """`_term_scores` of the documents in `within` only, the same numbers. A term not
        kept, of more documents than `within`, is read for those documents only (picking a
        document costs a posting a tenth of scoring it), and not kept: the first time; the
        next time (a query typed on, or run again) it is read whole and kept
        (`_term_scores`), as the words typed so far come back at every keystroke. A term of
        no more documents is read whole and kept the first time: reading it for some
        would save little."""
        key = (fieldname, text)
        found = self._cache.get(key)
        if found is not None:
            self._cache.move_to_end(key)  # now the most recently used
            keep = list(map(within.__contains__, found.docs))
            return dict(zip(compress(found.docs, keep), compress(found.scores, keep), strict=True))
        # Read in part before, or few to rule out: read whole and kept.
        if key in self._read_in_part or self.doc_frequency(fieldname, text) <= len(within):
            self._read_in_part.discard(key)
            whole = self._term_scores(fieldname, text)
            return dict(compress(whole.items(), map(within.__contains__, whole)))
        if len(self._read_in_part) >= CACHE_TERM_INFOS:
            self._read_in_part.clear()
        self._read_in_part.add(key)
        scores: Scores = {}
        idf = self.idf(fieldname, text)
        bases = self._field_bases(fieldname)
        for ids, offset, weights, lengths in self._table_postings(fieldname, text):
            docs = list(map(add, ids, repeat(offset))) if offset else ids
            keep = list(map(within.__contains__, docs))
            local = list(compress(ids, keep))
            if local:
                kept = weights if isinstance(weights, float) else list(compress(weights, keep))
                values = _scored(local, kept, lengths, bases, idf)
                scores.update(zip(compress(docs, keep), values, strict=True))
        return scores

    def _keep_postings(self, key: tuple[str, str], found: _TermPostings) -> None:
        """Keep a term's postings read now, the least recently used dropped past
        `CACHE_POSTINGS`."""
        self._cached += len(found.docs)
        while self._cached > CACHE_POSTINGS and self._cache:
            _, dropped = self._cache.popitem(last=False)
            self._cached -= len(dropped.docs)
        self._cache[key] = found

    def _read_term(self, fieldname: str, text: str) -> Scores:
        """A term's postings scored: `idf * base[weight][length byte]`, the base rows shared
        by every term of the field (a row per term and weight, 256 scores each, was a third
        of a first query's reading), in a dict made straight from the file's arrays (each
        document and score made a Python object once)."""
        scores: Scores = {}
        idf = self.idf(fieldname, text)
        bases = self._field_bases(fieldname)
        for ids, offset, weights, lengths in self._table_postings(fieldname, text):
            values = _scored(ids, weights, lengths, bases, idf)
            docs = map(add, ids, repeat(offset)) if offset else ids
            scores.update(zip(docs, values, strict=True))
        return scores

    def term_infos(self, fieldname: str, text: str) -> list[tuple[int, Entry]]:
        """(leaf, entry in its postings file) of each leaf holding the term: looked up once
        for the planner's document frequency, the idf and the postings. Kept for the
        searcher's life, up to `CACHE_TERM_INFOS` terms."""
        key = (fieldname, text)
        found = self._infos.get(key)
        if found is None:
            found = []
            btext = self._btext(fieldname, text)
            if btext is not None:
                for leaf, table in enumerate(self._tables):
                    entry = table.find(fieldname, btext) if table is not None else None
                    if entry is not None:
                        found.append((leaf, entry))
            if len(self._infos) >= CACHE_TERM_INFOS:
                self._infos.clear()
            self._infos[key] = found
        return found

    def _btext(self, fieldname: str, text: str) -> bytes | None:
        """The term as the field keeps it (None: no such indexed field)."""
        schema = self.searcher.schema
        if fieldname not in schema or schema[fieldname].format is None:
            return None
        return bytes(schema[fieldname].to_bytes(text))

    def doc_frequency(self, fieldname: str, text: str) -> int:
        """How many documents hold the term (Whoosh's `doc_frequency`, summed over leaves)."""
        return sum(entry[0] for _, entry in self.term_infos(fieldname, text))

    def idf(self, fieldname: str, text: str) -> float:
        """Whoosh's idf (`WeightingModel.idf`), from the term infos already read."""
        return log(self._count / (self.doc_frequency(fieldname, text) + 1)) + 1

    def _phrase(self, phrase: Phrase, within: Within | None) -> Scores:
        """Documents where the phrase's words follow each other (of those in `within`,
        None: all), scored as Whoosh scores a phrase: the sum of its words' scores, times
        its weight. The words' postings are scored for those documents only."""
        if not all(self.doc_frequency(phrase.field, word) for word in phrase.words):
            return {}
        found = _following([self._values(phrase.field, word) for word in phrase.words])
        if within is not None:
            found = set(filter(within.__contains__, found))
        if not found:
            return {}
        words = [self._term_scores_within(phrase.field, word, found) for word in phrase.words]
        matching = sorted(found)
        totals = [0.0] * len(matching)
        for word in words:  # summed in the words' order, each document's as it was
            totals = list(map(add, totals, map(word.__getitem__, matching)))
        if phrase.weight != 1.0:
            totals = list(map(mul, totals, repeat(phrase.weight)))
        return dict(zip(matching, totals, strict=True))

    def _values(self, fieldname: str, text: str) -> frozenset[int]:
        """The term's places (`DOC_BITS`): its positions in each document holding it
        (kept like postings)."""
        key = (fieldname, text)
        found = self._value_cache.pop(key, None)
        if found is not None:
            self._value_cache[key] = found  # now the most recently used
            return found
        found = self._read_positions(fieldname, text)
        self._keep_values(key, found)
        return found

    def _read_positions(self, fieldname: str, text: str) -> frozenset[int]:
        places: list[Iterable[int]] = []
        for leaf, entry in self.term_infos(fieldname, text):
            table = self._tables[leaf]
            assert table is not None  # an entry was found in it
            ends, positions = table.positions(entry)
            if not ends:  # a field that keeps no positions
                continue
            docs, _ = table.postings(entry)
            offset = self._leaves[leaf][1]
            places.append(_places(map(add, docs, repeat(offset)), ends, positions))
        return frozenset(chain.from_iterable(places))

    def _keep_values(self, key: tuple[str, str], found: frozenset[int]) -> None:
        """Keep a term's positions read now, the least recently used dropped past
        `CACHE_VALUES`."""
        self._values_cached += len(found)
        while self._values_cached > CACHE_VALUES and self._value_cache:
            _, dropped = self._value_cache.popitem(last=False)
            self._values_cached -= len(dropped)
        self._value_cache[key] = found

    # --- reading ---------------------------------------------------------------------------

    def _field_bases(self, fieldname: str) -> _Bases:
        """weight -> the field's BM25 score for each length byte, before the idf."""
        bases = self._bases.get(fieldname)
        if bases is None:
            weighting = self.weighting
            b = weighting._field_B.get(fieldname, weighting.B)
            average = self.searcher.avg_field_length(fieldname) or 1
            k1 = weighting.K1
            norms = [k1 * ((1 - b) + b * byte_to_length(n) / average) for n in range(256)]
            bases = self._bases[fieldname] = _Bases(k1 + 1, norms)
        return bases

    def _leaf_lengths(self, leaf: int, fieldname: str) -> list[int]:
        """Each document's length byte in `fieldname`, in one leaf (segment)."""
        key = (leaf, fieldname)
        found = self._lengths.get(key)
        if found is None:
            reader = self._leaves[leaf][0]
            count = reader.doc_count_all()
            column = reader._perdoc._cached_reader(f"_{fieldname}_len", LENGTHS_COLUMN)
            raw = b"" if column is None else column._dbfile.get(column._basepos, column._count)
            found = self._lengths[key] = list(bytes(raw) + bytes(count - len(raw)))
        return found

    def _table_postings(self, fieldname: str, text: str) -> Iterator[_Block]:
        """A term's postings in each leaf (segment), from the leaves' postings files: its
        documents' numbers in the leaf, the leaf's first number in the index, their weights
        (a number: all that number), the leaf's length bytes."""
        for leaf, entry in self.term_infos(fieldname, text):
            table = self._tables[leaf]
            assert table is not None  # an entry was found in it
            docs, weights = table.postings(entry)
            yield docs, self._leaves[leaf][1], weights, self._leaf_lengths(leaf, fieldname)

    def close(self) -> None:
        """Unmap the postings files (the searcher's files are closed with it)."""
        for table in self._tables:
            if table is not None:
                table.close()


def _table(reader: Any) -> PostingsTable | None:
    """The postings file of a leaf (None: a leaf of no segment, an empty index's)."""
    segment = getattr(reader, "_segment", None)
    if segment is None:
        return None
    return PostingsTable.of_segment(reader._storage, segment)


def _scored(
    ids: Sequence[int], weights: _Weights, lengths: list[int], bases: _Bases, idf: float
) -> Iterator[float]:
    """Each posting's score, `idf * bases[weight][length byte]`: multiplied posting by
    posting or, past `ROW_POSTINGS`, looked up in rows of those products (a row a weight)
    made first: the same numbers. Mapped built-in methods: a posting costs no Python
    bytecode of its own."""
    found = map(lengths.__getitem__, ids)
    if len(ids) < ROW_POSTINGS:
        idfs = repeat(idf)
        if isinstance(weights, float):
            return map(mul, idfs, map(bases[weights].__getitem__, found))
        return map(mul, idfs, map(list.__getitem__, map(bases.__getitem__, weights), found))
    rows = _Rows(bases, idf)
    if isinstance(weights, float):
        return map(rows[weights].__getitem__, found)
    return map(list.__getitem__, map(rows.__getitem__, weights), found)


def _places(docs: Iterable[int], ends: Sequence[int], positions: Sequence[int]) -> array[int]:
    """A term's places (`DOC_BITS`) from its postings: their documents, where each one's
    positions end in `positions` (`PostingsTable.positions`), and the positions. Made as
    halves of 64-bit numbers, each position's document in the low one and the position in
    the high one, copied in by a memory view (two steps of C), not shifted and added a
    place at a time in Python's numbers (a third of a phrase's first run)."""
    counts = map(sub, ends, chain((0,), ends))
    found = array("Q", bytes(8 * len(positions)))
    halves = memoryview(found).cast("B").cast(UINT32)  # type: ignore[call-overload]
    halves[_LOW_HALF::2] = array(UINT32, chain.from_iterable(map(repeat, docs, counts)))
    high = positions if isinstance(positions, array) and positions.typecode == UINT32 else None
    halves[1 - _LOW_HALF :: 2] = high if high is not None else array(UINT32, positions)
    return found


def _following(words: list[frozenset[int]]) -> set[int]:
    """The documents where the words (their places, `DOC_BITS`) follow each other: the
    phrase's possible starts are the places of the word with the fewest, each less that
    word's place in the phrase; a start is kept when each other word is at it plus its
    place. Every step is a built-in's, with no Python code per place."""
    fewest = min(range(len(words)), key=lambda place: len(words[place]))
    starts: Iterable[int] = map(sub, words[fewest], repeat(fewest << DOC_BITS))
    for place, word in enumerate(words):
        if place != fewest:
            shift = place << DOC_BITS
            found = filter(word.__contains__, map(add, starts, repeat(shift)))
            starts = map(sub, found, repeat(shift))
    return set(map(and_, starts, repeat(_DOC)))


def _sum_of(alternatives: list[Scores]) -> Scores:
    """Documents matching any, with the sum of the scores of those they match."""
    if len(alternatives) < 2:
        return alternatives[0] if alternatives else {}
    total, *others = alternatives  # each a new dict, the caller's (`_term`, `_phrase`)
    for scores in others:
        _add_into(total, scores, scores.keys())
    return total


def _add_into(total: Scores, scores: Scores, docs: Iterable[int]) -> None:
    """`total[d] = total.get(d, 0.0) + scores[d]` for each of `docs` (documents of `scores`,
    none twice): mapped built-ins' work, no Python step a document."""
    sums = map(add, map(total.get, docs, repeat(0.0)), map(scores.__getitem__, docs))
    total.update(zip(docs, sums, strict=True))


def _all_of(groups: list[Scores], common: Iterable[int]) -> Scores:
    """The documents `common` to every group, with the sum of their scores."""
    if len(groups) == 1:
        return groups[0]
    first, *others = groups
    sums: Iterable[float] = map(first.__getitem__, common)
    for group in others:  # summed in the groups' order, each document's
        sums = map(add, sums, map(group.__getitem__, common))
    return dict(zip(common, sums, strict=True))


class _Bases(dict[float, list[float]]):
    """weight -> [`(weight * (K1 + 1)) / (weight + norm)` for each length byte's norm]: a
    term's BM25 score is its idf times this (Whoosh's `bm25(idf, weight, length, average, B,
    K1)`, the same operations in the same order), so one row serves every term."""

    def __init__(self, k1_plus_1: float, norms: list[float]) -> None:
        super().__init__()
        self.k1, self.norms = k1_plus_1, norms

    def __missing__(self, weight: float) -> list[float]:
        k1 = self.k1
        row = [(weight * k1) / (weight + norm) for norm in self.norms]
        self[weight] = row
        return row


class _Rows(dict[float, list[float]]):
    """weight -> the idf times `bases[weight]`: one term's scores for each length byte."""

    def __init__(self, bases: _Bases, idf: float) -> None:
        super().__init__()
        self.bases, self.idf = bases, idf

    def __missing__(self, weight: float) -> list[float]:
        idf = self.idf
        row = self[weight] = [idf * base for base in self.bases[weight]]
        return row


@dataclass(frozen=True, slots=True)
class _TermPostings:
    """A term's documents (ascending) and their unboosted scores."""

    docs: array[int]
    scores: array[float]


def _best(scores: Scores, limit: int | None) -> list[tuple[int, float]]:
    """Highest score first, the earlier document first among equals."""
    if limit is not None and limit < len(scores):
        if limit <= 0:
            return []
        lowest = heapq.nlargest(limit, scores.values())[-1]
        return sorted(((d, s) for d, s in scores.items() if s >= lowest), key=_rank)[:limit]
    return sorted(scores.items(), key=_rank)


def _rank(item: tuple[int, float]) -> tuple[float, int]:
    return (-item[1], item[0])
