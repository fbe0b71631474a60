"""Builds that read and index only what changed, and their results: the same as a build
from nothing, whatever happened before (sources added, removed, changed, merged)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from generated import write_generated_corpus

from paperterm.index.config import Config
from paperterm.index.papers import paper_tuple
from paperterm.index.search import build_prepare, build_state
from paperterm.index.search.listener import Listener
from paperterm.index.search.open_index import OpenIndex
from paperterm.index.search.records import PaperList
from paperterm.index.search.searcher import Searcher
from paperterm.index.session import Session

QUERIES = ["generated", "ba", "kelo*", "part", "collection:generated", '"generated part"']


def _words(opened: OpenIndex, count: int = 6) -> list[str]:
    """Some words of the corpus, from its first papers (queries that find something)."""
    words = []
    for paper in list(opened.papers)[:count]:
        words.append(paper.text.split()[3].strip(".").lower())
    return words


def answers(opened: OpenIndex, queries: list[str]) -> list[tuple[int, list]]:
    """Each query's total and ranked (id, score) pairs."""
    searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
    found = []
    for query in queries:
        results = searcher.search(query, limit=30, snippets=False)
        found.append((results.total, [(h.paper.id, round(h.score, 5)) for h in results.hits]))
    searcher.close()
    return found


def built(data: Path, sources: list[Path], listener: Listener | None = None) -> OpenIndex:
    session = Session.create(data, sources, Config())
    opened = session.open_existing()
    if opened is None:
        opened = session.build(listener=listener)
    return opened


def from_nothing(tmp_path: Path, sources: list[Path]) -> OpenIndex:
    data = tmp_path / "fresh"
    shutil.rmtree(data, ignore_errors=True)
    return built(data, sources)


class PrepareSpy:
    """Counts the source files a build reads and prepares."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.paths: list[str] = []
        real = build_prepare.prepare_source

        def spy(file, folder, *args, **kwargs):
            self.paths.append(file.path.name)
            return real(file, folder, *args, **kwargs)

        monkeypatch.setattr(build_prepare, "prepare_source", spy)


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    write_generated_corpus(folder, 300, per_file=100)
    return folder


def _same_as_from_nothing(tmp_path: Path, opened: OpenIndex, sources: list[Path]) -> None:
    fresh = from_nothing(tmp_path, sources)
    assert [p.id for p in opened.papers] == [p.id for p in fresh.papers]
    queries = QUERIES + _words(fresh)
    assert answers(opened, queries) == answers(fresh, queries)


def test_adding_a_source_reads_and_indexes_only_it(tmp_path, corpus, monkeypatch):
    data = tmp_path / "data"
    first = built(data, [corpus])
    old_parts = {part.id for part in first.meta.parts}
    write_generated_corpus(corpus, 100, seed=99, first_part=3)
    spy = PrepareSpy(monkeypatch)
    second = built(data, [corpus])
    assert spy.paths == ["part-003.txt"]
    assert len(second.papers) == 400
    new_parts = [part for part in second.meta.parts if part.id not in old_parts]
    assert old_parts <= {part.id for part in second.meta.parts}
    assert [part.papers for part in new_parts] == [100]
    _same_as_from_nothing(tmp_path, second, [corpus])


def test_removing_a_source_reads_nothing_again(tmp_path, corpus, monkeypatch):
    data = tmp_path / "data"
    built(data, [corpus])
    (corpus / "part-001.txt").unlink()
    spy = PrepareSpy(monkeypatch)
    second = built(data, [corpus])
    assert spy.paths == []
    assert len(second.papers) == 200
    assert not any("part 1" in p.collection for p in second.papers)
    _same_as_from_nothing(tmp_path, second, [corpus])


def test_changing_a_source_reads_only_it(tmp_path, corpus, monkeypatch):
    data = tmp_path / "data"
    built(data, [corpus])
    path = corpus / "part-002.txt"
    path.write_text(path.read_text() + "\nA new abstract about zebras and quokkas.\n")
    spy = PrepareSpy(monkeypatch)
    second = built(data, [corpus])
    assert spy.paths == ["part-002.txt"]
    assert answers(second, ["quokkas"])[0][0] == 1
    _same_as_from_nothing(tmp_path, second, [corpus])


def test_a_source_that_repeats_papers_of_another_rewrites_their_part(tmp_path, corpus):
    data = tmp_path / "data"
    first = built(data, [corpus])
    copy = tmp_path / "copy.txt"
    abstracts = (corpus / "part-000.txt").read_text().split("\n\n")[1:6]
    copy.write_text("\n\n".join(["Copied list", *abstracts]))
    second = built(data, [corpus, copy])
    assert len(second.papers) == 300  # the copies merged into the originals
    merged = [p for p in second.papers if "Copied list" in p.collections]
    assert len(merged) == 5
    assert answers(second, ['collection:"copied list"'])[0][0] == 5
    _same_as_from_nothing(tmp_path, second, [corpus, copy])
    assert {part.id for part in second.meta.parts}.isdisjoint(p.id for p in first.meta.parts)
    copy.write_text("Copied list\n\nAn abstract of its own, about wombats.\n")
    third = built(data, [corpus, copy])  # the copies gone again
    assert [p.collections for p in third.papers if "Copied list" in p.collections] == [
        ["Copied list"]
    ]
    _same_as_from_nothing(tmp_path, third, [corpus, copy])


def test_touching_a_source_reads_nothing_again(tmp_path, corpus, monkeypatch):
    data = tmp_path / "data"
    first = built(data, [corpus])
    os.utime(corpus / "part-001.txt")  # a new mtime and ctime, the same content
    spy = PrepareSpy(monkeypatch)
    session = Session.create(data, [corpus], Config())
    second, _ = session.open()
    assert spy.paths == []
    assert second.location != first.location  # the new stamps are recorded...
    third = Session.create(data, [corpus], Config())
    assert third.open_existing().location == second.location  # ...so nothing is read again


def test_workers_build_what_one_process_builds(tmp_path, corpus, monkeypatch):
    single = built(tmp_path / "single", [corpus])
    monkeypatch.setattr(build_prepare, "PARALLEL_BYTES", 0)
    monkeypatch.setattr(build_prepare, "FIRST_PART_PAPERS", 50)
    parallel = built(tmp_path / "parallel", [corpus])
    assert len(parallel.meta.parts) > 1
    assert [p.id for p in parallel.papers] == [p.id for p in single.papers]
    queries = QUERIES + _words(single)
    assert answers(parallel, queries) == answers(single, queries)


def test_search_works_while_the_first_build_runs(tmp_path, corpus, monkeypatch):
    monkeypatch.setattr(build_prepare, "PARALLEL_BYTES", 0)
    monkeypatch.setattr(build_prepare, "FIRST_PART_PAPERS", 50)
    partial: list[tuple[int, int, int, list[str]]] = []
    shown: list[int] = []

    def searchable(opened: OpenIndex) -> None:
        found = answers(opened, ["generated"])[0]
        ids = [paper.id for paper in opened.papers]
        assert all(paper_id in ids for paper_id, _ in found[1])
        partial.append((len(opened.papers), opened.building_total, found[0], ids))

    listener = Listener(searchable=searchable, papers=lambda papers: shown.append(len(papers)))
    final = built(tmp_path / "data", [corpus], listener)
    assert partial, "no index was published before the build ended"
    assert all(0 < count <= total for count, total, _, _ in partial)
    assert partial[0][0] < len(final.papers)
    assert all(total_found == count for count, _, total_found, _ in partial)  # all "Generated"
    assert shown and shown[-1] == len(final.papers)
    assert answers(final, ["generated"])[0][0] == 300


def test_a_damaged_source_record_file_is_read_again(tmp_path, corpus, monkeypatch):
    data = tmp_path / "data"
    first = built(data, [corpus])
    cache = Path(first.location) / "sources" / first.meta.sources[0].cache
    cache.write_bytes(cache.read_bytes()[:100])
    (corpus / "part-002.txt").unlink()  # something changed: a build runs
    spy = PrepareSpy(monkeypatch)
    second = built(data, [corpus])
    assert spy.paths == ["part-000.txt"]
    _same_as_from_nothing(tmp_path, second, [corpus])


def test_derived_titles_repeated_across_sources_differ_as_from_nothing(tmp_path, monkeypatch):
    """Titles are made distinct over the whole corpus after merging; a source kept from the
    previous build brings its papers' other headlines, and no abstract is read again."""
    shared = "Large models memorise rare facts from their training data."
    a = tmp_path / "a.txt"
    a.write_text(f"List A\n\n{shared} Sparse probes find them.\n", encoding="utf-8")
    data = tmp_path / "data"
    built(data, [a])
    b = tmp_path / "b.txt"
    b.write_text(f"List B\n\n{shared} Pruning removes them.\n\n{shared}\n", encoding="utf-8")
    spy = PrepareSpy(monkeypatch)
    second = built(data, [a, b])
    assert spy.paths == ["b.txt"]
    titles = [paper.title for paper in second.papers]
    assert titles == [
        "Large models memorise rare facts from their training data",
        "Pruning removes them",
        "Large models memorise rare facts from their training data (2)",
    ]
    assert titles == [paper.title for paper in from_nothing(tmp_path, [a, b]).papers]


def _single_file(tmp_path: Path, name: str, count: int, seed: int) -> Path:
    folder = tmp_path / f"{name}-files"
    (path,) = write_generated_corpus(folder, count, seed=seed, per_file=count, first_part=seed)
    return path


def test_a_source_added_to_the_configuration_is_the_only_one_read(tmp_path, corpus, monkeypatch):
    """Another list of sources is another index (another set); its first build takes the
    records and parts of the files it shares with the set used last."""
    data = tmp_path / "data"
    first = built(data, [corpus])
    added = _single_file(tmp_path, "added", 100, seed=11)
    spy = PrepareSpy(monkeypatch)
    second = built(data, [corpus, added])
    assert spy.paths == [added.name]
    assert second.location != first.location
    kept = {part.id for part in first.meta.parts} & {part.id for part in second.meta.parts}
    assert sum(part.papers for part in second.meta.parts if part.id not in kept) == 100
    _same_as_from_nothing(tmp_path, second, [corpus, added])


class CopySpy:
    """Counts the papers files a build copies from the generation it takes from."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.copied: list[int] = []
        real = PaperList.copy_into

        def spy(papers: PaperList, *args) -> None:
            self.copied.append(len(papers))
            real(papers, *args)

        monkeypatch.setattr(PaperList, "copy_into", spy)


def _listed(opened: OpenIndex) -> tuple[list, list, tuple, list, list, dict]:
    """Everything the papers, rows and vocabulary files say: each paper, each row, the ids,
    the collections and the first ones, the words' counts."""
    papers = opened.papers
    return (
        [paper_tuple(paper) for paper in papers],
        papers.rows(),
        papers.ids,
        papers.collections,
        papers.first_collections,
        opened.vocabulary().counts,
    )


def test_an_added_source_after_the_others_copies_their_papers(tmp_path, corpus, monkeypatch):
    """The papers and rows files of the generation taken from are the first records of the
    new one, copied as they are: the same files as a build from nothing writes."""
    data = tmp_path / "data"
    built(data, [corpus])
    added = _single_file(tmp_path, "added", 100, seed=11)
    spy = CopySpy(monkeypatch)
    second = built(data, [corpus, added])
    assert spy.copied == [300]
    assert _listed(second) == _listed(from_nothing(tmp_path, [corpus, added]))
    _same_as_from_nothing(tmp_path, second, [corpus, added])


def _bib(path: Path, title: str, abstract: str) -> Path:
    path.write_text(
        "@InProceedings{later1,\n"
        f"  title = {{{title}}},\n"
        "  author = {Ada Lovelace},\n"
        "  booktitle = {Later Proceedings},\n"
        f"  abstract = {{{abstract}}}\n"
        "}\n",
        encoding="utf-8",
    )
    return path


def test_a_later_title_that_is_not_derived_renames_an_earlier_derived_one(tmp_path, monkeypatch):
    """Derived titles give way to titles that are not derived, wherever these are: a paper
    of an added source can change the listed title of an earlier one, so the earlier
    papers are written again, not copied."""
    headline = "Large models memorise rare facts from their training data"
    a = tmp_path / "a.txt"
    a.write_text(f"List A\n\n{headline}. Sparse probes find them.\n", encoding="utf-8")
    data = tmp_path / "data"
    assert [paper.title for paper in built(data, [a]).papers] == [headline]
    b = _bib(tmp_path / "b.bib", headline.upper(), "Pruning removes what probes find.")
    spy = CopySpy(monkeypatch)
    second = built(data, [a, b])
    assert spy.copied == []
    assert second.papers[0].title != headline
    assert _listed(second) == _listed(from_nothing(tmp_path, [a, b]))


def test_a_later_title_already_taken_copies_the_earlier_papers(tmp_path, monkeypatch):
    """A title that is not derived and that an earlier paper already has changes nothing
    of the earlier papers: they are copied."""
    a = _bib(tmp_path / "a.bib", "Sparse probes", "Sparse probes find rare facts in models.")
    data = tmp_path / "data"
    built(data, [a])
    b = _bib(tmp_path / "b.bib", "SPARSE PROBES", "Pruning removes what probes find.")
    spy = CopySpy(monkeypatch)
    second = built(data, [a, b])
    assert spy.copied == [1]
    assert _listed(second) == _listed(from_nothing(tmp_path, [a, b]))


def test_a_damaged_papers_file_is_not_copied(tmp_path, corpus, monkeypatch):
    """The papers file of the generation taken from is checked against its checksum
    first: a damaged one is not copied, the papers are written from the record files."""
    data = tmp_path / "data"
    first = built(data, [corpus])
    path = Path(first.location) / "papers.bin"
    first.close()
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    path.write_bytes(bytes(raw))
    added = _single_file(tmp_path, "added", 100, seed=11)
    spy = CopySpy(monkeypatch)
    second = built(data, [corpus, added])
    assert spy.copied == []
    assert _listed(second) == _listed(from_nothing(tmp_path, [corpus, added]))


def test_a_source_removed_from_the_configuration_reads_nothing(tmp_path, corpus, monkeypatch):
    data = tmp_path / "data"
    added = _single_file(tmp_path, "added", 100, seed=11)
    built(data, [added, corpus])
    spy = PrepareSpy(monkeypatch)
    second = built(data, [corpus])
    assert spy.paths == []
    assert len(second.papers) == 300
    _same_as_from_nothing(tmp_path, second, [corpus])


def test_a_set_being_built_lends_nothing(tmp_path, corpus, monkeypatch):
    from paperterm.index.atomic import FileLock
    from paperterm.index.search.store import Store
    from paperterm.index.sources.files import SourceSpec

    data = tmp_path / "data"
    built(data, [corpus])
    busy = FileLock(Store(data, [SourceSpec(corpus)]).root / "build.lock")
    assert busy.try_acquire()
    try:
        spy = PrepareSpy(monkeypatch)
        added = _single_file(tmp_path, "added", 100, seed=11)
        second = built(data, [corpus, added])
    finally:
        busy.release()
    assert sorted(spy.paths) == sorted([*(p.name for p in corpus.iterdir()), added.name])
    _same_as_from_nothing(tmp_path, second, [corpus, added])


def test_the_workers_parts_are_kept_when_titles_are_made_distinct(tmp_path, monkeypatch):
    """Repeated derived headlines across files change titles after the workers indexed
    them; the index keeps the headlines the abstracts gave, so no part is written again."""
    from paperterm.index.search.whoosh.index import WhooshFiles

    corpus = tmp_path / "corpus"
    write_generated_corpus(corpus, 300, per_file=100)
    shared = "Large models memorise rare facts from their training data."
    for path in corpus.iterdir():
        name, *abstracts = path.read_text(encoding="utf-8").split("\n\n")
        path.write_text("\n\n".join([name, *(f"{shared} {a}" for a in abstracts)]))
    monkeypatch.setattr(build_prepare, "PARALLEL_BYTES", 0)
    written: list[int] = []
    real = WhooshFiles.part_writer

    def spy(self, folder):
        written.append(1)
        return real(self, folder)

    monkeypatch.setattr(WhooshFiles, "part_writer", spy)
    opened = built(tmp_path / "data", [corpus])
    monkeypatch.setattr(WhooshFiles, "part_writer", real)
    assert written == []  # every part was a worker's
    titles = [paper.title.casefold() for paper in opened.papers]
    assert len(set(titles)) == len(titles) == 300
    queries = QUERIES + _words(opened)
    assert answers(opened, queries) == answers(from_nothing(tmp_path, [corpus]), queries)


@pytest.mark.parametrize("engine", ["whoosh", "tantivy"])
@pytest.mark.parametrize("parallel", [False, True])
def test_record_files_are_checksummed_as_they_are_written(
    tmp_path, corpus, monkeypatch, parallel, engine
):
    """Each source's record file is checksummed (and flushed) as soon as it is written, and
    the engine's files once committed, not again when the build is published (a file
    hard-linked twice read once); every checksum is the file's, so the index opens."""
    from paperterm.index.search import generation_files
    from paperterm.index.search import store as store_module

    if engine == "tantivy":
        pytest.importorskip("tantivy")
    if parallel:
        monkeypatch.setattr(build_prepare, "PARALLEL_BYTES", 0)
    early: list[str] = []

    def spy(path: Path) -> list[int]:
        early.append(path.as_posix().split("/tmp-", 1)[1].split("/", 1)[1])
        return generation_files.checked_and_synced(path)

    monkeypatch.setattr(build_state, "checked_and_synced", spy)
    late: list[str] = []
    real = store_module._checksums

    def publishing(folder: Path, skip: set[str]) -> dict[str, list[int]]:
        found = real(folder, skip)
        late.extend(found)
        return found

    monkeypatch.setattr(store_module, "_checksums", publishing)
    config = Config()
    config.engine = engine
    opened = Session.create(tmp_path / "data", [corpus], config).build()
    sources = {f"sources/{entry.cache}" for entry in opened.meta.sources}
    folder = Path(opened.location)
    assert len(sources) == 3 and len(early) == len(set(early))
    assert sorted(name for name in early if not name.startswith("engine/")) == sorted(
        [*sources, "papers.bin", "rows.bin"]
    )
    engine_files = [name for name in opened.meta.files if name.startswith("engine/")]
    inodes = {name: (folder / name).stat().st_ino for name in engine_files}
    checked = [name for name in early if name.startswith("engine/")]
    assert len(checked) == len(set(inodes.values()))
    if engine == "tantivy":  # the joined index's files are its parts' files: each read once
        assert len(checked) < len(inodes)
    assert {inodes[name] for name in checked} == set(inodes.values())
    assert late == ["vocab.json"]
    for name, checksum in opened.meta.files.items():
        assert list(store_module.file_crc(folder / name)) == checksum, name
    assert Session.create(tmp_path / "data", [corpus], config).open_existing() is not None
