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
