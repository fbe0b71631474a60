"""`topic:` clauses over computed topics: the clauses leave the query, and the papers whose
topic's label has a word starting with each of their words are kept (`-topic:` drops them)."""

from __future__ import annotations

from paperterm.index.search.query import parse_query
from paperterm.index.search.topic_clauses import computed_topic_filter, has_topic_clause

LABELS = {
    "a": "diffusion · image · generation",
    "b": "diffusion · protein · design",
    "c": "graph · neural · molecules",
}
EVERY = ["a", "b", "c", "untopical"]


def filtered(text: str, allowed: set[str] | None = None) -> tuple[list[str], set[str] | None]:
    parsed, kept = computed_topic_filter(parse_query(text), LABELS, allowed, lambda: EVERY)
    return [clause.text for clause in parsed.clauses], kept


def test_a_topic_clause_keeps_the_papers_whose_label_has_its_words():
    assert filtered("topic:diffusion ") == ([], {"a", "b"})
    assert filtered('topic:"protein diffusion" ') == ([], {"b"})
    assert filtered("topic:Graph sampling ") == (["sampling"], {"c"})


def test_the_words_are_prefixes_while_typed():
    assert filtered("topic:diff") == ([], {"a", "b"})
    assert filtered("topic:mol") == ([], {"c"})


def test_an_excluded_topic_drops_its_papers_even_those_without_a_topic_stay():
    assert filtered("-topic:diffusion ") == ([], {"c", "untopical"})
    assert filtered("topic:diffusion -topic:protein ") == ([], {"a"})


def test_what_was_allowed_already_is_narrowed_not_widened():
    assert filtered("topic:diffusion ", allowed={"b", "c"}) == ([], {"b"})
    assert filtered("topic:nothing ") == ([], set())


def test_a_topic_clause_with_no_word_restricts_nothing():
    assert filtered("topic:*** model ") == (["model"], None)


def test_only_topic_clauses_are_topic_clauses():
    assert has_topic_clause(parse_query("topic:x"))
    assert has_topic_clause(parse_query("-topic:x model"))
    assert not has_topic_clause(parse_query("topics are fun"))
    assert not has_topic_clause(parse_query("session:x"))
