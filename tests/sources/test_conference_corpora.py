"""The real conference exports in ../shared/corpora/conferences/ (skipped without them):
every record read, titles exactly as published, the fields each export gives kept."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest
from locations import CORPORA

from paperterm.index.sources.detect import REFUSED
from paperterm.index.sources.files import ReadAs, SourceSpec
from paperterm.index.sources.loader import load_file, load_sources
from paperterm.index.text.display import display_text, one_line

CONFERENCES = CORPORA / "conferences"
CORL_COLUMNS = (
    "openreview", "title", "authors", "keywords", "topic", "status", "pdf", "", "tldr", "",
    "abstract",
)  # fmt: skip


def corpus_file(name: str) -> Path:
    path = CONFERENCES / name
    if not path.exists():
        pytest.skip(f"{path} is not available")
    return path


def shown(title: str) -> str:
    """A title as published, as the reader shows it (LaTeX and markup decoded)."""
    return one_line(display_text(title))


def test_icml_downloads_every_event_with_its_exact_title_and_type() -> None:
    path = corpus_file("icml2024-downloads-sample.json")
    raw = json.loads(path.read_text(encoding="utf-8"))
    papers, problems = load_file(path)
    assert problems == []
    assert len(papers) == len(raw) == 40
    for record, paper in zip(raw, papers, strict=True):
        assert paper.title == shown(record["name"])
        assert paper.type == record["type"]
        assert paper.authors == [a.strip() for a in record["speakers/authors"].split(",")]
        assert paper.links and paper.links[0].startswith("https://icml.cc/virtual/2024/")
    assert sorted({paper.type for paper in papers}) == [
        "Invited Talk", "Poster", "Tutorial", "Workshop"
    ]  # fmt: skip


def test_icml_downloads_as_a_source_derives_no_title() -> None:
    path = corpus_file("icml2024-downloads-sample.json")
    corpus = load_sources([SourceSpec(path)])
    assert len(corpus.papers) == 40
    assert not [paper for paper in corpus.papers if paper.title_derived]


def test_neurips_orals_posters_sessions_rooms_times_and_people() -> None:
    path = corpus_file("neurips2025-orals-posters-sample.json")
    raw = json.loads(path.read_text(encoding="utf-8"))["results"]
    papers, problems = load_file(path)
    assert problems == []
    assert len(papers) == len(raw) == 3
    for record, paper in zip(raw, papers, strict=True):
        assert paper.title == shown(record["name"])
        assert paper.authors == [a["fullname"] for a in record["authors"]]
        # (the site escapes HTML in them: "Texas A&amp;M University")
        assert paper.affiliations == [html.unescape(a["institution"]) for a in record["authors"]]
        assert (paper.session, paper.room) == (record["session"], record["room_name"])
        assert (paper.start, paper.end) == (record["starttime"], record["endtime"])
        assert paper.poster == (record.get("poster_position") or "")
        assert (
            paper.status
            == {"Accept (poster)": "Poster", "Accept (oral)": "Oral"}[record["decision"]]
        )
        assert paper.type == record["eventtype"]
        assert paper.links[0] == "https://neurips.cc" + record["virtualsite_url"]
        assert record["paper_url"] in paper.links


def test_ml4ps_workshop_list() -> None:
    path = corpus_file("ml4ps2025-workshop.json")
    raw = json.loads(path.read_text(encoding="utf-8"))
    papers, problems = load_file(path)
    assert problems == []
    assert len(papers) == len(raw) == 265
    for record, paper in zip(raw, papers, strict=True):
        assert paper.title == shown(record["title"])
        assert paper.session == record["session"]
        assert paper.poster == record["poster_position"]
        assert not paper.abstract.endswith("Show more")


def test_openreview_v2_note() -> None:
    path = corpus_file("openreview-v2-note-colm2024.json")
    (paper,), problems = load_file(path)
    assert problems == []
    assert paper.id == "yIEyHP7AvH"
    assert paper.title.startswith("Khayyam Challenge (PersianMMLU)")
    assert len(paper.authors) == len(paper.author_ids) == 8
    assert paper.tldr.startswith("The Khayyam Challenge offers")
    assert paper.links[0] == "https://openreview.net/forum?id=yIEyHP7AvH"
    assert (paper.venue, paper.year) == ("COLM", 2024)


def test_corl_tsv_is_refused_bare_and_read_with_its_columns() -> None:
    path = corpus_file("corl2024-openreview-scrape.tsv")
    papers, problems = load_file(path)
    assert papers == [] and len(problems) == 1 and REFUSED in problems[0].message
    papers, problems = load_file(path, None, ReadAs("tsv", CORL_COLUMNS))
    assert problems == []
    assert len(papers) == 265
    assert len({paper.id for paper in papers}) == 265
    first = papers[0]
    assert first.title == "Body Transformer: Leveraging Robot Embodiment for Policy Learning"
    assert first.authors[0] == "Carmelo Sferrazza" and len(first.authors) == 5
    assert first.links[0] == "https://openreview.net/forum?id=Oce2215aJE"


def test_papercopilot_list_without_abstracts() -> None:
    path = corpus_file("neurips2024-papercopilot.json")
    raw = json.loads(path.read_text(encoding="utf-8"))
    papers, problems = load_file(path)
    assert problems == []
    assert len(papers) == len(raw) == 4553
    assert {paper.status for paper in papers} == {"Poster", "Oral"}
    assert all(len(paper.authors) > 1 or "," not in record["author"]
               for record, paper in zip(raw, papers, strict=True))  # fmt: skip
    assert all(not paper.abstract for paper in papers)


def test_acl_anthology_volumes() -> None:
    path = corpus_file("acl2024-short-demos-srw-tutorials.xml")
    papers, problems = load_file(path)
    assert problems == []
    assert len(papers) == 162
    ids = [paper.id for paper in papers]
    assert ids[0] == "2024.acl-short.1" and len(set(ids)) == 162
    assert {paper.links[0].rsplit("/", 1)[1].rsplit(".", 1)[0] for paper in papers} == {
        "2024.acl-short", "2024.acl-demos", "2024.acl-srw", "2024.acl-tutorials"
    }  # fmt: skip
    fanout = next(paper for paper in papers if paper.title.startswith("FanOutQA"))
    assert fanout.title == (
        "FanOutQA: A Multi-Hop, Multi-Document Question Answering Benchmark for Large "
        "Language Models"
    )
    assert not [paper for paper in papers if "<" in paper.title or "fixed-case" in paper.text]
    with_math = [paper for paper in papers if "$" in paper.abstract]
    assert with_math  # tex-math became $...$
    assert all(paper.venue.startswith("Proceedings of the 62nd Annual Meeting") for paper in papers)
