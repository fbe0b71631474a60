from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperterm.index.search.searcher import FALLBACK_NOTE, mark, snippet


def _first_text(searcher, query):
    results = searcher.search(query, limit=5)
    assert results.hits, f"no hits for {query!r}"
    return results, results.hits[0].paper.text


def test_reverse_complement_dna_ranks_caduceus_first(seed_searcher):
    _, text = _first_text(seed_searcher, "reverse complement DNA")
    assert "Caduceus" in text


def test_long_context_without_fine_tuning_ranks_selfextend_first(seed_searcher):
    _, text = _first_text(seed_searcher, "long context window without fine-tuning")
    assert "SelfExtend" in text


def test_all_words_must_match(seed_searcher):
    results = seed_searcher.search("persona elicitation", limit=50)
    assert results.total == 1
    assert "PICLe" in results.hits[0].paper.text
    assert results.notes == []


def test_falls_back_to_any_word_with_a_note(seed_searcher):
    results = seed_searcher.search("persona genomics", limit=50)
    assert results.total >= 2
    assert FALLBACK_NOTE in results.notes


def test_phrase_must_be_in_order(seed_searcher):
    assert seed_searcher.search('"reverse complement"', limit=5).total == 0
    ordered = seed_searcher.search('"right to be forgotten"', limit=5)
    assert ordered.total == 1


def test_exclusion(seed_searcher):
    everything = {h.paper.id for h in seed_searcher.search("transformer", limit=None).hits}
    without = seed_searcher.search("transformer -video", limit=None)
    assert without.total == len(everything) - 1
    assert all("video" not in h.paper.text.lower() for h in without.hits)


def test_field_queries(seed_searcher):
    assert seed_searcher.search("collection:论文 density", limit=5).hits
    only_first = seed_searcher.search("collection:Papers", limit=None)
    assert only_first.total == 19
    assert {h.paper.collection for h in only_first.hits} == {"ICML 2024 Papers"}


def test_cjk_bigrams_find_the_chinese_collection(seed_searcher):
    results = seed_searcher.search("论文", limit=None)
    assert results.total == 19
    assert {h.paper.collection for h in results.hits} == {"ICML 2024 论文列表"}


def test_prefix_and_fuzzy(seed_searcher):
    assert seed_searcher.search("genom*", limit=5).hits[0].paper.text.count("Caduceus")
    fuzzy = seed_searcher.search("Caduseus~", limit=5)
    assert fuzzy.hits and "Caduceus" in fuzzy.hits[0].paper.text


def test_zero_hits_suggest_real_words_not_stems(seed_searcher):
    results = seed_searcher.search("trasnformer", limit=5)
    assert results.total == 0
    assert results.suggestion == "transformer"
    unrelated = seed_searcher.search("qqqqzzzz", limit=5)
    assert unrelated.total == 0 and unrelated.suggestion == ""


def test_snippets_mark_matched_words(seed_searcher):
    hit = seed_searcher.search("reverse complement DNA", limit=1).hits[0]
    marked = hit.marked_snippet()
    assert "**DNA**" in marked and "**reverse**" in marked
    assert "**complementarity**" in marked  # "complement" also matches as a prefix
    for start, end in hit.spans:
        assert hit.snippet[start:end].lower().startswith(("dna", "reverse", "complement"))


def test_snippet_window_and_mark():
    text = " ".join(f"w{i}" for i in range(100)) + " target end"
    start = text.index("target")
    piece, spans = snippet(text, [(start, start + 6)], words=10)
    assert piece.startswith("…") and "target" in piece
    assert [piece[s:e] for s, e in spans] == ["target"]
    assert mark("a b", [(2, 3)], "<", ">") == "a <b>"


def test_empty_and_stopword_queries_show_everything(seed_searcher):
    assert seed_searcher.search("", limit=None).total == 38
    results = seed_searcher.search("the of", limit=None)
    assert results.total == 38 and results.notes


def test_allowed_restricts_results(seed_searcher, seed_index):
    ids = {seed_index.papers[0].id, seed_index.papers[5].id}
    assert {h.paper.id for h in seed_searcher.search("", allowed=ids, limit=None).hits} == ids
    results = seed_searcher.search("the", allowed=ids, limit=None)
    assert {h.paper.id for h in results.hits} <= ids


def test_similar_papers(seed_searcher, seed_index):
    caduceus = next(p for p in seed_index.papers if "Caduceus" in p.text)
    similar = seed_searcher.similar(caduceus.id, limit=5)
    assert 0 < len(similar) <= 5
    assert caduceus.id not in {h.paper.id for h in similar}
    assert seed_searcher.similar("no-such-id") == []


WILD = [
    "*",
    "c*",
    "foo~9",
    "field:",
    "title:",
    '"',
    '"""',
    "((",
    ")",
    "-",
    "--",
    "+",
    "~",
    "~~2",
    "AND OR NOT",
    "a" * 5000,
    " ".join(["word"] * 500),
    "🦀🦀",
    "论文列表 深度学习",
    "\x00\x1b[2J",
    'title:* abstract:~ name:"',
    "-dna",
    '-"reverse complement"',
    "?",
    "x*y*z",
    "a~b~c",
]


def test_wild_queries_answer_without_raising(seed_searcher):
    for query in WILD:
        results = seed_searcher.search(query, limit=10)
        assert results.total >= 0
        assert all(hit.paper.id for hit in results.hits)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300))
def test_no_query_string_raises(seed_searcher, text):
    results = seed_searcher.search(text, limit=20)
    assert results.total >= len(results.hits)


def test_total_counts_every_match_whatever_the_limit(seed_searcher):
    for query in ("transformer", "language models", "in-context learning", "graph"):
        everything = seed_searcher.search(query, limit=None, snippets=False)
        top = seed_searcher.search(query, limit=1, snippets=False)
        assert top.total == everything.total == len(everything.hits)
        assert top.hits[0].paper.id == everything.hits[0].paper.id
