"""Topics for data that has none: determinism, coverage, labels and the JSON form."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from locations import CORPORA, ROOT

from paperterm.index.papers import Paper
from paperterm.index.planning.topics import Topic, topic_count, topics, topics_json
from paperterm.index.sources.loader import load_file

WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "theta", "42", "é", "论文"]
SEEDS = sorted((ROOT / "seeds").glob("*.txt"))


@pytest.fixture(scope="module")
def seed_papers() -> list[Paper]:
    papers: list[Paper] = []
    for path in SEEDS:
        loaded, problems = load_file(path)
        assert not problems
        papers += loaded
    assert len(papers) > 30
    return papers


def paper(pid: str, title: str, text: str = "") -> Paper:
    return Paper(id=pid, collection="c", abstract=text, text=text, title=title)


def themed() -> list[Paper]:
    """Three plain themes of twelve papers each, plus shared filler words."""
    themes = {
        "robot": "robot grasping manipulation gripper tactile arm",
        "protein": "protein folding molecule binding enzyme structure",
        "galaxy": "galaxy telescope cosmology redshift stellar survey",
    }
    rng = random.Random(5)
    papers = []
    for theme, words in themes.items():
        vocabulary = words.split()
        for n in range(12):
            picked = rng.sample(vocabulary, 4)
            text = f"We study {' and '.join(picked)} with data and a model."
            papers.append(paper(f"{theme}-{n:02d}", f"On {picked[0]} {picked[1]}", text))
    return papers


def test_same_corpus_same_topics(seed_papers: list[Paper]) -> None:
    first = topics(seed_papers)
    assert topics(list(seed_papers)) == first
    shuffled = list(seed_papers)
    random.Random(3).shuffle(shuffled)
    again = topics(shuffled)
    assert [(t.label, t.words, set(t.ids)) for t in again] == [
        (t.label, t.words, set(t.ids)) for t in first
    ]


def test_same_topics_in_another_process_with_another_hash_seed() -> None:
    script = (
        "import json, sys; from pathlib import Path\n"
        "from paperterm.index.sources.loader import load_file\n"
        "from paperterm.index.planning.topics import topics, topics_json\n"
        "papers = [p for f in sys.argv[1:] for p in load_file(Path(f))[0]]\n"
        "print(json.dumps(topics_json(topics(papers))))\n"
    )
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", script, *map(str, SEEDS)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    assert json.loads(outputs[0])


def test_seeds_are_covered_and_labelled(seed_papers: list[Paper]) -> None:
    found = topics(seed_papers)
    assert len(found) == topic_count(len(seed_papers))
    covered = [paper_id for topic in found for paper_id in topic.ids]
    assert len(covered) == len(set(covered))  # one topic a paper
    assert len(covered) >= 0.95 * len(seed_papers)
    for topic in found:
        assert 3 <= len(topic.words) <= 5
        assert len(set(topic.words)) == len(topic.words)
        assert topic.label == " · ".join(topic.words[:3])
    assert [t.count for t in found] == sorted((t.count for t in found), reverse=True)


def test_plain_themes_come_apart() -> None:
    found = topics(themed(), k=3)
    groups = sorted(tuple(sorted({paper_id.split("-")[0] for paper_id in t.ids})) for t in found)
    assert groups == [("galaxy",), ("protein",), ("robot",)]
    by_theme = {t.ids[0].split("-")[0]: t for t in found}
    galaxy = {"galaxy", "telescope", "cosmology", "redshift", "stellar", "survey"}
    assert set(by_theme["galaxy"].words) <= galaxy
    assert "study" not in {w for t in found for w in t.words}


def test_topic_count_is_twenty_to_forty_for_a_conference() -> None:
    assert topic_count(38) == 4
    assert 20 <= topic_count(1000) <= 40
    assert topic_count(2610) == 36
    assert topic_count(50_000) == 40
    assert topic_count(1) == 1


def test_json_form() -> None:
    topic = Topic("a · b · c", ("a", "b", "c", "d"), ("p1", "p2"))
    assert topics_json([topic]) == [
        {"label": "a · b · c", "words": ["a", "b", "c", "d"], "count": 2, "ids": ["p1", "p2"]}
    ]
    data = json.loads(json.dumps(topics_json(topics(themed(), k=3))))
    assert all(set(item) == {"label", "words", "count", "ids"} for item in data)
    assert sum(item["count"] for item in data) == 36


def test_ids_keep_the_input_order() -> None:
    papers = list(reversed(themed()))
    order = {p.id: n for n, p in enumerate(papers)}
    for topic in topics(papers, k=3):
        assert list(topic.ids) == sorted(topic.ids, key=order.__getitem__)


def test_nothing_to_group() -> None:
    assert topics([]) == []
    assert topics([paper("a", ""), paper("b", "the and of")]) == []


@settings(max_examples=30)
@given(
    st.lists(
        st.lists(
            st.sampled_from(WORDS),
            max_size=8,
        ),
        max_size=25,
    )
)
def test_any_corpus_gives_disjoint_topics(texts: list[list[str]]) -> None:
    papers = [paper(f"p{n}", " ".join(words[:2]), " ".join(words)) for n, words in enumerate(texts)]
    found = topics(papers)
    ids = [paper_id for topic in found for paper_id in topic.ids]
    assert len(ids) == len(set(ids))
    assert set(ids) <= {p.id for p in papers}
    assert all(1 <= len(topic.words) <= 5 for topic in found)


def test_real_conference_titles_are_covered() -> None:
    path = CORPORA / "conferences" / "neurips2024-papercopilot.json"
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    records = json.loads(path.read_text("utf-8"))[:1500]
    papers = [paper(r["id"], r["title"]) for r in records]
    found = topics(papers)
    assert 20 <= len(found) <= 40
    assert sum(t.count for t in found) >= 0.95 * len(papers)
    assert all(3 <= len(t.words) <= 5 for t in found)
