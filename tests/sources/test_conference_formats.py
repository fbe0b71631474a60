"""Conference exports read by their content (small hand-made fixtures): each format's names
land on our fields, titles are kept as given, and shapes no parser reads are refused."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from locations import FIXTURES

from paperterm.index.sources.detect import REFUSED, choose
from paperterm.index.sources.files import ReadAs, SourceSpec
from paperterm.index.sources.loader import load_file, load_sources
from paperterm.index.sources.record_fields import absolute, status_word

CONF = FIXTURES / "conferences"
CORL_COLUMNS = (
    "openreview", "title", "authors", "keywords", "topic", "status", "pdf", "", "tldr", "",
    "abstract",
)  # fmt: skip


def papers_of(name: str, read_as: ReadAs | None = None):
    papers, problems = load_file(CONF / name, None, read_as or ReadAs())
    return papers, [str(problem) for problem in problems]


@pytest.mark.parametrize(
    ("name", "module"),
    [
        ("icml-downloads.json", "site_json"),
        ("site-orals-posters.json", "site_json"),
        ("explorer-list.json", "site_json"),
        ("openreview-v2.json", "openreview"),
        ("openreview-v1.json", "openreview"),
        ("papercopilot.json", "papercopilot"),
        ("acl-volume.xml", "acl_xml"),
        ("zotero.csv", "table"),
        ("header.tsv", "table"),
    ],
)
def test_each_format_is_known_by_its_content(name: str, module: str, tmp_path: Path) -> None:
    assert choose(CONF / name, (CONF / name).read_text(encoding="utf-8")) == module
    renamed = tmp_path / "export.data"  # an extension that says nothing
    shutil.copy(CONF / name, renamed)
    assert choose(renamed, renamed.read_text(encoding="utf-8")) == module


def test_the_icml_downloads_titles_are_kept_exactly_talks_listed_with_their_type() -> None:
    papers, problems = papers_of("icml-downloads.json")
    assert problems == []
    flow, tutorial, talk = papers
    assert flow.title == "ΦFlow: Differentiable Simulations for PyTorch, TensorFlow and Jax"
    assert not flow.title_derived
    assert flow.authors == ["Ada Example", "Bo Sample"]
    assert flow.links == ["https://icml.cc/virtual/2024/poster/90001"]
    assert flow.type == "Poster"
    assert (tutorial.title, tutorial.type, tutorial.abstract) == (
        "Data Attribution at Scale", "Tutorial", ""
    )  # fmt: skip
    # A relative URL made absolute on the site the file's absolute URLs name.
    assert tutorial.links == ["https://icml.cc/virtual/2024/tutorial/90002"]
    assert (talk.title, talk.type) == ("Chelsea Example", "Invited Talk")


def test_a_talk_without_abstract_is_a_paper_after_loading() -> None:
    corpus = load_sources([SourceSpec(CONF / "icml-downloads.json")])
    titles = {paper.title: paper for paper in corpus.papers}
    assert "Data Attribution at Scale" in titles
    assert not titles["Data Attribution at Scale"].title_derived
    assert titles["ΦFlow: Differentiable Simulations for PyTorch, TensorFlow and Jax"]
    assert not [p for p in corpus.problems if "neither title nor abstract" in str(p)]


def test_the_orals_posters_export_keeps_schedule_people_and_links() -> None:
    papers, problems = papers_of("site-orals-posters.json")
    assert problems == []
    oral, poster = papers
    assert oral.id == "AbCdEf1234"
    assert oral.authors == ["Ana Uno", "Ben Dos"]
    assert oral.affiliations == ["University of Somewhere", ""]
    assert (oral.status, oral.type, oral.session, oral.room) == (
        "Oral", "Oral", "Oral Session 2A", "Hall A"
    )  # fmt: skip
    assert (oral.start, oral.end) == ("2025-12-03T10:00:00-08:00", "2025-12-03T10:15:00-08:00")
    assert oral.links[:2] == [
        "https://neurips.cc/virtual/2025/oral/9101",
        "https://openreview.net/forum?id=AbCdEf1234",
    ]
    assert oral.keywords == ["routing", "sparsity"]
    assert oral.topic == "Deep Learning->Mixture of Experts"
    assert (poster.status, poster.poster) == ("Spotlight", "#2504")


def test_an_abstracts_explorer_list_keeps_session_poster_and_award() -> None:
    (paper,), problems = papers_of("explorer-list.json")
    assert problems == []
    assert paper.abstract == "We learn tides with a physics prior."  # the page's button gone
    assert (paper.session, paper.poster, paper.room) == ("ML4PS Workshop", "7", "Room 5")
    assert paper.fields["award"] == "Best Poster"
    assert "https://example.org/ml4ps/7.pdf" in paper.links


def test_openreview_v2_and_v1_notes() -> None:
    (v2,), problems = papers_of("openreview-v2.json")
    assert problems == []
    assert (v2.id, v2.title, v2.status, v2.year) == (
        "OrV2note01", "Wise Models Know Persian", "Oral", 2024
    )  # fmt: skip
    assert v2.author_ids == ["~Omid_Example1", "~Marzia_Sample1"]
    assert v2.keywords == ["LLM", "Evaluation"]
    assert v2.tldr == "A Persian benchmark."
    assert v2.links == [
        "https://openreview.net/forum?id=OrV2note01",
        "https://openreview.net/pdf/0123456789abcdef.pdf",
    ]
    (v1,), problems = papers_of("openreview-v1.json")
    assert problems == []
    assert (v1.title, v1.authors, v1.status, v1.keywords) == (
        "Plain Values Still Count", ["Pat Plain"], "Poster", ["v1", "notes"]
    )  # fmt: skip


def test_papercopilot_splits_people_and_keeps_status_without_abstracts() -> None:
    (first, second), problems = papers_of("papercopilot.json")
    assert problems == []
    assert first.authors == ["Ana Uno", "Ben Dos"]
    assert first.affiliations == ["University of Somewhere", "Lab, Inc."]
    assert first.author_ids == ["~Ana_Uno1", "~Ben_Dos1"]
    assert (first.status, first.track, first.abstract) == ("Oral", "main", "")
    assert "https://openreview.net/forum?id=AbCdEf1234" in first.links
    assert second.authors == ["Cy Tres", "Dee Quatro"]
    assert second.status == "Spotlight"


def test_acl_anthology_xml_decodes_markup_and_links_the_anthology() -> None:
    (first, second), problems = papers_of("acl-volume.xml")
    assert problems == []
    assert first.title == "FanOutQA: Multi-Hop Questions"
    assert first.abstract == "We predict the first digit of $n$-digit products with **ELLA**."
    assert first.authors == ["Ruoyao Wang", "Graham Todd"]
    assert first.affiliations == ["University of Arizona", ""]
    assert first.doi == "10.18653/v1/2024.acl-short.1"
    assert first.links[:2] == [
        "https://aclanthology.org/2024.acl-short.1",
        "https://aclanthology.org/2024.acl-short.1.pdf",
    ]
    assert first.venue == "Proceedings of the Example Meeting (Volume 2: Short Papers)"
    assert (first.year, first.fields["award"]) == (2024, "Outstanding Paper")
    assert (second.id, second.title) == ("2024.acl-short.2", "A Tutorial Without Abstract")


def test_zotero_csv_turns_names_around() -> None:
    (paper,), problems = papers_of("zotero.csv")
    assert problems == []
    assert paper.authors == ["Ada Lovelace", "Charles Babbage"]
    assert (paper.title, paper.abstract) == ("Engines That Think", "An abstract, with a comma.")
    assert (paper.year, paper.doi, paper.venue) == (
        2024,
        "10.1000/xyz123",
        "Proceedings of Examples",
    )


def test_a_headerless_tsv_is_refused_until_its_columns_are_named() -> None:
    papers, problems = papers_of("headerless.tsv")
    assert papers == []
    (problem,) = problems
    assert f"headerless.tsv: {REFUSED}a tab-separated table of 11 columns" in problem
    assert 'format = "tsv", columns = ' in problem
    papers, problems = papers_of("headerless.tsv", ReadAs("tsv", CORL_COLUMNS))
    assert problems == []
    assert [paper.title for paper in papers] == [
        "No Header Here", "Second Row Title", "Third Row Title"
    ]  # fmt: skip
    first = papers[0]
    assert (first.id, first.authors, first.tldr) == (
        "Hdr0000001", ["Ana Uno", "Ben Dos"], "Short summary."
    )  # fmt: skip
    assert first.links == [
        "https://openreview.net/forum?id=Hdr0000001",
        "https://openreview.net/pdf/aaa.pdf",
    ]


def test_fields_map_their_keys_onto_ours() -> None:
    read_as = ReadAs("json", fields=(("title", "headline"), ("abstract", "body")))
    (paper,), problems = papers_of("unknown.json", read_as)
    assert problems == []
    assert (paper.title, paper.abstract, paper.year) == ("Not our keys", "Some text", None)


def test_dotted_fields_reach_into_objects(tmp_path: Path) -> None:
    source = tmp_path / "nested.json"
    source.write_text('[{"meta": {"name": "Deep Title"}, "text": "Body."}]', encoding="utf-8")
    read_as = ReadAs(fields=(("title", "meta.name"), ("abstract", "text")))
    (paper,), problems = load_file(source, None, read_as)
    assert (paper.title, paper.abstract, problems) == ("Deep Title", "Body.", [])


@pytest.mark.parametrize(
    ("name", "looks_like"),
    [
        ("feed.rss", "an RSS feed"),
        ("unknown.xml", "XML whose root is <library>"),
        ("unknown.json", "JSON whose records have none of title, abstract"),
        ("headerless.tsv", "a tab-separated table"),
    ],
)
def test_unknown_shapes_are_refused_in_one_line(name: str, looks_like: str) -> None:
    papers, problems = papers_of(name)
    assert papers == []
    (problem,) = problems
    assert problem.startswith(f"{CONF / name}: {REFUSED}{looks_like}")
    assert "\n" not in problem


def test_a_folder_keeps_the_files_it_reads_and_reports_the_refused(tmp_path: Path) -> None:
    for name in ("icml-downloads.json", "headerless.tsv", "unknown.xml", "zotero.csv"):
        shutil.copy(CONF / name, tmp_path / name)
    corpus = load_sources([SourceSpec(tmp_path)])
    refused = sorted(Path(p.path).name for p in corpus.problems if REFUSED in p.message)
    assert refused == ["headerless.tsv", "unknown.xml"]
    assert "Engines That Think" in {paper.title for paper in corpus.papers}
    assert len(corpus.papers) == 4


def test_a_txt_file_stays_a_text_list_whatever_it_holds(tmp_path: Path) -> None:
    source = tmp_path / "list.txt"
    source.write_text("[1, 2]\n\nAn abstract about lists.\n", encoding="utf-8")
    assert choose(source, source.read_text(encoding="utf-8")) == "text_list"


@pytest.mark.parametrize(
    ("value", "word"),
    [
        ("ICML 2024 Oral", "Oral"),
        ("Accept (oral)", "Oral"),
        ("CoRL 2024 Oral", "Oral"),
        ("oral", "Oral"),
        ("Accept (spotlight)", "Spotlight"),
        ("NeurIPS 2020 Poster", "Poster"),
        ("Reject", "Reject"),
        ("CoRL 2024", "CoRL 2024"),
        ("Moral Machines", "Moral Machines"),
    ],
)
def test_status_is_the_word_a_person_uses(value: str, word: str) -> None:
    assert status_word(value) == word


def test_relative_urls_are_made_absolute_and_doubled_slashes_one() -> None:
    assert absolute("/virtual/2024/poster/1", "https://icml.cc") == (
        "https://icml.cc/virtual/2024/poster/1"
    )
    assert absolute("https://ICML.cc//virtual/2024/poster/1", "") == (
        "https://icml.cc/virtual/2024/poster/1"
    )


def test_openreview_notes_saved_one_a_line(tmp_path: Path) -> None:
    import json

    notes = json.loads((CONF / "openreview-v2.json").read_text(encoding="utf-8"))["notes"]
    source = tmp_path / "notes.jsonl"
    source.write_text("\n".join(json.dumps(note) for note in notes * 2) + "\n", "utf-8")
    papers, problems = load_file(source, None, ReadAs("openreview"))
    assert problems == []
    assert [paper.title for paper in papers] == ["Wise Models Know Persian"] * 2
    assert [paper.line for paper in papers] == [1, 2]
