"""`paperterm topics [--json]` over the session's papers (the seeds)."""

from __future__ import annotations

import json


def test_topics_json_covers_the_papers(run):
    code, out, err = run("topics", "--json")
    assert code == 0, err
    found = json.loads(out)
    assert found and all(set(t) == {"label", "words", "count", "ids"} for t in found)
    ids = [paper_id for topic in found for paper_id in topic["ids"]]
    assert len(ids) == len(set(ids)) >= 0.95 * 38
    assert all(topic["count"] == len(topic["ids"]) for topic in found)
    assert all(3 <= len(topic["words"]) <= 5 for topic in found)
    code, again, _ = run("topics", "--json")
    assert again == out


def test_topics_plain(run):
    code, out, err = run("topics")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[-1].endswith("of 38 papers have one")
    assert len(lines) == int(lines[-1].split()[0]) + 1


def test_topics_refuses_unknown_options(run):
    code, _, err = run("topics", "--bogus")
    assert code == 2
    assert "unrecognized arguments: --bogus" in err


def kept_file(tmp_path):
    (path,) = (tmp_path / "data").rglob("topics.json")
    return path


def test_topics_reads_the_file_kept_with_the_index(run, tmp_path, monkeypatch):
    from paperterm.index.planning import topics as grouping

    code, out, err = run("topics", "--json")
    assert code == 0, err
    assert json.loads(kept_file(tmp_path).read_text(encoding="utf-8"))["topics"] == json.loads(out)

    def never(papers, **kwargs):
        raise AssertionError("grouped again")

    monkeypatch.setattr(grouping, "topics", never)
    code, again, err = run("topics", "--json")
    assert code == 0, err
    assert again == out


def test_topics_computes_again_over_a_damaged_file_with_a_warning(run, tmp_path):
    code, out, _ = run("topics", "--json")
    path = kept_file(tmp_path)
    path.write_text("{damaged", encoding="utf-8")
    code, again, err = run("topics", "--json")
    assert code == 0
    assert again == out
    assert err.startswith(f"paperterm: {path}: damaged (") and err.count("\n") == 1
    assert "Traceback" not in err


def test_facets_show_the_computed_topics_of_data_that_has_none(run, tmp_path):
    code, out, err = run("facets", "--json")
    assert code == 0, err
    shown = json.loads(out)["facets"]["topic"]
    code, topics, _ = run("topics", "--json")
    found = json.loads(topics)
    assert shown == {topic["label"]: topic["count"] for topic in found}
    assert sum(shown.values()) >= 0.95 * 38


def test_search_and_facets_answer_topic_clauses_from_computed_topics(run):
    code, out, err = run("topics", "--json")
    assert code == 0, err
    found = json.loads(out)
    word = found[-1]["label"].split()[0].lower()
    wanted = {
        paper_id
        for topic in found
        if any(held.lower().startswith(word) for held in topic["label"].split())
        for paper_id in topic["ids"]
    }
    assert wanted
    code, out, err = run("search", "--json", "--limit", "100", f"topic:{word}")
    assert code == 0, err
    assert {hit["id"] for hit in json.loads(out)["hits"]} == wanted
    code, out, err = run("search", "--json", "--limit", "100", f"-topic:{word}")
    assert code == 0, err
    listed = {hit["id"] for hit in json.loads(out)["hits"]}
    assert listed and not listed & wanted
    code, out, err = run("facets", f"topic:{word}")
    assert code == 0, err
    assert out.splitlines()[0] == f"{len(wanted)} paper{'s' * (len(wanted) != 1)}"
