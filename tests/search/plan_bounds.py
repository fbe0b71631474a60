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
        if group.alternatives:
            first = group.alternatives[0]
            words = first.words if isinstance(first, Phrase) else (first.text,)
            total += group.cost - sum(planner.df(first.field, word) for word in words)
    return total
