"""Finding, decoding and picking a parser for corpus files; merging duplicates across sources."""

from __future__ import annotations

import codecs
import errno
import json
import os
from dataclasses import replace
from pathlib import Path

import pytest
from hostile.corpus import MARKERS, REPORTED
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from locations import CORPORA, FIXTURES, ROOT

from paperterm.index.papers import Paper, content_id
from paperterm.index.sources import bibtex as bibtex_source
from paperterm.index.sources import json_records as json_source
from paperterm.index.sources import text_list as text_source
from paperterm.index.sources.detect import pick_parser
from paperterm.index.sources.enrich import render
from paperterm.index.sources.files import SourceSpec, discover
from paperterm.index.sources.loader import Reading, _split_lines, load_file, load_sources
from paperterm.index.sources.preparing import merge_duplicates


@given(st.lists(st.text(alphabet="ab\n", max_size=12), max_size=8))
def test_lines_given_a_block_at_a_time_are_the_text_s_lines(blocks: list[str]) -> None:
    """However the text is cut into blocks (a line across many of them, a block of newlines
    only), the lines are the text's, without one after a last newline."""
    text = "".join(blocks)
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    assert list(_split_lines(blocks)) == lines


def test_every_format_is_registered():
    assert pick_parser(Path("a.bib"), "") is bibtex_source.parse
    assert pick_parser(Path("a.json"), "") is json_source.parse
    assert pick_parser(Path("a.jsonl"), "") is json_source.parse
    assert pick_parser(Path("a.ndjson"), "") is json_source.parse
    assert pick_parser(Path("a.txt"), "@x{") is text_source.parse


@pytest.mark.parametrize(
    ("name", "text", "parser"),
    [
        ("list.BIB", "anything", bibtex_source.parse),
        ("export", "\n  @article{k, title={T}}", bibtex_source.parse),
        ("export", "% JabRef\n% comment\n@article{k, title={T}}", bibtex_source.parse),
        ("export.dat", '[{"title": "T"}]', json_source.parse),
        ("export.dat", '\ufeff{"title": "T"}\n{"title": "U"}', json_source.parse),
        ("notes", "My list\n\nAn abstract.", text_source.parse),
        ("notes", "% just a percent line\nno entries", text_source.parse),
    ],
)
def test_pick_parser_by_extension_then_content(name, text, parser):
    assert pick_parser(Path(name), text.lstrip("\ufeff")) is parser


def test_discover_walks_folders_in_order_and_only_known_formats(tmp_path):
    (tmp_path / "b").mkdir()
    for name in ("b/z.jsonl", "b/a.bib", "c.json", "d.txt", "e.pdf", "f.ndjson", "g.md"):
        (tmp_path / name).write_text("x", encoding="utf-8")
    files, problems = discover(SourceSpec(tmp_path))
    assert [f.relative_to(tmp_path).as_posix() for f in files] == [
        "b/a.bib",
        "b/z.jsonl",
        "c.json",
        "d.txt",
        "f.ndjson",
    ]
    assert problems == []


def test_discover_names_a_missing_source(tmp_path):
    files, problems = discover(SourceSpec(tmp_path / "nope"))
    assert files == []
    assert [p.message for p in problems] == ["no such file or folder"]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_discover_cuts_symlink_loops(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "p.bib").write_text("x", encoding="utf-8")
    (tmp_path / "a" / "loop").symlink_to(tmp_path / "a", target_is_directory=True)
    files, _ = discover(SourceSpec(tmp_path))
    assert [f.name for f in files] == ["p.bib"]


def test_load_file_decodes_bom_and_latin1(tmp_path):
    bom = tmp_path / "bom.bib"
    bom.write_bytes(b"\xef\xbb\xbf@misc{k, title = {Na\xc3\xafve}, abstract = {A.}}\n")
    papers, problems = load_file(bom)
    assert (papers[0].id, papers[0].title, problems) == ("k", "Naïve", [])
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes('{"title": "M\xe9thode", "abstract": "Une."}\n'.encode("latin-1"))
    papers, problems = load_file(latin)
    assert papers[0].title == "Méthode"
    assert [p.message for p in problems] == ["not valid UTF-8; read as Latin-1"]


def test_json_lines_of_mixed_encodings_read_whole_as_line_by_line(tmp_path):
    """A UTF-8 JSON Lines file with one Latin-1 line: only that line is read as Latin-1,
    read whole (`load_file`) as a build reads it line by line (`Reading`), one warning
    naming the first such line."""
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_bytes(
        '{"title": "Caf\u00e9 one", "abstract": "Na\u00efve."}\n'.encode()
        + '{"title": "M\u00e9thode", "abstract": "Une."}\n'.encode("latin-1")
        + '{"title": "\u00c9t\u00e9 three", "abstract": "\u2014 dash."}\n'.encode()
    )
    expected = ["Café one", "Méthode", "Été three"]
    papers, problems = load_file(mixed)
    assert [paper.title for paper in papers] == expected
    assert [paper.abstract for paper in papers][2] == "— dash."
    assert [(p.line, p.message) for p in problems] == [(2, "not valid UTF-8; read as Latin-1")]
    reading = Reading(mixed)
    assert [paper.title for paper in reading.papers()] == expected
    assert [(p.line, p.message) for p in reading.problems] == [(2, problems[0].message)]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("seed.txt", (ROOT / "seeds" / "02-icml2024-lunwen-liebiao.txt").read_text()),
        ("k.bib", "@misc{k, title = {Na\u00efve \u8bba\u6587}, abstract = {An abstract.}}\n"),
        ("k.json", '[{"title": "Na\u00efve \u8bba\u6587", "abstract": "An abstract."}]\n'),
        ("k.jsonl", '{"title": "Na\u00efve \u8bba\u6587", "abstract": "An abstract."}\n'),
    ],
)
def test_a_utf16_or_utf32_file_with_a_bom_is_read_as_its_text(tmp_path, name, text, encoding):
    """UTF-16 and UTF-32 (with a byte order mark: what Windows editors save as "Unicode")
    were "binary content; skipped"; they are read as the same file in UTF-8 is, read whole
    or by a build."""
    bom = codecs.BOM_UTF16_BE if encoding == "utf-16-be" else b""  # the others write one
    plain = tmp_path / "utf8" / name
    plain.parent.mkdir()
    plain.write_text(text, encoding="utf-8")
    wide = tmp_path / name
    wide.write_bytes(bom + text.encode(encoding))
    papers, problems = load_file(plain)
    assert papers and problems == []
    expected = [replace(paper, source=str(wide)) for paper in papers]
    assert load_file(wide) == (expected, [])
    reading = Reading(wide)
    assert list(reading.papers()) == expected and reading.problems == []


def test_a_utf16_file_that_does_not_decode_says_where_and_what_to_do(tmp_path):
    broken = tmp_path / "broken.txt"
    lone_surrogate = b"\x00\xd8"
    broken.write_bytes(codecs.BOM_UTF16_LE + "A list\n\nok\n".encode("utf-16-le") + lone_surrogate)
    papers, problems = load_file(broken)
    assert papers == []
    assert [(p.line, p.message) for p in problems] == [
        (4, "not valid UTF-16 text; save it as UTF-8")
    ]


#: Each wide encoding with the byte order mark it is saved with.
WIDE = [
    ("utf-16", b""),  # Python writes the mark (little-endian here)
    ("utf-16-be", codecs.BOM_UTF16_BE),
    ("utf-32", b""),
    ("utf-32-be", codecs.BOM_UTF32_BE),
]


def _wide_records(count: int) -> str:
    """JSON Lines of `count` papers (not ASCII), a blank line and a damaged line among them."""
    lines = [
        json.dumps({"title": f"Na\u00efve {n} \u8bba\u6587", "abstract": f"Abstract {n}."})
        for n in range(count)
    ]
    lines[count // 3] = ""
    lines[count // 2] = '{"title": "never closed'
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("encoding", "bom"), WIDE)
def test_a_large_utf16_or_utf32_json_lines_file_is_read_a_block_at_a_time(
    tmp_path, monkeypatch, encoding, bom
):
    """As a UTF-8 one is: not whole into memory. A build's first paper comes before the
    file is read to its end; its papers and problems (their lines) are those of the file
    read whole."""
    monkeypatch.setattr("paperterm.index.sources.loader._READ_BLOCK", 4096)
    path = tmp_path / "wide.jsonl"
    path.write_bytes(bom + _wide_records(400).encode(encoding))
    papers, problems = load_file(path)
    assert len(papers) == 398 and [p.line for p in problems] == [201]
    reading = Reading(path)
    found = reading.papers()
    first = next(found)
    assert 0 < reading.size < path.stat().st_size  # one block read, not the file
    assert [first, *found] == papers and reading.problems == problems
    assert reading.complete and reading.size == path.stat().st_size


@pytest.mark.parametrize(("encoding", "bom"), WIDE)
def test_a_large_utf16_or_utf32_bibtex_file_is_read_a_chunk_at_a_time(
    tmp_path, monkeypatch, encoding, bom
):
    from paperterm.index.sources import bibtex_chunks, loader

    monkeypatch.setattr(loader, "BIBTEX_STREAM_BYTES", 0)
    monkeypatch.setattr(loader, "_READ_BLOCK", 4096)
    monkeypatch.setattr(bibtex_chunks, "ENTRIES", 40)
    entries = [
        f"@misc{{k{n}, title = {{Na\u00efve {n} \u8bba\u6587}}, abstract = {{Text {n}.}}}}"
        for n in range(300)
    ]
    entries[150] = "@misc{broken,\n  title = {Never closed"
    path = tmp_path / "wide.bib"
    path.write_bytes(bom + ("\n\n".join(entries) + "\n").encode(encoding))
    papers, problems = load_file(path)
    assert len(papers) == 299 and problems
    reading = Reading(path)
    found = reading.papers()
    first = next(found)
    assert 0 < reading.size < path.stat().st_size
    assert [first, *found] == papers
    assert [(p.line, p.message) for p in reading.problems] == [
        (p.line, p.message) for p in problems
    ]


def test_a_wide_json_lines_file_that_does_not_decode_gives_no_papers_and_the_line(tmp_path):
    """As read whole: the file is checked (a block at a time) before any paper is given."""
    path = tmp_path / "broken.jsonl"
    lone_surrogate = b"\x00\xd8"
    path.write_bytes(codecs.BOM_UTF16_LE + _wide_records(40).encode("utf-16-le") + lone_surrogate)
    whole = load_file(path)
    assert whole[0] == [] and [p.line for p in whole[1]] == [41]
    reading = Reading(path)
    assert list(reading.papers()) == [] and reading.problems == whole[1]


def test_bom_and_crlf_are_read_as_text(hostile):
    papers, problems = load_file(hostile / "bom-crlf.txt")
    assert problems == []
    assert [p.collection for p in papers] == ["BOM and CRLF list"] * 2
    assert not any("\r" in p.abstract or "\ufeff" in p.abstract for p in papers)


@pytest.mark.parametrize("kind", ["pipe", "device"])
def test_pipes_and_devices_are_refused_not_read(tmp_path, kind):
    """Reading a named pipe would block the start for ever; /dev/zero would never end."""
    if kind == "pipe":
        path = tmp_path / "pipe.txt"
        os.mkfifo(path)
    else:
        path = Path("/dev/zero")
    papers, problems = load_file(path)
    assert papers == []
    assert [p.message for p in problems] == ["not a regular file (a pipe or device); skipped"]


def test_unreadable_file_is_reported_and_the_others_load(tmp_path, monkeypatch):
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "a-good.txt").write_text("Good\n\nA readable abstract about models.\n")
    locked = folder / "b-locked.txt"
    locked.write_text("Locked\n\nAn abstract nobody may read.\n")
    locked.chmod(0)
    if os.access(locked, os.R_OK):  # root reads anything: make the read fail as it would
        real = Path.read_bytes

        def read_bytes(self: Path) -> bytes:
            if self == locked:
                raise PermissionError(errno.EACCES, "Permission denied", str(self))
            return real(self)

        monkeypatch.setattr(Path, "read_bytes", read_bytes)
    corpus = load_sources([SourceSpec(folder)])
    assert [str(p) for p in corpus.problems] == [f"{locked}: cannot read: Permission denied"]
    assert [p.collection for p in corpus.papers] == ["Good"]


def test_symlink_loops_and_folders_named_like_files_are_walked_safely(tmp_path):
    folder = tmp_path / "corpus"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "back").symlink_to(folder)
    (folder / "self").symlink_to(folder / "self")  # a link to itself: cannot be resolved
    (folder / "folder.txt").mkdir()
    (folder / "sub" / "list.txt").write_text("Deep\n\nAn abstract found once.\n")
    corpus = load_sources([SourceSpec(folder)])
    assert [p.collection for p in corpus.papers] == ["Deep"]  # once, though two ways lead there
    assert [(Path(p.path).name, p.message) for p in corpus.problems] == [
        ("self", "cannot read: Too many levels of symbolic links")
    ]


def test_file_names_with_escapes_or_bad_bytes_load(tmp_path):
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "evil\x1b]2;PWNED\x07.txt").write_text("An abstract with an evil file name.\n")
    (folder / os.fsdecode(b"caf\xe9.txt")).write_text("An abstract with a Latin-1 name.\n")
    corpus = load_sources([SourceSpec(folder)])
    assert len(corpus.papers) == 2 and corpus.problems == []


#: Files whose whole content is refused or suspect: exactly one problem each.
WHOLE_FILE = {
    "binary.txt": "not a text file",
    "nul-bytes.txt": "not a text file",
    "empty.txt": "no abstracts found",
    "header-only.txt": "no abstracts found",
    "broken.json": "not valid JSON",
    "latin1.txt": "not valid UTF-8; read as Latin-1",
}


def test_hostile_folder_reports_each_bad_file_and_loads_every_good_paper(hostile):
    corpus = load_sources([SourceSpec(hostile)])
    reported = [Path(problem.path).name for problem in corpus.problems]
    assert set(reported) == set(REPORTED)
    for name, why in WHOLE_FILE.items():
        problems = [p for p in corpus.problems if Path(p.path).name == name]
        assert len(problems) == 1 and why in problems[0].message, name
    for problem in corpus.problems:
        assert "\n" not in str(problem)
    abstracts = "\n".join(paper.abstract for paper in corpus.papers)
    for marker in MARKERS:
        assert f"Specimen {marker}" in abstracts, marker


def test_fixtures_load_together_and_merge_the_shared_arxiv_paper():
    # The files beside each other (not the conference exports in conferences/).
    corpus = load_sources([SourceSpec(p) for p in sorted(FIXTURES.iterdir()) if p.is_file()])
    ids = [p.id for p in corpus.papers]
    assert len(ids) == len(set(ids))
    shared = [p for p in corpus.papers if p.arxiv_id == "2401.01234"]
    assert len(shared) == 1
    assert shared[0].collections == ["arxiv_snapshot", "papers"]
    assert shared[0].title == "Sparse ℓ₁ Probes for Analytical Engines"  # the first record's
    found = sorted((Path(p.path).name, p.line) for p in corpus.problems)
    bib = (FIXTURES / "pmlr_sample.bib").read_text(encoding="utf-8").split("\n")
    array = (FIXTURES / "papers.json").read_text(encoding="utf-8").split("\n")
    entries = [n for n, line in enumerate(bib, 1) if line.startswith("@InProceedings{")]
    bad_bib = [entries[2], entries[4], entries[5]]  # broken24, the repeated key, empty24
    bad_json = [n for n, line in enumerate(array, 1) if '"No Content"' in line or "not an" in line]
    assert found == [
        ("arxiv_snapshot.jsonl", 4),
        *(("papers.json", n) for n in (bad_json[0] - 1, bad_json[1])),
        *(("pmlr_sample.bib", n) for n in bad_bib),
    ]


def _paper(pid: str, collection: str, abstract: str = "", **fields) -> Paper:
    """A record as the loader hands it to `merge_duplicates`: rendered."""
    return render(Paper(id=pid, collection=collection, abstract=abstract, **fields))


def test_merge_by_doi_arxiv_id_and_title_with_abstract():
    papers = [
        _paper("key1", "A", "First.", title="One", doi="10.1000/X", authors=[]),
        _paper(
            "10.1000/x",
            "B",
            "Other text.",
            title="Other",
            doi="10.1000/x",
            year=2020,
            authors=["Ada"],
            links=["https://b.example"],
        ),
        _paper("2401.00001", "A", "Second.", title="Two", arxiv_id="2401.00001"),
        _paper("key2", "C", "Second, retyped.", title="Two!", arxiv_id="2401.00001"),
        _paper("key3", "A", "Same  words.", title="Three: a Title"),
        _paper("k3", "D", "same words", title="three, a title"),
        _paper("key4", "A", "Same words.", title="A different title"),
    ]
    merged = merge_duplicates(papers)
    assert [(p.id, p.collections) for p in merged] == [
        ("key1", ["A", "B"]),
        ("2401.00001", ["A", "C"]),
        ("key3", ["A", "D"]),
        ("key4", ["A"]),
    ]
    first = merged[0]
    assert (first.year, first.authors, first.links) == (2020, ["Ada"], ["https://b.example"])


def test_a_paper_known_only_by_its_abstract_matches_any_title():
    abstract = "We study *things* with $x_t$."
    seed = _paper(content_id(abstract), "ICML 2024", abstract, title="We study things")
    bib = _paper("smith24", "MIDL 2024", abstract, title="Things")
    assert [p.collections for p in merge_duplicates([seed, bib])] == [["ICML 2024", "MIDL 2024"]]
    seed2 = _paper(content_id(abstract), "ICML 2024", abstract, title="We study things")
    bib2 = _paper("smith24", "MIDL 2024", abstract, title="Things")
    merged = merge_duplicates([bib2, seed2])
    assert [(p.id, p.collections) for p in merged] == [("smith24", ["MIDL 2024", "ICML 2024"])]
    other = _paper("jones24", "X", abstract, title="Unrelated title")
    assert len(merge_duplicates([bib, other])) == 2  # two real titles: not the same paper


def test_different_papers_sharing_a_key_both_stay_with_unique_ids():
    one = _paper("preface", "MIDL 2024", "This volume contains MIDL.", title="Preface")
    two = _paper("preface", "ENLSP 2024", "This volume contains ENLSP.", title="Preface")
    again = _paper("preface", "ENLSP copy", "This volume contains ENLSP.", title="Preface")
    merged = merge_duplicates([one, two, again])
    assert merged[0].id == "preface"
    assert merged[1].id.startswith("preface~")
    assert merged[1].collections == ["ENLSP 2024", "ENLSP copy"]
    assert merged[1].id == "preface~" + content_id("Preface\nThis volume contains ENLSP.")[:6]


def test_entries_without_abstract_do_not_merge_on_title_alone():
    merged = merge_duplicates(
        [_paper("a", "X", title="Preface"), _paper("b", "Y", title="Preface")]
    )
    assert [p.id for p in merged] == ["a", "b"]


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


_SUFFIXES = st.sampled_from([".txt", ".bib", ".json", ".jsonl", ".ndjson", ".dat", ""])
_BIB_TOKENS = [
    "@", "@misc{", "@string{", "@comment{", "{", "}", '"', ",", "=", "#", "\\", "\\'", "\n",
    " ", "title", "abstract", "author", " and ", "$", "~", "%", "<em>", "</em>", "key",
    "@Proceedings{", "shortname", "\x02", "\x020\x03", "\\url{", "\\citep{", "\\item",
]  # fmt: skip
_JSON_KEYS = [
    "title", "abstract", "authors", "id", "doi", "year", "versions", "authors_parsed", "links",
    "papers", "url", "date",
]  # fmt: skip
_BIBLIKE = st.lists(st.sampled_from(_BIB_TOKENS), max_size=60).map("".join)
_JSONLIKE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(_JSON_KEYS),
            inner,
            max_size=5,
        )
    ),
    max_leaves=12,
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    content=st.one_of(
        st.binary(max_size=300),
        st.text(max_size=300).map(str.encode),
        _BIBLIKE.map(str.encode),
        _JSONLIKE.map(lambda v: json.dumps(v).encode()),
        st.lists(_JSONLIKE.map(json.dumps), max_size=4).map(lambda rows: "\n".join(rows).encode()),
    ),
    suffix=_SUFFIXES,
)
def test_any_bytes_load_without_raising(fuzz_dir, content, suffix):
    path = fuzz_dir / f"fuzz{suffix}"
    path.write_bytes(content)
    corpus = load_sources([SourceSpec(path)])
    for paper in corpus.papers:
        assert paper.id and paper.collection and paper.title
        assert "\x02" not in paper.text + paper.title  # the decoder's placeholders never leak
    for problem in corpus.problems:
        assert problem.path == str(path)
        assert "\n" not in problem.message


def test_real_corpora_load_together_with_unique_ids():
    corpora = CORPORA
    if not corpora.exists():
        pytest.skip(f"{corpora} is not available")
    midl, enlsp = corpora / "MIDL2024.bib", corpora / "enlsp24.bib"
    specs = [SourceSpec(midl), SourceSpec(enlsp), SourceSpec(midl, "MIDL again")]
    corpus = load_sources(specs)
    assert corpus.problems == []
    assert len(corpus.papers) == len({p.id for p in corpus.papers})
    assert corpus.collections == ["MIDL 2024", "MIDL again", "ENLSP-IV 2024"]
    midl_papers = [p for p in corpus.papers if p.collection == "MIDL 2024"]
    assert midl_papers
    assert all(p.collections == ["MIDL 2024", "MIDL again"] for p in midl_papers)


@given(st.text(alphabet=st.characters(max_codepoint=127)) | st.text())
def test_text_is_folded_for_duplicates_as_its_normal_form_is(text):
    """Merge keys fold case, width, white space and punctuation (`preparing._fold`); ASCII
    text takes a shorter path to the same folded text."""
    from paperterm.index.papers import normalize_for_id
    from paperterm.index.sources import preparing

    assert preparing._fold(text) == preparing._NOT_WORD.sub(" ", normalize_for_id(text)).strip()


#: Mostly ASCII text with a few other characters (surrogates too): what `preparing._fold`'s
#: path for text that is not ASCII mostly meets (an arXiv abstract's quotes and symbols).
_MOSTLY_ASCII = st.lists(
    st.sampled_from(list("ab Z9_.,-\t\n")) | st.characters(exclude_categories=())
).map("".join)


@given(_MOSTLY_ASCII)
def test_mostly_ascii_text_is_folded_as_its_normal_form_is(text):
    from paperterm.index.papers import normalize_for_id
    from paperterm.index.sources import preparing

    assert preparing._fold(text) == preparing._NOT_WORD.sub(" ", normalize_for_id(text)).strip()
