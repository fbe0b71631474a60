"""Searching the index: a query string in, ranked papers with snippets out.

`Searcher` is what the CLI and the reader call. It parses the query, corrects its typos
(correction.py), has the `Planner` plan it (plan.py: terms, expansions, budgets, the
"most of your words" fallback; no engine in it) and the engine run the plan
(whoosh_engine.py), falls back when nothing matches, adds snippets and a "did you mean".
`Searcher.search` never raises for any query string.
"""

from __future__ import annotations

import time

from whoosh.index import Index

from paperterm.index.papers import Paper
from paperterm.index.search.correction import Corrector
from paperterm.index.search.engine import Engine, Scored
from paperterm.index.search.hits import Hit, Matcher, Results, Span, mark, snippet
from paperterm.index.search.plan import Planner, postings_budget
from paperterm.index.search.query import ParsedQuery, parse_query
from paperterm.index.search.vocabulary import Vocabulary
from paperterm.index.search.whoosh_engine import WhooshEngine

__all__ = ["Hit", "Matcher", "Results", "Searcher", "Span", "mark", "snippet"]

#: Snippets come from the start of a text, however long: a file read as one paragraph can
#: be megabytes, and scanning it all for matches took a second per hit.
SNIPPET_SCAN_CHARS = 20_000


class Searcher:
    """Queries over one open index. Not thread-safe: use one per thread (or a lock)."""

    def __init__(self, ix: Index, papers: list[Paper], vocabulary: Vocabulary | None = None):
        self.papers = papers
        self.by_id = {paper.id: paper for paper in papers}
        self.engine: Engine = WhooshEngine(ix)
        self.vocabulary = vocabulary or Vocabulary.from_texts(
            f"{p.name} {p.title} {p.text}" for p in papers
        )
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

    def field_words(self, fieldname: str) -> Vocabulary:
        """The words of the `authors` or `collection` field (counted on first use: a few
        milliseconds for 2,600 papers); other fields' words are the main vocabulary's."""
        found = self._field_words.get(fieldname)
        if found is None:
            if fieldname == "authors":
                texts = (" ".join(paper.authors) for paper in self.papers)
            elif fieldname == "collection":
                texts = (" ".join(paper.collections) for paper in self.papers)
            else:
                return self.vocabulary
            found = self._field_words[fieldname] = Vocabulary.from_texts(texts)
        return found

    def close(self) -> None:
        self.engine.close()

    def warm(self) -> None:
        """Load what the first search would (call it off the UI thread)."""
        self.engine.warm()

    def search(
        self,
        text: str,
        limit: int | None = 50,
        snippets: bool = True,
        allowed: set[str] | None = None,
        exact: bool = False,
    ) -> Results:
        """Papers matching `text`, best first. `allowed` restricts to those ids. Typos are
        corrected unless `exact` (then every word is searched as typed)."""
        started = time.perf_counter()
        parsed = parse_query(text)
        results = Results(query=text, notes=list(parsed.notes))
        correction = None if exact else self.corrector.correct(parsed)
        if correction is not None:
            parsed = correction.parsed
            results.corrected = correction.text
            results.corrections = list(correction.changes)
        try:
            self._run(parsed, results, limit, allowed)
        except Exception as error:  # a query must never crash the reader
            results.hits = []
            results.total = 0
            results.notes.append(f"query could not run ({type(error).__name__}); try fewer terms")
        if snippets and results.matcher:
            for hit in results.hits:
                self.add_snippet(hit, results.matcher)
        results.took_ms = round((time.perf_counter() - started) * 1000, 2)
        return results

    def add_snippet(self, hit: Hit, matcher: Matcher) -> None:
        text = hit.paper.text[:SNIPPET_SCAN_CHARS]
        hit.snippet, hit.spans = snippet(text, matcher.spans(text))

    def _run(
        self, parsed: ParsedQuery, results: Results, limit: int | None, allowed: set[str] | None
    ) -> None:
        plan = self.planner.plan(parsed)
        results.matcher = plan.matcher
        if plan.everything:
            papers = [p for p in self.papers if allowed is None or p.id in allowed]
            results.notes.extend(plan.notes)
            results.hits = [Hit(p, 0.0) for p in papers[:limit]]
            results.total = len(papers)
            return
        scored, total = ([], 0) if plan.hopeless else self.engine.collect(plan, limit, allowed)
        if total == 0 and plan.fallback is not None:
            scored, total = self.engine.collect(plan.fallback, limit, allowed)
            if total:
                results.notes.extend(plan.fallback.notes)
        results.hits, results.total = self._hits(scored), total
        if total == 0:
            results.suggestion = self.planner.suggest(parsed)

    def _hits(self, scored: Scored) -> list[Hit]:
        return [Hit(self.by_id[i], score) for i, score in scored if i in self.by_id]

    def suggest(self, parsed: ParsedQuery) -> str:
        """A "did you mean" made of real words from the corpus (never stems)."""
        return self.planner.suggest(parsed)

    def similar(self, paper_id: str, limit: int = 5) -> list[Hit]:
        """Papers like this one (over the paper's key terms)."""
        paper = self.by_id.get(paper_id)
        if paper is None:
            return []
        try:
            scored = self.engine.similar(paper_id, f"{paper.title} {paper.text}", limit)
        except Exception:  # similar papers are a nicety: never let them break the reader
            return []
        return self._hits(scored)
