"""Topics kept with the index (kept_topics.py) and computed off the reader's UI thread
(topics_process.py): written once per generation, read back without grouping again, grouped
again when the corpus changes or the file is damaged."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from paperterm.index.config import Config
from paperterm.index.planning import kept_topics as kept_module
from paperterm.index.planning import topics as grouping
from paperterm.index.planning import topics_process
from paperterm.index.planning.kept_topics import (
    TOPICS_FILE,
    carries_topics,
    generation_folder,
    kept_topics,
    topic_labels,
)
from paperterm.index.planning.topics import Topic
from paperterm.index.session import Session

THEMES = {
    "graph": "graph neural networks message passing over graph nodes and edges",
    "speech": "speech recognition acoustic models for spoken audio transcription",
    "protein": "protein folding structure prediction from amino acid sequences",
    "market": "stock market prices forecast with trading volume and volatility",
}


def write_corpus(path: Path, per_theme: int = 4, topic: str = "") -> None:
    """A JSONL corpus: `per_theme` papers on each theme (each with `topic` when given)."""
    lines = []
    for theme, text in THEMES.items():
        for n in range(per_theme):
            record = {
                "id": f"{theme}-{n}",
                "title": f"{theme} study {n}: {text.split()[n]} {text.split()[n + 1]}",
                "abstract": f"{text}. Variant {n} studies {text.split()[-1 - n]} further.",
            }
            if topic:
                record["topic"] = topic
            lines.append(json.dumps(record))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def opened_session(tmp_path: Path, source: Path) -> tuple[Session, object]:
    session = Session.create(tmp_path / "data", [source], Config())
    opened, _ = session.open()
    return session, opened


def kept_of(session: Session, opened) -> kept_module.KeptTopics:
    folder = generation_folder(session, opened)
    return kept_topics(opened.papers, opened.meta, folder)


@pytest.fixture
def counted(monkeypatch) -> list[int]:
    """How many times topics were grouped (each call appends the papers' count)."""
    calls: list[int] = []
    real = grouping.topics

    def counting(papers, **kwargs):
        calls.append(len(papers))
        return real(papers, **kwargs)

    monkeypatch.setattr(grouping, "topics", counting)
    return calls


def test_topics_are_kept_in_the_generation_and_read_back(tmp_path, monkeypatch, counted):
    source = tmp_path / "papers.jsonl"
    write_corpus(source)
    session, opened = opened_session(tmp_path, source)
    first = kept_of(session, opened)
    assert counted == [16]
    assert first.topics and not first.own_topics and first.warning is None
    folder = generation_folder(session, opened)
    assert folder is not None and folder == Path(opened.location)
    kept = json.loads((folder / TOPICS_FILE).read_text(encoding="utf-8"))
    assert kept["topics"] == grouping.topics_json(first.topics)

    def never(papers, **kwargs):
        raise AssertionError("grouped again")

    monkeypatch.setattr(grouping, "topics", never)
    session, opened = opened_session(tmp_path, source)  # a second start
    assert kept_of(session, opened).topics == first.topics


def test_a_changed_source_groups_again(tmp_path, counted):
    source = tmp_path / "papers.jsonl"
    write_corpus(source)
    session, opened = opened_session(tmp_path, source)
    kept_of(session, opened)
    before = json.loads((generation_folder(session, opened) / TOPICS_FILE).read_text())
    write_corpus(source, per_theme=5)
    session, opened = opened_session(tmp_path, source)
    again = kept_of(session, opened)
    assert counted == [16, 20]
    assert again.warning is None and again.topics
    after = json.loads((generation_folder(session, opened) / TOPICS_FILE).read_text())
    assert after["corpus"] != before["corpus"]
    assert after["topics"] == grouping.topics_json(again.topics)


def test_a_file_of_another_corpus_is_not_taken(tmp_path, counted):
    source = tmp_path / "papers.jsonl"
    write_corpus(source)
    session, opened = opened_session(tmp_path, source)
    kept_of(session, opened)
    path = generation_folder(session, opened) / TOPICS_FILE
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**data, "corpus": "0" * 32, "topics": []}), encoding="utf-8")
    again = kept_of(session, opened)
    assert counted == [16, 16] and again.warning is None and again.topics


@pytest.mark.parametrize(
    "damage",
    [
        b"{not json",
        b'{"version": 1}',
        b"\xff\xfe",
        b"[]",
        b"null",
    ],
)
def test_a_damaged_file_is_computed_again_with_a_one_line_warning(tmp_path, counted, damage):
    source = tmp_path / "papers.jsonl"
    write_corpus(source)
    session, opened = opened_session(tmp_path, source)
    kept_of(session, opened)
    path = generation_folder(session, opened) / TOPICS_FILE
    path.write_bytes(damage)
    again = kept_of(session, opened)
    assert counted == [16, 16]
    assert again.topics
    assert again.warning is not None and "\n" not in again.warning
    assert again.warning.startswith(f"{path}: damaged")
    assert json.loads(path.read_text(encoding="utf-8"))["topics"]  # kept anew


def test_damaged_topics_inside_a_sound_file(tmp_path, counted):
    source = tmp_path / "papers.jsonl"
    write_corpus(source)
    session, opened = opened_session(tmp_path, source)
    kept_of(session, opened)
    path = generation_folder(session, opened) / TOPICS_FILE
    data = json.loads(path.read_text(encoding="utf-8"))
    data["topics"][0]["count"] += 1
    path.write_text(json.dumps(data), encoding="utf-8")
    again = kept_of(session, opened)
    assert counted == [16, 16] and "damaged" in (again.warning or "")


def test_a_corpus_with_its_own_topics_groups_nothing_and_says_so_once(tmp_path, counted):
    source = tmp_path / "papers.jsonl"
    write_corpus(source, topic="Theory")
    session, opened = opened_session(tmp_path, source)
    assert carries_topics(opened.papers)
    kept = kept_of(session, opened)
    assert kept.topics is None and kept.own_topics and counted == []
    data = json.loads((generation_folder(session, opened) / TOPICS_FILE).read_text())
    assert data["own_topics"] is True and data["topics"] is None
    # The `topics` command asks for them anyway: grouped, and kept beside the mark.
    folder = generation_folder(session, opened)
    wanted = kept_topics(opened.papers, opened.meta, folder, wanted=True)
    assert wanted.topics and wanted.own_topics and counted == [16]
    assert kept_of(session, opened).topics == wanted.topics and counted == [16]


def test_an_index_in_memory_keeps_nothing(tmp_path, counted):
    source = tmp_path / "papers.jsonl"
    write_corpus(source)
    session = Session.create(tmp_path / "data", [source], Config())
    opened = session.build_in_memory()
    assert generation_folder(session, opened) is None
    assert kept_topics(opened.papers, opened.meta, None).topics
    assert not list((tmp_path / "data").rglob(TOPICS_FILE))


def test_labels_two_topics_share_are_told_apart() -> None:
    found = [Topic("a · b · c", ("a", "b", "c"), ("1", "2")), Topic("a · b · c", ("a",), ("3",))]
    assert topic_labels(found) == {"1": "a · b · c", "2": "a · b · c", "3": "a · b · c (2)"}


def test_a_large_corpus_is_grouped_in_a_process_of_its_own(tmp_path, monkeypatch, counted):
    monkeypatch.setattr(topics_process, "PROCESS_PAPERS", 1)
    source = tmp_path / "papers.jsonl"
    write_corpus(source)
    session, opened = opened_session(tmp_path, source)
    found = topics_process.background_topics(session, opened, lambda: False)
    assert counted == []  # not in this process
    assert found is not None and found.topics
    assert found.topics == kept_topics(opened.papers, opened.meta, None).topics
    assert (generation_folder(session, opened) / TOPICS_FILE).is_file()


def test_a_cancelled_wait_stops_the_process(tmp_path, monkeypatch):
    monkeypatch.setattr(topics_process, "PROCESS_PAPERS", 1)
    source = tmp_path / "papers.jsonl"
    write_corpus(source)
    session, opened = opened_session(tmp_path, source)
    monkeypatch.setattr(topics_process, "_POLL", 0.001)
    assert topics_process.background_topics(session, opened, lambda: True) is None


def test_the_kept_file_is_the_same_whatever_the_hash_seed(tmp_path):
    source = tmp_path / "papers.jsonl"
    write_corpus(source)
    kept = []
    for seed in ("1", "4242"):
        data = tmp_path / f"data-{seed}"
        config = tmp_path / "config.toml"
        config.write_text("", encoding="utf-8")
        env = {
            **os.environ,
            "PYTHONHASHSEED": seed,
            "PAPERTERM_DATA_DIR": str(data),
            "PAPERTERM_CONFIG": str(config),
        }
        done = subprocess.run(
            [sys.executable, "-m", "paperterm.tui.cli", "--source", str(source), "topics"],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        (path,) = data.rglob(TOPICS_FILE)
        kept.append(path.read_text(encoding="utf-8"))
    assert kept[0] == kept[1]


def test_a_generation_removed_meanwhile_is_not_made_again(tmp_path):
    source = tmp_path / "papers.jsonl"
    write_corpus(source)
    session, opened = opened_session(tmp_path, source)
    folder = generation_folder(session, opened)
    gone = folder.parent / "gen-removed"
    kept_module.keep(gone, "key", kept_module.KeptTopics([], False))
    assert not gone.exists()
