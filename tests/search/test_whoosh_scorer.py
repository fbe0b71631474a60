"""The term-at-a-time plan scorer finds what Whoosh's own matchers find, with their scores:
the same documents, the same totals, scores equal to ~1e-9, in the same order (best first,
the earlier document first among equals)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from generated import write_generated_corpus
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from whoosh.collectors import UnlimitedCollector
from wild_queries import WILD_QUERIES

from paperterm.index.config import Config
from paperterm.index.search.boost_share import boost_share
from paperterm.index.search.plan import AnyOf, Phrase, Plan, Term
from paperterm.index.search.query import parse_query
from paperterm.index.search.searcher import Searcher
from paperterm.index.search.whoosh.engine import compile_alternative, compile_plan
from paperterm.index.search.whoosh.scorer import PlanScorer
from paperterm.index.session import Session
from paperterm.index.text.words import stem

QUERIES = [
    "transformer",
    "reverse complement DNA",
    "large language models",
    '"language models"',
    '"state of the art"',
    "title:diffusion",
    "author:ada",
    "collection:icml",
    "-vision",
    "graph -neural",
    "model* -train*",
    "transfomer~",
    "long-context",
    "论文",
    "the of and",
    "xT",
    "attention heads sparse mixture experts routing tokens",
    "generated",
    "ba*",
    # Search as you type: the word being typed, a half-typed phrase, words as typed.
    "language mo",
    '"language mo',
    "=transformer ",
    "diffusion models ",
]


def whoosh_results(
    searcher: Searcher, plan: Plan, allowed: set[int] | None
) -> tuple[dict[int, float], dict[int, int]]:
    """What Whoosh's matchers give for the plan (as the Whoosh engine ran plans before the
    scorer): every match and its score, and how many required groups each matches. Boosts
    shared by the words their field holds (`Plan.share_boosts`), which no Whoosh query says,
    are each Whoosh's scores of the boost alone, times the share."""
    whoosh = searcher.engine._searcher
    if plan.share_boosts and plan.boosts:
        found, counts = whoosh_results(searcher, replace(plan, boosts=()), allowed)
        boosts = []
        for boost in plan.boosts:
            hits = whoosh.search(compile_alternative(boost), limit=None)
            boosts.append(
                (boost.field, {hit.docnum: hit.score for hit in hits if hit.docnum in found})
            )
        held = Counter((field, docnum) for field, scores in boosts for docnum in scores)
        for field, scores in boosts:
            for docnum, score in scores.items():
                found[docnum] += score * boost_share(held[field, docnum], len(plan.required))
        return found, counts
    collector = UnlimitedCollector()
    query = compile_plan(plan)
    counts: dict[int, int] = {}
    for group in plan.required:
        for docnum in whoosh.docs_for_query(compile_plan(Plan(required=(group,)))):
            counts[docnum] = counts.get(docnum, 0) + 1
    if not plan.requires_all and (plan.minimum or 0) > 1:
        least = len(plan.required) if plan.minimum is None else plan.minimum
        enough = {d for d, count in counts.items() if count >= least}
        allowed = enough if allowed is None else allowed & enough
    if allowed is not None and not allowed:
        # Whoosh's FilterCollector reads an empty `allow` as no filter at all (main's Whoosh
        # engine showed papers with one word of seven so, when none had four).
        return {}, counts
    if allowed is not None:
        from whoosh.collectors import FilterCollector

        collector = FilterCollector(collector, allow=allowed)
    whoosh.search_with_collector(query, collector)
    return {hit.docnum: float(hit.score) for hit in collector.results()}, counts


def plans_of(searcher: Searcher, text: str) -> list[Plan]:
    plan = searcher.planner.plan(parse_query(text))
    plans = [] if plan.everything and not plan.excluded else [plan]
    if plan.fallback is not None:
        plans.append(plan.fallback)
    return plans


def same(searcher: Searcher, plan: Plan, allowed: set[int] | None = None) -> None:
    expected, _ = whoosh_results(searcher, plan, allowed)
    scorer = PlanScorer(searcher.engine._searcher)
    found, total = scorer.collect(plan, None, allowed)
    assert total == len(expected)

    order = sorted(expected, key=lambda d: (-expected[d], d))
    for (docnum, score), wanted in zip(found, order, strict=True):
        assert score == pytest.approx(expected[docnum], rel=1e-9, abs=1e-12)
        # The same document, or one Whoosh ranks the same but for rounding.
        assert docnum == wanted or expected[docnum] == pytest.approx(expected[wanted], rel=1e-9)
    top, count = scorer.collect(plan, 5, allowed)
    assert count == total and top == found[:5]


@pytest.fixture(scope="module")
def searchers(tmp_path_factory: pytest.TempPathFactory) -> list[Searcher]:
    """The seeds (one part) and a generated corpus in several parts (segments)."""
    seeds, _ = Session.create(tmp_path_factory.mktemp("seeds"), [], Config()).open()
    folder = tmp_path_factory.mktemp("generated")
    write_generated_corpus(folder / "corpus", 600, per_file=100)
    patch = pytest.MonkeyPatch()
    patch.setattr("paperterm.index.search.build_parts.PART_POSTINGS", 5_000)
    try:
        parts, _ = Session.create(folder / "data", [folder / "corpus"], Config()).open()
    finally:
        patch.undo()
    assert len(parts.meta.parts) > 2
    return [Searcher(o.ix, o.papers, o.vocabulary()) for o in (seeds, parts)]


@pytest.mark.parametrize("query", QUERIES)
def test_the_scorer_finds_what_whoosh_finds(searchers, query):
    for searcher in searchers:
        for plan in plans_of(searcher, query):
            same(searcher, plan)


def test_allowed_documents_and_the_any_word_minimum(searchers):
    for searcher in searchers:
        plan = searcher.planner.plan(parse_query("graph neural networks attention"))
        assert plan.fallback is not None
        allowed = set(range(0, searcher.engine.paper_count(), 3))
        same(searcher, plan, allowed)
        same(searcher, replace(plan.fallback, minimum=2))


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(WILD_QUERIES) | st.text(max_size=40))
def test_wild_queries_agree(searchers, text):
    for searcher in searchers:
        for plan in plans_of(searcher, text):
            same(searcher, plan)


def test_a_repeated_term_is_read_whole_once(searchers, monkeypatch):
    """A rare word and a frequent one: the first time, the rare word is read whole and the
    frequent one only for the papers holding the rare one (and not kept); the next time,
    that one is read whole and kept; from then on, both come from the cache."""
    searcher = searchers[1]
    whoosh = searcher.engine._searcher
    scorer = PlanScorer(whoosh)
    reads: list[tuple[str, str]] = []
    real = PlanScorer._read_term

    def spy(self, fieldname, text):
        reads.append((fieldname, text))
        return real(self, fieldname, text)

    monkeypatch.setattr(PlanScorer, "_read_term", spy)
    (_, frequent), *_ = whoosh.reader().most_frequent_terms("all", 1)
    lexicon = whoosh.reader().lexicon("all")
    rare = next(term for term in lexicon if 2 <= whoosh.doc_frequency("all", term) <= 10)
    words = [word.decode() for word in (rare, frequent)]
    groups = [AnyOf((Term("all", word, 1.0),), scorer.doc_frequency("all", word)) for word in words]
    plan = Plan(required=tuple(groups))
    assert whoosh.doc_frequency("all", frequent) > 2 * whoosh.doc_frequency("all", rare)
    first = scorer.collect(plan, 10, None)
    assert reads == [("all", words[0])]
    assert scorer.collect(plan, 10, None) == first
    assert reads == [("all", words[0]), ("all", words[1])]
    assert scorer.collect(plan, 10, None) == first
    assert len(reads) == 2  # the third time, both from the cache


def _restricted(scores: dict[int, float], within: set[int]) -> dict[int, float]:
    return {docnum: score for docnum, score in scores.items() if docnum in within}


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_term_or_phrase_scored_for_some_documents_has_its_whole_scores_there(searchers, data):
    """`within`: a term's scores (read from the file in part, then whole, then from the
    cache) and a phrase's are those of the whole term or phrase, of those documents, to the
    last bit; `within` a set or a dict."""
    searcher = data.draw(st.sampled_from(searchers))
    whoosh = searcher.engine._searcher
    field = data.draw(st.sampled_from(["all", "title"]))
    common = [term.decode() for _, term in sorted(whoosh.reader().most_frequent_terms(field, 8))]
    text = data.draw(st.sampled_from(common))
    boost = data.draw(st.sampled_from([1.0, 0.5]))
    count = searcher.engine.paper_count()
    within = data.draw(st.sets(st.integers(0, count - 1), max_size=count))
    if data.draw(st.booleans()):
        within = dict.fromkeys(within, 0.0)
    whole = PlanScorer(whoosh)._term(field, text, boost, None)
    scorer = PlanScorer(whoosh)
    for _ in range(3):  # in part, whole, from the cache
        assert scorer._term(field, text, boost, within) == _restricted(whole, set(within))
    phrase = Phrase(field, (text, data.draw(st.sampled_from(common))), boost)
    found = PlanScorer(whoosh)._phrase(phrase, within)
    assert found == _restricted(PlanScorer(whoosh)._phrase(phrase, None), set(within))
    event("matched" if found else "matched none")


@settings(max_examples=200)
@given(
    lengths=st.lists(st.integers(0, 255), min_size=1, max_size=40),
    data=st.data(),
    idf=st.floats(0.1, 20),
    norms=st.lists(st.floats(0.01, 10), min_size=256, max_size=256),
)
def test_scores_looked_up_in_rows_of_products_are_the_products(lengths, data, idf, norms):
    """A large leaf's scores are looked up in rows of `idf * base` made first (one a
    weight), a small one's multiplied one by one: the same numbers, to the last bit, with
    one weight for all postings or one each."""
    from paperterm.index.search.whoosh import scorer as whoosh_scorer
    from paperterm.index.search.whoosh.scorer import _Bases, _scored

    ids = data.draw(st.lists(st.integers(0, len(lengths) - 1), max_size=60))
    weights = data.draw(
        st.sampled_from([1.0, 2.0])
        | st.lists(st.sampled_from([1.0, 2.0, 3.0, 0.5]), min_size=len(ids), max_size=len(ids))
    )
    bases = _Bases(2.2, norms)
    each = [weights] * len(ids) if isinstance(weights, float) else weights
    expected = [idf * bases[weight][lengths[i]] for i, weight in zip(ids, each, strict=True)]
    patch = pytest.MonkeyPatch()
    try:
        for threshold in (0, 10**9):  # rows, then one by one
            patch.setattr(whoosh_scorer, "ROW_POSTINGS", threshold)
            assert list(_scored(ids, weights, lengths, bases, idf)) == expected
    finally:
        patch.undo()


def test_scores_from_a_small_index_path(tmp_path: Path):
    """An index of one document: no division by zero, a score like Whoosh's."""
    source = tmp_path / "one.txt"
    source.write_text("One\n\nA single abstract about otters.\n")
    opened, _ = Session.create(tmp_path / "data", [source], Config()).open()
    searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
    for plan in plans_of(searcher, "otters"):
        same(searcher, plan)


def test_related_papers_are_whooshs_more_like(searchers):
    """`similar` is Whoosh's `more_like` (the same key terms, an `Or` of them), scored by
    the plan scorer: the same papers and scores as Whoosh's matchers give, exactly."""
    from whoosh import query as Q

    from paperterm.index.search.searcher import SIMILAR_SCAN_CHARS

    for searcher in searchers:
        engine, whoosh = searcher.engine, searcher.engine._searcher
        for docnum in range(0, engine.paper_count(), 37):
            paper = searcher.papers[docnum]
            text = f"{paper.title} {paper.text[:SIMILAR_SCAN_CHARS]}"
            terms = whoosh.key_terms_from_text("all", text, numterms=12)
            query = Q.Or([Q.Term("all", word, boost=weight) for word, weight in terms])
            expected = {
                hit.docnum: hit.score for hit in whoosh.search(query, limit=None, mask={docnum})
            }
            found = engine.similar(paper.id, text, len(expected) + 5)
            scores = dict(found)
            assert scores.keys() == expected.keys()
            for found_docnum, score in scores.items():
                assert score == pytest.approx(expected[found_docnum], rel=1e-9)
            assert [s for _, s in found] == sorted((s for _, s in found), reverse=True)


def test_document_frequencies_and_idfs_are_whooshs(searchers, monkeypatch):
    """From the scorer's term infos (one look-up per term for the planner, the idf and the
    postings): Whoosh's own numbers, for terms in one leaf, in several and in none, and for
    a field the schema lacks; the infos kept are bounded."""
    from paperterm.index.search.whoosh import scorer as whoosh_scorer

    monkeypatch.setattr(whoosh_scorer, "CACHE_TERM_INFOS", 5)
    for searcher in searchers:
        whoosh = searcher.engine._searcher
        scorer = PlanScorer(whoosh)
        held = [term.decode() for term in whoosh.reader().lexicon("all")][::50]
        terms = [("all", word) for word in (*held, "model", "languag", "zzzz", "part")]
        terms += [("title", "model"), ("name", "xt"), ("authors", "ada"), ("name", "nothing")]
        for _ in range(2):  # read, then from the kept infos (or read again past the bound)
            for fieldname, text in terms:
                assert scorer.doc_frequency(fieldname, text) == whoosh.doc_frequency(
                    fieldname, text
                )
                assert scorer.idf(fieldname, text) == whoosh.idf(fieldname, text)
                assert len(scorer._infos) <= 5
        assert scorer.doc_frequency("no-such-field", "model") == 0
        assert searcher.engine.df("all", held[0]) == whoosh.doc_frequency("all", held[0]) > 0


def test_a_phrase_reads_each_words_positions_once_and_the_caches_count_what_they_hold(
    searchers, monkeypatch
):
    """A phrase word's positions are read once (then kept); the postings and positions
    kept are counted as they are (what bounds them)."""
    searcher = searchers[1]
    scorer = PlanScorer(searcher.engine._searcher)
    reads: list[tuple[str, str]] = []
    real = PlanScorer._read_positions

    def spy(self, fieldname, text):
        reads.append((fieldname, text))
        return real(self, fieldname, text)

    monkeypatch.setattr(PlanScorer, "_read_positions", spy)
    for query in ('"generated part"', "generated part", '"part generated"', "generated"):
        for plan in plans_of(searcher, query):
            scorer.collect(plan, 10, None)
    phrase_words = {("all", stem(word)) for word in ("generated", "part")}
    assert all(reads.count(word) == 1 for word in phrase_words)
    assert scorer._cached == sum(len(found.docs) for found in scorer._cache.values())
    assert scorer._values_cached == sum(len(found) for found in scorer._value_cache.values())
    assert scorer._cached > 0 and scorer._values_cached > 0


def test_the_postings_files_hold_whooshs_postings_and_score_as_its_blocks(searchers):
    """Every term of every field of every segment: the postings file gives the documents,
    weights, positions and document frequency Whoosh's own matcher gives, and the scores
    read from it are those of the formula the scorer used on Whoosh's postings before it,
    exactly, and Whoosh's BM25F's."""
    for searcher in searchers:
        whoosh = searcher.engine._searcher
        scorer = PlanScorer(whoosh)
        leaves = [leaf.reader() for leaf, _ in whoosh.leaf_searchers()]
        terms = set()
        for leaf, reader in enumerate(leaves):
            table = scorer._tables[leaf]
            assert table is not None and table.terms == len(list(reader.all_terms()))
            for fieldname, btext in reader.all_terms():
                terms.add((fieldname, btext))
                matcher = reader.postings(fieldname, btext)
                kept = matcher.supports("positions")
                ids, weights, positions = [], [], []
                while matcher.is_active():
                    ids.append(matcher.id())
                    weights.append(matcher.weight())
                    positions += matcher.value_as("positions") if kept else []
                    matcher.next()
                entry = table.find(fieldname, btext)
                assert entry is not None and entry[0] == reader.doc_frequency(fieldname, btext)
                docs, found = table.postings(entry)
                assert list(docs) == ids
                assert (list(found) if not isinstance(found, float) else [found] * len(ids)) == (
                    weights
                )
                ends, found_positions = table.positions(entry)
                assert list(found_positions) == positions
                assert len(ends) == (len(ids) if kept else 0)
            assert table.find("all", b"no such term") is None
        for fieldname, btext in sorted(terms):
            text = btext.decode("utf-8")
            if not whoosh.schema[fieldname].scorable:
                continue
            new = scorer._read_term(fieldname, text)
            idf, bases = scorer.idf(fieldname, text), scorer._field_bases(fieldname)
            expected, old = {}, []
            for number, (leaf, offset) in enumerate(whoosh.leaf_searchers()):
                if (fieldname, btext) not in leaf.reader():
                    continue
                lengths = scorer._leaf_lengths(number, fieldname)
                bm25 = whoosh.weighting.scorer(leaf, fieldname, text)
                matcher = leaf.reader().postings(fieldname, btext)
                while matcher.is_active():
                    expected[offset + matcher.id()] = bm25.score(matcher)
                    old.append(idf * bases[matcher.weight()][lengths[matcher.id()]])
                    matcher.next()
            assert list(new) == list(expected)
            assert list(new.values()) == old
            assert list(new.values()) == pytest.approx(list(expected.values()), rel=1e-12)


def test_the_postings_files_are_files_of_their_segment_and_checksummed(searchers, tmp_path):
    """Kept (hard-linked) with their part, and recorded in meta.json with every other file
    of a generation, so a damaged one means a rebuild."""
    from paperterm.index.search.store import ENGINE_FOLDER
    from paperterm.index.search.whoosh.index import WhooshFiles

    source = tmp_path / "one.txt"
    source.write_text("One\n\nA single abstract about otters.\n")
    opened, _ = Session.create(tmp_path / "data", [source], Config()).open()
    folder = Path(opened.location) / ENGINE_FOLDER
    files = WhooshFiles()
    for part in files.parts(folder).values():
        name = f"{part.segment_id()}.ptp"
        assert name in files.part_files(folder, part)
        assert f"{ENGINE_FOLDER}/{name}" in opened.meta.files


@pytest.fixture(scope="module")
def frequent_words(searchers: list[Searcher]) -> list[dict[str, list[str]]]:
    """Each searcher's 12 most frequent terms of each field (Whoosh reads every term of the
    field to find them: looked up once, not for each example)."""
    return [
        {
            field: [
                term.decode()
                for _, term in sorted(
                    searcher.engine._searcher.reader().most_frequent_terms(field, 12)
                )
            ]
            for field in ("all", "title", "authors")
        }
        for searcher in searchers
    ]


@settings(max_examples=80, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_phrases_of_frequent_words_agree(searchers, frequent_words, data):
    """Phrases read from the postings files' positions match where Whoosh's phrase query
    matches: words drawn from each field's most frequent terms (so that many phrases match),
    a word repeated, in any order, with a weight."""
    for searcher, frequent in zip(searchers, frequent_words, strict=True):
        field = data.draw(st.sampled_from(["all", "title", "authors"]))
        common = frequent[field]
        if not common:
            continue
        words = data.draw(st.lists(st.sampled_from(common), min_size=2, max_size=4))
        weight = data.draw(st.sampled_from([1.0, 2.5]))
        phrase = Phrase(field, tuple(words), weight)
        plan = Plan(required=(AnyOf((phrase,), cost=0),))
        same(searcher, plan)
        matched = PlanScorer(searcher.engine._searcher).collect(plan, None, None)[1]
        event("matched" if matched else "matched none")


@pytest.mark.parametrize("weight", [1.0, 2.5])
def test_a_phrase_scores_the_sum_of_its_words_scores_exactly(searchers, weight):
    """A matching document's phrase score is its words' scores added in the words' order,
    times the weight: to the last bit (as the scorer summed them document by document)."""
    searcher = searchers[1]
    scorer = PlanScorer(searcher.engine._searcher)
    reader = searcher.engine._searcher.reader()
    common = [term.decode() for _, term in sorted(reader.most_frequent_terms("all", 6))]
    phrases = [Phrase("all", (a, b), weight) for a in common for b in common]
    matched = 0
    for phrase in phrases:
        words = [scorer._term("all", word, 1.0, None) for word in phrase.words]
        for docnum, score in scorer._phrase(phrase, None).items():
            total = 0.0
            for word in words:
                total += word[docnum]
            assert score == (total * weight if weight != 1.0 else total)
            matched += 1
    assert matched > 0


#: Positions a word may have: a document's first ones and the last the postings file holds.
_POSITIONS = st.sampled_from([0, 1, 2, 3, 2**32 - 2, 2**32 - 1])
#: A word's positions in each document holding it (ascending, as postings keep them), in
#: documents up to the last number the postings file holds.
_WORD = st.dictionaries(
    st.sampled_from([0, 1, 2, 2**32 - 1]), st.sets(_POSITIONS, min_size=1).map(sorted), max_size=4
).map(lambda found: dict(sorted(found.items())))


@settings(max_examples=300)
@given(words=st.lists(_WORD, min_size=1, max_size=3), order=st.lists(st.integers(0, 2), max_size=4))
def test_a_phrase_matches_where_its_words_follow_each_other(words, order):
    """Phrase matching over words' places (document and position as one number) finds the
    documents where some position has the first word, the next the second word, and so on:
    also at a document's first positions (a start before 0 is none, not a place of another
    document) and its last, a word repeated."""
    from itertools import accumulate

    from paperterm.index.search.whoosh.scorer import _following, _places

    phrase = [words[index % len(words)] for index in order] or words[:1]
    places = []
    for word in phrase:
        ends = list(accumulate(map(len, word.values())))
        positions = [p for found in word.values() for p in found]
        places.append(frozenset(_places(word.keys(), ends, positions)))
    expected = {
        docnum
        for docnum, starts in phrase[0].items()
        if any(
            all(start + place in word.get(docnum, ()) for place, word in enumerate(phrase))
            for start in starts
        )
    }
    assert _following(places) == expected


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads Linux's /proc")
def test_closing_a_searcher_unmaps_its_postings_files(tmp_path):
    """A mapped file keeps its disk space after the generation holding it is removed, for
    as long as it stays mapped: closing the searcher unmaps them all."""
    source = tmp_path / "one.txt"
    source.write_text("One\n\nA single abstract about otters.\n")
    opened, _ = Session.create(tmp_path / "data", [source], Config()).open()

    def mapped() -> list[str]:
        maps = Path("/proc/self/maps").read_text().splitlines()
        return [line for line in maps if opened.location in line and line.endswith(".ptp")]

    searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
    assert searcher.search("otters").hits and mapped()
    searcher.close()
    assert mapped() == []


@pytest.mark.parametrize("text", ["-vision", "graph -neural", "otters", '"a b"', "ott*"])
def test_an_empty_index_matches_nothing_and_says_nothing(tmp_path, text):
    """A corpus of no papers (an empty source): every query finds nothing, with no note (a
    query of exclusions only said 'query could not run (ValueError)': the idf of a term of
    an index of no documents is the log of 0)."""
    source = tmp_path / "empty.txt"
    source.write_text("")
    opened, _ = Session.create(tmp_path / "data", [source], Config()).open()
    assert len(opened.papers) == 0
    searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
    results = searcher.search(text)
    assert (results.total, results.hits, results.notes) == (0, [], [])
    searcher.close()
