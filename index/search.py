"""Searching the index: clauses to Whoosh queries, ranking, snippets, suggestions, similar.

Every query is built in code from `parse_query`'s clauses, with hard caps on what can make
Whoosh slow: prefixes and fuzzy terms are expanded by us to at most `MAX_EXPANSIONS` real
words, fuzzy distance is at most 2, and the number of clauses is capped. `Searcher.search`
never raises for any query string.
"""

from __future__ import annotations

import time
from bisect import bisect_right
from dataclasses import dataclass, field
from heapq import nlargest

from whoosh import query as Q
from whoosh.index import Index
from whoosh.searching import Searcher as WhooshSearcher

from paperterm.index.analysis import plain_analyzer, stemming_analyzer
from paperterm.index.papers import Paper
from paperterm.index.query import Clause, ParsedQuery, parse_query

#: Fields searched by a clause with no field, and the analyzer kind of each.
ALL_FIELDS = ("name", "title", "abstract", "authors", "collection")
STEMMED = {"title", "abstract"}
MAX_EXPANSIONS = 40
MIN_IMPLICIT_PREFIX = 6
IMPLICIT_PREFIX_BOOST = 0.3
SNIPPET_WORDS = 28
FALLBACK_NOTE = "no paper has every word; showing papers with any of them"

Span = tuple[int, int]


@dataclass(slots=True)
class Hit:
    paper: Paper
    score: float
    snippet: str = ""
    spans: list[Span] = field(default_factory=list)

    def marked_snippet(self, before: str = "**", after: str = "**") -> str:
        return mark(self.snippet, self.spans, before, after)


@dataclass(slots=True)
class Results:
    query: str
    hits: list[Hit] = field(default_factory=list)
    total: int = 0
    took_ms: float = 0.0
    notes: list[str] = field(default_factory=list)
    suggestion: str = ""
    matcher: Matcher | None = None

    @property
    def ids(self) -> list[str]:
        return [hit.paper.id for hit in self.hits]


class Matcher:
    """Finds the words of a query in a text (for snippets and highlighting in the reader)."""

    def __init__(self, stemmed: set[str], plain: set[str], prefixes: tuple[str, ...]) -> None:
        self.stemmed = stemmed
        self.plain = plain
        self.prefixes = prefixes
        self._stem = stemming_analyzer()
        self._plain = plain_analyzer()

    def __bool__(self) -> bool:
        return bool(self.stemmed or self.plain or self.prefixes)

    def spans(self, text: str) -> list[Span]:
        """Character ranges of the words in `text` that the query matched."""
        if not self or not text:
            return []
        found: dict[Span, None] = {}
        if self.stemmed:
            for token in self._stem(text, chars=True):
                if token.text in self.stemmed:
                    found[(token.startchar, token.endchar)] = None
        if self.plain or self.prefixes:
            for token in self._plain(text, chars=True):
                word = token.text
                if word in self.plain or (self.prefixes and word.startswith(self.prefixes)):
                    found[(token.startchar, token.endchar)] = None
        return sorted(found)


def mark(text: str, spans: list[Span], before: str, after: str) -> str:
    out: list[str] = []
    last = 0
    for start, end in spans:
        if start < last:
            continue
        out.append(text[last:start])
        out.append(before + text[start:end] + after)
        last = end
    out.append(text[last:])
    return "".join(out)


def snippet(text: str, spans: list[Span], words: int = SNIPPET_WORDS) -> tuple[str, list[Span]]:
    """The window of about `words` words with the most matches, and the spans within it."""
    if not text:
        return "", []
    starts = _word_starts(text)
    if not spans or len(starts) <= words:
        window_start, window_end = 0, len(starts)
    else:
        best, best_count, j = 0, -1, 0
        span_words = [_word_index(starts, start) for start, _ in spans]
        for i in range(len(span_words)):
            while j < len(span_words) and span_words[j] < span_words[i] + words:
                j += 1
            distinct = len({text[spans[k][0] : spans[k][1]].lower() for k in range(i, j)})
            if distinct > best_count:
                best, best_count = i, distinct
        window_start = max(0, span_words[best] - 3)
        window_end = min(len(starts), window_start + words)
    first = starts[window_start]
    last = starts[window_end] if window_end < len(starts) else len(text)
    piece = text[first:last].rstrip()
    prefix = "…" if window_start > 0 else ""
    suffix = "…" if window_end < len(starts) else ""
    shift = len(prefix) - first
    inside = [(s + shift, e + shift) for s, e in spans if s >= first and e <= first + len(piece)]
    return prefix + piece + suffix, inside


def _word_starts(text: str) -> list[int]:
    starts = []
    in_space = True
    for index, ch in enumerate(text):
        if ch.isspace():
            in_space = True
        elif in_space:
            starts.append(index)
            in_space = False
    return starts or [0]


def _word_index(starts: list[int], char: int) -> int:
    return max(0, bisect_right(starts, char) - 1)


class Searcher:
    """Queries over one open index. Not thread-safe: use one per thread."""

    def __init__(self, ix: Index, papers: list[Paper]) -> None:
        self.ix = ix
        self.papers = papers
        self.by_id = {paper.id: paper for paper in papers}
        self._searcher: WhooshSearcher = ix.searcher()
        self._stem = stemming_analyzer()
        self._plain = plain_analyzer()
        self._docnums: dict[str, int] | None = None

    def close(self) -> None:
        self._searcher.close()

    # --- query building ------------------------------------------------------------------

    def _analyze(self, fieldname: str, text: str) -> list[str]:
        analyzer = self._stem if fieldname in STEMMED else self._plain
        return [token.text for token in analyzer(text)]

    def _field_query(self, fieldname: str, clause: Clause, matcher: Matcher) -> Q.Query | None:
        if clause.kind in ("prefix", "fuzzy"):
            return self._expanded(fieldname, clause, matcher)
        words = self._analyze(fieldname, clause.text)
        if not words:
            return None
        (matcher.stemmed if fieldname in STEMMED else matcher.plain).update(words)
        if len(words) == 1:
            return Q.Term(fieldname, words[0])
        return Q.Phrase(fieldname, words)

    def _expanded(self, fieldname: str, clause: Clause, matcher: Matcher) -> Q.Query | None:
        """Prefix and fuzzy terms, expanded to the most frequent real words (capped)."""
        source = "words" if fieldname in STEMMED or fieldname == "words" else fieldname
        words = self._analyze("words", clause.text)
        if len(words) != 1:
            return None
        word = words[0]
        reader = self._searcher.reader()
        if clause.kind == "prefix":
            candidates = (
                reader.schema[source].from_bytes(b) for b in reader.expand_prefix(source, word)
            )
        else:
            candidates = iter(
                reader.terms_within(source, word, clause.distance, prefix=1 if len(word) > 3 else 0)
            )
        picked = nlargest(
            MAX_EXPANSIONS,
            _take(candidates, 5000),
            key=lambda term: reader.doc_frequency(source, term),
        )
        if clause.kind == "prefix":
            matcher.prefixes += (word,)
        else:
            matcher.plain.update(picked)
        if not picked:
            return Q.NullQuery
        return Q.Or([Q.Term(source, term) for term in picked])

    def _clause_query(self, clause: Clause, matcher: Matcher) -> Q.Query | None:
        fields = (clause.field,) if clause.field else ALL_FIELDS
        if not clause.field and clause.kind in ("prefix", "fuzzy"):
            fields = ("words",)
        parts = [q for f in fields if (q := self._field_query(f, clause, matcher)) is not None]
        if parts and clause.kind == "word" and not clause.field:
            # A half-remembered word is often the start of the one written ("complement" for
            # "complementarity"): longer words also match as prefixes, with a small weight.
            stem = self._analyze("words", clause.text)
            if len(stem) == 1 and len(stem[0]) >= MIN_IMPLICIT_PREFIX:
                implicit = self._expanded(
                    "words", Clause("prefix", stem[0]), Matcher(set(), set(), ())
                )
                if implicit is not None and implicit is not Q.NullQuery:
                    implicit.boost = IMPLICIT_PREFIX_BOOST
                    parts.append(implicit)
                    matcher.prefixes += (stem[0],)
        if not parts:
            return None
        return parts[0] if len(parts) == 1 else Q.Or(parts)

    def build(self, parsed: ParsedQuery) -> tuple[list[Q.Query], list[Q.Query], Matcher]:
        matcher = Matcher(set(), set(), ())
        positive = [q for c in parsed.positive if (q := self._clause_query(c, matcher))]
        # Excluded words must not colour the snippet: use a throwaway matcher for them.
        negative = [
            q for c in parsed.negative if (q := self._clause_query(c, Matcher(set(), set(), ())))
        ]
        return positive, negative, matcher

    # --- searching -----------------------------------------------------------------------

    def search(
        self,
        text: str,
        limit: int | None = 50,
        snippets: bool = True,
        allowed: set[str] | None = None,
    ) -> Results:
        """Papers matching `text`, best first. `allowed` restricts to those ids."""
        started = time.perf_counter()
        parsed = parse_query(text)
        results = Results(query=text, notes=list(parsed.notes))
        try:
            self._run(parsed, results, limit, allowed)
        except Exception as error:  # a query must never crash the reader
            results.hits = []
            results.total = 0
            results.notes.append(f"query could not run ({type(error).__name__}); try fewer terms")
        if snippets and results.matcher is not None:
            for hit in results.hits[: limit or len(results.hits)]:
                self.add_snippet(hit, results.matcher)
        results.took_ms = round((time.perf_counter() - started) * 1000, 2)
        return results

    def add_snippet(self, hit: Hit, matcher: Matcher) -> None:
        hit.snippet, hit.spans = snippet(hit.paper.text, matcher.spans(hit.paper.text))

    def _run(
        self, parsed: ParsedQuery, results: Results, limit: int | None, allowed: set[str] | None
    ) -> None:
        positive, negative, matcher = self.build(parsed)
        results.matcher = matcher
        if not positive and not negative:
            papers = [p for p in self.papers if allowed is None or p.id in allowed]
            if parsed.clauses:
                results.notes.append("nothing to search for in that query; showing all papers")
            results.hits = [Hit(p, 0.0) for p in papers[:limit]]
            results.total = len(papers)
            return
        base: Q.Query = Q.And(positive) if positive else Q.Every()
        query = Q.AndNot(base, Q.Or(negative)) if negative else base
        found = self._collect(query, limit, allowed)
        if found[1] == 0 and len(positive) > 1:
            any_query: Q.Query = Q.Or(positive)
            if negative:
                any_query = Q.AndNot(any_query, Q.Or(negative))
            found = self._collect(any_query, limit, allowed)
            if found[1]:
                results.notes.append(FALLBACK_NOTE)
        results.hits, results.total = found
        if results.total == 0:
            results.suggestion = self.suggest(parsed)

    def _collect(
        self, query: Q.Query, limit: int | None, allowed: set[str] | None
    ) -> tuple[list[Hit], int]:
        filter_docs = None
        if allowed is not None:
            filter_docs = {self.docnums[i] for i in allowed if i in self.docnums}
        hits = self._searcher.search(query, limit=limit, filter=filter_docs)
        out = []
        for hit in hits:
            paper = self.by_id.get(hit["id"])
            if paper is not None:
                out.append(Hit(paper, float(hit.score or 0.0)))
        return out, len(hits)

    @property
    def docnums(self) -> dict[str, int]:
        if self._docnums is None:
            self._docnums = {fields["id"]: docnum for docnum, fields in self._searcher.iter_docs()}
        return self._docnums

    def suggest(self, parsed: ParsedQuery) -> str:
        """A "did you mean" made of real words from the corpus (never stems)."""
        reader = self._searcher.reader()
        changed = False
        words: list[str] = []
        for clause in parsed.positive:
            if clause.kind not in ("word", "fuzzy") or clause.field not in (
                None,
                "title",
                "abstract",
            ):
                words.append(clause.text)
                continue
            out = []
            for word in self._analyze("words", clause.text):
                if reader.doc_frequency("words", word) or len(word) < 3:
                    out.append(word)
                    continue
                best = self._closest(word)
                changed = changed or best != word
                out.append(best)
            words.append(" ".join(out))
        return " ".join(words) if changed else ""

    def _closest(self, word: str) -> str:
        reader = self._searcher.reader()
        for distance in (1, 2):
            options = list(_take(reader.terms_within("words", word, distance, prefix=1), 2000))
            if options:
                return max(options, key=lambda term: reader.doc_frequency("words", term))
        return word

    def similar(self, paper_id: str, limit: int = 5) -> list[Hit]:
        """Papers like this one (Whoosh more-like-this over the abstract's key terms)."""
        paper = self.by_id.get(paper_id)
        docnum = self.docnums.get(paper_id)
        if paper is None or docnum is None:
            return []
        text = f"{paper.title} {paper.text}"
        try:
            hits = self._searcher.more_like(docnum, "abstract", text=text, top=limit, numterms=12)
        except Exception:  # similar papers are a nicety: never let them break the reader
            return []
        return [
            Hit(self.by_id[h["id"]], float(h.score or 0.0)) for h in hits if h["id"] in self.by_id
        ]

    def matcher_for(self, text: str) -> Matcher:
        """What the reader highlights in a paper's text for this query."""
        try:
            return self.build(parse_query(text))[2]
        except Exception:
            return Matcher(set(), set(), ())


def _take(iterable, count: int):
    for index, item in enumerate(iterable):
        if index >= count:
            return
        yield item
