"""Searching the index: a query string in, ranked papers with snippets out.

`Searcher` is what the CLI and the reader call. It parses the query, corrects its typos
(correction.py), has the `Planner` plan it (plan.py: terms, expansions, budgets, the
any-word fallback; no engine in it) and the engine run the plan (whoosh/engine.py, or
tantivy/engine.py), runs the any-word fallback when no paper has every word (and always
for a query of three words or more, whose papers it ranks), adds snippets and a "did you
mean".
`Searcher.search` never raises for any query string.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from paperterm.index.papers import Paper
from paperterm.index.search.correction import Corrector
from paperterm.index.search.engine import Engine, Scored
from paperterm.index.search.engine_files import EngineIndex
from paperterm.index.search.filter_fields import FILTER_FIELDS
from paperterm.index.search.hits import Hit, Matcher, Results, Span, mark, snippet
from paperterm.index.search.plan import Planner, postings_budget
from paperterm.index.search.query import ParsedQuery, parse_query
from paperterm.index.search.records import PaperList
from paperterm.index.search.topic_clauses import computed_topic_filter, has_topic_clause
from paperterm.index.search.vocabulary import Vocabulary
from paperterm.index.search.whoosh.engine import WhooshEngine

__all__ = ["Hit", "Matcher", "Results", "Searcher", "Span", "mark", "snippet"]

#: Snippets come from the start of a text, however long: a file read as one paragraph can
#: be megabytes, and scanning it all for matches took a second per hit.
SNIPPET_SCAN_CHARS = 20_000
#: Related papers are found from the key terms of the start of a paper's text: picking them
#: from all of a huge record held the reader's search lock too long. 20,000 characters
#: are several abstracts' worth.
SIMILAR_SCAN_CHARS = 20_000


def open_engine(
    ix: EngineIndex,
    ids: Callable[[], Sequence[str]],
    positions: Callable[[], dict[str, int]] | None = None,
) -> Engine:
    """The engine that searches an open index: tantivy's for a tantivy index (imported only
    then: it is optional), else Whoosh's. `ids` gives the papers' ids, by position, when an
    engine first needs them; `positions` the id -> position table, if one is kept already
    (else the engine makes its own from `ids`)."""
    from paperterm.index.search.tantivy.index import TantivyIndex

    if isinstance(ix, TantivyIndex):
        from paperterm.index.search.tantivy.engine import TantivyEngine

        return TantivyEngine(ix, ids, positions)
    return WhooshEngine(ix, ids, positions)


class Searcher:
    """Queries over one open index. Not thread-safe: use one per thread (or a lock)."""

    def __init__(
        self, ix: EngineIndex, papers: Sequence[Paper], vocabulary: Vocabulary | None = None
    ) -> None:
        """`papers` in the index's order (a document's number is its paper's position);
        a `PaperList` is read only where hits need it."""
        self.papers = papers
        self._ids: Callable[[], Sequence[str]]
        positions: Callable[[], dict[str, int]] | None = None
        if isinstance(papers, PaperList):
            positions = lambda: papers.positions  # noqa: E731 - one table for both
            self.by_id: Mapping[str, Paper] = papers.by_id
            # Read when first needed (a `tag:` filter, related papers), not here: hits are
            # read by position, and reading every id, then the garbage collector's first
            # collections of them, would slow the first queries.
            self._ids = lambda: papers.ids
        else:
            self.by_id = {paper.id: paper for paper in papers}
            listed = [paper.id for paper in papers]
            self._ids = lambda: listed
        self.engine: Engine = open_engine(ix, self._ids, positions)
        self.vocabulary = vocabulary or Vocabulary.of_papers(papers)
        papers_count = self.engine.paper_count()
        self.planner = Planner(
            self.vocabulary,
            self.engine.df,
            self.engine.analysis,
            postings_budget(papers_count),
            papers_count,
            self.field_words,
        )
        self.corrector = Corrector(self.planner)
        self._field_words: dict[str, Vocabulary] = {}
        #: The letters `warm_typing` searched, by (letter, limit): their results but the
        #: hits, and the hits' positions and scores.
        self._typed: dict[tuple[str, int | None], tuple[Results, Scored]] = {}

    @property
    def ids(self) -> Sequence[str]:
        """The papers' ids, by position."""
        return self._ids()

    def field_words(self, fieldname: str) -> Vocabulary:
        """The words of the `authors` or `collection` field, on first use: the engine's term
        list of the field with the papers holding each, else counted from the papers (every
        paper read); other fields' words are
        the main vocabulary's."""
        found = self._field_words.get(fieldname)
        if found is None:
            if fieldname not in ("authors", "collection", *FILTER_FIELDS):
                return self.vocabulary
            counts = self.engine.field_counts(fieldname)
            if counts is not None:
                found = Vocabulary(counts)
            elif fieldname in FILTER_FIELDS:
                text = FILTER_FIELDS[fieldname]
                found = Vocabulary.from_texts(text(paper) for paper in self.papers)
            elif fieldname == "authors":
                found = Vocabulary.from_texts(" ".join(paper.authors) for paper in self.papers)
            else:
                found = Vocabulary.from_texts(" ".join(p.collections) for p in self.papers)
            self._field_words[fieldname] = found
        return found

    def close(self) -> None:
        self.engine.close()

    def warm(self) -> None:
        """Load what the first filtered search would (call it off the UI thread): the
        engine's id table, and the id -> paper table, which a
        `tag:` filter and related papers look ids up in (hits are read by position)."""
        self.engine.warm()
        if isinstance(self.papers, PaperList):
            self.papers.warm()

    def warm_typing(self, letter: str, limit: int | None = None) -> None:
        """Search `letter` as the first key of a word, so that its most frequent completions'
        postings are cached (the engine keeps a term's postings from one query to the
        next): a word's first letter is the costliest key to type, reading and scoring a
        word most papers hold. No paper is read.

        With `limit` (the reader's), the letter's results are kept too: typed as the whole
        query (a search's first key), it is then answered without searching. Their papers
        are read when it is typed."""
        if limit is not None:
            self._typed[letter, limit] = self._search(letter, limit, None, False)
            return
        plan = self.planner.plan(parse_query(letter))
        if not plan.everything and not plan.hopeless:
            self.engine.collect(plan, 1, None)

    def search(
        self,
        text: str,
        limit: int | None = 50,
        snippets: bool = True,
        allowed: set[str] | None = None,
        exact: bool = False,
        topics: Mapping[str, str] | None = None,
    ) -> Results:
        """Papers matching `text`, best first. `allowed` restricts to those ids. Typos are
        corrected unless `exact` (then every word is searched as typed). `topics`, the
        topics computed for a corpus that has none (id -> label), answer `topic:` clauses
        (`topic_clauses.py`)."""
        started = time.perf_counter()
        kept = None if snippets or exact or allowed is not None else self._typed.get((text, limit))
        if kept is None:
            results, scored = self._search(text, limit, allowed, exact, topics)
        else:  # `warm_typing`'s: the same search, made already
            made = kept[0]
            results = replace(made, notes=list(made.notes), corrections=list(made.corrections))
            scored = kept[1]
        try:
            results.hits = self._hits(scored)
        except Exception as error:  # a query must never crash the reader
            _failed(results, error)
        if snippets and results.matcher:
            for hit in results.hits:
                self.add_snippet(hit, results.matcher)
        results.took_ms = round((time.perf_counter() - started) * 1000, 2)
        return results

    def _search(
        self,
        text: str,
        limit: int | None,
        allowed: set[str] | None,
        exact: bool,
        topics: Mapping[str, str] | None = None,
    ) -> tuple[Results, Scored]:
        """The results of `text` but their hits, and the positions and scores of those."""
        parsed = parse_query(text)
        results = Results(query=text, notes=list(parsed.notes))
        correction = None if exact else self.corrector.correct(parsed)
        if correction is not None:
            parsed = correction.parsed
            results.corrected = correction.text
            results.corrections = list(correction.changes)
        if topics and has_topic_clause(parsed):
            parsed, allowed = computed_topic_filter(parsed, topics, allowed, lambda: self.ids)
        try:
            return results, self._run(parsed, results, limit, allowed)
        except Exception as error:  # a query must never crash the reader
            _failed(results, error)
            return results, []

    def add_snippet(self, hit: Hit, matcher: Matcher) -> None:
        text = hit.paper.text[:SNIPPET_SCAN_CHARS]
        hit.snippet, hit.spans = snippet(text, matcher.spans(text))

    def _run(
        self, parsed: ParsedQuery, results: Results, limit: int | None, allowed: set[str] | None
    ) -> Scored:
        """Run the query: its total, notes, matcher and suggestion set in `results`; its
        hits' positions and scores returned (the papers are read by `_hits`)."""
        plan = self.planner.plan(parsed)
        results.matcher = plan.matcher
        if plan.everything:
            # Every paper, unranked (`the` being typed): only those shown are read, which
            # of a `PaperList` would take long if all were.
            results.notes.extend(plan.notes)
            chosen: Sequence[int] = range(len(self.papers))
            if allowed is not None:
                chosen = [i for i, paper_id in enumerate(self.ids) if paper_id in allowed]
            results.total = len(chosen)
            return [(index, 0.0) for index in chosen[:limit]]
        scored, total = ([], 0) if plan.hopeless else self.engine.collect(plan, limit, allowed)
        if plan.fallback is not None and (total == 0 or plan.widen):
            # The fallback's papers include every one with all the words.
            more, more_total = self.engine.collect(plan.fallback, limit, allowed)
            if more_total > total:
                if not total:
                    results.notes.extend(plan.fallback.notes)
                scored, total = more, more_total
        results.total = total
        if total == 0:
            results.suggestion = self.planner.suggest(parsed)
        return scored

    def _hits(self, scored: Scored) -> list[Hit]:
        papers = self.papers
        count = len(papers)
        return [Hit(papers[position], score) for position, score in scored if position < count]

    def suggest(self, parsed: ParsedQuery) -> str:
        """A "did you mean" made of real words from the corpus (never stems)."""
        return self.planner.suggest(parsed)

    def similar(self, paper_id: str, limit: int = 5) -> list[Hit]:
        """Papers like this one (over the paper's key terms)."""
        paper = self.by_id.get(paper_id)
        if paper is None:
            return []
        try:
            text = f"{paper.title} {paper.text[:SIMILAR_SCAN_CHARS]}"
            scored = self.engine.similar(paper_id, text, limit)
        except Exception:  # similar papers are a nicety: never let them break the reader
            return []
        return self._hits(scored)


def _failed(results: Results, error: Exception) -> None:
    """A query that could not run: no hits, and a note that says so."""
    results.hits = []
    results.total = 0
    results.notes.append(f"query could not run ({type(error).__name__}); try fewer terms")
