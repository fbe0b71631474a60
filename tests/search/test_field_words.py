"""The word lists queries expand against: `author:` and `collection:` take their field's words
from the engine's term list (no paper read), as counting the papers' words gave them; the first
letter of a word warmed without reading a paper."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from paperterm.index.config import Config
from paperterm.index.search.open_index import OpenIndex
from paperterm.index.search.query import parse_query
from paperterm.index.search.searcher import Searcher
from paperterm.index.search.vocabulary import Vocabulary
from paperterm.index.session import Session

FAMILY = ["Lovelace", "Hopper", "Turing", "Lamport", "Liskov", "Knuth", "Lampson", "Hoare"]
GIVEN = ["Ada", "Grace", "Alan", "Leslie", "Barbara", "Donald", "Butler", "Tony", "The"]
QUERIES = [
    "author:l",
    "author:la",
    "author:lam",
    "author:lamport",
    "author:lampsn~",
    "author:h* graph",
    "collection:wor",
    "author:ada collection:w*",
]


def write_bibtex(folder: Path, count: int) -> Path:
    rng = random.Random(3)
    entries = []
    for number in range(count):
        size = rng.randint(1, 4)
        pairs = zip(rng.sample(FAMILY, size), rng.sample(GIVEN, size), strict=True)
        people = " and ".join(f"{family}, {given}" for family, given in pairs)
        venue = rng.choice(["Workshop on Graphs", "World Congress", "Conference on Proofs"])
        words = " ".join(rng.choices(["graph", "proof", "model", "lattice", "clock"], k=12))
        entries.append(
            f"@inproceedings{{p{number}, title = {{Paper {number}}}, author = {{{people}}},\n"
            f"  booktitle = {{{venue}}}, year = 2024, abstract = {{{words}.}}}}\n"
        )
    path = folder / "papers.bib"
    path.write_text("".join(entries), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def opened(tmp_path_factory: pytest.TempPathFactory) -> OpenIndex:
    folder = tmp_path_factory.mktemp("authors")
    source = write_bibtex(folder, 120)
    found, _ = Session.create(folder / "data", [source], Config()).open()
    return found


def fresh(opened: OpenIndex) -> Searcher:
    """A searcher that has looked up no field's words yet."""
    return Searcher(opened.ix, opened.papers, opened.vocabulary())


def counted(searcher: Searcher, fieldname: str) -> Vocabulary:
    """The field's words as they were counted before: every paper read."""
    if fieldname == "authors":
        return Vocabulary.from_texts(" ".join(p.authors) for p in searcher.papers)
    return Vocabulary.from_texts(" ".join(p.collections) for p in searcher.papers)


@pytest.mark.parametrize("fieldname", ["authors", "collection"])
def test_the_term_list_holds_the_words_the_papers_hold(opened, fieldname):
    searcher = fresh(opened)
    from_index = searcher.engine.field_counts(fieldname)
    assert from_index
    # Stop words ("The" as a given name) are not indexed: as terms they match nothing.
    words = counted(searcher, fieldname).counts
    indexed = {word: n for word, n in words.items() if searcher.planner.term(fieldname, word)}
    # Papers holding a word, against its occurrences: equal, as no one is listed twice.
    assert from_index == indexed


@pytest.mark.parametrize("query", QUERIES)
def test_field_queries_find_what_counting_the_papers_found(opened, query, monkeypatch):
    found = fresh(opened).search(query, limit=None, snippets=False)
    before = fresh(opened)
    monkeypatch.setattr(before.engine, "field_counts", lambda fieldname: None)
    expected = before.search(query, limit=None, snippets=False)
    assert found.total == expected.total > 0
    assert [(h.paper.id, h.score) for h in found.hits] == [
        (h.paper.id, h.score) for h in expected.hits
    ]


def test_the_first_author_query_reads_no_paper(opened, monkeypatch):
    searcher = fresh(opened)
    monkeypatch.setattr(type(opened.papers), "__iter__", _no_reading)
    assert searcher.search("author:lam", limit=5, snippets=False).total > 0


def _no_reading(self):
    raise AssertionError("every paper read for an author: query")


def test_warming_a_letter_reads_its_completions_and_no_paper(opened):
    searcher = fresh(opened)
    plan = searcher.planner.plan(parse_query("l"))
    wanted = {(t.field, t.text) for g in plan.required for t in g.alternatives}
    assert wanted
    loaded = sum(paper is not None for paper in opened.papers._loaded)
    searcher.warm_typing("l")
    assert wanted <= set(searcher.engine._scorer._cache)  # read once, kept for the key
    assert sum(paper is not None for paper in opened.papers._loaded) == loaded
