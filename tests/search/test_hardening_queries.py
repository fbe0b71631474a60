"""Any query string gets an answer, and the work it can cause is bounded by construction.

No timing here (benchmarks/bench_wild_queries.py measures it): what makes a query slow is
the number of posting lists it reads, so these tests bound that for every string. The
Whoosh query `Searcher.build` makes holds only plain terms and phrases (never a Whoosh
prefix, wildcard or fuzzy query, which expand inside Whoosh without limit), every
expansion of a prefix or typo is capped, and the clauses are capped.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from whoosh import query as Q
from wild_queries import WILD_QUERIES

from paperterm.index.config import Config
from paperterm.index.search import searcher as search_module
from paperterm.index.search.query import MAX_CLAUSES, MAX_QUERY_CHARS, MAX_TERM_CHARS, parse_query
from paperterm.index.search.searcher import MAX_EXPANSIONS, Searcher
from paperterm.index.session import Session

#: The most posting lists one clause can read: its expansions, or its words (at most one
#: per character) in the matching field and in the title and name boosts, plus the
#: expansions of an implicit prefix.
CLAUSE_LEAVES = MAX_EXPANSIONS + 3 * MAX_TERM_CHARS
QUERY_LEAVES = MAX_CLAUSES * CLAUSE_LEAVES


def leaves(query: Q.Query) -> int:
    """Posting lists a query reads: one per term, one per word of a phrase. Fails on any
    query Whoosh would expand by itself."""
    if type(query) is Q.Term:
        return 1
    if type(query) is Q.Phrase:
        assert len(query.words) <= MAX_TERM_CHARS, query
        return len(query.words)
    if query is Q.NullQuery:
        return 0
    assert isinstance(query, (Q.Or, Q.And, Q.AndMaybe, Q.AndNot)), f"unbounded {query!r}"
    children = list(query.children())
    if isinstance(query, Q.Or) and all(type(child) is Q.Term for child in children):
        assert len(children) <= MAX_EXPANSIONS, f"{len(children)} expansions"
    return sum(leaves(child) for child in children)


def built_leaves(searcher: Searcher, text: str) -> int:
    parsed = parse_query(text)
    built = searcher.build(parsed)
    assert len(parsed.clauses) <= MAX_CLAUSES
    assert len(built.required) + len(built.excluded) <= len(parsed.clauses)
    return sum(leaves(q) for q in [*built.required, *built.boosts, *built.excluded])


@pytest.mark.parametrize("text", WILD_QUERIES, ids=range(len(WILD_QUERIES)))
def test_wild_queries_build_bounded_queries_and_answer(seed_searcher, text):
    assert built_leaves(seed_searcher, text) <= QUERY_LEAVES
    results = seed_searcher.search(text, limit=20)
    assert results.total >= len(results.hits)
    assert not any("could not run" in note for note in results.notes), results.notes


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
    assert built_leaves(seed_searcher, text) <= QUERY_LEAVES
    results = seed_searcher.search(text, limit=20)
    assert results.total >= len(results.hits)
    assert not any("could not run" in note for note in results.notes), results.notes


def test_broad_prefixes_expand_to_at_most_the_cap(seed_searcher):
    """`con`-words are many in any corpus: the expansion takes the cap, not all of them."""
    vocabulary = seed_searcher.vocabulary
    assert len(vocabulary.prefixed("con", 10_000)) > MAX_EXPANSIONS  # the cap does bite
    built = seed_searcher.build(parse_query("con*"))
    (query,) = built.required
    # The cap counts words; words sharing a stem ("context", "contexts") are one term.
    assert MAX_EXPANSIONS // 2 <= len(list(query.children())) <= MAX_EXPANSIONS


def test_repeated_terms_are_one_clause(seed_searcher):
    parsed = parse_query(" ".join(["con*", "Con*", "transformer", "TRANSFORMER"] * 20))
    assert [c.text for c in parsed.clauses] == ["con", "transformer"]
    assert built_leaves(seed_searcher, " ".join(["con*"] * 30)) == built_leaves(
        seed_searcher, "con*"
    )


def test_a_pasted_page_is_cut_with_a_note():
    parsed = parse_query("word " * 100_000 + "tail")
    assert parsed.notes and str(MAX_QUERY_CHARS) in parsed.notes[0]
    assert [c.text for c in parsed.clauses] == ["word"]


def test_the_bound_counts_what_a_query_reads(seed_searcher):
    """The leaf count is not vacuous: it grows with clauses and expansions."""
    assert built_leaves(seed_searcher, "dna") < built_leaves(seed_searcher, "dna model")
    assert built_leaves(seed_searcher, "dna") < built_leaves(seed_searcher, "con*")
    with pytest.raises(AssertionError, match="unbounded"):
        leaves(Q.Prefix("all", "c"))


def test_a_query_that_raises_inside_is_caught_and_explained(seed_searcher, monkeypatch):
    """The last line of defence (and why the tests above check that it never fires)."""

    def broken(self, parsed):
        raise RecursionError("deep")

    monkeypatch.setattr(search_module.Searcher, "build", broken)
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
    assert len(opened.papers[0].text) > 2_000_000
    assert scanned and max(scanned) <= search_module.SNIPPET_SCAN_CHARS
    assert "**evaluation**" in hit.marked_snippet()


# --- the postings budget ----------------------------------------------------------------


def _expansions(built) -> list[Q.Or]:
    """The Or-of-terms queries a build holds: prefix, typo and implicit-prefix expansions."""
    found = []

    def walk(query: Q.Query) -> None:
        children = list(query.children())
        if isinstance(query, Q.Or) and children and all(type(c) is Q.Term for c in children):
            found.append(query)
        else:
            for child in children:
                walk(child)

    for query in [*built.required, *built.excluded]:
        walk(query)
    return found


def _df(searcher: Searcher, term: Q.Term) -> int:
    return searcher._searcher.doc_frequency(term.fieldname, term.text)


def check_expansions_within_budget(searcher: Searcher, text: str) -> None:
    """What all expansions read is the budget at most, plus the first (most frequent) word
    of each, which a prefix or typo always keeps."""
    ors = _expansions(searcher.build(parse_query(text)))
    read = sum(_df(searcher, term) for query in ors for term in query.children())
    allowance = sum(_df(searcher, next(iter(query.children()))) for query in ors)
    assert read <= searcher.budget + allowance


def test_expansions_stop_at_the_postings_budget(seed_searcher, monkeypatch):
    full = _expansions(seed_searcher.build(parse_query("con*")))[0]
    monkeypatch.setattr(seed_searcher, "budget", 40)
    cut = _expansions(seed_searcher.build(parse_query("con*")))[0]
    assert 1 <= len(list(cut.children())) < len(list(full.children()))
    assert sum(_df(seed_searcher, term) for term in cut.children()) <= 40
    for text in ("con* pre* dis* com*", "model~2 learn~2 data~2", "transformer con*"):
        check_expansions_within_budget(seed_searcher, text)


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
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(seed_searcher, "budget", budget)
        check_expansions_within_budget(seed_searcher, text)
        results = seed_searcher.search(text, limit=5)
    assert not any("could not run" in note for note in results.notes)


def test_any_word_fallback_keeps_the_rarest_words_within_budget(seed_searcher, monkeypatch):
    """No paper has both words: the fallback shows papers with either, or, when the budget
    cannot pay for both, with the rarer one, and says so."""
    query = "Caduceus learning"
    assert seed_searcher.search(query).notes == [search_module.FALLBACK_NOTE]
    rare = seed_searcher.search("Caduceus").ids
    monkeypatch.setattr(seed_searcher, "budget", 1)
    results = seed_searcher.search(query)
    assert results.notes == [search_module.FALLBACK_RARER_NOTE]
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
    assert len(calls) == search_module.MAX_SUGGESTED
    calls.clear()
    assert seed_searcher.search("transfomer").suggestion == "transformer"
    assert calls == ["transfomer"]
