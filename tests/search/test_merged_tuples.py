"""The papers file is written from the tuples the sources' records hold
(`MergedCorpus.paper_tuples`): the same papers, rows, ids and collections as making each a
`Paper`, giving it its listed title and a tuple again (the form it replaced)."""

from __future__ import annotations

import copy
import json
import mmap
from pathlib import Path

import pytest

from paperterm.index.papers import Paper, paper_tuple
from paperterm.index.search import records
from paperterm.index.search.generation_meta import SourceFile
from paperterm.index.search.merged import MergedCorpus
from paperterm.index.search.records import (
    PAPERS,
    ROW_AUTHORS,
    ROWS,
    RecordFile,
    RecordFileError,
    write_papers,
)
from paperterm.index.search.source_records import prepare_source


def _old_row(paper: Paper) -> tuple[object, ...]:
    return (
        paper.id,
        paper.name,
        paper.title,
        tuple(paper.collections),
        paper.year,
        tuple(paper.authors[:ROW_AUTHORS]),
        paper.arxiv_id,
    )


def _old_papers(corpus: MergedCorpus) -> list[Paper]:
    papers = []
    for spot in range(len(corpus.sources)):
        start = corpus.starts[spot]
        local = 0
        for paper in corpus.papers(spot):
            while start + local in corpus.absorbed:
                local += 1
            index = start + local
            if index in corpus.titles:
                paper = copy.copy(paper)
                paper.title = corpus.titles[index]
            papers.append(paper)
            local += 1
    return papers


def _rows(number: int, *, titled: bool) -> dict[str, object]:
    row: dict[str, object] = {
        "id": f"2101.{number:05d}",
        "abstract": f"We propose Velo, a method for sparse graphs. It works on case {number}.",
        "authors": "Ada Lovelace and Alan Turing",
    }
    if titled:
        row["title"] = f"On sparse graphs, case {number}"
    return row


def test_paper_tuples_are_the_papers_as_listed(tmp_path: Path) -> None:
    files = []
    lines = [json.dumps(_rows(n, titled=n % 3 != 0)) for n in range(1, 40)]
    for name, chosen in (("a", lines), ("b", lines[10:20] + lines[:4]), ("c", lines[30:])):
        path = tmp_path / f"{name}.jsonl"
        path.write_text("\n".join(chosen) + "\n", encoding="utf-8")
        files.append(path)
    folder = tmp_path / "sources"
    folder.mkdir()
    sources = [prepare_source(SourceFile(0, path, path.stem), folder) for path in files]
    corpus = MergedCorpus(folder, sources)
    assert corpus.absorbed and corpus.titles  # merged duplicates and repeated headlines
    assert set(corpus.titles) - set(corpus.changed)  # a paper only its listed title changes

    tuples = list(corpus.paper_tuples())
    old = _old_papers(corpus)
    assert tuples == [paper_tuple(paper) for paper in old]

    out = tmp_path / "out"
    out.mkdir()
    count, collections = write_papers(out, tuples, "papers", "rows")
    assert count == len(old)
    assert collections == list(dict.fromkeys(n for p in old for n in p.collections))
    papers, rows = RecordFile(out / "papers", PAPERS), RecordFile(out / "rows", ROWS)
    assert [Paper(*papers.get(i)) for i in range(count)] == old
    assert [rows.get(i) for i in range(count)] == [_old_row(paper) for paper in old]
    assert rows.blob() == [paper.id for paper in old]
    assert rows.header["firsts"] == list(dict.fromkeys(paper.collection for paper in old))


def test_distinct_titles_are_those_of_the_titles_by_position(tmp_path: Path) -> None:
    """`_distinct_titles` walks the sources' titles in order: the titles it gives are those
    of looking each position up (the form it replaced), duplicates merged."""
    from paperterm.index.sources.enrich import title_changes

    lines = [json.dumps(_rows(n, titled=n % 2 == 0)) for n in range(1, 30)]
    folder = tmp_path / "sources"
    folder.mkdir()
    sources = []
    for name, chosen in (("a", lines), ("e", []), ("b", lines[3:9] + lines[:2]), ("c", lines)):
        path = tmp_path / f"{name}.jsonl"
        path.write_text("\n".join(chosen) + "\n", encoding="utf-8")
        sources.append(prepare_source(SourceFile(0, path, path.stem), folder))
    corpus = MergedCorpus(folder, sources)
    total = sum(source.count for source in sources)
    staying = [index for index in range(total) if index not in corpus.absorbed]
    pairs, others = [], []
    for index in staying:
        record = corpus.changed.get(index)
        if record is not None:
            pairs.append((record.paper.title, record.paper.title_derived))
            others.append(record.alternatives)
        else:
            spot, local = corpus._spot(index)
            title, derived, alternatives = corpus.sources[spot].titles[local]
            pairs.append((title, derived))
            others.append(alternatives)
    changes = title_changes(pairs, lambda position: others[position])
    assert corpus.absorbed and changes
    assert corpus.titles == {staying[position]: title for position, title in changes.items()}


class _Opened:
    """Every memory map `RecordFile` makes (its `mmap.mmap`), to see that each is closed."""

    def __init__(self, monkeypatch) -> None:
        self.maps: list[mmap.mmap] = []
        real = mmap.mmap

        def spy(*args, **kwargs) -> mmap.mmap:
            made = real(*args, **kwargs)
            self.maps.append(made)
            return made

        monkeypatch.setattr(records.mmap, "mmap", spy)


def test_a_record_file_with_a_damaged_header_closes_its_map(tmp_path: Path, monkeypatch) -> None:
    opened = _Opened(monkeypatch)
    out = tmp_path / "out"
    out.mkdir()
    write_papers(
        out, [paper_tuple(Paper(id="p", collection="C", abstract="A", text="A"))], "papers", "rows"
    )
    damaged = bytearray((out / "rows").read_bytes())
    damaged[-8:] = b"\xff" * 8  # the header's place, repeated at the end: no longer equal
    (out / "rows").write_bytes(bytes(damaged))
    with pytest.raises(RecordFileError, match="damaged header"):
        RecordFile(out / "rows", ROWS)
    assert len(opened.maps) == 1 and opened.maps[0].closed


def test_a_merge_that_fails_closes_the_files_it_opened(tmp_path: Path, monkeypatch) -> None:
    lines = [json.dumps(_rows(n, titled=True)) for n in range(1, 10)]
    folder = tmp_path / "sources"
    folder.mkdir()
    sources = []
    for name in ("a", "b"):  # b repeats a: merging reads a's records, then b's
        path = tmp_path / f"{name}.jsonl"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        sources.append(prepare_source(SourceFile(0, path, path.stem), folder))
    (folder / sources[1].cache).write_bytes(b"not a record file at all")
    opened = _Opened(monkeypatch)
    with pytest.raises(RecordFileError):
        MergedCorpus(folder, sources)
    assert len(opened.maps) == 2 and all(made.closed for made in opened.maps)
