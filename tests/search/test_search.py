"""Searching through `Searcher`, as the CLI and the reader do: ranking, counts, fields,
snippets, "did you mean", similar papers, the any-word fallback (bounds: test_search_bounds.py)."""

from __future__ import annotations

import json
import re
from bisect import bisect_right

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_search_bounds import word_group
from whoosh.searching import Searcher as WhooshSearcher

from paperterm.index.config import Config
from paperterm.index.search.hits import WordStarts
from paperterm.index.search.plan import (
    BEST_MATCH_NOTE,
    FALLBACK_NOTE,
    Plan,
)
from paperterm.index.search.records import PAPERS, ROWS, PaperList
from paperterm.index.search.searcher import (
    SIMILAR_SCAN_CHARS,
    Matcher,
    Searcher,
    mark,
    snippet,
)
from paperterm.index.session import Session


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


def test_two_words_need_both(seed_searcher):
    results = seed_searcher.search("persona elicitation", limit=50)
    assert results.total == 1
    assert "PICLe" in results.hits[0].paper.text
    assert results.notes == []


def test_three_words_list_every_paper_with_any_of_them_by_score(seed_searcher):
    words = ["persona", "elicitation", "language"]
    having = _having(seed_searcher, words)
    every = having["persona"] & having["elicitation"] & having["language"]
    results = seed_searcher.search(" ".join(words) + " ", limit=None)
    assert every and set(results.ids) == set().union(*having.values())
    assert results.total == len(results.ids)
    scores = [hit.score for hit in results.hits]
    assert scores == sorted(scores, reverse=True)
    assert results.notes == []  # some paper has all the words


def test_two_words_list_only_the_papers_with_both(seed_searcher):
    having = _having(seed_searcher, ["language", "models"])
    both = having["language"] & having["models"]
    results = seed_searcher.search("language models", limit=None)
    assert set(results.ids) == both and results.notes == []


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
    results = seed_searcher.search("trasnformer", limit=5, exact=True)
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
    results = seed_searcher.search("the of ", limit=None)
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


def test_related_papers_of_a_huge_record_read_a_bounded_part_of_it(tmp_path, monkeypatch):
    """A 100 MB record held the reader's search lock for ~40 s while its key terms were
    picked from all of it: they come from the start of its text, as snippets do."""
    words = " ".join(f"filler{n % 5000}" for n in range(400_000))  # ~4.5 MB
    records = [
        {"id": "huge", "title": "Huge", "abstract": f"Otters and rivers. {words}"},
        {"id": "small", "title": "Small", "abstract": "Otters swim: filler1 filler2 filler3."},
    ]
    source = tmp_path / "huge.jsonl"
    source.write_text("\n".join(json.dumps(record) for record in records))
    opened, _ = Session.create(tmp_path / "data", [source], Config()).open()
    searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
    read: list[int] = []
    real = WhooshSearcher.key_terms_from_text

    def spy(self, fieldname, text, *args, **kwargs):
        read.append(len(text))
        return real(self, fieldname, text, *args, **kwargs)

    monkeypatch.setattr(WhooshSearcher, "key_terms_from_text", spy)
    related = searcher.similar("huge")
    assert read and max(read) <= SIMILAR_SCAN_CHARS + len("Huge ")
    assert [hit.paper.id for hit in related] == ["small"]


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
    '"' + " ".join(["learning"] * 60) + " mod",
    '"' + "a " * 60 + "con",
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


# --- most of your words -----------------------------------------------------------------------


def _having(searcher: Searcher, words: list[str]) -> dict[str, set[str]]:
    return {
        word: set(searcher.search(word + " ", limit=None, snippets=False).ids) for word in words
    }


def test_any_of_the_groups_ranks_by_score_and_counts_every_match(seed_searcher):
    words = ["language", "transformer", "training"]
    having = _having(seed_searcher, words)
    groups = tuple(word_group(seed_searcher, word) for word in words)
    scored, total = seed_searcher.engine.collect(Plan(groups, 1), None, None)
    assert total == len(scored) == len(set().union(*having.values()))
    scores = [score for _, score in scored]
    assert scores == sorted(scores, reverse=True)
    top, top_total = seed_searcher.engine.collect(Plan(groups, 1), 3, None)
    assert top == scored[:3] and top_total == total


def test_the_fallback_shows_every_paper_with_any_word_best_first(seed_searcher):
    words = ["caduceus", "transformer", "persona", "language"]
    having = _having(seed_searcher, words)
    results = seed_searcher.search(" ".join(words) + " ", limit=None)
    assert results.notes == [BEST_MATCH_NOTE]
    assert set(results.ids) == set().union(*having.values())
    scores = [hit.score for hit in results.hits]
    assert scores == sorted(scores, reverse=True)


def test_the_fallback_lists_the_papers_with_one_word_and_only_those_allowed(seed_searcher):
    """No paper has two of these three words: the fallback lists those with one; a filter
    that allows none lists none (Whoosh's FilterCollector reads an empty allowed set as no
    filter)."""
    having = _having(seed_searcher, ["transformer", "persona"])
    results = seed_searcher.search("transformer persona xqzv ", limit=None)
    assert set(results.ids) == having["transformer"] | having["persona"]
    narrowed = seed_searcher.search("transformer persona xqzv ", limit=None, allowed=set())
    assert narrowed.total == 0 and narrowed.hits == []


def test_a_query_with_nothing_to_search_reads_only_the_papers_shown(tmp_path):
    """`the` being typed lists every paper, unranked: of a `PaperList` only the first
    `limit` are read (all 50,000 were: 250 ms a keystroke)."""
    from generated import write_generated_corpus

    write_generated_corpus(tmp_path / "corpus", 300)
    opened, _ = Session.create(tmp_path / "data", [tmp_path / "corpus"], Config()).open()
    searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
    results = searcher.search("the", limit=10)
    assert results.total == 300 and len(results.hits) == 10
    assert sum(paper is not None for paper in opened.papers._loaded) <= 10
    allowed = {opened.papers.ids[5], opened.papers.ids[7]}
    assert searcher.search("the", limit=10, allowed=allowed).ids == [
        *sorted(allowed, key=opened.papers.ids.index)
    ]


def test_a_paper_list_reads_each_paper_once_at_any_index(seed_index, monkeypatch):
    """Hits are read at their positions: each paper once (the same object after), a
    negative index from the end as a list's, out of range an `IndexError`."""
    from paperterm.index.search.records import PaperList, RecordFile

    papers = seed_index.papers
    assert isinstance(papers, PaperList)
    fresh = PaperList(RecordFile(papers._file.path, PAPERS), RecordFile(papers._rows.path, ROWS))
    reads: list[int] = []
    real = RecordFile.get

    def spy(self, index):
        reads.append(index)
        return real(self, index)

    monkeypatch.setattr(RecordFile, "get", spy)
    last = fresh[len(fresh) - 1]
    assert fresh[-1] is last and fresh[-len(fresh)] is fresh[0]
    assert [paper.id for paper in fresh[:3]] == list(fresh.ids[:3])
    assert sorted(reads) == sorted({0, 1, 2, len(fresh) - 1})
    for index in (len(fresh), -len(fresh) - 1):
        with pytest.raises(IndexError):
            fresh[index]


def _best_window_by_sets(text: str, spans: list[tuple[int, int]], words: int) -> int:
    """The window `snippet` picks, as it was first written: a set of distinct matched words
    made for every window (the reference for the sliding count)."""
    starts = [m.start() for m in re.finditer(r"\S+", text)]
    span_words = [max(0, bisect_right(starts, start) - 1) for start, _ in spans]
    best, best_count, j = 0, -1, 0
    for i in range(len(span_words)):
        while j < len(span_words) and span_words[j] < span_words[i] + words:
            j += 1
        distinct = len({text[spans[k][0] : spans[k][1]].lower() for k in range(i, j)})
        if distinct > best_count:
            best, best_count = i, distinct
    window_start = max(0, span_words[best] - 3)
    return starts[window_start]


@settings(max_examples=300)
@given(
    text=st.lists(
        st.sampled_from(["model", "Model", "data", "x", "graph", "the"]), max_size=90
    ).map(" ".join),
    words=st.integers(min_value=2, max_value=30),
)
def test_the_snippet_window_has_the_most_distinct_matched_words(text, words):
    spans = Matcher(set(), {"model", "data", "graph"}, ()).spans(text)
    piece, _ = snippet(text, spans, words)
    if spans and len(text.split()) > words:
        first = _best_window_by_sets(text, spans, words)
        assert text[first:].startswith(piece.removeprefix("…").removesuffix("…"))


@settings(max_examples=400)
@given(
    text=st.lists(
        st.sampled_from(["model", "Data", "x", "(graph)", "e.g.", " ", "  ", "\n", "\t", "—"]),
        max_size=60,
    ).map("".join)
)
def test_word_starts_counted_on_spaces_are_those_listed(text):
    """`WordStarts` counts and splits on spaces when the words are one space apart: the
    same starts and word numbers as listing every run of non-space characters."""
    listed = [m.start() for m in re.finditer(r"\S+", text)] or [0]
    starts = WordStarts(text)
    assert len(starts) == len(listed)
    assert [starts[k] for k in range(len(starts))] == listed
    for position in range(len(text) + 1):
        assert starts.word_at(position) == max(0, bisect_right(listed, position) - 1)


def test_a_filter_over_a_paper_list_uses_its_id_table(seed_index):
    """A `PaperList`'s id -> position table is the engine's id -> document table (one
    table, not two of 500,000 ids): a filtered search finds the allowed papers among all."""
    papers = seed_index.papers
    assert isinstance(papers, PaperList)
    searcher = Searcher(seed_index.ix, papers, seed_index.vocabulary())
    searcher.warm()
    ids = {papers[1].id, papers[7].id, papers[20].id, papers[33].id}
    every = {h.paper.id for h in searcher.search("model", limit=None, snippets=False).hits}
    found = searcher.search("model", allowed=ids, limit=None, snippets=False)
    assert {h.paper.id for h in found.hits} == every & ids and found.total == len(every & ids)
    assert all(papers[papers.positions[i]].id == i for i in ids)
