"""Malformed corpus files: each bad one is reported once, by name; every good one loads."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from hostile.corpus import MARKERS, REPORTED, write_hostile_corpus

from paperterm.index.sources.loader import SourceSpec, load_file, load_sources

#: Files whose whole content is refused or suspect: exactly one problem each.
WHOLE_FILE = {
    "binary.txt": "not a text file",
    "nul-bytes.txt": "not a text file",
    "empty.txt": "no abstracts found",
    "header-only.txt": "no abstracts found",
    "broken.json": "not valid JSON",
    "latin1.txt": "not valid UTF-8; read as Latin-1",
}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    write_hostile_corpus(folder)
    return folder


def test_hostile_folder_reports_each_bad_file_and_loads_every_good_paper(hostile):
    corpus = load_sources([SourceSpec(hostile)])
    reported = [Path(problem.path).name for problem in corpus.problems]
    assert set(reported) == set(REPORTED)
    for name, why in WHOLE_FILE.items():
        problems = [p for p in corpus.problems if Path(p.path).name == name]
        assert len(problems) == 1 and why in problems[0].message, name
    for problem in corpus.problems:
        assert "\n" not in str(problem)
    abstracts = "\n".join(paper.abstract for paper in corpus.papers)
    for marker in MARKERS:
        assert f"Specimen {marker}" in abstracts, marker


def test_huge_paragraph_and_long_word_load_whole(hostile):
    huge, _ = load_file(hostile / "huge-paragraph.txt")
    assert len(huge) == 1 and len(huge[0].abstract) >= 2_000_000
    assert len(huge[0].title) <= 120
    long_word, _ = load_file(hostile / "long-word.txt")
    assert len(long_word) == 1 and "w" * 20_000 in long_word[0].abstract
    assert len(long_word[0].title) <= 120


def test_bom_and_crlf_are_read_as_text(hostile):
    papers, problems = load_file(hostile / "bom-crlf.txt")
    assert problems == []
    assert [p.collection for p in papers] == ["BOM and CRLF list"] * 2
    assert not any("\r" in p.abstract or "\ufeff" in p.abstract for p in papers)


@pytest.mark.parametrize("kind", ["pipe", "device"])
def test_pipes_and_devices_are_refused_not_read(tmp_path, kind):
    """Reading a named pipe would block the start for ever; /dev/zero would never end."""
    if kind == "pipe":
        path = tmp_path / "pipe.txt"
        os.mkfifo(path)
    else:
        path = Path("/dev/zero")
    papers, problems = load_file(path)
    assert papers == []
    assert [p.message for p in problems] == ["not a regular file (a pipe or device); skipped"]


def test_unreadable_file_is_reported_and_the_others_load(tmp_path, monkeypatch):
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "a-good.txt").write_text("Good\n\nA readable abstract about models.\n")
    locked = folder / "b-locked.txt"
    locked.write_text("Locked\n\nAn abstract nobody may read.\n")
    locked.chmod(0)
    if os.access(locked, os.R_OK):  # root reads anything: make the read fail as it would
        real = Path.read_bytes

        def read_bytes(self: Path) -> bytes:
            if self == locked:
                raise PermissionError(errno.EACCES, "Permission denied", str(self))
            return real(self)

        monkeypatch.setattr(Path, "read_bytes", read_bytes)
    corpus = load_sources([SourceSpec(folder)])
    assert [str(p) for p in corpus.problems] == [f"{locked}: cannot read: Permission denied"]
    assert [p.collection for p in corpus.papers] == ["Good"]


def test_symlink_loops_and_folders_named_like_files_are_walked_safely(tmp_path):
    folder = tmp_path / "corpus"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "back").symlink_to(folder)
    (folder / "self").symlink_to(folder / "self")  # a link to itself: cannot be resolved
    (folder / "folder.txt").mkdir()
    (folder / "sub" / "list.txt").write_text("Deep\n\nAn abstract found once.\n")
    corpus = load_sources([SourceSpec(folder)])
    assert [p.collection for p in corpus.papers] == ["Deep"]  # once, though two ways lead there
    assert [(Path(p.path).name, p.message) for p in corpus.problems] == [
        ("self", "cannot read: Too many levels of symbolic links")
    ]


def test_file_names_with_escapes_or_bad_bytes_load(tmp_path):
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "evil\x1b]2;PWNED\x07.txt").write_text("An abstract with an evil file name.\n")
    (folder / os.fsdecode(b"caf\xe9.txt")).write_text("An abstract with a Latin-1 name.\n")
    corpus = load_sources([SourceSpec(folder)])
    assert len(corpus.papers) == 2 and corpus.problems == []


def test_json_lone_surrogates_become_replacement_characters(tmp_path):
    path = tmp_path / "lone.json"
    path.write_text(
        '[{"id": "x\\ud800", "title": "T \\udfff", "abstract": "A \\ud83e lone half.",'
        ' "authors": "Eve \\udc00 and Bob", "url": "https://e.org/\\ud800"}]'
    )
    papers, problems = load_file(path)
    assert problems == []
    (paper,) = papers
    for text in (paper.id, paper.title, paper.abstract, *paper.authors, *paper.links):
        text.encode("utf-8")  # no lone surrogate left
    assert paper.title == "T \ufffd" and paper.authors == ["Eve \ufffd", "Bob"]
