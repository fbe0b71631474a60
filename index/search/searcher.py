"""Searching the index: clauses to Whoosh queries, ranking, snippets, suggestions, similar.

Every query is built in code from `parse_query`'s clauses, with hard caps on what can make
Whoosh slow: prefixes and fuzzy terms are expanded by us (against the corpus vocabulary) to
at most `MAX_EXPANSIONS` real words, fuzzy distance is at most 2, and the number of clauses
is capped. Expansions and the any-word fallback also stop at a budget of postings read,
which is what a query's time follows. `Searcher.search` never raises for any query string.

Matching runs on the one `all` field (a single posting list per word keeps multi-word
queries cheap); words found in a paper's name or title add a boost on top (`AndMaybe`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

from whoosh import query as Q
from whoosh.collectors import FilterCollector, TopCollector, UnlimitedCollector
from whoosh.index import Index
from whoosh.searching import Searcher as WhooshSearcher

from paperterm.index.papers import Paper
from paperterm.index.search.analysis import plain_analyzer, stemming_analyzer
from paperterm.index.search.hits import Hit, Matcher, Results, Span, mark, snippet
from paperterm.index.search.query import Clause, ParsedQuery, parse_query
from paperterm.index.search.vocabulary import Vocabulary
from paperterm.index.text.words import stem

__all__ = ["FALLBACK_NOTE", "Hit", "Matcher", "Results", "Searcher", "Span", "mark", "snippet"]

#: The fields a `field:` clause searches; `abstract:` searches the `all` field.
FIELD_OF = {
    "name": "name",
    "title": "title",
    "abstract": "all",
    "authors": "authors",
    "collection": "collection",
}
STEMMED = {"all", "title"}
MAX_EXPANSIONS = 40
#: A plain word this long also matches longer words it starts ("complement" finds
#: "complementarity"), with a small weight and a few expansions.
MIN_IMPLICIT_PREFIX = 6
IMPLICIT_EXPANSIONS = 8
IMPLICIT_PREFIX_BOOST = 0.3
#: Snippets come from the start of a text, however long: a file read as one paragraph can
#: be megabytes, and scanning it all for matches took a second per hit.
SNIPPET_SCAN_CHARS = 20_000
FALLBACK_NOTE = "no paper has every word; showing papers with any of them"
FALLBACK_RARER_NOTE = "no paper has every word; showing papers with any of the rarer ones"
#: What one query may read, in postings (one paper holding one of its words is one): its
#: time grows with them, 2 to 10 µs each, so prefix and typo expansions and the any-word
#: fallback stop at this budget (benchmarks/bench_wild_queries.py: 200 ms at 2,600 papers,
#: 1 s at 50,000). Plain words are always searched.
MIN_POSTINGS_BUDGET = 20_000
POSTINGS_PER_PAPER = 1.0
#: "Did you mean" looks up this many unknown words at most (each scans the vocabulary).
MAX_SUGGESTED = 3


@dataclass(slots=True)
class _Built:
    required: list[Q.Query] = field(default_factory=list)
    boosts: list[Q.Query] = field(default_factory=list)
    excluded: list[Q.Query] = field(default_factory=list)
    matcher: Matcher = field(default_factory=lambda: Matcher(set(), set(), ()))
    #: Postings each required query reads, and all the queries together.
    costs: list[int] = field(default_factory=list)
    spent: int = 0


class Searcher:
    """Queries over one open index. Not thread-safe: use one per thread (or a lock)."""

    def __init__(self, ix: Index, papers: list[Paper], vocabulary: Vocabulary | None = None):
        self.ix = ix
        self.papers = papers
        self.by_id = {paper.id: paper for paper in papers}
        self._searcher: WhooshSearcher = ix.searcher()
        self._stem = stemming_analyzer()
        self._plain = plain_analyzer()
        self._vocabulary = vocabulary
        self._docnums: dict[str, int] | None = None
        papers_indexed = self._searcher.doc_count_all()
        self.budget = max(MIN_POSTINGS_BUDGET, int(POSTINGS_PER_PAPER * papers_indexed))

    def close(self) -> None:
        self._searcher.close()

    @property
    def vocabulary(self) -> Vocabulary:
        if self._vocabulary is None:
            self._vocabulary = Vocabulary.from_texts(
                f"{p.name} {p.title} {p.text}" for p in self.papers
            )
        return self._vocabulary

    # --- query building ------------------------------------------------------------------

    def _analyze(self, fieldname: str, text: str) -> list[str]:
        analyzer = self._stem if fieldname in STEMMED else self._plain
        return [token.text for token in analyzer(text)]

    def _words_query(self, fieldname: str, text: str, matcher: Matcher | None) -> Q.Query | None:
        words = self._analyze(fieldname, text)
        if not words:
            return None
        if matcher is not None:
            (matcher.stemmed if fieldname in STEMMED else matcher.plain).update(words)
        return Q.Term(fieldname, words[0]) if len(words) == 1 else Q.Phrase(fieldname, words)

    def _expansions(self, clause: Clause, limit: int) -> list[str]:
        words = self._analyze("collection", clause.text)  # plain words, as written
        if len(words) != 1:
            return []
        if clause.kind == "fuzzy":
            return self.vocabulary.within(words[0], clause.distance, limit)
        return self.vocabulary.prefixed(words[0], limit)

    def _expanded_query(self, fieldname: str, words: list[str], boost: float = 1.0) -> Q.Query:
        terms = dict.fromkeys(stem(w) for w in words) if fieldname in STEMMED else words
        if not terms:
            return Q.NullQuery
        return Q.Or([Q.Term(fieldname, term) for term in terms], boost=boost)

    def _postings(self, query: Q.Query) -> int:
        """How many postings `query` reads: the document frequency of each of its terms."""
        if type(query) is Q.Term:
            return self._searcher.doc_frequency(query.fieldname, query.text)
        if type(query) is Q.Phrase:
            return sum(self._searcher.doc_frequency(query.fieldname, w) for w in query.words)
        return sum(self._postings(child) for child in query.children())

    def _affordable(
        self, fieldname: str, words: list[str], built: _Built, at_least_one: bool
    ) -> list[str]:
        """The expansions (most frequent first) that are in the field and whose postings
        still fit in the query's budget; with `at_least_one`, the first always does (a
        prefix never finds nothing because other words came first)."""
        kept: list[str] = []
        terms: set[str] = set()
        for word in words:
            term = stem(word) if fieldname in STEMMED else word
            if term not in terms:
                cost = self._searcher.doc_frequency(fieldname, term)
                if not cost:  # a stop word, or a word of other fields: only slows the union
                    continue
                if built.spent + cost > self.budget and (kept or not at_least_one):
                    continue
                terms.add(term)
                built.spent += cost
            kept.append(word)
        return kept

    def _add(self, built: _Built, query: Q.Query, negate: bool, cost: int) -> None:
        if negate:
            built.excluded.append(query)
        else:
            built.required.append(query)
            built.costs.append(cost)

    def _add_clause(self, clause: Clause, built: _Built, negate: bool) -> None:
        matcher = None if negate else built.matcher
        fieldname = FIELD_OF.get(clause.field or "", "all")
        if clause.kind in ("prefix", "fuzzy"):
            before = built.spent
            words = self._affordable(
                fieldname, self._expansions(clause, MAX_EXPANSIONS), built, at_least_one=True
            )
            if matcher is not None:
                if clause.kind == "prefix":
                    matcher.prefixes += tuple(self._analyze("collection", clause.text)[:1])
                else:
                    matcher.plain.update(words)
            self._add(built, self._expanded_query(fieldname, words), negate, built.spent - before)
            return
        required = self._words_query(fieldname, clause.text, matcher)
        if required is None and not clause.field:
            # One-letter words are not in the stemmed field; names keep them ("xT", "R").
            required = self._words_query("name", clause.text, matcher)
        if required is None:
            return
        cost = self._postings(required)
        built.spent += cost
        if not clause.field and clause.kind == "word":
            plain = self._analyze("collection", clause.text)
            if len(plain) == 1 and len(plain[0]) >= MIN_IMPLICIT_PREFIX:
                before = built.spent
                longer = [
                    w
                    for w in self.vocabulary.prefixed(plain[0], IMPLICIT_EXPANSIONS + 1)
                    if stem(w) != stem(plain[0])
                ][:IMPLICIT_EXPANSIONS]
                longer = self._affordable("all", longer, built, at_least_one=False)
                cost += built.spent - before
                if longer:
                    required = Q.Or(
                        [required, self._expanded_query("all", longer, IMPLICIT_PREFIX_BOOST)]
                    )
                    if matcher is not None:
                        matcher.prefixes += (plain[0],)
        self._add(built, required, negate, cost)
        if not negate and not clause.field:
            for boost_field in ("title", "name"):
                boost = self._words_query(boost_field, clause.text, None)
                if boost is not None:
                    built.boosts.append(boost)

    def build(self, parsed: ParsedQuery) -> _Built:
        built = _Built()
        for clause in parsed.clauses:
            self._add_clause(clause, built, clause.negate)
        return built

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
        built = self.build(parsed)
        results.matcher = built.matcher
        if not built.required and not built.excluded:
            papers = [p for p in self.papers if allowed is None or p.id in allowed]
            if parsed.clauses:
                results.notes.append("nothing to search for in that query; showing all papers")
            results.hits = [Hit(p, 0.0) for p in papers[:limit]]
            results.total = len(papers)
            return
        found = self._collect(self._compose(built, Q.And), limit, allowed)
        if found[1] == 0 and len(built.required) > 1:
            rarer = self._rarer(built)
            found = self._collect(self._compose(rarer, Q.Or), limit, allowed)
            if found[1]:
                whole = len(rarer.required) == len(built.required)
                results.notes.append(FALLBACK_NOTE if whole else FALLBACK_RARER_NOTE)
        results.hits, results.total = found
        if results.total == 0:
            results.suggestion = self.suggest(parsed)

    def _rarer(self, built: _Built) -> _Built:
        """For the any-word fallback: the rarest words whose postings fit in the budget
        (at least one), without the title and name boosts. Scoring every paper that has any
        of 24 common words takes seconds (the boosts alone are most of it, as the `all`
        field has the title and name words anyway), and the rare words are the ones that
        tell papers apart."""
        order = sorted(range(len(built.required)), key=built.costs.__getitem__)
        kept, spent = [], 0
        for index in order:
            if kept and spent + built.costs[index] > self.budget:
                break
            kept.append(index)
            spent += built.costs[index]
        return replace(built, required=[built.required[i] for i in sorted(kept)], boosts=[])

    @staticmethod
    def _compose(built: _Built, combine: type[Q.CompoundQuery]) -> Q.Query:
        query: Q.Query = combine(built.required) if built.required else Q.Every()
        if built.boosts:
            query = Q.AndMaybe(query, Q.Or(built.boosts))
        if built.excluded:
            query = Q.AndNot(query, Q.Or(built.excluded))
        return query

    def _collect(
        self, query: Q.Query, limit: int | None, allowed: set[str] | None
    ) -> tuple[list[Hit], int]:
        # Whoosh's shortcuts (block-quality skipping, pruning sub-queries that cannot reach
        # the top N) drop better-scoring papers from multi-word results and undercount the
        # matches; scoring every match is exact and counts in the same pass.
        collector = (
            UnlimitedCollector()
            if limit is None
            else TopCollector(limit, usequality=False, replace=0)
        )
        if allowed is not None:
            allow = {self.docnums[i] for i in allowed if i in self.docnums}
            collector = FilterCollector(collector, allow=allow)
        self._searcher.search_with_collector(query, collector)
        hits = collector.results()
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
        changed = False
        looked_up = 0
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
            for word in self._analyze("collection", clause.text):
                if self.vocabulary.count(word) or len(word) < 3 or looked_up == MAX_SUGGESTED:
                    out.append(word)
                    continue
                looked_up += 1
                best = self.vocabulary.closest(word)
                changed = changed or best != word
                out.append(best)
            words.append(" ".join(out))
        return " ".join(words) if changed else ""

    def similar(self, paper_id: str, limit: int = 5) -> list[Hit]:
        """Papers like this one (Whoosh more-like-this over the paper's key terms)."""
        paper = self.by_id.get(paper_id)
        docnum = self.docnums.get(paper_id)
        if paper is None or docnum is None:
            return []
        text = f"{paper.title} {paper.text}"
        try:
            hits = self._searcher.more_like(docnum, "all", text=text, top=limit, numterms=12)
        except Exception:  # similar papers are a nicety: never let them break the reader
            return []
        return [
            Hit(self.by_id[h["id"]], float(h.score or 0.0)) for h in hits if h["id"] in self.by_id
        ]

    def matcher_for(self, text: str) -> Matcher:
        """What the reader highlights in a paper's text for this query."""
        try:
            return self.build(parse_query(text)).matcher
        except Exception:
            return Matcher(set(), set(), ())
