"""The query planner, against a fake index (a table of document frequencies) and a small
hand-made vocabulary; then the bounds every plan keeps, on the seeds' real index.

No timing here (benchmarks/bench_wild_queries.py measures it): what makes a query slow is the
number of posting lists it reads, so these tests bound that for every string.
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from fake_index import ANALYSIS, PAPERS, WORDS, FakeIndex, planner, term
from plan_bounds import beyond_first, bounded_plan, plan_leaves

from paperterm.index.search.plan import (
    BEST_MATCH_NOTE,
    BEST_MATCH_WORDS,
    FALLBACK_NOTE,
    FALLBACK_RARER_NOTE,
    FUNCTION_WORDS,
    IMPLICIT_EXPANSIONS,
    IMPLICIT_PREFIX_WEIGHT,
    MAX_EXPANSIONS,
    MIN_TYPING_BUDGET,
    NOTHING_TO_SEARCH_NOTE,
    PARTIAL_WEIGHT,
    PHRASE_COMPLETIONS,
    SHORT_TYPING_POSTINGS_PER_PAPER,
    AnyOf,
    Phrase,
    Plan,
    Planner,
    Term,
    coined,
    typing_budget,
)
from paperterm.index.search.query import parse_query
from paperterm.index.search.vocabulary import Vocabulary


def plan(text: str, budget: int = 10_000) -> Plan:
    return planner(budget).plan(parse_query(text))


def df(field: str, word: str) -> int:
    return FakeIndex().table[field, term(field, word)]


def terms(group: AnyOf) -> list[str]:
    return [a.text for a in group.alternatives if isinstance(a, Term)]


# --- what each kind of clause becomes --------------------------------------------------------


def test_a_word_is_a_term_of_the_all_field_boosted_in_given_title_and_name():
    found = plan("Graphs")
    assert found.required == (AnyOf((Term("all", "graph"),), df("all", "graphs")),)
    assert found.minimum is None and found.requires_all
    assert found.boosts == (Term("given_title", "graph"), Term("name", "graphs"))
    assert found.excluded == () and found.notes == ()
    assert found.matcher.stemmed == {"graph"} and not found.matcher.prefixes


def test_quoted_words_and_hyphenated_words_are_phrases_costing_each_word():
    (group,) = plan('"long context"').required
    assert group == AnyOf((Phrase("all", ("long", "context")),), 33 + 50 + 20)
    (group,) = plan("fine-tuning").required
    assert group.alternatives == (Phrase("all", ("fine", "tune")),)


def test_fields_search_their_own_index_field_without_boosts():
    found = plan("title:graphs author:Lovelace abstract:diffusion")
    assert [g.alternatives for g in found.required] == [
        (Term("title", "graph"),),
        (Term("authors", "lovelace"),),  # names are not stemmed
        (Term("all", "diffus"),),
    ]
    assert found.boosts == ()
    assert found.matcher.plain == {"lovelace"} and found.matcher.stemmed == {"graph", "diffus"}


def test_excluded_clauses_are_neither_required_nor_boosted_nor_highlighted():
    found = plan("graph -diffusion -con*")
    assert [terms(g) for g in found.required] == [["graph"]]
    assert [terms(g) for g in found.excluded] == [
        ["diffus"],
        ["context", "contrast", "control", "contextu", "convex"],
    ]
    assert found.boosts == (Term("given_title", "graph"), Term("name", "graph"))
    assert found.matcher.stemmed == {"graph"} and not found.matcher.prefixes


def test_a_query_with_no_indexed_word_searches_nothing_and_says_so():
    assert plan("the of ").everything and plan("the of ").notes == (NOTHING_TO_SEARCH_NOTE,)
    assert plan("the of").everything and plan("the of").notes == ()  # still typing
    assert plan("").everything and plan("").notes == ()
    assert not plan("-graph").everything  # every paper but those


# --- prefixes and typos ------------------------------------------------------------------------


def test_a_prefix_is_its_words_most_frequent_first_one_term_per_stem():
    (group,) = plan("con*").required
    # "contexts" (20 papers) shares the stem of "context": one term, counted once.
    assert terms(group) == ["context", "contrast", "control", "contextu", "convex"]
    assert group.cost == 70 + 30 + 25 + 10 + 5
    found = plan("con*")
    assert found.matcher.prefixes == ("con",) and not found.matcher.stemmed


def test_a_prefix_expands_to_at_most_the_cap_taking_the_most_frequent():
    words = {f"pre{i:03d}": 1000 - i for i in range(3 * MAX_EXPANSIONS)}
    found = planner(budget=10**9, words=words).plan(parse_query("pre*"))
    (group,) = found.required
    assert terms(group) == [f"pre{i:03d}" for i in range(MAX_EXPANSIONS)]


def test_a_prefix_no_word_starts_matches_nothing_rather_than_everything():
    found = plan("zzz*")
    assert found.required == (AnyOf((), 0),) and not found.everything


def test_a_typo_is_the_real_words_within_its_distance():
    (group,) = plan("transfomer~").required
    assert terms(group) == ["transform"]
    assert plan("transfomer~").matcher.plain == {"transformer"}
    (group,) = plan("grahp~1").required  # a transposition is one edit
    assert terms(group) == ["graph"]


def test_a_typo_or_prefix_never_stands_for_a_stop_word():
    """ "on" is a stop word, never indexed; its stem is that of "one": were the expansion of
    `ob~1` to keep it, the query would find papers with "one"."""
    words = {"on": 100, "one": 60, "oboe": 1}
    assert term("all", "one") == "on"
    (group,) = planner(words=words).plan(parse_query("ob~1")).required
    assert group.alternatives == ()


def test_a_long_word_also_matches_longer_words_it_starts_weighted_low():
    (group,) = plan("complement ").required
    own, *longer = group.alternatives
    assert own == Term("all", "complement")
    # Not "complements", which is the same word; rarer words weigh less (see the next test).
    assert [t.text for t in longer] == [
        term("all", "complementary"),
        term("all", "complementarity"),
    ]
    assert all(0 < t.weight <= IMPLICIT_PREFIX_WEIGHT for t in longer)
    assert group.cost == 10 + 4 + 3
    assert plan("complement ").matcher.prefixes == ("complement",)
    # Short words, fields and phrases do not.
    for text in ("graph ", "title:complement ", '"complement"'):
        (group,) = plan(text).required
        assert len(group.alternatives) == 1, text


def test_longer_words_never_outweigh_the_word_as_typed():
    """BM25 rewards rare terms: an expansion's weight is cut to the rarity of the word
    typed, so that a paper with `complementarity` (3 papers) scores below one with
    `complement` (10) however rare the longer word."""
    (group,) = plan("complement ").required
    rarity = {t.text: math.log(1 + PAPERS / df("all", t.text)) for t in group.alternatives}
    own, *longer = group.alternatives
    for t in longer:
        assert t.weight * rarity[t.text] <= IMPLICIT_PREFIX_WEIGHT * rarity[own.text] + 1e-3


def test_implicit_prefixes_are_few():
    words = {"segment": 100, **{f"segment{i:02d}": 50 - i for i in range(20)}}
    (group,) = planner(words=words).plan(parse_query("segment ")).required
    assert len(group.alternatives) == 1 + IMPLICIT_EXPANSIONS


# --- the word being typed ------------------------------------------------------------------


def test_the_word_being_typed_is_a_prefix_from_its_first_letter():
    (group,) = plan("c").required
    # Most frequent first; "contexts" is "context"; "c" itself is no paper's word.
    assert terms(group)[:6] == [
        "context",
        "contrast",
        "control",
        "contextu",
        "complement",
        "convex",
    ]
    assert all(0 < a.weight <= PARTIAL_WEIGHT for a in group.alternatives)
    (group,) = plan("con").required
    assert terms(group) == ["context", "contrast", "control", "contextu", "convex"]
    assert plan("c").matcher.plain >= {"context", "contexts", "convex"}
    # A space ends the word: "c" alone, a one-letter name ("R", "xT") at most.
    assert plan("c ").required == (AnyOf((Term("name", "c"),), 0),)


def test_the_word_as_typed_ranks_above_the_words_it_starts():
    (group,) = plan("complement").required
    own, *longer = group.alternatives
    assert own == Term("all", "complement", 1.0)
    rarity = {t.text: math.log(1 + PAPERS / df("all", t.text)) for t in group.alternatives}
    for t in longer:
        assert t.weight <= PARTIAL_WEIGHT
        assert t.weight * rarity[t.text] <= rarity[own.text] * PARTIAL_WEIGHT + 1e-3


def test_completions_stop_at_the_typing_budget_so_one_letter_costs_what_a_word_does():
    words = {f"s{i:03d}": 1000 - i for i in range(40)}
    found = planner(budget=10**9, words=words)
    assert typing_budget(PAPERS) == MIN_TYPING_BUDGET
    (group,) = found.plan(parse_query("s")).required
    assert group.cost <= MIN_TYPING_BUDGET and len(group.alternatives) == 2
    (group,) = planner(budget=10**9, words={"s000": 10**6}).plan(parse_query("s")).required
    assert terms(group) == ["s000"]  # the first completion always: never blank


def test_a_word_of_one_or_two_letters_reads_a_quarter_of_the_typing_budget():
    papers = 40_000
    words = {f"s{i:03d}": 3_000 for i in range(40)}
    found = Planner(Vocabulary(words), FakeIndex(words).df, ANALYSIS, 10**9, papers)
    short = int(SHORT_TYPING_POSTINGS_PER_PAPER * papers)
    assert typing_budget(papers, 1) == typing_budget(papers, 2) == short == 10_000
    assert typing_budget(papers, 3) == papers
    for typed in ("s", "s0"):
        (group,) = found.plan(parse_query(typed)).required
        assert group.cost <= short and len(group.alternatives) == 3  # the most frequent
    (group,) = found.plan(parse_query("s00")).required  # three letters: the whole budget
    assert terms(group) == [f"s{i:03d}" for i in range(10)]


def test_a_half_typed_stop_word_restricts_nothing():
    """ "the" finished matches every paper; half-typed, its completions only add to the
    score (and no "nothing to search for" note flickers while typing)."""
    words = {**WORDS, "theory": 5, "then": 3}
    found = planner(words=words).plan(parse_query("graph the"))
    assert [terms(g) for g in found.required] == [["graph"]]
    assert Term("all", "theori", PARTIAL_WEIGHT) in found.boosts
    alone = planner(words=words).plan(parse_query("the"))
    assert alone.everything and alone.notes == ()


def test_a_half_typed_phrase_completes_its_last_word():
    (group,) = plan('"long cont').required
    phrases = [a for a in group.alternatives if isinstance(a, Phrase)]
    assert phrases[0] == Phrase("all", ("long", "cont"))
    assert [p.words for p in phrases[1:4]] == [
        ("long", "context"),
        ("long", "contrast"),
        ("long", "control"),
    ]
    assert len(phrases) <= 1 + PHRASE_COMPLETIONS
    assert all(p.weight < 1 for p in phrases[1:])


def test_a_half_typed_field_word_completes_from_that_fields_words():
    authors = Vocabulary({"lovelace": 1})
    fields = {"authors": authors}
    found = replace(planner(), field_words=lambda name: fields.get(name, Vocabulary(WORDS)))
    (group,) = found.plan(parse_query("author:lov")).required
    assert terms(group) == ["lovelace"]
    (group,) = found.plan(parse_query("title:gra")).required
    assert terms(group) == ["graph"]  # words the title field holds


def test_a_half_typed_excluded_word_excludes_only_itself():
    found = plan("graph -con")
    assert [terms(g) for g in found.excluded] == [["con"]]


# --- the postings budget ----------------------------------------------------------------------


def test_expansions_stop_at_the_budget_but_a_prefix_keeps_its_first_word():
    (group,) = plan("con*", budget=60).required
    assert terms(group) == ["context"]  # 70 postings: over the budget, kept as the first
    (group,) = plan("con*", budget=110).required
    # context 70 + contrast 30 fit; control (25) does not, the smaller contextual still does.
    assert terms(group) == ["context", "contrast", "contextu"] and group.cost == 110


def test_the_clauses_before_an_expansion_spend_the_budget():
    graph, con = plan("graph con*", budget=100).required
    assert graph.cost == 18
    assert terms(con) == ["context", "contextu"]  # 18 + 70 leaves 12: contextual's 10 fit
    graph, con = plan("graph con*", budget=90).required
    assert terms(con) == ["context"]  # 18 + 70 leaves 2: only the first word
    excluded = plan("-graph con*", budget=90)
    assert terms(excluded.required[0]) == ["context"]  # excluded words are read too


def test_plain_words_are_searched_whatever_the_budget():
    found = plan("transformer graph diffusion", budget=1)
    assert [terms(g) for g in found.required] == [["transform"], ["graph"], ["diffus"]]


def test_implicit_prefixes_only_within_the_budget():
    (group,) = plan("complement", budget=10).required
    assert group.alternatives == (Term("all", "complement"),)


def test_planning_keeps_no_state_between_plans():
    fake = FakeIndex()
    planner = Planner(Vocabulary(WORDS), fake.df, ANALYSIS, 110, PAPERS)
    first = planner.plan(parse_query("graph con* complement -diffusion"))
    calls = list(fake.calls)
    second = planner.plan(parse_query("graph con* complement -diffusion"))
    assert (first.required, first.boosts, first.excluded) == (
        second.required,
        second.boosts,
        second.excluded,
    )
    assert fake.calls == calls * 2


# --- the any-word fallback --------------------------------------------------------------------


def test_the_fallback_searches_any_of_the_words_with_boosts_shared():
    found = plan("graph genomics -diffusion")
    fallback = found.fallback
    assert fallback is not None and fallback.fallback is None
    assert fallback.required == found.required and fallback.minimum == 1
    assert not fallback.requires_all
    assert found.boosts and not found.share_boosts
    assert fallback.boosts == found.boosts and fallback.share_boosts
    assert fallback.excluded == found.excluded
    assert fallback.notes == (FALLBACK_NOTE,)
    assert fallback.matcher is found.matcher
    assert plan("graph").fallback is None and plan("graph -diffusion").fallback is None


@pytest.mark.parametrize("words", [2, 3, 4, 5, 6])
def test_the_fallback_asks_for_any_of_the_words(words):
    text = " ".join(["graph", "transformer", "long", "fine", "tuning", "diffusion"][:words])
    found = plan(text + " ")
    assert found.fallback is not None
    assert len(found.fallback.required) == words and found.fallback.minimum == 1
    # Three words or more: its papers are shown whether or not some paper has them all.
    assert found.widen == (words >= BEST_MATCH_WORDS)
    assert found.fallback.notes == ((BEST_MATCH_NOTE if found.widen else FALLBACK_NOTE),)


def test_the_fallback_leaves_out_function_words_unless_there_is_nothing_else():
    found = plan("graph models for their long ")
    assert "their" in FUNCTION_WORDS and "for" not in FUNCTION_WORDS  # "for": a stop word
    assert [terms(g) for g in found.required] == [["graph"], ["model"], ["their"], ["long"]]
    assert found.fallback is not None
    assert [terms(g) for g in found.fallback.required] == [["graph"], ["model"], ["long"]]
    assert found.fallback.notes == (BEST_MATCH_NOTE,)
    only = plan("their these ")
    assert only.fallback is not None
    assert [terms(g) for g in only.fallback.required] == [["their"], ["these"]]
    # The word being typed may become another ("thesis"): it stays.
    typing = plan("graph long these")
    assert typing.fallback is not None and len(typing.fallback.required) == 3


def test_the_fallback_keeps_the_rarest_words_the_budget_affords():
    # Costs: transformer 40, graph 18, long 33, genomics 1; the rarest first, 52 fit in 60.
    found = plan("transformer graph long genomics", budget=60)
    assert found.fallback is not None
    assert [terms(g) for g in found.fallback.required] == [["graph"], ["long"], ["genom"]]
    assert found.fallback.notes == (FALLBACK_RARER_NOTE,)
    # At least one word, however small the budget.
    found = plan("transformer graph", budget=1)
    assert found.fallback is not None
    assert [terms(g) for g in found.fallback.required] == [["graph"]]


# --- did you mean -----------------------------------------------------------------------------


def test_did_you_mean_is_made_of_real_words():
    suggest = planner().suggest
    assert suggest(parse_query("transfomer grpah")) == "transformer graph"
    assert suggest(parse_query("transformer graph")) == ""
    assert suggest(parse_query('"a phrase" trnsformer')) == "a phrase transformer"


@pytest.mark.parametrize("typed", ["S2IP-LLM", "grpah2", "GrPah", "trnsfomerNet"])
def test_did_you_mean_keeps_a_token_with_a_digit_or_an_inner_capital(typed):
    assert planner().suggest(parse_query(f"{typed} transfomer")) == f"{typed} transformer"


@pytest.mark.parametrize("token", ["S2IP-LLM", "ViT", "xLSTM", "GPT4", "H₂O", "PICLe"])
def test_a_coined_token_holds_a_digit_or_an_inner_capital(token):
    assert coined(token)
    assert not coined(token.lower().translate(str.maketrans("", "", "0123456789₂")))


# --- bounds on the seeds' real index ----------------------------------------------------------


def test_broad_prefixes_expand_to_at_most_the_cap(seed_searcher):
    """`con`-words are many in any corpus: the expansion takes the cap, not all of them."""
    assert len(seed_searcher.vocabulary.prefixed("con", 10_000)) > MAX_EXPANSIONS  # it bites
    (group,) = seed_searcher.planner.plan(parse_query("con*")).required
    # The cap counts words; words sharing a stem ("context", "contexts") are one term.
    assert MAX_EXPANSIONS // 2 <= len(group.alternatives) <= MAX_EXPANSIONS


def test_repeated_terms_are_one_clause(seed_searcher):
    parsed = parse_query(" ".join(["con*", "Con*", "transformer", "TRANSFORMER"] * 20))
    assert [c.text for c in parsed.clauses] == ["con", "transformer"]
    planner = seed_searcher.planner
    assert plan_leaves(bounded_plan(planner, " ".join(["con*"] * 30))) == plan_leaves(
        bounded_plan(planner, "con*")
    )


def test_the_bound_counts_what_a_query_reads(seed_searcher):
    """The leaf count is not vacuous: it grows with clauses and expansions."""

    def leaves(text: str) -> int:
        return plan_leaves(bounded_plan(seed_searcher.planner, text))

    assert leaves("dna") < leaves("dna model")
    assert leaves("dna") < leaves("con*")


def test_expansions_stop_at_the_postings_budget_of_the_real_index(seed_searcher):
    full = seed_searcher.planner
    (whole,) = full.plan(parse_query("con*")).required
    small = replace(full, budget=40)
    (cut,) = small.plan(parse_query("con*")).required
    assert 1 <= len(cut.alternatives) < len(whole.alternatives)
    assert cut.cost <= 40
    for text in ("con* pre* dis* com*", "model~2 learn~2 data~2", "transformer con*"):
        assert beyond_first(small, small.plan(parse_query(text))) <= 40


@pytest.mark.parametrize("text", ["con*", "transformer~", "genomic~ -vision*"])
def test_expansions_on_the_real_index_are_terms_it_holds(seed_searcher, text):
    """The fake index above is not kinder than the real one."""
    found = seed_searcher.planner.plan(parse_query(text))
    assert found.required
    for group in (*found.required, *found.excluded):
        assert group.alternatives
        for alternative in group.alternatives:
            assert isinstance(alternative, Term)
            assert seed_searcher.planner.df(alternative.field, alternative.text) > 0


def test_a_word_said_twice_weighs_twice_in_its_group_and_its_boosts():
    once, twice = plan("graphs networks models"), plan("graphs networks graphs models")
    assert [g.cost for g in twice.required] == [g.cost for g in once.required]
    doubled = [replace(a, weight=2 * a.weight) for a in once.required[0].alternatives]
    assert twice.required[0].alternatives == tuple(doubled)
    assert twice.required[1:] == once.required[1:]
    graph_boosts = [b for b in once.boosts if isinstance(b, Term) and b.text.startswith("graph")]
    assert graph_boosts
    assert all(replace(b, weight=2 * b.weight) in twice.boosts for b in graph_boosts)
