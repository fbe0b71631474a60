"""Queries compiled within their bounds: plans turned into Whoosh queries of a bounded size,
any string (wild, random, half-typed) answered without raising, and matched spans found
the same way word by word."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from plan_bounds import QUERY_LEAVES, beyond_first, bounded_plan, plan_leaves
from whoosh import query as Q
from wild_queries import WILD_QUERIES

from paperterm.index.config import Config
from paperterm.index.search import searcher as search_module
from paperterm.index.search.plan import (
    FALLBACK_NOTE,
    FALLBACK_RARER_NOTE,
    MAX_EXPANSIONS,
    MAX_SUGGESTED,
    PHRASE_COMPLETIONS,
    AnyOf,
    Phrase,
    Plan,
    Term,
)
from paperterm.index.search.query import parse_query
from paperterm.index.search.searcher import (
    Matcher,
    Searcher,
)
from paperterm.index.search.whoosh.engine import compile_alternative, compile_group
from paperterm.index.session import Session
from paperterm.index.sources.bounds import ABSTRACT_LIMIT
from paperterm.index.text.words import stem

# --- plans compiled to Whoosh ------------------------------------------------------------------


def leaves(query: Q.Query) -> int:
    """Posting lists a Whoosh query reads: one per term, one per word of a phrase. Fails on
    any query Whoosh would expand by itself (prefix, wildcard, fuzzy...)."""
    if type(query) is Q.Term:
        return 1
    if type(query) is Q.Phrase:
        return len(query.words)
    if query is Q.NullQuery:
        return 0
    assert isinstance(query, (Q.Or, Q.And, Q.AndMaybe, Q.AndNot)), f"unbounded {query!r}"
    children = list(query.children())
    if isinstance(query, Q.Or) and all(type(child) is Q.Term for child in children):
        assert len(children) <= MAX_EXPANSIONS, f"{len(children)} expansions"
    return sum(leaves(child) for child in children)


def compiled_leaves(searcher: Searcher, text: str) -> int:
    """What the Whoosh queries of a plan read, checked equal to what the plan says."""
    plan = bounded_plan(searcher.planner, text)
    groups = [compile_group(group) for group in (*plan.required, *plan.excluded)]
    found = sum(leaves(query) for query in [*groups, *map(compile_alternative, plan.boosts)])
    assert found == plan_leaves(plan)
    return found


def test_the_bound_counts_what_a_query_reads(seed_searcher):
    """The leaf count is not vacuous: it grows with clauses and expansions, and fails on
    queries Whoosh would expand by itself."""
    assert compiled_leaves(seed_searcher, "dna") < compiled_leaves(seed_searcher, "dna model")
    assert compiled_leaves(seed_searcher, "dna") < compiled_leaves(seed_searcher, "con*")
    with pytest.raises(AssertionError, match="unbounded"):
        leaves(Q.Prefix("all", "c"))


def test_groups_compile_to_the_weights_of_their_alternatives(seed_searcher):
    assert compile_group(AnyOf((), 0)) is Q.NullQuery
    assert compile_group(AnyOf((Term("all", "graph"),), 3)) == Q.Term("all", "graph")
    exact_and_longer = AnyOf((Term("all", "model"), Term("all", "data", 0.3)), 9)
    assert compile_group(exact_and_longer) == Q.Or(
        [Q.Term("all", "model"), Q.Term("all", "data", boost=0.3)]
    )
    phrase = Phrase("title", ("long", "context"), 2.0)
    assert compile_alternative(phrase) == Q.Phrase("title", ["long", "context"], boost=2.0)
    # A weight counts when it is the only one of its kind too (a boosted `Or` of one does not).

    def best(weight: float) -> tuple[str, float]:
        plan = Plan((AnyOf((Term("all", "model", weight),), 1),))
        scored, _ = seed_searcher.engine.collect(plan, 1, None)
        return scored[0]

    (paper, score), (same, low) = best(1.0), best(0.3)
    assert same == paper and low == pytest.approx(0.3 * score)


def word_group(searcher: Searcher, word: str) -> AnyOf:
    term = searcher.engine.analysis.terms("all", word)[0]
    return AnyOf((Term("all", term),), searcher.planner.df("all", term))


def test_a_plan_may_ask_for_some_of_its_groups(seed_searcher):
    """`minimum` between one and all: papers with at least that many of the groups."""
    words = ["language", "transformer", "training"]
    groups = tuple(word_group(seed_searcher, word) for word in words)
    having = {
        word: set(seed_searcher.search(word, limit=None, snippets=False).ids) for word in words
    }
    sizes = []
    for minimum in (1, 2, 3):
        expected = {
            paper.id
            for paper in seed_searcher.papers
            if sum(paper.id in having[word] for word in words) >= minimum
        }
        scored, total = seed_searcher.engine.collect(Plan(groups, minimum), None, None)
        found = {seed_searcher.ids[position] for position, _ in scored}
        assert found == expected and total == len(expected)
        sizes.append(total)
    assert sizes[0] > sizes[1] > sizes[2] > 0  # each minimum selects papers of its own


# --- any query answers --------------------------------------------------------------------------


def answers_within_bounds(searcher: Searcher, text: str, limit: int = 20) -> None:
    """`text` plans and compiles to a bounded query, and answers without an error note."""
    assert compiled_leaves(searcher, text) <= QUERY_LEAVES
    results = searcher.search(text, limit=limit)
    assert results.total >= len(results.hits)
    assert not any("could not run" in note for note in results.notes), results.notes


@pytest.mark.parametrize("text", WILD_QUERIES, ids=range(len(WILD_QUERIES)))
def test_wild_queries_build_bounded_queries_and_answer(seed_searcher, text):
    answers_within_bounds(seed_searcher, text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(
        st.text(max_size=400),
        st.lists(
            st.sampled_from(['"', "(", ")", "-", "+", "*", "~", "~2", ":", "title:", "tag:"])
            | st.sampled_from(["learn", "model", "con", "dna", "graph", "论文", "a", "x"])
            | st.text(max_size=6),
            max_size=60,
        ).map("".join),
    )
)
def test_any_string_builds_a_bounded_query_and_never_raises(seed_searcher, text):
    answers_within_bounds(seed_searcher, text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.sampled_from(["con*", "pre*", "dis*", "trans*", "model~2", "learn~", "data~2"])
        | st.sampled_from(["learning", "transformer", "reinforcement", "-graph", "a~2"])
        | st.text(max_size=8),
        max_size=12,
    ).map(" ".join),
    st.integers(min_value=1, max_value=200),
)
def test_any_query_expands_within_any_budget(seed_searcher, text, budget):
    """What all expansions read is the budget at most, plus the first (most frequent) word
    of each, which a prefix or typo always keeps; the fallback keeps to it too."""
    planner = replace(seed_searcher.planner, budget=budget)
    found = bounded_plan(planner, text)
    assert beyond_first(planner, found) <= budget
    if found.fallback is not None and len(found.fallback.required) > 1:
        assert sum(group.cost for group in found.fallback.required) <= budget
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(seed_searcher, "planner", planner)
        answers_within_bounds(seed_searcher, text, limit=5)


def test_a_query_that_raises_inside_is_caught_and_explained(seed_searcher, monkeypatch):
    """The last line of defence (and why the tests above check that it never fires)."""

    def broken(plan, limit, allowed):
        raise RecursionError("deep")

    monkeypatch.setattr(seed_searcher.engine, "collect", broken)
    results = seed_searcher.search("dna")
    assert results.total == 0 and any("could not run" in note for note in results.notes)


def test_snippets_read_a_bounded_part_of_a_huge_text(tmp_path, monkeypatch):
    """A file read as one 2 MB paragraph: each hit's snippet scans a bounded prefix."""
    source = tmp_path / "huge.txt"
    sentence = "Every line goes on about models, data and their evaluation. "
    source.write_text("Huge\n\nA huge paragraph. " + sentence * 35_000 + "\n")
    opened, _ = Session.create(tmp_path / "data", [source], Config()).open()
    scanned: list[int] = []
    spans = search_module.Matcher.spans

    def counting_spans(self, text):
        scanned.append(len(text))
        return spans(self, text)

    monkeypatch.setattr(search_module.Matcher, "spans", counting_spans)
    searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
    try:
        (hit,) = searcher.search("evaluation").hits
    finally:
        searcher.close()
    # (The 2 MB paragraph is cut at the records' bound: still far more than a scan.)
    assert len(opened.papers[0].text) == ABSTRACT_LIMIT > 10 * search_module.SNIPPET_SCAN_CHARS
    assert scanned and max(scanned) <= search_module.SNIPPET_SCAN_CHARS
    assert "**evaluation**" in hit.marked_snippet()


def test_any_word_fallback_keeps_the_rarest_words_within_budget(seed_searcher, monkeypatch):
    """No paper has both words: the fallback shows papers with either, or, when the budget
    cannot pay for both, with the rarer one, and says so."""
    query = "Caduceus learning"
    assert seed_searcher.search(query).notes == [FALLBACK_NOTE]
    rare = seed_searcher.search("Caduceus").ids
    monkeypatch.setattr(seed_searcher, "planner", replace(seed_searcher.planner, budget=1))
    results = seed_searcher.search(query)
    assert results.notes == [FALLBACK_RARER_NOTE]
    assert results.ids == rare


def test_did_you_mean_looks_up_a_few_unknown_words_only(seed_searcher, monkeypatch):
    calls: list[str] = []
    closest = type(seed_searcher.vocabulary).closest

    def counting(self, word):
        calls.append(word)
        return closest(self, word)

    monkeypatch.setattr(type(seed_searcher.vocabulary), "closest", counting)
    unknown = " ".join(f"{letter}qzvx" for letter in "spcdmrtfbgalnehiouvwkjyq")
    assert seed_searcher.search(unknown).total == 0
    assert len(calls) == MAX_SUGGESTED
    calls.clear()
    assert seed_searcher.search("transfomer", exact=True).suggestion == "transformer"
    assert calls == ["transfomer"]


_TEXT_PIECES = st.sampled_from(
    ["model", "models", "Modeling", "x.model", "model.x", "modelx", "_model", "a..model",
     "happy", "happiness", "transformer", "Transformers", "attention", "atten", "3.5",
     " ", "  ", "\n", ".", ",", "-", "(", "DNA", "dna", "e.g.", "U.S.", "x_y",
     # Not ASCII: accents, a dash, a letter whose lower case is two (İ), CJK.
     "Café", "café", "naïve", "Modèle", "—", "É", "İ", "Straße", "论文", "模型model"]
)  # fmt: skip


@settings(max_examples=400)
@example(words=["happy"], prefixes=[], text="Happy happiness")
@example(words=["model", "dna"], prefixes=[], text="x.model a..model model.x DNA")
@given(
    words=st.lists(
        st.sampled_from(["model", "happy", "transformer", "attention", "dna", "café", "论文"])
    ),
    prefixes=st.lists(st.sampled_from(["mod", "trans", "att", "x"]), max_size=2),
    text=st.lists(_TEXT_PIECES, max_size=40).map("".join),
)
def test_spans_found_from_their_starts_are_those_found_word_by_word(words, prefixes, text):
    matcher = Matcher({stem(w) for w in words[::2]}, set(words[1::2]), tuple(prefixes))
    assert matcher.spans(text) == matcher.spans_word_by_word(text)


@pytest.mark.parametrize(
    "text", ['"' + " ".join(["learning"] * 48) + " mod", '"' + "model " * 16 + "t"]
)
def test_a_long_half_typed_phrase_builds_a_bounded_query(seed_searcher, text):
    """Each completion of its last word is the whole phrase again: few, within the budget."""
    answers_within_bounds(seed_searcher, text)
    (group,) = seed_searcher.planner.plan(parse_query(text)).required
    assert 1 < len(group.alternatives) <= 1 + PHRASE_COMPLETIONS
