import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from paperterm.index.sources.bounds import ABSTRACT_LIMIT
from paperterm.index.sources.files import SourceSpec, bundled_seeds
from paperterm.index.sources.loader import load_file, load_sources
from paperterm.index.sources.text_list import parse


def test_both_seeds_parse_to_19_papers_with_their_collection_names():
    corpus = load_sources(bundled_seeds())
    assert corpus.problems == []
    by_collection: dict[str, int] = {}
    for paper in corpus.papers:
        by_collection[paper.collection] = by_collection.get(paper.collection, 0) + 1
    assert by_collection == {"ICML 2024 Papers": 19, "ICML 2024 论文列表": 19}
    assert len({paper.id for paper in corpus.papers}) == 38


def test_every_paper_has_a_title_text_and_line():
    for paper in load_sources(bundled_seeds()).papers:
        assert paper.title and len(paper.title) <= 100
        assert paper.text
        assert paper.line > 1
        assert Path(paper.source).name.endswith(".txt")


def test_ids_are_stable_when_paragraphs_are_reordered(tmp_path):
    seed = bundled_seeds()[0].path.read_text(encoding="utf-8")
    header, *paragraphs = seed.strip().split("\n\n")
    shuffled = paragraphs[:]
    random.Random(7).shuffle(shuffled)
    assert shuffled != paragraphs
    one = tmp_path / "a.txt"
    two = tmp_path / "b.txt"
    one.write_text("\n\n".join([header, *paragraphs]), encoding="utf-8")
    two.write_text("\n\n".join([header, *shuffled]), encoding="utf-8")
    ids_one = {p.id for p in load_file(one)[0]}
    ids_two = {p.id for p in load_file(two)[0]}
    assert ids_one == ids_two and len(ids_one) == 19


def test_rewrapping_a_paragraph_keeps_its_id(tmp_path):
    flat = parse(tmp_path / "x.txt", "List\n\nAlpha beta gamma delta.\n", None)[0]
    wrapped = parse(tmp_path / "x.txt", "List\n\nAlpha beta\n  gamma   delta.  \n", None)[0]
    assert flat[0].id == wrapped[0].id


def test_crlf_bom_trailing_spaces_and_blank_runs(tmp_path):
    path = tmp_path / "messy.txt"
    text = (
        "\ufeffMy List  \r\n\r\n\r\n\r\nFirst abstract line one.  \r\nline two.\r\n"
        "\r\n\r\n\r\nSecond.\r\n"
    )
    path.write_bytes(text.encode("utf-8"))
    papers, problems = load_file(path)
    assert problems == []
    assert [p.collection for p in papers] == ["My List", "My List"]
    assert papers[0].abstract == "First abstract line one. line two."
    assert papers[0].line == 5
    assert papers[1].abstract == "Second."


def test_missing_header_uses_the_file_name(tmp_path):
    path = tmp_path / "neurips.txt"
    path.write_text(
        "We propose a method that does things. It works well.\n\nAnother abstract here.\n",
        encoding="utf-8",
    )
    papers, _ = load_file(path)
    assert len(papers) == 2
    assert {p.collection for p in papers} == {"neurips"}


def test_collection_override(tmp_path):
    path = tmp_path / "list.txt"
    path.write_text("Header\n\nAn abstract.\n", encoding="utf-8")
    corpus = load_sources([SourceSpec(path, "Mine")])
    assert [p.collection for p in corpus.papers] == ["Mine"]


def test_binary_file_is_reported_and_skipped_while_others_load(tmp_path):
    (tmp_path / "good.txt").write_text("Good\n\nA fine abstract.\n", encoding="utf-8")
    (tmp_path / "bad.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 20)
    corpus = load_sources([SourceSpec(tmp_path)])
    assert [p.collection for p in corpus.papers] == ["Good"]
    assert len(corpus.problems) == 1
    assert "bad.txt" in str(corpus.problems[0]) and "binary" in str(corpus.problems[0])


def test_undecodable_text_is_read_as_latin1_with_a_warning(tmp_path):
    path = tmp_path / "latin.txt"
    path.write_bytes("Liste\n\nUne m\xe9thode na\xefve.\n".encode("latin-1"))
    papers, problems = load_file(path)
    assert papers[0].abstract == "Une méthode naïve."
    assert len(problems) == 1 and "latin.txt:3" in str(problems[0])


def test_empty_file_and_header_only(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    header = tmp_path / "header.txt"
    header.write_text("Just a name\n", encoding="utf-8")
    for path in (empty, header):
        papers, problems = load_file(path)
        assert papers == []
        assert [path.name in str(p) for p in problems] == [True]


@settings(max_examples=60, deadline=None)
@given(st.text())
def test_any_text_parses_without_raising(text):
    papers, _ = parse(Path("x.txt"), text, None)
    for paper in papers:
        assert paper.abstract.strip() == paper.abstract
        assert paper.id


def test_huge_paragraph_is_cut_at_the_bound_and_long_word_loads_whole(hostile):
    loaded = load_sources([SourceSpec(hostile / "huge-paragraph.txt")])
    huge = loaded.papers
    assert len(huge) == 1 and len(huge[0].abstract) == ABSTRACT_LIMIT
    assert [(problem.line, "too large" in problem.message) for problem in loaded.problems] == [
        (3, True)
    ]
    assert len(huge[0].title) <= 120
    long_word = load_sources([SourceSpec(hostile / "long-word.txt")]).papers
    assert len(long_word) == 1 and "w" * 20_000 in long_word[0].abstract
    assert len(long_word[0].title) <= 120
