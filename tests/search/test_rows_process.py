"""The rows file of a large build, written by a process of its own (`rows_process.py`) while
the build's process writes the papers file: the same bytes as written in the build's process,
from nothing and after the papers of a generation kept, and written there when it fails."""

from __future__ import annotations

from pathlib import Path

import pytest
from generated import write_generated_corpus

from paperterm.index.config import Config
from paperterm.index.search import build as build_module
from paperterm.index.search.rows_process import RowsProcess
from paperterm.index.session import Session


def _files(opened) -> dict[str, bytes]:
    folder = Path(opened.location)
    return {name: (folder / name).read_bytes() for name in ("papers.bin", "rows.bin")}


def _build(data: Path, sources: list[Path], monkeypatch, apart: bool):
    started: list[RowsProcess] = []
    real = build_module._rows_process

    def spy(papers: int) -> RowsProcess | None:
        made = real(papers)
        if made is not None:
            started.append(made)
        return made

    monkeypatch.setattr(build_module, "rows_apart", lambda papers: apart)
    monkeypatch.setattr(build_module, "_rows_process", spy)
    opened = Session.create(data, sources, Config()).build()
    assert len(started) == int(apart)
    return opened


@pytest.fixture
def lists(tmp_path: Path) -> list[Path]:
    """Two lists whose papers merge and whose derived titles repeat, and one added later."""
    shared = "Large models memorise rare facts from their training data."
    a = tmp_path / "a.txt"
    a.write_text(f"List A\n\n{shared} Sparse probes find them.\n", encoding="utf-8")
    b = tmp_path / "b.txt"
    b.write_text(f"List B\n\n{shared} Pruning removes them.\n\n{shared}\n", encoding="utf-8")
    folder = tmp_path / "generated"
    write_generated_corpus(folder, 200, per_file=100)
    return [a, b, *sorted(folder.iterdir())]


def _no_rows_here(monkeypatch) -> None:
    """The build's process writes no rows file itself (the other process's is the one)."""

    def written_here(*args, **kwargs) -> None:
        raise AssertionError("the rows file was written by the build's process")

    monkeypatch.setattr(build_module, "write_rows", written_here)


def test_rows_written_apart_are_those_written_in_the_build(tmp_path, lists, monkeypatch):
    _no_rows_here(monkeypatch)
    apart = _build(tmp_path / "apart", lists[:3], monkeypatch, apart=True)
    here = _build(tmp_path / "here", lists[:3], monkeypatch, apart=False)
    assert _files(apart) == _files(here)
    assert apart.meta.collections == here.meta.collections
    # the papers of the generation taken from come first, copied
    given: list[Path | None] = []
    real_write = RowsProcess.write

    def write(self: RowsProcess, listing, first: int, path: Path, kept: Path | None) -> None:
        given.append(kept)
        real_write(self, listing, first, path, kept)

    monkeypatch.setattr(RowsProcess, "write", write)
    apart = _build(tmp_path / "apart", lists, monkeypatch, apart=True)
    assert given and given[0] is not None and given[0].name == "rows.bin"
    here = _build(tmp_path / "here", lists, monkeypatch, apart=False)
    assert _files(apart) == _files(here)
    assert apart.meta.collections == here.meta.collections
    assert list(apart.papers.ids) == list(here.papers.ids)


def test_a_rows_process_that_fails_leaves_the_rows_to_the_build(tmp_path, lists, monkeypatch):
    def fail(self: RowsProcess, *args) -> None:
        self.process.kill()  # dies before it is given its task

    monkeypatch.setattr(RowsProcess, "write", fail)
    failed = _build(tmp_path / "failed", lists, monkeypatch, apart=True)
    here = _build(tmp_path / "here", lists, monkeypatch, apart=False)
    assert _files(failed) == _files(here)
    assert failed.meta.collections == here.meta.collections
