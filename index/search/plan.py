"""Query planning: what a query searches for, decided apart from any search engine.

A `Planner` turns a parsed query into a `Plan`: plain data naming index terms and phrases,
what each costs, what must match, what only adds to the score and what excludes a paper. It
knows the index only through what it is given (a document-frequency function, how each field
cuts text into terms, the corpus `Vocabulary`, a budget), so it is tested against a fake index,
and any engine can run its plans (`whoosh/engine.py` compiles them to Whoosh queries).

Plans are bounded by construction, whatever the query string: prefixes and typos are expanded
here, against the vocabulary, to at most `MAX_EXPANSIONS` real words (fuzzy distance is at
most 2, clauses are capped by the parser), and expansions and the any-word fallback stop at a
budget of postings read, which is what a query's time follows.

Matching runs on the one `all` field (a single posting list per word keeps multi-word queries
cheap); words found in a paper's name or title add a boost on top.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Protocol

from paperterm.index.search.filter_fields import FILTER_FIELDS
from paperterm.index.search.hits import Matcher
from paperterm.index.search.query import Clause, ParsedQuery
from paperterm.index.search.vocabulary import Vocabulary
from paperterm.index.text.words import WORD_PATTERN, fold_scripts

#: The index field a `field:` clause searches; `abstract:` and plain words search `all`.
FIELD_OF = {
    "name": "name",
    "title": "title",
    "abstract": "all",
    "authors": "authors",
    "collection": "collection",
    **{name: name for name in FILTER_FIELDS},
}
#: Fields whose matches add to a paper's score when a plain word is found there too: the
#: name and the title a source gave (not a headline derived from the abstract).
BOOST_FIELDS = ("given_title", "name")
MAX_EXPANSIONS = 40
#: A plain word this long also matches longer words it starts ("complement" finds
#: "complementarity"), with a small weight and a few expansions.
MIN_IMPLICIT_PREFIX = 6
IMPLICIT_EXPANSIONS = 8
IMPLICIT_PREFIX_WEIGHT = 0.3
#: The word being typed (the last, no space after it) matches the words it starts, from its
#: first letter: the word itself with weight 1, its completions with at most this weight.
PARTIAL_WEIGHT = 0.5
#: A half-typed last word of a phrase: this many completions at most (each is a phrase).
PHRASE_COMPLETIONS = 8
#: What one query may read, in postings (one paper holding one of its words is one): its
#: time grows with them, so prefix and typo expansions and the fallback stop at this budget
#: (benchmarks/bench_wild_queries.py). Plain words are always searched.
MIN_POSTINGS_BUDGET = 20_000
POSTINGS_PER_PAPER = 1.0
#: What the completions of the word being typed may read: about what one common word reads
#: (a word in every paper is one posting per paper), so that `s` costs what `segmentation`
#: does, and every keystroke answers within the keystroke budget.
MIN_TYPING_BUDGET = 2_000
TYPING_POSTINGS_PER_PAPER = 1.0
#: The same for a word of one or two letters so far (`t`, `la`): a quarter. It has hundreds of
#: completions, and which of them it will be is anyone's guess, so the most frequent ones
#: stand for it; reading and scoring a posting per paper made these keys the slowest. Rarer
#: completions weigh little anyway (`_weights`).
SHORT_WORD = 2
SHORT_TYPING_POSTINGS_PER_PAPER = 0.25
#: "Did you mean" looks up this many unknown words at most (each scans the vocabulary).
MAX_SUGGESTED = 3
FALLBACK_NOTE = "no paper has all your words; showing papers with any, most words first"
FALLBACK_RARER_NOTE = "no paper has all your words; showing papers with the rarer ones first"
#: A query of this many words or more lists every paper holding any of them, ranked by
#: score alone: a paper lacking a common word of a pasted title (or of three typed words)
#: but holding its rare ones ranks above papers holding only the common ones. A word or
#: two typed keep narrowing the list to the papers with all of them.
BEST_MATCH_WORDS = 3
BEST_MATCH_NOTE = "no paper has all your words; showing papers with any, best first"
NOTHING_TO_SEARCH_NOTE = "nothing to search for in that query; showing all papers"
#: English function words the index keeps (its stop words are Whoosh's few): the any-word
#: ranking leaves them out, as "their" in a pasted title says nothing of its paper, unless
#: the query has nothing else. Matching every word still needs them.
FUNCTION_WORDS = frozenset({
    "but", "into", "no", "such", "their", "then", "there", "these", "they", "was", "our", "its",
    "which", "how", "what", "do", "does",
})  # fmt: skip


def postings_budget(papers: int) -> int:
    """The postings budget of a query over an index of `papers` papers."""
    return max(MIN_POSTINGS_BUDGET, int(POSTINGS_PER_PAPER * papers))


def typing_budget(papers: int, typed: int = SHORT_WORD + 1) -> int:
    """The postings the completions of a half-typed word, `typed` letters so far, may
    read."""
    per_paper = TYPING_POSTINGS_PER_PAPER if typed > SHORT_WORD else SHORT_TYPING_POSTINGS_PER_PAPER
    return max(MIN_TYPING_BUDGET, int(per_paper * papers))


def fallback_minimum(groups: int) -> int:
    """How many of `groups` words a paper needs to be listed by the fallback: one, so a paper
    is never dropped for missing words its abstract lacks (a pasted title's "Extended
    Abstract")."""
    return 1


def _function_word(clause: Clause) -> bool:
    """Whether the clause is one of the `FUNCTION_WORDS`, written alone and finished."""
    return (
        clause.kind == "word"
        and not clause.field
        and not clause.partial
        and clause.text.lower() in FUNCTION_WORDS
    )


def coined(token: str) -> bool:
    """Whether a token as typed holds a digit or an inner capital (`S2IP-LLM`, `ViT`,
    `PICLe`): a coined name, never a typo, so never corrected nor suggested. A word in
    capitals only (`DIFUSION`) may be a typo."""
    return any(char.isdigit() for char in token) or (
        not token.isupper() and any(char.isupper() for char in token[1:])
    )


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
    #: Weigh each boost a paper matches by the share of the `required` groups its field
    #: holds there (`boost_share.py`): the any-word ranking's.
    share_boosts: bool = False
    #: What to run instead when this plan matches nothing.
    fallback: Plan | None = None
    #: Show the fallback's papers even when some paper matches every group (its papers
    #: include those), as it ranks them better (`BEST_MATCH_WORDS`).
    widen: bool = False

    @property
    def everything(self) -> bool:
        """True when the plan matches every paper, unranked: nothing to search for."""
        return not self.required and not self.excluded

    @property
    def hopeless(self) -> bool:
        """True when a group every match needs reads no postings: no paper can match."""
        return self.requires_all and any(group.cost == 0 for group in self.required)

    @property
    def requires_all(self) -> bool:
        return self.minimum is None or self.minimum >= len(self.required)

    @property
    def cost(self) -> int:
        """Postings the required and excluded groups read."""
        return sum(group.cost for group in (*self.required, *self.excluded))


def _times(alternatives: tuple[Alternative, ...], repeats: int) -> tuple[Alternative, ...]:
    return tuple(replace(each, weight=each.weight * repeats) for each in alternatives)


# --- the planner -----------------------------------------------------------------------------

#: (field, term) -> how many papers hold the term in that field.
DocFrequency = Callable[[str, str], int]
#: An index field -> the words written in it, with their counts.
FieldWords = Callable[[str], Vocabulary]

_WORD = re.compile(WORD_PATTERN)


class Analysis(Protocol):
    """How the index cuts text into terms (`analysis.FieldAnalysis`)."""

    def stemmed(self, field: str) -> bool: ...

    def terms(self, field: str, text: str) -> list[str]: ...

    def words(self, text: str) -> list[str]: ...


@dataclass(frozen=True, slots=True)
class _Step:
    """What one clause adds to a plan: a group (None when it restricts nothing) and boosts."""

    group: AnyOf | None
    boosts: tuple[Alternative, ...] = ()


@dataclass(frozen=True, slots=True)
class _Affordable:
    """Expansion words within a budget: the words kept, their distinct terms and what each
    term reads."""

    words: list[str]
    terms: list[str]
    postings: list[int]

    @property
    def cost(self) -> int:
        return sum(self.postings)


@dataclass(frozen=True, slots=True)
class Planner:
    """Plans queries over one index; a plan's cost never depends on anything but its query,
    the index and the budget (no state is kept between plans)."""

    vocabulary: Vocabulary
    df: DocFrequency
    analysis: Analysis
    budget: int
    #: Papers in the index (what a term's rarity is measured against).
    papers: int
    #: The words of a field the main vocabulary does not hold (`authors`, `collection`);
    #: None: the main vocabulary serves every field.
    field_words: FieldWords | None = None

    def vocabulary_of(self, fieldname: str) -> Vocabulary:
        """The words a prefix or a typo of `fieldname` expands to."""
        if self.field_words is None or fieldname in ("all", "title", "given_title", "name"):
            return self.vocabulary
        return self.field_words(fieldname)

    def plan(self, parsed: ParsedQuery) -> Plan:
        matcher = Matcher(set(), set(), ())
        required: list[AnyOf] = []
        excluded: list[AnyOf] = []
        boosts: list[Alternative] = []
        function_words: set[int] = set()  # places in `required`
        spent = 0
        for clause in parsed.clauses:
            step = self._clause(clause, spent, None if clause.negate else matcher)
            if step is None:
                continue
            boosts.extend(step.boosts)
            if step.group is None:
                continue
            spent += step.group.cost
            if clause.negate:
                excluded.append(step.group)
                continue
            if _function_word(clause):
                function_words.add(len(required))
            required.append(step.group)
        plan = Plan(tuple(required), None, tuple(boosts), tuple(excluded), matcher)
        if plan.everything:
            # While the last word is typed ("the", "a") the note would only flicker.
            explain = parsed.clauses and not parsed.typing
            return Plan(matcher=matcher, notes=(NOTHING_TO_SEARCH_NOTE,) if explain else ())
        # A filter (`status:oral`) is never dropped for "most of your words".
        filtered = any(c.field in FILTER_FIELDS for c in parsed.clauses if not c.negate)
        if len(required) > 1 and not filtered:
            widen = len(required) >= BEST_MATCH_WORDS
            fallback = self._fallback(plan, widen, function_words)
            return replace(plan, fallback=fallback, widen=widen)
        return plan

    def _clause(self, clause: Clause, spent: int, matcher: Matcher | None) -> _Step | None:
        """The group (and boosts) of one clause, weighed as many times as the query says it;
        `spent` is what the clauses before it read. `matcher` is None for an excluded clause,
        whose words are not highlighted."""
        step = self._clause_once(clause, spent, matcher)
        if step is None or clause.repeats == 1:
            return step
        group = step.group
        if group is not None:
            group = AnyOf(_times(group.alternatives, clause.repeats), group.cost)
        return _Step(group, _times(step.boosts, clause.repeats))

    def _clause_once(self, clause: Clause, spent: int, matcher: Matcher | None) -> _Step | None:
        fieldname = FIELD_OF.get(clause.field or "", "all")
        if clause.kind in ("prefix", "fuzzy"):
            return _Step(self._expansion(clause, fieldname, spent, matcher))
        if clause.partial and matcher is not None:
            return self._partial(clause, fieldname, spent, matcher)
        words = self._exact(clause, fieldname, matcher)
        if words is None:
            return None
        alternatives: tuple[Alternative, ...] = (words,)
        cost = self._cost(words)
        if not clause.field and clause.kind == "word":
            longer, longer_cost = self._implicit_prefix(clause.text, spent + cost, matcher)
            alternatives += longer
            cost += longer_cost
        return _Step(AnyOf(alternatives, cost), self._boosts(clause, matcher))

    def _exact(self, clause: Clause, fieldname: str, matcher: Matcher | None) -> Alternative | None:
        """The clause's own words as a term or phrase of its field (None: no indexed word)."""
        words = self._alternative(fieldname, clause.text, matcher)
        if words is None and not clause.field:
            # One-letter words are not in the stemmed field; names keep them ("xT", "R").
            words = self._alternative("name", clause.text, matcher)
        return words

    def _boosts(self, clause: Clause, matcher: Matcher | None) -> tuple[Alternative, ...]:
        """A plain word found in the title or name adds to the score."""
        if matcher is None or clause.field:
            return ()
        found = (self._alternative(name, clause.text, None) for name in BOOST_FIELDS)
        return tuple(boost for boost in found if boost is not None)

    def _alternative(
        self, fieldname: str, text: str, matcher: Matcher | None
    ) -> Alternative | None:
        """`text` as a term or phrase of `fieldname` (None when it has no indexed word)."""
        terms = self.analysis.terms(fieldname, text)
        if not terms:
            return None
        found = Term(fieldname, terms[0]) if len(terms) == 1 else Phrase(fieldname, tuple(terms))
        if matcher is not None:
            self._highlight(found, matcher)
        return found

    def _highlight(self, alternative: Alternative, matcher: Matcher) -> None:
        """Have the reader highlight the words of `alternative`."""
        words = (alternative.text,) if isinstance(alternative, Term) else alternative.words
        stemmed = self.analysis.stemmed(alternative.field)
        (matcher.stemmed if stemmed else matcher.plain).update(words)

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
        vocabulary = self.vocabulary_of(fieldname)
        if len(words) != 1:
            found: list[str] = []
        elif clause.kind == "fuzzy":
            found = vocabulary.within(words[0], clause.distance, MAX_EXPANSIONS)
        else:
            found = vocabulary.prefixed(words[0], MAX_EXPANSIONS)
        kept = self._affordable(fieldname, found, self.budget - spent, at_least_one=True)
        if matcher is not None:
            if clause.kind == "prefix":
                matcher.prefixes += tuple(words[:1])
            else:
                matcher.plain.update(kept.words)
        return AnyOf(tuple(Term(fieldname, term) for term in kept.terms), kept.cost)

    def _partial(self, clause: Clause, fieldname: str, spent: int, matcher: Matcher) -> _Step:
        """The word being typed (the last word of the query, or of an unclosed phrase): the
        word as typed, weight 1, and the most frequent words it starts, weighted lower, as
        many as the typing budget affords (at least one when the word itself is no term).
        A half-typed stop word ("the", "with") would match every paper finished, so its
        completions only add to the score."""
        found = list(_WORD.finditer(clause.text))
        if not found:
            return _Step(None)
        last = fold_scripts(found[-1].group(0).lower())
        head = clause.text[: found[-1].start()]
        head_terms = tuple(self.analysis.terms(fieldname, head)) if head.strip() else ()
        lone_stop_word = not head_terms and not self.analysis.words(last)
        exact = self._exact(clause, fieldname, None)
        if isinstance(exact, Term) and not self.df(exact.field, exact.text):
            exact = None  # no paper has it: only its completions can match
        own = self.term(fieldname, last)
        limit = PHRASE_COMPLETIONS if head_terms else MAX_EXPANSIONS
        longer = [
            word
            for word in self.vocabulary_of(fieldname).prefixed(last, limit + 1)
            if self.term(fieldname, word) != own
        ][:limit]
        head_cost = sum(self.df(fieldname, term) for term in head_terms)
        exact_cost = self._cost(exact) if exact is not None else 0
        room = min(self.budget - spent, typing_budget(self.papers, len(last))) - exact_cost
        kept = self._affordable(fieldname, longer, room, not exact_cost, each=head_cost)
        reference = self.df(fieldname, own) if own and exact is not None else 0
        completions = tuple(
            Phrase(fieldname, (*head_terms, term), weight)
            if head_terms
            else Term(fieldname, term, weight)
            for term, weight in zip(
                kept.terms, self._weights(kept.postings, reference, PARTIAL_WEIGHT), strict=True
            )
        )
        if lone_stop_word:
            return _Step(None, completions)
        matcher.plain.update(kept.words)
        if exact is not None:
            self._highlight(exact, matcher)
        alternatives = ((exact,) if exact is not None else ()) + completions
        cost = exact_cost + kept.cost + head_cost * len(completions)
        return _Step(AnyOf(alternatives, cost), self._boosts(clause, matcher))

    def _weights(self, postings: list[int], reference: int, weight: float) -> list[float]:
        """Weights of expansion terms that read `postings` each, beside the word as typed,
        which reads `reference` (0 when it is no word: `segm`; then the most frequent
        expansion stands in). Each is `weight` times at most 1: a rarer expansion is scaled
        down to the rarity of the reference, so that a paper matching the word as typed
        ranks above one matching only a longer word however rare (BM25 rewards rarity:
        `modulation` must not outrank `model` for `model`), and no rare completion of a
        half-typed word outweighs the common ones (weighing them alike measured worse on
        half-typed words: benchmarks/typing_quality.py)."""
        if not postings:
            return []
        reference = reference or max(postings)
        rarity = math.log(1 + self.papers / reference)
        return [
            round(weight * min(1.0, rarity / math.log(1 + self.papers / max(count, 1))), 4)
            for count in postings
        ]

    def _implicit_prefix(
        self, text: str, spent: int, matcher: Matcher | None
    ) -> tuple[tuple[Term, ...], int]:
        """For a long plain word, a few longer words it starts, weighted low, as the budget
        affords them (none when it does not)."""
        words = self.analysis.words(text)
        if len(words) != 1 or len(words[0]) < MIN_IMPLICIT_PREFIX:
            return (), 0
        own = self.term("all", words[0])
        longer = [
            word
            for word in self.vocabulary.prefixed(words[0], IMPLICIT_EXPANSIONS + 1)
            if self.term("all", word) != own
        ][:IMPLICIT_EXPANSIONS]
        kept = self._affordable("all", longer, self.budget - spent, at_least_one=False)
        if not kept.terms:
            return (), 0
        if matcher is not None:
            matcher.prefixes += (words[0],)
        reference = self.df("all", own) if own else 0
        weights = self._weights(kept.postings, reference, IMPLICIT_PREFIX_WEIGHT)
        terms = tuple(
            Term("all", term, weight) for term, weight in zip(kept.terms, weights, strict=True)
        )
        return terms, kept.cost

    def term(self, fieldname: str, word: str) -> str | None:
        """The one term `fieldname` indexes `word` as (None: a stop word, or several)."""
        terms = self.analysis.terms(fieldname, word)
        return terms[0] if len(terms) == 1 else None

    def _affordable(
        self, fieldname: str, words: list[str], room: int, at_least_one: bool, each: int = 0
    ) -> _Affordable:
        """The words (most frequent first) that are in the field and whose postings (plus
        `each` per term) still fit in `room`; with `at_least_one`, the first always does."""
        kept = _Affordable([], [], [])
        cost = 0
        for word in words:
            term = self.term(fieldname, word)
            if term is None:
                continue
            if term not in kept.terms:
                postings = self.df(fieldname, term)
                if not postings:  # a word of other fields only: it would just slow the union
                    continue
                if cost + postings + each > room and (kept.terms or not at_least_one):
                    continue
                kept.terms.append(term)
                kept.postings.append(postings)
                cost += postings + each
            kept.words.append(word)
        return kept

    def _fallback(self, plan: Plan, widen: bool, function_words: set[int]) -> Plan:
        """Every paper with any of the words, by score, the title and name boosts weighed by
        the share of the words they hold (run when no paper has every word, or always when
        `widen`); the groups at `function_words` left out unless there is no other. When the
        budget cannot pay for every word, the rarest words it can pay for (at least one):
        the rare words are the ones that tell papers apart, and the budget bounds the
        query's time."""
        groups = [group for i, group in enumerate(plan.required) if i not in function_words]
        groups = groups or list(plan.required)
        order = sorted(range(len(groups)), key=lambda index: groups[index].cost)
        kept: list[int] = []
        spent = 0
        for index in order:
            if kept and spent + groups[index].cost > self.budget:
                break
            kept.append(index)
            spent += groups[index].cost
        whole = len(kept) == len(groups)
        note = FALLBACK_RARER_NOTE if not whole else BEST_MATCH_NOTE if widen else FALLBACK_NOTE
        return Plan(
            required=tuple(groups[index] for index in sorted(kept)),
            minimum=fallback_minimum(len(kept)),
            boosts=plan.boosts,
            share_boosts=True,
            excluded=plan.excluded,
            matcher=plan.matcher,
            notes=(note,),
        )

    def suggest(self, parsed: ParsedQuery) -> str:
        """A "did you mean" made of real words from the corpus (never stems); "" when no
        word needs changing. A coined token (`coined`) is kept as typed."""
        changed = False
        looked_up = 0
        out: list[str] = []
        for clause in parsed.positive:
            if (
                clause.kind not in ("word", "fuzzy")
                or clause.field not in (None, "title", "abstract")
                or coined(clause.text)
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
