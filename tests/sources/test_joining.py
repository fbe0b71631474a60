"""Sources of one conference join: one record per paper, matched by registry ids, DOI,
arXiv id, else by folded title (the first author's surname breaks ties); each field from
the first source that has it; a source without abstracts only enriches."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from locations import FIXTURES

from paperterm.index.config import Config
from paperterm.index.papers import Paper
from paperterm.index.session import Session
from paperterm.index.sources.enrich import render
from paperterm.index.sources.identity import registry_ids
from paperterm.index.sources.preparing import merge_prepared, prepare

CONFERENCE = FIXTURES / "conference.json"
ENRICH = FIXTURES / "conference_enrich.json"


def record(pid: str, source: str, abstract: str = "", **fields: object) -> Paper:
    return render(Paper(id=pid, collection=source, abstract=abstract, source=source, **fields))


def joined(*papers: Paper) -> list[Paper]:
    return merge_prepared(prepare(paper) for paper in papers)


def test_registry_ids_come_from_fields_or_links():
    paper = Paper(
        "p",
        "C",
        "",
        links=[
            "https://openreview.net/forum?id=AbC_1-x",
            "https://proceedings.mlr.press/v235/smith24a.html",
            "https://aclanthology.org/2024.acl-long.1.pdf",
            "https://icml.cc/virtual/2024/poster/33250",
        ],
    )
    assert registry_ids(paper) == [
        ("openreview", "AbC_1-x"),
        ("pmlr", "v235/smith24a"),
        ("acl", "2024.acl-long.1"),
        ("virtual_site", "icml.cc/virtual/2024/poster/33250"),
    ]
    given_id = Paper("p", "C", "", fields={"openreview": "Zz9"}, links=paper.links[:1])
    assert registry_ids(given_id) == [("openreview", "Zz9")]


def test_an_openreview_id_joins_different_titles_and_abstracts():
    first = record("a", "site.json", "Short.", title="One", fields={"openreview": "X1"})
    other = record("b", "or.tsv", "Long text.", title="Another", status="Oral",
                   links=["https://openreview.net/forum?id=X1"])  # fmt: skip
    papers = joined(first, other)
    assert [(p.id, p.title, p.abstract, p.status) for p in papers] == [
        ("a", "One", "Short.", "Oral")
    ]


def test_titles_join_across_files_with_accents_case_and_punctuation_folded():
    site = record("s1", "site.json", "An abstract.", title="Étude of Flows: A Survey",
                  authors=["Zoë Müller"])  # fmt: skip
    copilot = record("c1", "copilot.json", title="etude of flows - a survey",
                     authors=["Zoe Muller", "B. Other"], affiliations=["ETH", "MIT"],
                     status="Spotlight")  # fmt: skip
    papers = joined(site, copilot)
    assert len(papers) == 1
    paper = papers[0]
    assert (paper.id, paper.title, paper.status) == ("s1", "Étude of Flows: A Survey", "Spotlight")
    assert paper.authors == ["Zoë Müller"]  # the first source's
    assert paper.affiliations == []  # not as many as the authors it has


def test_the_first_authors_surname_tells_equal_titles_apart():
    one = record("a", "site.json", "First.", title="Learning to Rank Things", authors=["Ann Lee"])
    two = record("b", "site.json", "Second.", title="Learning to Rank Things", authors=["Bo Kim"])
    enrich_two = record("c", "copilot.json", title="Learning to rank things",
                        authors=["Bo Kim"], status="Oral")  # fmt: skip
    papers = joined(one, two, enrich_two)
    assert [(p.id, p.status) for p in papers] == [("a", ""), ("b", "Oral")]


def test_records_of_one_file_never_join_on_title_alone():
    one = record("a", "site.json", "First.", title="Learning to Rank Things")
    two = record("b", "site.json", "Second.", title="Learning to Rank Things")
    assert [p.id for p in joined(one, two)] == ["a", "b"]


def test_a_short_title_joins_nothing_on_its_own():
    one = record("a", "x.bib", "This volume.", title="Preface")
    two = record("b", "y.json", title="Preface", status="Oral")
    assert [p.id for p in joined(one, two)] == ["a"]  # b only enriches and joined none


def test_a_source_without_abstracts_only_enriches_unless_alone():
    site = record("s1", "site.json", "An abstract.", title="Graph Flows at Scale")
    extra = record("c9", "copilot.json", title="A Paper Nobody Else Lists Here", status="Poster")
    match = record("c1", "copilot.json", title="Graph flows at scale", status="Oral")
    assert [(p.id, p.status) for p in joined(extra, site, match)] == [("s1", "Oral")]
    assert [p.id for p in joined(extra, match)] == ["c9", "c1"]


def test_an_enriching_source_first_keeps_its_fields_and_takes_the_abstract():
    copilot = record("c1", "copilot.json", title="Graph Flows at Scale", status="Oral",
                     authors=["Ann Lee"], affiliations=["MIT"])  # fmt: skip
    site = record("s1", "site.json", "The abstract.", title="Graph flows at scale!",
                  status="Poster", session="Poster Session 2")  # fmt: skip
    (paper,) = joined(copilot, site)
    assert (paper.id, paper.title, paper.status) == ("c1", "Graph Flows at Scale", "Oral")
    assert (paper.abstract, paper.text, paper.session) == (
        "The abstract.",
        "The abstract.",
        "Poster Session 2",
    )
    assert paper.affiliations == ["MIT"]


@given(st.permutations(["Flow Matching for Sparse Graphs!", "flow matching, for sparse graphs",
                        "FLOW MATCHING FOR SPARSE GRAPHS"]))  # fmt: skip
def test_title_joins_whatever_the_spelling(titles):
    first, *rest = titles
    papers = [record("a", "f0.json", "Text.", title=first)]
    papers += [record(f"b{n}", f"f{n + 1}.json", title=t) for n, t in enumerate(rest)]
    assert [p.id for p in joined(*papers)] == ["a"]


def _build(data: Path, sources: list[Path]):
    opened, _ = Session.create(data, sources, Config()).open()
    return opened


def test_a_build_joins_and_reports_each_source(tmp_path):
    opened = _build(tmp_path / "data", [CONFERENCE, ENRICH])
    papers = {paper.id: paper for paper in opened.papers}
    assert sorted(papers) == ["vs-101", "vs-102", "vs-103"]
    assert papers["vs-101"].track == "Main Track"
    assert papers["vs-101"].author_ids == ["~Ada_Lovelace1", "~Alan_Turing1"]
    assert papers["vs-101"].affiliations == ["University of London", ""]  # the first's
    assert papers["vs-102"].track == "Datasets and Benchmarks Track"
    site, enrich = opened.meta.sources
    assert (site.format, enrich.format) == ("json", "json")
    assert {k: site.joins[k] for k in ("added", "joined", "not_joined")} == {
        "added": 3,
        "joined": 0,
        "not_joined": 0,
    }
    assert {k: enrich.joins[k] for k in ("added", "joined", "not_joined")} == {
        "added": 0,
        "joined": 2,
        "not_joined": 1,
    }
    assert enrich.joins["fields"] == {"author_ids": 2, "track": 2}
    assert site.joins["fields"]["session"] == 3


def test_ids_stay_the_same_across_rebuilds(tmp_path):
    first = _build(tmp_path / "one", [ENRICH, CONFERENCE])
    again = _build(tmp_path / "two", [ENRICH, CONFERENCE])
    assert [p.id for p in first.papers] == [p.id for p in again.papers]
    assert [p.id for p in first.papers][:1] == ["AbCdEf123"]
    assert len(first.papers) == 3


def test_a_record_naming_two_papers_makes_them_one():
    site = record("s", "site.json", "From the site.", title="ΦFlow: simulations",
                  links=["https://icml.cc/virtual/2024/poster/1"])  # fmt: skip
    table = record("t", "or.tsv", "From OpenReview.", title="PhiFlow: simulations",
                   tldr="Short.", links=["https://openreview.net/forum?id=F1"])  # fmt: skip
    bridge = record("c", "copilot.json", title="PhiFlow: simulations", track="main",
                    links=["https://icml.cc/virtual/2024/poster/1",
                           "https://openreview.net/forum?id=F1"])  # fmt: skip
    papers = joined(site, table, bridge)
    assert [(p.id, p.title, p.abstract, p.tldr, p.track) for p in papers] == [
        ("s", "ΦFlow: simulations", "From the site.", "Short.", "main")
    ]


THREE = FIXTURES / "icml_three"


def test_the_three_icml_shaped_files_give_one_record_per_paper(tmp_path):
    from paperterm.index.config import load_config

    config = load_config(THREE / "config.toml", must_exist=True)
    opened, _ = Session.create(tmp_path / "data", [], config).open()
    papers = {paper.title: paper for paper in opened.papers}
    assert sorted(papers) == [
        "Sparse Routers Learn Fast",
        "Workshop on Learning with Physics",
        "ΦFlow: Differentiable Simulations for PyTorch, TensorFlow and Jax",
    ]
    flow = papers["ΦFlow: Differentiable Simulations for PyTorch, TensorFlow and Jax"]
    assert flow.authors == ["Philipp Holl", "Nils Thuerey"]  # the site's, first in order
    assert flow.affiliations == ["Technical University of Munich"] * 2  # papercopilot's
    assert flow.tldr == "A differentiable physics toolkit."  # the OpenReview table's
    assert (flow.status, flow.type, flow.track) == ("Poster", "Poster", "main")
    assert "https://openreview.net/forum?id=PhiFlow001" in flow.links
    assert "https://icml.cc/virtual/2024/poster/33001" in flow.links
    routers = papers["Sparse Routers Learn Fast"]
    assert routers.status == "Oral" and routers.author_ids == ["~Ana_Uno1", "~Ben_Dos1"]
    workshop = papers["Workshop on Learning with Physics"]
    assert (workshop.type, workshop.abstract) == ("Workshop", "")
