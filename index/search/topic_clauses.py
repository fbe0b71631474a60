"""`topic:` clauses answered from the topics computed for a corpus that carries none.

A source's own topics are an index field (`filter_fields.py`); topics computed for a corpus
without them are kept beside the index (`planning/kept_topics.py`), where no index field
holds them. So a face that has them passes them to the search (id -> label), and a
`topic:` clause keeps the papers whose topic's label has a word starting with each of the
clause's words (`topic:diff` while typing); `-topic:` drops them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

from paperterm.index.search.query import Clause, ParsedQuery
from paperterm.index.text.words import fold_scripts, words_of

TOPIC = "topic"


def has_topic_clause(parsed: ParsedQuery) -> bool:
    """Whether the query has a `topic:` (or `-topic:`) clause."""
    return any(clause.field == TOPIC for clause in parsed.clauses)


def computed_topic_filter(
    parsed: ParsedQuery,
    labels: Mapping[str, str],
    allowed: set[str] | None,
    every: Callable[[], Iterable[str]],
) -> tuple[ParsedQuery, set[str] | None]:
    """The query without its `topic:` clauses, and `allowed` (None: every paper, whose ids
    `every` gives) narrowed to what those clauses keep of the papers `labels` names."""
    kept: list[Clause] = []
    for clause in parsed.clauses:
        if clause.field != TOPIC:
            kept.append(clause)
            continue
        words = _words(clause.text)
        if not words:
            continue  # `topic:***` says nothing
        named = {label for label in set(labels.values()) if _label_has(_words(label), words)}
        matching = {paper_id for paper_id, label in labels.items() if label in named}
        if clause.negate:
            allowed = (set(every()) if allowed is None else allowed) - matching
        else:
            allowed = matching if allowed is None else allowed & matching
    return replace(parsed, clauses=kept), allowed


def _words(text: str) -> list[str]:
    return words_of(fold_scripts(text.casefold()))


def _label_has(label_words: list[str], words: list[str]) -> bool:
    return all(any(held.startswith(word) for held in label_words) for word in words)
