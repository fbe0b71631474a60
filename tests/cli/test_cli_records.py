"""Issue 12 in the CLI: titles as published in `list`, `show` and `search`; exports that
keep the record (BibTeX entry types and fields, RIS, CSV) and parse back; `--tag`."""

from __future__ import annotations

import csv
import io
import json
import re

import bibtexparser
import pytest
from locations import CORPORA, FIXTURES

from paperterm.index.text.display import display_text, one_line
from paperterm.index.text.field_text import clean

SAMPLE = FIXTURES / "display_sample.bib"
NAMED = """@Proceedings{V-2024, shortname = {TOY}, volume = {7}, year = {2024}, published = {x}}

@InProceedings{mte24,
  title = {Limits of Approximating the Median Treatment Effect},
  author = {Median, Ann and Effect, Tom},
  abstract = {We propose MTE, a novel estimator of the median treatment effect under
              interference. MTE is consistent.}
}

@InProceedings{rediff24,
  title = {Re-Diffinet: Modeling Discrepancy in Tumor Segmentation},
  author = {Net, Diff},
  abstract = {We propose Re-DiffiNet, a framework for modeling the discrepancy between
              masks. Re-DiffiNet improves Dice.}
}
"""


@pytest.fixture
def named(tmp_path) -> str:
    path = tmp_path / "named.bib"
    path.write_text(NAMED, encoding="utf-8")
    return str(path)


def listed_titles(out: str) -> dict[str, str]:
    return {
        line.split("  ", 1)[0]: line.split("  ", 1)[1].rsplit("  [", 1)[0]
        for line in out.splitlines()
    }


def test_list_and_show_give_the_title_as_published(run, named):
    code, out, err = run("list", "--source", named)
    assert code == 0, err
    assert listed_titles(out) == {
        "mte24": "Limits of Approximating the Median Treatment Effect",  # not "MTE: Limits..."
        "rediff24": "Re-Diffinet: Modeling Discrepancy in Tumor Segmentation",
    }
    _, shown, _ = run("show", "mte24", "--source", named)
    lines = shown.splitlines()
    assert lines[0] == "Limits of Approximating the Median Treatment Effect"
    assert "Name: MTE" in lines  # its own label: the title does not say it
    _, shown, _ = run("show", "rediff24", "--source", named)
    assert not any(line.startswith("Name:") for line in shown.splitlines())  # "Re-Diffinet"
    _, found, _ = run("search", "median treatment", "--source", named)
    assert found.splitlines()[0].startswith(
        " 1. Limits of Approximating the Median Treatment Effect  [TOY 2024]"
    )
    code, out, _ = run("list", "--json", "--source", named)
    record = json.loads(out)[0]
    assert record["title"] == "Limits of Approximating the Median Treatment Effect"
    assert record["name"] == "MTE" and "title_derived" not in record
    assert record["links"][:2] == [
        "https://proceedings.mlr.press/v7/mte24.html",
        "https://proceedings.mlr.press/v7/mte24/mte24.pdf",
    ]
    assert record["entry_type"] == "InProceedings"
    assert record["fields"]["volume"] == "7"


def test_untitled_papers_say_their_title_is_derived(run):
    code, out, _ = run("list", "--json")
    assert code == 0
    assert all(record["title_derived"] is True for record in json.loads(out))


@pytest.mark.skipif(not CORPORA.is_dir(), reason="needs ../shared/corpora")
def test_real_pmlr_titles_are_listed_exactly(run):
    """Before issue 12, 22 of these 164 lines had a derived name glued to the title."""
    paths = sorted(CORPORA.glob("*.bib"))
    written = {}
    for path in paths:
        for entry in bibtexparser.parse_string(path.read_text(encoding="utf-8")).entries:
            if "title" in entry.fields_dict:
                title = clean(entry.fields_dict["title"].value, paragraphs=False)
                written[entry.key] = one_line(display_text(title))
    code, out, _ = run("list", *[arg for path in paths for arg in ("--source", str(path))])
    assert code == 0
    assert listed_titles(out) == written


# --- exports --------------------------------------------------------------------------------


def export(run, source: str, fmt: str, *extra: str) -> str:
    code, out, err = run("bookmarks", "export", "--format", fmt, "--source", source, *extra)
    assert code == 0, err
    return out


def bookmark_all(run, source: str, ids: list[str], tag: str = "") -> None:
    assert run("bookmarks", "add", *ids, "--source", source)[0] == 0
    if tag:
        for paper_id in ids[:1]:
            assert run("bookmarks", "tag", paper_id, tag, "--source", source)[0] == 0


def test_bibtex_export_keeps_entry_types_and_fields(run):
    ids = ["quill24", "kanji24", "short23", "combining23"]
    bookmark_all(run, str(SAMPLE), ids)
    library = bibtexparser.parse_string(export(run, str(SAMPLE), "bibtex"))
    assert library.failed_blocks == []
    entries = {entry.key: entry for entry in library.entries}
    assert list(entries) == ids
    source = {e.key: e for e in bibtexparser.parse_string(SAMPLE.read_text("utf-8")).entries}
    for key, entry in entries.items():
        assert entry.entry_type == "inproceedings"
        fields = entry.fields_dict
        for name in ("title", "author", "pages"):
            assert fields[name].value == " ".join(source[key].fields_dict[name].value.split())
        assert fields["volume"].value in ("901", "877") and fields["publisher"].value == "PMLR"
        assert fields["booktitle"].value.startswith("Proceedings of the")
        assert fields["url"].value.startswith("https://proceedings.mlr.press/v")
        assert fields["pdf"].value.endswith(f"/{key}/{key}.pdf")
    assert entries["short23"].fields_dict["eprint"].value == "2305.01234v2"  # as written
    assert entries["combining23"].fields_dict["doi"].value == "10.5555/beta.2023.10"


def test_bibtex_export_of_a_json_source_generates_typed_entries(run):
    source = str(FIXTURES / "papers.json")
    code, out, _ = run("list", "--json", "--source", source)
    assert code == 0
    ids = [record["id"] for record in json.loads(out)]
    bookmark_all(run, source, ids)
    library = bibtexparser.parse_string(export(run, source, "bibtex"))
    assert library.failed_blocks == []
    assert len(library.entries) == len(ids)
    assert {entry.entry_type for entry in library.entries} <= {"misc", "article", "inproceedings"}


def read_ris(text: str) -> list[dict[str, list[str]]]:
    """A strict RIS reader: every line `XX  - value`, each record from TY to ER."""
    records: list[dict[str, list[str]]] = []
    current: dict[str, list[str]] | None = None
    for line in text.split("\n"):
        if not line:
            continue
        match = re.fullmatch(r"([A-Z][A-Z0-9])  - (.*)", line)
        assert match, f"not a RIS line: {line!r}"
        tag, value = match.groups()
        if tag == "TY":
            assert current is None, "TY inside a record"
            current = {"TY": [value]}
        elif tag == "ER":
            assert current is not None and value == ""
            records.append(current)
            current = None
        else:
            assert current is not None, f"{tag} outside a record"
            current.setdefault(tag, []).append(value)
    assert current is None, "a record without ER"
    return records


def test_ris_export_reads_back(run):
    ids = ["quill24", "short23", "kanji24"]
    bookmark_all(run, str(SAMPLE), ids, tag="to-read")
    records = read_ris(export(run, str(SAMPLE), "ris"))
    assert [record["ID"] for record in records] == [[paper_id] for paper_id in ids]
    quill = records[0]
    assert quill["TY"] == ["CPAPER"]
    assert quill["TI"] == [
        "QuillNet: Reading Long Proceedings Quickly with Hierarchical Summaries and Very Long "
        "Titles"
    ]
    assert quill["AU"] == ["Quill, Ada", "Page, Bertram", "Index, Clara", "Folio, Dmitri"]
    assert (quill["PY"], quill["SP"], quill["EP"], quill["VL"]) == (
        ["2024"],
        ["1"],
        ["12"],
        ["901"],
    )
    assert quill["T2"] == ["Proceedings of the Alpha Workshop on Reading Machines"]
    assert quill["UR"][0] == "https://proceedings.mlr.press/v901/quill24.html"
    assert "https://github.com/example/quill_net" in quill["UR"]
    assert quill["L1"] == ["https://proceedings.mlr.press/v901/quill24/quill24.pdf"]
    assert quill["KW"] == ["to-read"]
    assert records[1]["AU"] == ["van der Berg, Jan", "Lopez, Maria"]
    assert records[2]["TI"] == ["大規模言語モデルによる論文要約 🚀 and Café Naïve Résumé"]


def test_csv_export_reads_back_one_row_per_paper(run):
    ids = ["quill24", "kanji24"]
    bookmark_all(run, str(SAMPLE), ids)
    out = export(run, str(SAMPLE), "csv")
    rows = list(csv.DictReader(io.StringIO(out, newline="")))
    assert [row["id"] for row in rows] == ids
    quill = rows[0]
    assert quill["title"].startswith("QuillNet: Reading Long Proceedings")
    assert quill["authors"] == "Ada Quill; Bertram Page; Clara Index; Dmitri Folio"
    assert (quill["year"], quill["volume"], quill["pages"]) == ("2024", "901", "1-12")
    assert quill["url"] == "https://proceedings.mlr.press/v901/quill24.html"
    assert (
        quill["code_links"]
        == "https://github.com/example/quill_net https://zenodo.org/records/1234567"
    )
    assert quill["entry_type"] == "InProceedings" and quill["bookmarked"]


def test_tag_exports_one_tag(run, tmp_path):
    bookmark_all(run, str(SAMPLE), ["quill24", "short23"], tag="Survey")
    ids = [row["id"] for row in json.loads(export(run, str(SAMPLE), "json", "--tag", "survey"))]
    assert ids == ["quill24"]
    code, _, err = run(
        "bookmarks", "export", "--format", "csv", "--tag", "none", "--source", str(SAMPLE)
    )
    assert code == 2 and err == "paperterm: no bookmark has the tag 'none'\n"
    target = tmp_path / "survey.ris"
    code, out, _ = run(
        "bookmarks", "export", "--format", "ris", "--tag", "Survey", "-o", str(target),
        "--source", str(SAMPLE),
    )  # fmt: skip
    assert code == 0 and out == f"1 bookmarks written to {target}\n"
    assert [record["ID"] for record in read_ris(target.read_text("utf-8"))] == [["quill24"]]


@pytest.mark.skipif(not CORPORA.is_dir(), reason="needs ../shared/corpora")
def test_real_corpora_export_and_parse_back(run, tmp_path):
    paths = sorted(CORPORA.glob("*.bib"))
    sources = [arg for path in paths for arg in ("--source", str(path))]
    code, out, _ = run("list", "--json", *sources)
    ids = [record["id"] for record in json.loads(out)]
    assert run("bookmarks", "add", *ids, *sources)[0] == 0
    code, out, _ = run("bookmarks", "export", "--format", "bibtex", *sources)
    library = bibtexparser.parse_string(out)
    assert library.failed_blocks == [] and len(library.entries) == len(ids)
    assert all(entry.entry_type == "inproceedings" for entry in library.entries)
    assert all("booktitle" in e.fields_dict and "pdf" in e.fields_dict for e in library.entries)
    code, out, _ = run("bookmarks", "export", "--format", "ris", *sources)
    assert len(read_ris(out)) == len(ids)
    code, out, _ = run("bookmarks", "export", "--format", "csv", *sources)
    assert code == 0
    assert [row["id"] for row in csv.DictReader(io.StringIO(out, newline=""))] == ids
