"""One large file of any format a build cuts (a text list, BibTeX, a JSON array, a CSV or
TSV table, ACL Anthology XML) is read in stretches by the build's workers, and gives what
reading it whole gives: the same papers file, ids, order, lines and problems, and the same
`paperterm list --json`."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from engine_choice import engine_config

from paperterm.index.papers import paper_tuple
from paperterm.index.search.generation_meta import file_digest
from paperterm.index.session import Session
from paperterm.index.sources import loader
from paperterm.index.sources.files import DEFAULT_READ, ReadAs, SourceSpec
from paperterm.tui.cli.main import main as cli_main

WORDS = ["graph", "kernel", "sparse", "attention", "diffusion", "prior", "bound", "robust"]
COUNT = 600


def _abstracts(seed: int = 4) -> list[str]:
    rng = random.Random(seed)
    found = [f"We propose Velo{n}. " + " ".join(rng.choices(WORDS, k=40)) for n in range(COUNT)]
    found[500] = found[20]  # the same paper again, in a later stretch
    return found


def write_text(path: Path) -> None:
    body = "\n\n".join(text.replace(". ", ".\n", 1) for text in _abstracts())
    path.write_text("Big List\n\n" + body + "\n", encoding="utf-8")


def write_bibtex(path: Path) -> None:
    lines = ["@string{conf = {Big Conference}}", "@Proceedings{big24, booktitle = conf,"]
    lines += [" year = {2024}}", ""]
    for number, text in enumerate(_abstracts()):
        key = "k7" if number == 450 else f"k{number}"  # a key repeated in a later stretch
        lines += [f"@InProceedings{{{key},", f"  title = {{Paper {number}}},"]
        lines += ["  author = {Ada Lovelace and Alan Turing},", f"  abstract = {{{text}}},", "}"]
    lines[-30] = "@InProceedings{broken, title = {never closed"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_json(path: Path) -> None:
    records: list[object] = [
        {"id": f"p{number}", "title": f"Paper [{number}] {{x}}", "abstract": text}
        for number, text in enumerate(_abstracts())
    ]
    records[300] = [1, 2]  # not a record
    records[310] = {"title": "", "abstract": ""}
    path.write_text(json.dumps({"papers": records}, indent=2), encoding="utf-8")


def write_csv(path: Path) -> None:
    rows = ["Title,Author,Abstract Note,Url"]
    for number, text in enumerate(_abstracts()):
        text = text.replace("Velo", 'a "quoted", \nnew line in Velo', 1) if number % 7 else text
        rows.append(
            f'Paper {number},"Lovelace, Ada; Turing, Alan","{text.replace(chr(34), 2 * chr(34))}",'
        )
    rows[200] = ",,,"  # no paper
    rows[301] = "Paper 300,,,https://example.org/300"  # no abstract: a paper all the same
    path.write_text("\r\n".join(rows) + "\r\n", encoding="utf-8")


#: A headerless OpenReview-style table, read with `columns`.
TSV_READ = ReadAs("tsv", columns=("openreview", "title", "authors", "", "abstract"), separator=";")


def write_tsv(path: Path) -> None:
    rows = []
    for number, text in enumerate(_abstracts()):
        text = f'"{text}\n(second line)"' if number % 5 == 0 else text
        rows.append(f"or{number}\tPaper {number}\tAda Lovelace;Alan Turing\tposter\t{text}")
    rows[400] = "or400\t\t\t\t"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


def write_acl(path: Path) -> None:
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<collection id="2024.big">']
    for number, text in enumerate(_abstracts()):
        if number % 200 == 0:
            if number:
                lines.append("</volume>")
            lines += [f'<volume id="v{number // 200}" ingest-date="2024-08-01">', "<meta>"]
            lines += [f"<booktitle>Proceedings of Volume {number // 200}</booktitle>"]
            lines += ["<year>2024</year>", "</meta>", "<!-- papers follow -->"]
        lines += [
            f'<paper id="{number % 200 + 1}">',
            f"<title>Paper <fixed-case>{number}</fixed-case></title>",
        ]
        lines += ["<author><first>Ada</first><last>Lovelace</last></author>"]
        lines += [f"<abstract>{text} <tex-math>x^{number}</tex-math></abstract>", "</paper>"]
    lines += ["</volume>", '<event id="big-2024"><colocated><volume-id>2024.big-v0</volume-id>']
    lines += ["</colocated></event>", "</collection>"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


WRITERS = {
    "list.txt": write_text,
    "big.bib": write_bibtex,
    "big.json": write_json,
    "zotero.csv": write_csv,
    "openreview.tsv": write_tsv,
    "anthology.xml": write_acl,
}
READ_AS = {"openreview.tsv": TSV_READ}
#: The papers of each: the text list's repeated abstract is one paper; BibTeX skips the
#: repeated key and the broken entry; two JSON elements are no papers; a table's empty row
#: is none (an empty TSV row with an id is a problem), its repeated abstract one paper.
PAPERS = {
    "list.txt": COUNT - 1,
    "big.bib": COUNT - 2,
    "big.json": COUNT - 2,
    "zotero.csv": COUNT - 2,
    "openreview.tsv": COUNT - 2,
    "anthology.xml": COUNT,
}
PROBLEMS = {
    "list.txt": 0,
    "big.bib": 2,
    "big.json": 2,
    "zotero.csv": 0,
    "openreview.tsv": 1,
    "anthology.xml": 0,
}


def _stretched(monkeypatch: pytest.MonkeyPatch, path: Path, count: int) -> None:
    """Builds read `path` in about `count` stretches, in worker processes."""
    from paperterm.index.search import segments

    monkeypatch.setattr(segments, "FORMAT_STRETCH_BYTES", path.stat().st_size // count + 1)
    monkeypatch.setattr(segments, "FORMAT_STRETCH_BYTES_OF", {})
    monkeypatch.setattr("paperterm.index.search.build_prepare.PARALLEL_BYTES", 0)


def _spec(path: Path) -> SourceSpec:
    read_as = READ_AS.get(path.name, DEFAULT_READ)
    return SourceSpec(path, None, read_as.format, read_as.columns, read_as.separator)


def build(data: Path, path: Path, engine: str):
    config = engine_config(engine)
    config.include_seeds = False
    config.sources = [_spec(path)]
    return Session.create(data, [], config).build()


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_a_large_file_is_read_in_stretches_as_it_is_whole(tmp_path, monkeypatch, engine, name):
    path = tmp_path / name
    WRITERS[name](path)
    whole = loader.load_sources([_spec(path)])
    one = build(tmp_path / "one", path, engine)
    assert [entry.span for entry in one.meta.sources] == [None]
    _stretched(monkeypatch, path, 4)
    opened = build(tmp_path / "data", path, engine)
    spans = [entry.span for entry in opened.meta.sources]
    assert len(spans) == 4 and all(spans)
    assert spans[0][0] == 0 and spans[-1][1] == path.stat().st_size
    assert all(a[1] == b[0] for a, b in itertools.pairwise(spans))
    lines = path.read_bytes()
    assert all(span[2] == lines.count(b"\n", 0, span[0]) + 1 for span in spans)
    assert {entry.fingerprint.digest for entry in opened.meta.sources} == {file_digest(path)}
    assert {entry.format for entry in opened.meta.sources} == {one.meta.sources[0].format}
    assert one.meta.sources[0].format  # (each stretch says the format its file is read as)
    expected = [paper_tuple(paper) for paper in whole.papers]
    assert [paper_tuple(paper) for paper in opened.papers] == expected
    assert [paper_tuple(paper) for paper in one.papers] == expected
    assert opened.meta.problems == one.meta.problems == [str(p) for p in whole.problems]
    assert len(opened.papers) == PAPERS[name]
    assert len(opened.meta.problems) == PROBLEMS[name]


def test_list_json_is_the_same_read_whole_or_in_stretches(tmp_path, monkeypatch, capsys):
    path = tmp_path / "list.txt"
    write_text(path)
    (tmp_path / "config.toml").write_text("", encoding="utf-8")
    monkeypatch.setenv("PAPERTERM_CONFIG", str(tmp_path / "config.toml"))

    def listed(data: str) -> str:
        monkeypatch.setenv("PAPERTERM_DATA_DIR", str(tmp_path / data))
        assert cli_main(["--source", str(path), "list", "--json"]) == 0
        return capsys.readouterr().out

    whole = listed("whole")
    _stretched(monkeypatch, path, 3)
    stretched = listed("stretched")
    metas = [json.loads(meta.read_text()) for meta in (tmp_path / "stretched").rglob("meta.json")]
    assert [len(meta["sources"]) for meta in metas if "sources" in meta] == [3]
    assert stretched == whole
    assert len(json.loads(stretched)) == COUNT - 1


@pytest.mark.parametrize("name", ["openreview.tsv", "anthology.xml"])
def test_list_json_of_a_configured_source_is_the_same_whole_or_in_stretches(
    tmp_path, monkeypatch, capsys, name
):
    path = tmp_path / name
    WRITERS[name](path)
    read_as = READ_AS.get(name, DEFAULT_READ)
    config = f'include_seeds = false\n\n[[sources]]\npath = "{path}"\nformat = "{read_as.format}"\n'
    if read_as.columns:
        config += f"columns = {json.dumps(list(read_as.columns))}\nseparator = ';'\n"
    (tmp_path / "config.toml").write_text(config, encoding="utf-8")
    monkeypatch.setenv("PAPERTERM_CONFIG", str(tmp_path / "config.toml"))

    def listed(data: str) -> str:
        monkeypatch.setenv("PAPERTERM_DATA_DIR", str(tmp_path / data))
        assert cli_main(["list", "--json"]) == 0
        return capsys.readouterr().out

    whole = listed("whole")
    _stretched(monkeypatch, path, 3)
    stretched = listed("stretched")
    metas = [json.loads(meta.read_text()) for meta in (tmp_path / "stretched").rglob("meta.json")]
    assert [len(meta["sources"]) for meta in metas if "sources" in meta] == [3]
    assert stretched == whole
    assert len(json.loads(stretched)) == PAPERS[name]
