"""BibTeX (PMLR proceedings) parsing: fixture, fields, failures, the real corpora."""

from __future__ import annotations

import re
from pathlib import Path

import bibtexparser
import pytest
from loading import as_loaded
from locations import CORPORA, FIXTURES

from paperterm.index.sources import bibtex as bibtex_source
from paperterm.index.text.display import display_text, one_line
from paperterm.index.text.field_text import clean

FIXTURE = FIXTURES / "pmlr_sample.bib"


def parse_fixture(collection: str | None = None):
    return as_loaded(bibtex_source.parse(FIXTURE, FIXTURE.read_text(encoding="utf-8"), collection))


def parse_text(text: str, name: str = "x.bib"):
    return as_loaded(bibtex_source.parse(Path(name), text, None))


def test_fixture_papers_problems_and_lines():
    papers, problems = parse_fixture()
    assert [p.id for p in papers] == ["gauss24bayes", "noether24rings", "hopper24title"]
    lines = FIXTURE.read_text(encoding="utf-8").split("\n")
    for paper in papers:
        assert lines[paper.line - 1].startswith(f"@InProceedings{{{paper.id},")
    by_line = {problem.line: problem.message for problem in problems}
    assert len(problems) == 3
    broken = lines.index("@InProceedings{broken24,") + 1
    duplicate = lines.index("@InProceedings{noether24rings,", broken) + 1
    empty = lines.index("@InProceedings{empty24,") + 1
    assert "malformed entry 'broken24' skipped" in by_line[broken]
    assert "duplicate key 'noether24rings'" in by_line[duplicate]
    assert "first at line" in by_line[duplicate]
    assert "neither title nor abstract" in by_line[empty]
    assert all(str(p).startswith(f"{FIXTURE}:") for p in problems)


def test_fixture_fields_are_cleaned():
    papers, _ = parse_fixture()
    gauss = papers[0]
    assert gauss.title.startswith("Bayesian Filtering for Résumé Parsing & Beyond with")
    assert gauss.authors == ["Carl Friedrich Gauß", "Jörg Müller", "The Toy Consortium"]
    assert gauss.year == 2024  # from the volume: the entry has none
    assert gauss.collection == "TOYW 2024"
    assert gauss.doi == "10.1234/Toy.2024.001"
    # The abstract as the file has it, its HTML and hard wrapping undone; LaTeX is decoded
    # for display by the one decoder, as for every source.
    assert gauss.abstract.startswith("We study *Bayesian* filtering of r\\'esum\\'es. Our method")
    assert gauss.text == (
        "We study Bayesian filtering of résumés. Our method runs in 𝒪(n) time and uses no "
        "labels; it improves accuracy by 12% over strong baselines.\n\nA second paragraph "
        "mentions models' weights and code at https://example.org/toy_code."
    )
    # Its own url and pdf come first (no PMLR links are made up beside them), then
    # OpenReview's forum and PDF, the DOI, and the URL its abstract mentions.
    assert gauss.links == [
        "https://proceedings.example.org/v999/gauss24a.html",
        "https://proceedings.example.org/v999/gauss24a.pdf",
        "https://openreview.net/forum?id=AbC123xYz",
        "https://openreview.net/pdf?id=AbC123xYz",
        "https://doi.org/10.1234/Toy.2024.001",
        "https://example.org/toy_code",
    ]
    noether = papers[1]
    assert noether.title == "Ring Buffers for Streaming Tokenizers"  # display renders *..*
    assert noether.authors == ["Emmy Noether", "Sofia Kovalevskaya"]
    assert noether.abstract == (
        "Ring buffers make **streaming** tokenizers fast.\n\nThey also use x2 less memory & time."
    )
    assert noether.text == (
        "Ring buffers make streaming tokenizers fast.\n\nThey also use x2 less memory & time."
    )
    # No url of its own: the PMLR volume 999 (its @Proceedings has PMLR's `shortname`) and
    # the key give the page and the PDF.
    assert noether.links == [
        "https://proceedings.mlr.press/v999/noether24rings.html",
        "https://proceedings.mlr.press/v999/noether24rings/noether24rings.pdf",
    ]
    hopper = papers[2]
    assert hopper.abstract == ""
    assert hopper.title == "Compilers Without Abstracts"
    assert hopper.authors == ["Grace Hopper"]


def test_the_entry_is_kept_as_published_with_what_its_volume_gives():
    papers, _ = parse_fixture()
    gauss, noether, _ = papers
    assert gauss.entry_type == noether.entry_type == "InProceedings"  # as the file writes it
    # The title and authors as written (LaTeX), the entry's own fields, then the volume's.
    assert gauss.fields["title"] == (
        r"{B}ayesian Filtering for {R}\'{e}sum\'e Parsing \& Beyond with $\mathcal{O}(n)$ Cost"
    )
    assert gauss.fields["author"] == (
        r"Gau\ss, Carl Friedrich and M\"uller, J\"org and {The Toy Consortium}"
    )
    assert list(gauss.fields)[:3] == ["title", "author", "pages"]
    assert {name: gauss.fields[name] for name in ("booktitle", "volume", "year", "publisher")} == {
        "booktitle": "Proceedings of the First Toy Workshop on Parsing",
        "volume": "999",
        "year": "2024",
        "publisher": "PMLR",
    }
    assert gauss.fields["url"] == "https://proceedings.example.org/v999/gauss24a.html"
    assert noether.fields["url"] == "https://proceedings.mlr.press/v999/noether24rings.html"
    assert noether.fields["pdf"] == (
        "https://proceedings.mlr.press/v999/noether24rings/noether24rings.pdf"
    )
    assert "abstract" not in gauss.fields  # it is the record's abstract already
    assert gauss.to_json()["entry_type"] == "InProceedings"
    assert gauss.to_json()["fields"]["pages"] == "1-10"


def test_pmlr_links_only_for_pmlr_volumes_and_entries():
    plain = parse_text(
        "@Proceedings{v, booktitle = {Some Workshop}, volume = {3}, year = {2020}}\n"
        "@InProceedings{a, title = {A}, abstract = {Text.}, crossref = {v}}\n"
    )[0][0]
    assert plain.links == []  # a volume number alone is not PMLR
    published = parse_text(
        "@InProceedings{b24x, title = {B}, abstract = {Text.}, volume = {235},\n"
        "  series = {Proceedings of Machine Learning Research}, publisher = {PMLR}}\n"
    )[0][0]
    assert published.links == [
        "https://proceedings.mlr.press/v235/b24x.html",
        "https://proceedings.mlr.press/v235/b24x/b24x.pdf",
    ]


def test_url_fields_keep_latex_escapes_decoded():
    paper = parse_text(
        "@misc{u, title = {U}, abstract = {Text.},\n"
        "  url = {https://example.org/dr\\_3slice\\_ct/50\\%25/a\\&b}}\n"
    )[0][0]
    assert paper.links == ["https://example.org/dr_3slice_ct/50%25/a&b"]


def test_explicit_collection_overrides_the_volume():
    papers, _ = parse_fixture("My reading list")
    assert {p.collection for p in papers} == {"My reading list"}
    assert all(p.collections == ["My reading list"] for p in papers)


def test_collection_falls_back_to_booktitle_then_file_stem():
    text = (
        "@inproceedings{a1, title = {One}, abstract = {First.},\n"
        "  booktitle = {Proceedings of {ICML} 2024}, year = 2024}\n"
        "@article{a2, title = {Two}, abstract = {Second.}}\n"
    )
    papers, problems = parse_text(text, "/tmp/my-list.bib")
    assert problems == []
    assert [p.collection for p in papers] == ["Proceedings of ICML 2024", "my-list"]
    assert papers[0].year == 2024


def test_crossref_picks_its_volume_and_shortname_keeps_its_year():
    text = (
        "@Proceedings{v1, shortname = {AAA 2023}, year = {2023}}\n"
        "@Proceedings{v2, booktitle = {The Second Volume}, year = {2024}}\n"
        "@InProceedings{p1, title = {In one}, crossref = {v1}}\n"
        "@InProceedings{p2, title = {In two}, crossref = {V2}}\n"
        "@InProceedings{p3, title = {In neither}}\n"
    )
    papers, _ = parse_text(text)
    assert [(p.collection, p.year) for p in papers] == [
        ("AAA 2023", 2023),
        ("The Second Volume", 2024),
        ("AAA 2023", 2023),
    ]


def test_string_macros_concatenation_and_months():
    text = (
        '@string{conf = "Toy Conference"}\n'
        '@inproceedings{k, title = "Part one" # { and {P}art two}, booktitle = conf # " 2020",\n'
        "  month = jan, year = 2020, abstract = {A.}}\n"
    )
    papers, problems = parse_text(text)
    assert problems == []
    assert papers[0].title == "Part one and Part two"
    assert papers[0].collection == "Toy Conference 2020"


def test_key_with_colon_and_slash_is_the_id():
    papers, _ = parse_text("@misc{DBLP:conf/icml/X24, title = {T}, abstract = {A b c.}}\n")
    assert papers[0].id == "DBLP:conf/icml/X24"


def test_arxiv_eprint_and_author_forms():
    text = (
        "@misc{e1, title = {E}, abstract = {Text.}, eprint = {2401.01234v3},\n"
        "  archivePrefix = {arXiv},\n"
        "  author = {van Dijk, Jan and Ludwig van Beethoven and Smith, Jr., John}}\n"
    )
    paper = parse_text(text)[0][0]
    assert paper.arxiv_id == "2401.01234"
    assert "https://arxiv.org/abs/2401.01234" in paper.links
    assert paper.authors == ["Jan van Dijk", "Ludwig van Beethoven", "John Smith Jr."]


def test_repeated_field_warns_and_keeps_the_first():
    papers, problems = parse_text("@misc{r, title = {First}, title = {Second}, abstract = {A.}}\n")
    assert papers[0].title == "First"
    assert len(problems) == 1
    assert "repeats field(s) title" in problems[0].message


def test_file_without_entries_is_reported():
    for text in ("just some words, no entries\n", "@Proceedings{v, shortname = {V}}\n"):
        papers, problems = parse_text(text)
        assert papers == []
        assert [p.message for p in problems] == ["no paper entries found"]


def test_unclosed_last_entry_keeps_the_earlier_ones():
    papers, problems = parse_text("@misc{ok, title = {Fine}}\n\n@misc{bad, title = {Never closed\n")
    assert [p.id for p in papers] == ["ok"]
    assert len(problems) == 1
    assert problems[0].line == 3
    assert "'bad'" in problems[0].message


@pytest.mark.parametrize("name", ["MIDL2024.bib", "enlsp24.bib"])
def test_real_pmlr_corpus(name):
    path = CORPORA / name
    if not path.exists():
        pytest.skip(f"{path} is not available")
    text = path.read_text(encoding="utf-8")
    papers, problems = as_loaded(bibtex_source.parse(path, text, None))
    assert problems == []
    keys = re.findall(r"@InProceedings\{([^,\s]+),", text)
    assert len(papers) == len(keys)
    assert [p.id for p in papers] == keys
    volume = re.search(r"shortname\s*=\s*[{\"]([^}\"]+)[}\"]", text).group(1)
    for paper in papers:
        assert volume in paper.collection
        assert paper.year == 2024
        assert paper.authors and all(paper.authors)
        assert paper.title
        assert not re.search(r"[\\{}$]", paper.title), paper.title
        assert not re.search(r"[\\{}$]", paper.text), paper.id
        assert not any(re.search(r"[\\{}]", author) for author in paper.authors), paper.authors
        assert text.split("\n")[paper.line - 1].startswith(f"@InProceedings{{{paper.id},")


@pytest.mark.parametrize("name", ["MIDL2024.bib", "enlsp24.bib"])
def test_real_pmlr_titles_are_exact_and_links_are_pmlrs(name):
    """Issue 12: the list, `show` and exports give the title as published (LaTeX decoded),
    never with a derived name in front; every paper links to its PMLR page and PDF."""
    path = CORPORA / name
    if not path.exists():
        pytest.skip(f"{path} is not available")
    text = path.read_text(encoding="utf-8")
    papers, _ = as_loaded(bibtex_source.parse(path, text, None))
    volume = re.search(r"volume\s*=\s*[{\"](\d+)[}\"]", text).group(1)
    library = bibtexparser.parse_string(text)
    written = {
        entry.key: entry.fields_dict["title"].value
        for entry in library.entries
        if "title" in entry.fields_dict
    }
    for paper in papers:
        assert not paper.title_derived
        assert paper.title == one_line(display_text(clean(written[paper.id], paragraphs=False)))
        assert paper.links[:2] == [
            f"https://proceedings.mlr.press/v{volume}/{paper.id}.html",
            f"https://proceedings.mlr.press/v{volume}/{paper.id}/{paper.id}.pdf",
        ]
        assert paper.entry_type == "InProceedings"
        assert paper.fields["volume"] == volume and paper.fields["publisher"] == "PMLR"


#: LaTeX's line break `\\` and a backslash-newline at the end of lines: bibtexparser's
#: splitter counts no newline after a backslash, so its line numbers fell behind the file's.
BACKSLASHED = (
    "@misc{first, title = {One},\n"  # 1
    "  author = {A. Author \\\\\n"  # 2: a LaTeX line break ends the line
    "  University of Somewhere},\n"  # 3
    "  abstract = {Text \\\n"  # 4: a backslash-newline (a control space)
    "  more text.}}\n"  # 5
    "\n"  # 6
    "@misc{broken, title = {Never closed\n"  # 7
    "\n"  # 8
    "@misc{second, title = {Two}, abstract = {b \\\\\nc}}\n"  # 9, 10
    "@misc{first, title = {Again}}\n"  # 11
    "@misc{bare}\n"  # 12
)


def test_lines_count_the_newlines_after_a_backslash():
    path = Path("x.bib")
    papers, problems = bibtex_source.parse(path, BACKSLASHED, None)
    lines = BACKSLASHED.split("\n")
    assert [(p.id, p.line) for p in papers] == [("first", 1), ("second", 9)]
    for paper in papers:
        assert lines[paper.line - 1].startswith(f"@misc{{{paper.id},")
    assert [(problem.line, problem.message.split(":")[0]) for problem in problems] == [
        (7, "malformed entry 'broken' skipped"),
        (11, "duplicate key 'first' (first at line 1); entry skipped"),
        (12, "entry 'bare' has neither title nor abstract; skipped"),
    ]


def test_a_block_repeated_after_a_backslash_newline_is_on_its_own_line():
    """Both blocks are on the splitter's line 0: each is found after the one before."""
    text = "@misc{a, title = {T}} \\\n@misc{a, title = {T}}\n"
    papers, problems = bibtex_source.parse(Path("x.bib"), text, None)
    assert [(p.id, p.line) for p in papers] == [("a", 1)]
    assert [(p.line, p.message) for p in problems] == [
        (2, "duplicate key 'a' (first at line 1); entry skipped")
    ]
