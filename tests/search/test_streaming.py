"""A build streams its sources: a JSON Lines file is read record by record, each record
written to the source's record file as it is prepared, and the build holds keys, not papers;
it reports the bytes read as it goes; a bad line costs that line only. Each engine."""

from __future__ import annotations

import codecs
import itertools
import json
import os
import random
from pathlib import Path

import pytest
from engine_choice import engine_config

from paperterm.index.papers import paper_tuple
from paperterm.index.search import records as records_module
from paperterm.index.search import source_records
from paperterm.index.search.generation_meta import file_digest
from paperterm.index.search.listener import Listener
from paperterm.index.search.searcher import Searcher
from paperterm.index.session import Session
from paperterm.index.sources import bounds, loader
from paperterm.index.sources.files import SourceSpec

WORDS = [
    "graph",
    "kernel",
    "sparse",
    "attention",
    "diffusion",
    "prior",
    "bound",
    "robust",
    "gradient",
    "token",
]


def write_rows(path: Path, count: int, *, seed: int = 3, bad: dict[int, str] | None = None) -> int:
    """`count` arXiv-like rows (line n replaced by `bad[n]`); the file's size in bytes."""
    rng = random.Random(seed)
    lines = []
    for number in range(1, count + 1):
        if bad and number in bad:
            lines.append(bad[number])
            continue
        words = " ".join(rng.choice(WORDS) for _ in range(40))
        row = {
            "id": f"2101.{number:05d}",
            "title": f"On {rng.choice(WORDS)} {rng.choice(WORDS)} number {number}",
            "abstract": f"  We propose Velo{number}, a method. {words}.\n",
            "authors": "Ada Lovelace and Alan Turing",
            "versions": [{"version": "v1", "created": "Mon, 4 Jan 2021 12:00:00 GMT"}],
        }
        lines.append(json.dumps(row))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path.stat().st_size


def build(data: Path, sources: list[Path], engine: str, listener: Listener | None = None):
    return Session.create(data, sources, engine_config(engine)).build(listener=listener)


class Held:
    """Counts papers parsed but not yet written to their source's record file: what a build
    holds while it reads. Streaming keeps it at a batch (`PREPARE_BATCH`), whatever the
    file's size."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.parsed = self.written = self.most = 0
        real_render = bounds.render  # every record is rendered there (`bounds.rendered`)
        real_add = records_module.RecordWriter.add

        def render(paper):
            self.parsed += 1
            self.most = max(self.most, self.parsed - self.written)
            return real_render(paper)

        def add(writer, record):
            if writer.kind == records_module.SOURCE:
                self.written += 1
            return real_add(writer, record)

        monkeypatch.setattr(bounds, "render", render)
        monkeypatch.setattr(records_module.RecordWriter, "add", add)


@pytest.mark.parametrize("count", [50, 1200])
def test_a_json_lines_file_is_read_record_by_record(tmp_path, monkeypatch, count, engine):
    write_rows(tmp_path / "rows.jsonl", count)
    held = Held(monkeypatch)
    kept = []
    real = source_records.prepare_source

    def prepare(*args, **kwargs):
        source = real(*args, **kwargs)
        kept.append(len(source.records))
        return source

    monkeypatch.setattr("paperterm.index.search.build_prepare.prepare_source", prepare)
    opened = build(tmp_path / "data", [tmp_path / "rows.jsonl"], engine)
    assert len(opened.papers) == count
    assert held.parsed == count and held.written == count
    # Each batch is written before the next is parsed: a batch at most, whatever the size.
    assert held.most <= source_records.PREPARE_BATCH
    assert held.most < count or count <= source_records.PREPARE_BATCH
    assert kept == [0]  # nobody watching: the build keeps no papers


def test_reading_reports_bytes_as_a_file_is_read(tmp_path, engine):
    size = write_rows(tmp_path / "rows.jsonl", 1200)
    reports: list[tuple[int, int]] = []
    listener = Listener(read_bytes=lambda read, total: reports.append((read, total)))
    build(tmp_path / "data", [tmp_path / "rows.jsonl"], engine, listener)
    assert reports[-1] == (size, size)
    reads = [read for read, _ in reports]
    assert reads == sorted(reads)
    assert any(0 < read < size for read in reads)  # within the file, not only at its end
    assert {total for _, total in reports} == {size}


def test_a_bad_line_mid_file_is_one_problem_and_the_rest_loads(tmp_path, engine):
    path = tmp_path / "rows.jsonl"
    write_rows(path, 30, bad={12: '{"title": "cut off', 20: "[1, 2]"})
    opened = build(tmp_path / "data", [path], engine)
    assert len(opened.papers) == 28
    problems = opened.meta.problems
    assert f"{path}:12: not valid JSON: Unterminated string starting at; skipped" in problems
    assert f"{path}:20: record is not a JSON object; skipped" in problems
    assert all("\n" not in problem for problem in problems)
    searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
    assert searcher.search("velo29", limit=5, snippets=False).total == 1


def test_streamed_build_gives_the_papers_of_the_whole_file_path(tmp_path, engine):
    """The same papers as `load_sources` (each file parsed whole, duplicates merged): a
    JSON Lines file, and a second one repeating some of its records."""
    first = tmp_path / "a.jsonl"
    second = tmp_path / "b.jsonl"
    write_rows(first, 300)
    lines = first.read_text(encoding="utf-8").splitlines()
    second.write_text("\n".join(lines[100:110] + lines[:3]) + "\n", encoding="utf-8")
    (tmp_path / "c.json").write_text(json.dumps([json.loads(lines[5])]), encoding="utf-8")
    sources = [first, second, tmp_path / "c.json"]
    opened = build(tmp_path / "data", sources, engine)
    whole = loader.load_sources([SourceSpec(path) for path in sources])
    assert [paper_tuple(p) for p in opened.papers] == [paper_tuple(p) for p in whole.papers]
    merged = opened.papers.by_id["2101.00104"]
    assert merged.collections == ["a", "b"]


def test_the_ids_are_read_without_reading_the_rows(tmp_path, monkeypatch, engine):
    write_rows(tmp_path / "rows.jsonl", 40)
    opened = build(tmp_path / "data", [tmp_path / "rows.jsonl"], engine)
    expected = [row[0] for row in opened.papers.rows()]
    reopened = Session.create(
        tmp_path / "data", [tmp_path / "rows.jsonl"], engine_config(engine)
    ).open_existing()

    def no_rows(self):
        raise AssertionError("every row read for the ids")

    monkeypatch.setattr(records_module.PaperList, "rows", no_rows)
    assert list(reopened.papers.ids) == expected
    assert reopened.papers.index_of("2101.00007") == 6


def write_bib(path: Path, count: int, *, seed: int = 5) -> int:
    """A PMLR-like .bib of `count` entries (a string macro, a volume, a malformed entry and
    a repeated key among them); the file's size in bytes."""
    rng = random.Random(seed)
    blocks = [
        "@string{venue = {Toy Workshop}}",
        "@Proceedings{toy-2024, booktitle = venue, shortname = {TOY}, year = {2024}}",
    ]
    for number in range(count):
        words = " ".join(rng.choice(WORDS) for _ in range(30))
        blocks.append(
            f"@InProceedings{{p{number},\n  title = {{On {{B}}ayes number {number}}},\n"
            f"  author = {{Lovelace, Ada and Turing, Alan}},\n"
            f"  abstract = {{We propose Bib{number}. {words}.}}\n}}"
        )
    blocks.insert(count // 2, "@InProceedings{broken,\n  title = {Never closed")
    blocks.insert(count // 3, "@InProceedings{p3, title = {Again}}")
    path.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
    return path.stat().st_size


def test_a_large_bibtex_file_is_read_a_chunk_at_a_time(tmp_path, monkeypatch, engine):
    """The build's papers and problems are those of the whole-file parse, its records
    written as they come, and its bytes reported as it reads."""
    from paperterm.index.sources import bibtex_chunks

    path = tmp_path / "big.bib"
    size = write_bib(path, 700)
    monkeypatch.setattr(loader, "BIBTEX_STREAM_BYTES", 0)
    monkeypatch.setattr(bibtex_chunks, "ENTRIES", 40)
    monkeypatch.setattr("paperterm.index.sources.loader._READ_BLOCK", 4096)
    from paperterm.index.sources import bibtex

    splits = []
    real = bibtex.Splitter

    class Counting(real):  # type: ignore[misc, valid-type]
        def split(self):
            library = super().split()
            splits.append(len(library.entries))
            return library

    monkeypatch.setattr(bibtex, "Splitter", Counting)
    reports: list[tuple[int, int]] = []
    listener = Listener(read_bytes=lambda read, total: reports.append((read, total)))
    opened = build(tmp_path / "data", [path], engine, listener)
    assert len(splits) > 700 // 40 and max(splits) <= 41  # chunks of 40 entries
    whole = loader.load_sources([SourceSpec(path)])
    assert [paper_tuple(p) for p in opened.papers] == [paper_tuple(p) for p in whole.papers]
    assert opened.meta.problems == [str(problem) for problem in whole.problems]
    assert len(opened.meta.problems) == 2
    assert reports[-1] == (size, size)
    assert any(0 < read < size for read, _ in reports)


def _stretched(monkeypatch: pytest.MonkeyPatch, path: Path, count: int) -> None:
    """Builds read `path` in about `count` stretches, in worker processes."""
    from paperterm.index.search import segments

    monkeypatch.setattr(segments, "STRETCH_BYTES", path.stat().st_size // count + 1)
    monkeypatch.setattr("paperterm.index.search.build_prepare.PARALLEL_BYTES", 0)


def test_a_large_json_lines_file_is_read_in_stretches(tmp_path, monkeypatch, engine):
    """The workers share one file: its papers, ids, lines, problems and merged duplicates
    are those of reading it whole, in one process."""
    path = tmp_path / "arxiv.json"
    write_rows(path, 900, bad={400: '{"title": "cut off', 850: "[1, 2]"})
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[700] = lines[10]  # the same paper again, in a later stretch
    lines.insert(600, "")
    path.write_text("\n".join(lines), encoding="utf-8")
    whole = loader.load_sources([SourceSpec(path)])
    one = build(tmp_path / "one", [path], engine)
    _stretched(monkeypatch, path, 4)
    opened = build(tmp_path / "data", [path], engine)
    spans = [entry.span for entry in opened.meta.sources]
    assert len(spans) == 4 and all(spans)
    assert spans[0][0] == 0 and spans[-1][1] == path.stat().st_size
    assert all(a[1] == b[0] for a, b in itertools.pairwise(spans))
    assert {entry.fingerprint.digest for entry in opened.meta.sources} == {file_digest(path)}
    assert [paper_tuple(p) for p in opened.papers] == [paper_tuple(p) for p in whole.papers]
    assert [paper_tuple(p) for p in opened.papers] == [paper_tuple(p) for p in one.papers]
    assert opened.meta.problems == [str(problem) for problem in whole.problems]
    assert f"{path}:851: record is not a JSON object; skipped" in opened.meta.problems
    assert len(opened.meta.parts) > 1
    assert len(opened.papers) == 900 - 2 - 1  # two bad lines, one repeated paper

    def answers(index) -> list[tuple[int, list[str]]]:
        searcher = Searcher(index.ix, index.papers, index.vocabulary())
        found = []
        for query in ("velo11", "graph kernel", "number 77", "robust*"):
            results = searcher.search(query, limit=20, snippets=False)
            found.append((results.total, [hit.paper.id for hit in results.hits]))
        return found

    assert answers(opened) == answers(one)


def test_a_file_read_in_stretches_is_kept_until_it_changes(tmp_path, monkeypatch, engine):
    path = tmp_path / "rows.jsonl"
    write_rows(path, 600)
    _stretched(monkeypatch, path, 3)
    data = tmp_path / "data"
    first = build(data, [path], engine)
    assert len(first.meta.sources) == 3
    session = Session.create(data, [path], engine_config(engine))
    assert session.open_existing() is not None  # current: nothing to build
    os.utime(path)  # touched, the same content: its stretches are kept, nothing read
    read: list[str] = []
    real = source_records.prepare_source

    def spy(file, *args, **kwargs):
        read.append(file.key)
        return real(file, *args, **kwargs)

    monkeypatch.setattr("paperterm.index.search.build_prepare.prepare_source", spy)
    monkeypatch.setattr("paperterm.index.search.build_prepare.PARALLEL_BYTES", 1 << 40)
    touched = build(data, [path], engine)
    assert read == []
    assert [e.span for e in touched.meta.sources] == [e.span for e in first.meta.sources]
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps({"id": "2101.99999", "abstract": "Quokkas wombats."}) + "\n")
    changed = build(data, [path], engine)
    assert len(read) == len(changed.meta.sources) >= 3  # changed: read again, every stretch
    whole = loader.load_sources([SourceSpec(path)])
    assert [paper_tuple(p) for p in changed.papers] == [paper_tuple(p) for p in whole.papers]
    other = tmp_path / "other.jsonl"
    write_rows(other, 5, seed=9)
    read.clear()
    added = build(data, [path, other], engine)  # another source: only it is read
    assert read == [f"1:{other}"]
    assert len(added.meta.sources) == len(changed.meta.sources) + 1
    cache = Path(added.location) / "sources" / added.meta.sources[1].cache
    cache.write_bytes(cache.read_bytes()[:100])  # a stretch's records damaged
    write_rows(other, 6, seed=9)
    read.clear()
    again = build(data, [path, other], engine)  # the damaged stretch is read, and `other`
    assert read == [added.meta.sources[1].key, f"1:{other}"]
    stretched = again.meta.sources[:-1]
    assert {entry.fingerprint.digest for entry in stretched} == {file_digest(path)}
    read.clear()
    os.utime(path)
    build(data, [path, other], engine)
    assert read == []


def test_a_utf16_file_with_a_blank_first_line_is_not_read_in_stretches(
    tmp_path, monkeypatch, engine
):
    """A UTF-16 (little-endian) file's first line, when blank, is its mark and one byte
    (b"\\xff\\xfe\\n"): it has no zero byte, yet the file cannot be cut at its "\\n" bytes
    (each is half a character) and the reading of a stretch reads a wide file whole: read
    in stretches, each stretch gave every paper and every problem."""
    path = tmp_path / "rows.jsonl"
    write_rows(path, 300, bad={200: "[1, 2]"})
    text = "\n" + path.read_text(encoding="utf-8")
    path.write_bytes(codecs.BOM_UTF16_LE + text.encode("utf-16-le"))
    whole = loader.load_sources([SourceSpec(path)])
    assert len(whole.papers) == 299 and len(whole.problems) == 1
    _stretched(monkeypatch, path, 4)
    opened = build(tmp_path / "data", [path], engine)
    assert opened.meta.problems == [str(problem) for problem in whole.problems]
    assert [paper_tuple(p) for p in opened.papers] == [paper_tuple(p) for p in whole.papers]
    assert [entry.span for entry in opened.meta.sources] == [None]


def test_a_json_lines_file_under_two_full_stretches_is_cut_into_smaller_ones(tmp_path, monkeypatch):
    """A part closes at the end of a stretch: a JSON Lines file too small for two stretches
    of `STRETCH_BYTES` is cut into about `JSON_LINES_COUNT` (of `JSON_LINES_LEAST` bytes at
    least), so that its parts, and the workers writing them, are no larger than others'."""
    from paperterm.index.search import segments

    path = tmp_path / "arxiv.json"
    write_rows(path, 900)
    size = path.stat().st_size
    monkeypatch.setattr(segments, "STRETCH_BYTES", size)  # two of them would not fit
    monkeypatch.setattr(segments, "JSON_LINES_LEAST", size // 100)
    monkeypatch.setattr(segments, "FORMAT_STRETCH_BYTES", size // 100)  # (a small file's)
    found = segments.stretches(path)
    assert found is not None
    spans, digest = found
    assert len(spans) in (segments.JSON_LINES_COUNT, segments.JSON_LINES_COUNT + 1)
    assert spans[0][0] == 0 and spans[-1][1] == size and digest == file_digest(path)
    monkeypatch.setattr(segments, "JSON_LINES_LEAST", size)
    assert segments.stretches(path) is None
