"""Choosing the engine, and what holds for the tantivy engine as for Whoosh: its own folder,
checksums, damage rebuilt, parts kept, the same answers."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from engine_choice import engine_config
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from wild_queries import WILD_QUERIES

from paperterm.index import session as session_module
from paperterm.index.config import Config
from paperterm.index.papers import Paper
from paperterm.index.search import store as store_module
from paperterm.index.search.open_index import OpenIndex
from paperterm.index.search.searcher import Searcher
from paperterm.index.search.tantivy.index import PARTS_FILE, TantivyFiles
from paperterm.index.session import Session, SessionError
from paperterm.tui.cli.main import main

SEED_PAPERS = 38


def _session(data: Path, engine: str, sources: list[Path] | None = None) -> Session:
    return Session.create(data, sources or [], engine_config(engine))


def _answers(opened: OpenIndex, queries: list[str]) -> list[tuple[int, set[str]]]:
    searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
    found = []
    for query in queries:
        results = searcher.search(query, limit=None, snippets=False)
        found.append((results.total, set(results.ids)))
    return found


def test_each_engine_builds_its_own_index_and_switching_back_reuses_it(tmp_path):
    data = tmp_path / "data"
    whoosh, _ = _session(data, "whoosh").open()
    tantivy, _ = _session(data, "tantivy").open()
    assert Path(whoosh.location).parent.parent.name == "whoosh"
    assert Path(tantivy.location).parent.parent.name == "tantivy"
    assert (Path(tantivy.location) / "engine" / PARTS_FILE).is_file()
    assert not list((Path(tantivy.location) / "engine").glob("*.toc"))
    again = _session(data, "whoosh").open_existing()
    assert again is not None and again.location == whoosh.location


def test_both_engines_match_and_count_the_same_papers(tmp_path):
    """One query language, one result contract: every query of the wild-query list (and a
    few plain ones) matches the same papers in both engines."""
    queries = [
        "transformer",
        "language models",
        '"reverse complement"',
        "graph -neural",
        "title:diffusion",
        "collection:论文",
        "genom*",
        "Caduseus~",
        "persona genomics",
        *WILD_QUERIES,
    ]
    data = tmp_path / "data"
    whoosh = _answers(_session(data, "whoosh").open()[0], queries)
    tantivy = _answers(_session(data, "tantivy").open()[0], queries)
    for query, ours, theirs in zip(queries, whoosh, tantivy, strict=True):
        assert ours == theirs, query


@pytest.mark.parametrize("damage", ["segment truncated", "parts list missing", "part gone"])
def test_a_damaged_tantivy_index_is_rebuilt(tmp_path, damage):
    data = tmp_path / "data"
    first, _ = _session(data, "tantivy").open()
    engine = Path(first.location) / store_module.ENGINE_FOLDER
    first.ix.close()
    (part,) = engine.glob("*.part")
    if damage == "segment truncated":
        # A new file in its place: tantivy maps its files, and a mapped file cut in place
        # faults whoever still reads it (a thread of tantivy's may, for a while).
        store = next(part.glob("*.store"))
        (part / "cut").write_bytes(store.read_bytes()[:10])
        os.replace(part / "cut", store)
    elif damage == "parts list missing":
        (engine / PARTS_FILE).unlink()
    else:
        for file in part.iterdir():
            file.unlink()
        part.rmdir()
    session = _session(data, "tantivy")
    assert session.open_existing() is None
    second, _ = session.open()
    assert len(second.papers) == SEED_PAPERS and second.location != first.location
    assert Searcher(second.ix, second.papers).search("transformer").total > 0


def test_check_finds_a_sound_tantivy_index_sound_after_it_was_searched(tmp_path):
    """tantivy makes lock files when it opens an index: none is recorded, so none can be
    found missing or changed."""
    data = tmp_path / "data"
    opened, _ = _session(data, "tantivy").open()
    Searcher(opened.ix, opened.papers).search("transformer")
    check = _session(data, "tantivy").check()
    assert (check.damaged, check.rebuilt) == ([], False)


def test_adding_a_source_keeps_the_tantivy_part_of_the_others(tmp_path):
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "a.txt").write_text("A\n\nOtters in rivers.\n\nBeavers build dams.\n")
    data = tmp_path / "data"
    first, _ = _session(data, "tantivy", [folder]).open()
    (kept,) = first.meta.parts
    (folder / "b.txt").write_text("B\n\nHerons fish in rivers.\n")
    second, _ = _session(data, "tantivy", [folder]).open()
    assert second.meta.parts[0].id == kept.id
    old = Path(first.location) / "engine" / f"{kept.id}.part" / "meta.json"
    new = Path(second.location) / "engine" / f"{kept.id}.part" / "meta.json"
    assert os.path.samefile(old, new)  # hard-linked, not written again
    searcher = Searcher(second.ix, second.papers)
    assert searcher.search("rivers").total == 2
    assert [hit.paper.collections for hit in searcher.search("herons").hits] == [["B"]]


def test_an_in_memory_whoosh_index_scores_as_the_built_one(tmp_path):
    """Its segments' postings files are read from memory, not mapped: the same hits, in
    the same order, with the same scores."""
    session = _session(tmp_path / "data", "whoosh")
    memory = session.build_in_memory()
    built = session.open()[0]
    assert memory.location == ":memory:" and built.location != ":memory:"
    for query in ["transformer", '"language models"', "dna model", "collection:论文"]:
        found = [
            [(hit.paper.id, hit.score) for hit in searcher.search(query, limit=None).hits]
            for searcher in (Searcher(o.ix, o.papers, o.vocabulary()) for o in (memory, built))
        ]
        assert found[0] == found[1] and found[0]


def test_an_in_memory_tantivy_index_answers_as_the_built_one(tmp_path):
    session = _session(tmp_path / "data", "tantivy")
    memory = session.build_in_memory()
    assert memory.location == ":memory:" and memory.ix.doc_count_all() == SEED_PAPERS
    queries = ["transformer", "dna model", "collection:论文"]
    assert _answers(memory, queries) == _answers(session.open()[0], queries)


def test_asking_for_tantivy_without_it_installed_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "tantivy", None)  # `import tantivy` fails
    config = Config()
    config.engine = "tantivy"
    with pytest.raises(SessionError, match=r"pip install 'paperterm\[tantivy\]'") as caught:
        Session.create(tmp_path / "data", [], config)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("installed", [True, False])
def test_auto_says_once_how_to_get_tantivy_for_a_large_corpus(tmp_path, monkeypatch, installed):
    monkeypatch.setattr(session_module, "LARGE_CORPUS", 10)
    if installed:
        engine_config("tantivy")  # skips when it is not
    else:
        monkeypatch.setitem(sys.modules, "tantivy", None)
    session = Session.create(tmp_path / "data", [], Config())
    session.open()
    session.open()
    hints = [line for line in session.warnings if "tantivy" in line]
    assert hints == ([] if installed else [hints[0]])
    if not installed:
        assert "38 papers" in hints[0] and "pip install 'paperterm[tantivy]'" in hints[0]
        assert Path(session.open()[0].location).parent.parent.name == "whoosh"
    small = Session.create(tmp_path / "data", [], Config())
    monkeypatch.setattr(session_module, "LARGE_CORPUS", 100_000)
    small.open()
    assert small.warnings == []


def test_the_engine_option_and_variable_of_the_command_line(tmp_path, monkeypatch, capsys):
    engine_config("tantivy")  # skip without tantivy
    monkeypatch.setenv("PAPERTERM_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PAPERTERM_CONFIG", str(tmp_path / "config.toml"))
    (tmp_path / "config.toml").write_text("engine = 'whoosh'\n", encoding="utf-8")
    assert main(["search", "--engine", "tantivy", "--limit", "1", "transformer"]) == 0
    assert capsys.readouterr().out
    assert (tmp_path / "data" / "index" / "tantivy").is_dir()
    assert not (tmp_path / "data" / "index" / "whoosh").exists()
    monkeypatch.setenv("PAPERTERM_ENGINE", "whoosh")
    assert main(["list"]) == 0
    assert (tmp_path / "data" / "index" / "whoosh").is_dir()
    assert main(["search", "--engine", "lucene", "x"]) == 2
    assert "invalid choice: 'lucene'" in capsys.readouterr().err


def test_the_tantivy_parts_of_a_folder_are_read_in_order(tmp_path):
    engine_config("tantivy")  # skip without tantivy
    files = TantivyFiles()
    words = ["otters", "herons", "beavers", "salmon", "kingfishers"]
    papers = [
        Paper(id=f"p{n}", collection="C", abstract="", title=word, text=f"Rivers hold {word}.")
        for n, word in enumerate(words)
    ]
    parts = []
    for chunk in (papers[:2], papers[2:]):
        writer = files.part_writer(tmp_path)
        for paper in chunk:
            writer.add(paper)
        parts.append(writer.finish())
    files.commit(tmp_path, parts)
    assert list(files.parts(tmp_path)) == [part.id for part in parts]
    opened = files.open(tmp_path)
    assert opened.doc_count_all() == 5
    searcher = Searcher(opened, papers)
    assert searcher.search("rivers").total == 5
    assert [searcher.search(word).ids for word in words] == [[paper.id] for paper in papers]


#: Words, CJK, and text that is not ASCII: lowered alike word by word and as a whole
#: ("Élan", "ǅ") or not (the capital sigma lowers by what is around it, "İ" to two
#: characters), which `make_document` cuts from the vocabulary's words or again.
_FIELD_PIECES = ["Graph", "of", "the", "e.g.", "论文列表", "x", " ", ".", "\n"]
_FIELD_PIECES += ["Élan", "ΑΣ", "'", "İ", "ǅ", "ß", "’"]
_FIELD_TEXT = st.lists(st.sampled_from(_FIELD_PIECES))


@settings(max_examples=100, deadline=None)
@given(*[_FIELD_TEXT.map("".join)] * 3, st.lists(_FIELD_TEXT.map("".join), max_size=3))
@example("", "ΑΣ'Élan", "ΑΣ'ǅ İx", [])  # a sigma lowered as not final, "İ" in two
def test_a_tantivy_document_holds_each_fields_terms(name, title, text, authors):
    """Each field of a paper's document holds the terms of its text as Whoosh's document
    gives it (`paper_document`: `all` the parts joined by newlines), though `make_document`
    cuts each part once, and takes the words of most text from the vocabulary's; and the
    part's size counts the distinct terms of `all`."""
    from paperterm.index.search.analysis import FieldAnalysis
    from paperterm.index.search.tantivy.index import load_tantivy, make_document
    from paperterm.index.search.whoosh.index import paper_document
    from paperterm.index.text.words import paper_words

    engine_config("tantivy")  # skip without tantivy
    paper = Paper(id="p", collection="C; D", abstract=text, title=title, text=text)
    paper.name, paper.authors = name, authors
    analysis = FieldAnalysis()
    document, distinct = make_document(load_tantivy(), analysis, 7, paper)
    given_words = make_document(load_tantivy(), FieldAnalysis(), 7, paper, paper_words(paper))
    assert given_words[0].to_dict() == document.to_dict() and given_words[1] == distinct
    fields = {
        key: "\n".join(value) if isinstance(value, tuple) else value
        for key, value in paper_document(paper).items()
        if key != "id"
    }
    expected = {key: " ".join(analysis.terms(key, value)) for key, value in fields.items()}
    held = document.to_dict()
    assert held.pop("row") == [7]
    assert {key: value[0] for key, value in held.items()} == expected
    assert distinct == len(set(expected["all"].split()))


def test_tantivy_parts_written_by_workers_answer_as_one_process_builds(tmp_path, monkeypatch):
    """The parallel build: worker processes write tantivy parts, the build joins them. The
    answers are a one-process build's, scores included (one index, the whole corpus's
    statistics, however it is cut into parts); `tag:`'s filter holds across parts."""
    from generated import write_generated_corpus

    corpus = tmp_path / "corpus"
    write_generated_corpus(corpus, 300, per_file=100)
    single, _ = _session(tmp_path / "single", "tantivy", [corpus]).open()
    monkeypatch.setattr("paperterm.index.search.build_prepare.PARALLEL_BYTES", 0)
    monkeypatch.setattr("paperterm.index.search.build_prepare.FIRST_PART_PAPERS", 50)
    parallel, _ = _session(tmp_path / "parallel", "tantivy", [corpus]).open()
    assert len(single.meta.parts) == 1 and len(parallel.meta.parts) > 1
    assert [p.id for p in parallel.papers] == [p.id for p in single.papers]
    queries = ["generated", "kelo*", "collection:generated", '"generated part"', "part -kelo"]
    queries += ["generated part kelo zzzz"]  # most of the words
    allowed = {single.papers[index].id for index in (0, 1, 120, 250, 299)}

    def ranked(opened: OpenIndex, tags: set[str] | None) -> list[list[tuple[str, float]]]:
        searcher = Searcher(opened.ix, opened.papers)
        found = []
        for query in queries:
            results = searcher.search(query, limit=40, snippets=False, allowed=tags)
            found.append([(hit.paper.id, round(hit.score, 4)) for hit in results.hits])
        return found

    assert ranked(parallel, None) == ranked(single, None)
    filtered = ranked(parallel, allowed)
    assert filtered == ranked(single, allowed)
    assert {paper_id for paper_id, _ in filtered[0]} == allowed


def test_a_tantivy_index_is_searched_while_its_first_build_runs(tmp_path, monkeypatch):
    from generated import write_generated_corpus

    from paperterm.index.search.listener import Listener

    corpus = tmp_path / "corpus"
    write_generated_corpus(corpus, 300, per_file=100)
    monkeypatch.setattr("paperterm.index.search.build_prepare.PARALLEL_BYTES", 0)
    monkeypatch.setattr("paperterm.index.search.build_prepare.FIRST_PART_PAPERS", 50)
    partial: list[tuple[int, int]] = []

    def searchable(opened: OpenIndex) -> None:
        results = Searcher(opened.ix, opened.papers).search("generated", limit=None)
        assert {hit.paper.id for hit in results.hits} <= {paper.id for paper in opened.papers}
        partial.append((len(opened.papers), results.total))

    session = _session(tmp_path / "data", "tantivy", [corpus])
    final = session.build(listener=Listener(searchable=searchable, papers=lambda papers: None))
    assert partial and partial[0][0] < len(final.papers) == 300
    assert all(count == total for count, total in partial)  # every paper is "Generated"


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[Searcher, Searcher]:
    """The seeds' index by each engine, in one data dir."""
    data = tmp_path_factory.mktemp("both")
    searchers = []
    for engine in ("whoosh", "tantivy"):
        opened, _ = _session(data, engine).open()
        searchers.append(Searcher(opened.ix, opened.papers, opened.vocabulary()))
    return searchers[0], searchers[1]


_WORDS = ["model", "learning", "dna", "graph", "language", "diffusion", "the", "论文", "x"]
_PIECES = st.sampled_from(_WORDS) | st.sampled_from(["-", '"', "*", "~", "title:", "tag:"])


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_PIECES | st.text(max_size=6), max_size=6).map(" ".join), st.booleans())
def test_any_query_matches_the_same_papers_in_both_engines(both, text, tagged):
    whoosh, tantivy = both
    allowed = {paper.id for paper in list(whoosh.papers)[::3]} if tagged else None
    ours = whoosh.search(text, limit=None, snippets=False, allowed=allowed)
    theirs = tantivy.search(text, limit=None, snippets=False, allowed=allowed)
    assert (theirs.total, set(theirs.ids), theirs.notes) == (ours.total, set(ours.ids), ours.notes)
