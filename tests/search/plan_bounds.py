"""What a plan reads, counted: for the tests that bound it for every query string."""

from __future__ import annotations

from paperterm.index.search.plan import (
    MAX_EXPANSIONS,
    PHRASE_COMPLETIONS,
    Alternative,
    Phrase,
    Plan,
    Planner,
    Term,
)
from paperterm.index.search.query import MAX_CLAUSES, MAX_TERM_CHARS, parse_query

#: The most posting lists one clause can read: its expansions, or its words (at most one
#: per character) in the matching field and in the title and name boosts, plus the
#: expansions of an implicit prefix; or, for a half-typed phrase, the phrase and its
#: completions, each as many words as the phrase (at most one per two characters).
CLAUSE_LEAVES = max(
    MAX_EXPANSIONS + 3 * MAX_TERM_CHARS,
    (1 + PHRASE_COMPLETIONS) * (MAX_TERM_CHARS // 2 + 1) + 2 * MAX_TERM_CHARS,
)
QUERY_LEAVES = MAX_CLAUSES * CLAUSE_LEAVES


def alternative_leaves(alternative: Alternative) -> int:
    if isinstance(alternative, Term):
        return 1
    assert len(alternative.words) <= MAX_TERM_CHARS, alternative
    return len(alternative.words)


def plan_leaves(found: Plan) -> int:
    """Posting lists a plan reads: one per term, one per word of a phrase."""
    for group in (*found.required, *found.excluded):
        assert len(group.alternatives) <= MAX_EXPANSIONS
    groups = (*found.required, *found.excluded)
    alternatives = [a for group in groups for a in group.alternatives]
    return sum(alternative_leaves(a) for a in [*alternatives, *found.boosts])


def bounded_plan(planner: Planner, text: str) -> Plan:
    parsed = parse_query(text)
    found = planner.plan(parsed)
    assert len(parsed.clauses) <= MAX_CLAUSES
    assert len(found.required) + len(found.excluded) <= len(parsed.clauses)
    assert plan_leaves(found) <= QUERY_LEAVES
    return found


def beyond_first(planner: Planner, found: Plan) -> int:
    """Postings the plan reads besides the first alternative of each group: what its
    expansions (prefix, typo, implicit prefix) read. A plain word, a phrase and the first
    word of a prefix or typo are read whatever the budget."""
    total = 0
    for group in (*found.required, *found.excluded):
        reads = [_reads(planner, alternative) for alternative in group.alternatives]
        # The first alternative that reads anything: a word being typed whose own words
        # are in no paper ("0:B": the phrase "0 b" of names) has its first completion
        # read whatever the budget, as a prefix has its first word.
        total += group.cost - next((read for read in reads if read), 0)
    return total


def _reads(planner: Planner, alternative: Alternative) -> int:
    words = alternative.words if isinstance(alternative, Phrase) else (alternative.text,)
    return sum(planner.df(alternative.field, word) for word in words)
