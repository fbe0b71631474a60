"""Query planning: what a query searches for, decided apart from any search engine.

A `Planner` turns a parsed query into a `Plan`: plain data naming index terms and phrases,
what each costs, what must match, what only adds to the score and what excludes a paper. It
knows the index only through what it is given (a document-frequency function, how each field
cuts text into terms, the corpus `Vocabulary`, a budget), so it is tested against a fake index,
and any engine can run its plans (`whoosh_engine.py` compiles them to Whoosh queries).

Plans are bounded by construction, whatever the query string: prefixes and typos are expanded
here, against the vocabulary, to at most `MAX_EXPANSIONS` real words (fuzzy distance is at
most 2, clauses are capped by the parser), and expansions and the any-word fallback stop at a
budget of postings read, which is what a query's time follows.

Matching runs on the one `all` field (a single posting list per word keeps multi-word queries
cheap); words found in a paper's name or title add a boost on top.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Protocol

from paperterm.index.search.hits import Matcher
from paperterm.index.search.query import Clause, ParsedQuery
from paperterm.index.search.vocabulary import Vocabulary

#: The index field a `field:` clause searches; `abstract:` and plain words search `all`.
FIELD_OF = {
    "name": "name",
    "title": "title",
    "abstract": "all",
    "authors": "authors",
    "collection": "collection",
}
#: Fields whose matches add to a paper's score when a plain word is found there too.
BOOST_FIELDS = ("title", "name")
MAX_EXPANSIONS = 40
#: A plain word this long also matches longer words it starts ("complement" finds
#: "complementarity"), with a small weight and a few expansions.
MIN_IMPLICIT_PREFIX = 6
IMPLICIT_EXPANSIONS = 8
IMPLICIT_PREFIX_WEIGHT = 0.3
#: What one query may read, in postings (one paper holding one of its words is one): its
#: time grows with them, 2 to 10 µs each, so prefix and typo expansions and the any-word
#: fallback stop at this budget (benchmarks/bench_wild_queries.py: 200 ms at 2,600 papers,
#: 1 s at 50,000). Plain words are always searched.
MIN_POSTINGS_BUDGET = 20_000
POSTINGS_PER_PAPER = 1.0
#: "Did you mean" looks up this many unknown words at most (each scans the vocabulary).
MAX_SUGGESTED = 3
FALLBACK_NOTE = "no paper has every word; showing papers with any of them"
FALLBACK_RARER_NOTE = "no paper has every word; showing papers with any of the rarer ones"
NOTHING_TO_SEARCH_NOTE = "nothing to search for in that query; showing all papers"


def postings_budget(papers: int) -> int:
    """The postings budget of a query over an index of `papers` papers."""
    return max(MIN_POSTINGS_BUDGET, int(POSTINGS_PER_PAPER * papers))


# --- the plan --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Term:
    """One term of one field: a stem in a stemmed field, else a word as written."""

    field: str
    text: str
    weight: float = 1.0


@dataclass(frozen=True, slots=True)
class Phrase:
    """Terms of one field, each right after the one before it."""

    field: str
    words: tuple[str, ...]
    weight: float = 1.0


Alternative = Term | Phrase


@dataclass(frozen=True, slots=True)
class AnyOf:
    """Matches a paper that matches any of `alternatives`; the paper's score is the sum of
    the scores of those it matches, each times its weight. With no alternatives it matches
    nothing (a prefix no word of the corpus starts)."""

    alternatives: tuple[Alternative, ...]
    #: Postings the alternatives read: the document frequency of each of their terms.
    cost: int


@dataclass(frozen=True, slots=True)
class Plan:
    """A query as an engine runs it.

    A paper matches when it matches at least `minimum` of the `required` groups (all of them
    when `minimum` is None) and none of the `excluded` ones; no required group means every
    paper (but the excluded). Its score adds the scores of the required groups it matches and
    of the `boosts` it matches (which never decide whether it matches). With neither required
    nor excluded groups the query has nothing to search for: every paper, unranked.
    """

    required: tuple[AnyOf, ...] = ()
    minimum: int | None = None
    boosts: tuple[Alternative, ...] = ()
    excluded: tuple[AnyOf, ...] = ()
    #: What the reader highlights in a paper's text.
    matcher: Matcher = field(default_factory=lambda: Matcher(set(), set(), ()))
    #: What to tell the user whenever this plan's results are shown.
    notes: tuple[str, ...] = ()
    #: What to run instead when this plan matches nothing.
    fallback: Plan | None = None

    @property
    def everything(self) -> bool:
        """True when the plan matches every paper, unranked: nothing to search for."""
        return not self.required and not self.excluded

    @property
    def requires_all(self) -> bool:
        return self.minimum is None or self.minimum >= len(self.required)

    @property
    def cost(self) -> int:
        """Postings the required and excluded groups read."""
        return sum(group.cost for group in (*self.required, *self.excluded))


# --- the planner -----------------------------------------------------------------------------

#: (field, term) -> how many papers hold the term in that field.
DocFrequency = Callable[[str, str], int]


class Analysis(Protocol):
    """How the index cuts text into terms (`analysis.FieldAnalysis`)."""

    def stemmed(self, field: str) -> bool: ...

    def terms(self, field: str, text: str) -> list[str]: ...

    def words(self, text: str) -> list[str]: ...


@dataclass(frozen=True, slots=True)
class _Step:
    """What one clause adds to a plan."""

    group: AnyOf
    boosts: tuple[Alternative, ...] = ()


@dataclass(frozen=True, slots=True)
class Planner:
    """Plans queries over one index; a plan's cost never depends on anything but its query,
    the index and the budget (no state is kept between plans)."""

    vocabulary: Vocabulary
    df: DocFrequency
    analysis: Analysis
    budget: int

    def plan(self, parsed: ParsedQuery) -> Plan:
        matcher = Matcher(set(), set(), ())
        required: list[AnyOf] = []
        excluded: list[AnyOf] = []
        boosts: list[Alternative] = []
        spent = 0
        for clause in parsed.clauses:
            step = self._clause(clause, spent, None if clause.negate else matcher)
            if step is None:
                continue
            spent += step.group.cost
            (excluded if clause.negate else required).append(step.group)
            boosts.extend(step.boosts)
        plan = Plan(tuple(required), None, tuple(boosts), tuple(excluded), matcher)
        if plan.everything:
            notes = (NOTHING_TO_SEARCH_NOTE,) if parsed.clauses else ()
            return Plan(matcher=matcher, notes=notes)
        if len(required) > 1:
            return replace(plan, fallback=self._fallback(plan))
        return plan

    def _clause(self, clause: Clause, spent: int, matcher: Matcher | None) -> _Step | None:
        """The group (and boosts) of one clause; `spent` is what the clauses before it read.
        `matcher` is None for an excluded clause, whose words are not highlighted."""
        fieldname = FIELD_OF.get(clause.field or "", "all")
        if clause.kind in ("prefix", "fuzzy"):
            return _Step(self._expansion(clause, fieldname, spent, matcher))
        words = self._alternative(fieldname, clause.text, matcher)
        if words is None and not clause.field:
            # One-letter words are not in the stemmed field; names keep them ("xT", "R").
            words = self._alternative("name", clause.text, matcher)
        if words is None:
            return None
        alternatives: tuple[Alternative, ...] = (words,)
        cost = self._cost(words)
        if not clause.field and clause.kind == "word":
            longer, longer_cost = self._implicit_prefix(clause.text, spent + cost, matcher)
            alternatives += longer
            cost += longer_cost
        boosts: tuple[Alternative, ...] = ()
        if matcher is not None and not clause.field:
            found = (self._alternative(name, clause.text, None) for name in BOOST_FIELDS)
            boosts = tuple(boost for boost in found if boost is not None)
        return _Step(AnyOf(alternatives, cost), boosts)

    def _alternative(
        self, fieldname: str, text: str, matcher: Matcher | None
    ) -> Alternative | None:
        """`text` as a term or phrase of `fieldname` (None when it has no indexed word)."""
        terms = self.analysis.terms(fieldname, text)
        if not terms:
            return None
        if matcher is not None:
            stemmed = self.analysis.stemmed(fieldname)
            (matcher.stemmed if stemmed else matcher.plain).update(terms)
        return Term(fieldname, terms[0]) if len(terms) == 1 else Phrase(fieldname, tuple(terms))

    def _cost(self, alternative: Alternative) -> int:
        if isinstance(alternative, Term):
            return self.df(alternative.field, alternative.text)
        return sum(self.df(alternative.field, word) for word in alternative.words)

    def _expansion(
        self, clause: Clause, fieldname: str, spent: int, matcher: Matcher | None
    ) -> AnyOf:
        """A prefix or typo clause: the most frequent words of the corpus it stands for that
        the budget affords (always the first: a prefix never finds nothing because of the
        clauses before it)."""
        words = self.analysis.words(clause.text)
        if len(words) != 1:
            found: list[str] = []
        elif clause.kind == "fuzzy":
            found = self.vocabulary.within(words[0], clause.distance, MAX_EXPANSIONS)
        else:
            found = self.vocabulary.prefixed(words[0], MAX_EXPANSIONS)
        kept, terms, cost = self._affordable(fieldname, found, spent, at_least_one=True)
        if matcher is not None:
            if clause.kind == "prefix":
                matcher.prefixes += tuple(words[:1])
            else:
                matcher.plain.update(kept)
        return AnyOf(tuple(Term(fieldname, term) for term in terms), cost)

    def _implicit_prefix(
        self, text: str, spent: int, matcher: Matcher | None
    ) -> tuple[tuple[Term, ...], int]:
        """For a long plain word, a few longer words it starts, weighted low, as the budget
        affords them (none when it does not)."""
        words = self.analysis.words(text)
        if len(words) != 1 or len(words[0]) < MIN_IMPLICIT_PREFIX:
            return (), 0
        own = self._term("all", words[0])
        longer = [
            word
            for word in self.vocabulary.prefixed(words[0], IMPLICIT_EXPANSIONS + 1)
            if self._term("all", word) != own
        ][:IMPLICIT_EXPANSIONS]
        _, terms, cost = self._affordable("all", longer, spent, at_least_one=False)
        if not terms:
            return (), 0
        if matcher is not None:
            matcher.prefixes += (words[0],)
        return tuple(Term("all", term, IMPLICIT_PREFIX_WEIGHT) for term in terms), cost

    def _term(self, fieldname: str, word: str) -> str | None:
        """The one term `fieldname` indexes `word` as (None: a stop word, or several)."""
        terms = self.analysis.terms(fieldname, word)
        return terms[0] if len(terms) == 1 else None

    def _affordable(
        self, fieldname: str, words: list[str], spent: int, at_least_one: bool
    ) -> tuple[list[str], list[str], int]:
        """The words (most frequent first) that are in the field and whose postings still
        fit in the budget after `spent`; with `at_least_one`, the first always does. Returns
        the words kept, their distinct terms and what those read."""
        kept: list[str] = []
        terms: list[str] = []
        cost = 0
        for word in words:
            term = self._term(fieldname, word)
            if term is None:
                continue
            if term not in terms:
                postings = self.df(fieldname, term)
                if not postings:  # a word of other fields only: it would just slow the union
                    continue
                if spent + cost + postings > self.budget and (kept or not at_least_one):
                    continue
                terms.append(term)
                cost += postings
            kept.append(word)
        return kept, terms, cost

    def _fallback(self, plan: Plan) -> Plan:
        """When no paper has every word: papers with any of the rarest words whose postings
        fit in the budget (at least one), without the title and name boosts. Scoring every
        paper that has any of 24 common words takes seconds (the boosts alone are most of
        it, as the `all` field has the title and name words anyway), and the rare words are
        the ones that tell papers apart."""
        order = sorted(range(len(plan.required)), key=lambda index: plan.required[index].cost)
        kept: list[int] = []
        spent = 0
        for index in order:
            if kept and spent + plan.required[index].cost > self.budget:
                break
            kept.append(index)
            spent += plan.required[index].cost
        whole = len(kept) == len(plan.required)
        return Plan(
            required=tuple(plan.required[index] for index in sorted(kept)),
            minimum=1,
            excluded=plan.excluded,
            matcher=plan.matcher,
            notes=(FALLBACK_NOTE if whole else FALLBACK_RARER_NOTE,),
        )

    def suggest(self, parsed: ParsedQuery) -> str:
        """A "did you mean" made of real words from the corpus (never stems); "" when no
        word needs changing."""
        changed = False
        looked_up = 0
        out: list[str] = []
        for clause in parsed.positive:
            if clause.kind not in ("word", "fuzzy") or clause.field not in (
                None,
                "title",
                "abstract",
            ):
                out.append(clause.text)
                continue
            words = []
            for word in self.analysis.words(clause.text):
                if self.vocabulary.count(word) or len(word) < 3 or looked_up == MAX_SUGGESTED:
                    words.append(word)
                    continue
                looked_up += 1
                best = self.vocabulary.closest(word)
                changed = changed or best != word
                words.append(best)
            out.append(" ".join(words))
        return " ".join(out) if changed else ""
