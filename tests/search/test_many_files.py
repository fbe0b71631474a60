"""Updates of an index of many small source files: what an update does per file does not grow
with the number of files (each file's record checked against one read of verified.json, not
one each; files kept from the previous generation not flushed to disk again)."""

from __future__ import annotations

import inspect
import os
from pathlib import Path

import pytest
from generated import write_generated_corpus

from paperterm.index.config import Config
from paperterm.index.search import generation_files
from paperterm.index.search import store as store_module
from paperterm.index.session import Session


class Calls:
    """Counts the calls of the functions it wraps."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.monkeypatch = monkeypatch
        self.counts: dict[str, int] = {}

    def count(self, owner: object, name: str) -> None:
        real = getattr(owner, name)
        self.counts[name] = 0

        def counted(*args, **kwargs):
            self.counts[name] += 1
            return real(*args, **kwargs)

        static = isinstance(inspect.getattr_static(owner, name), staticmethod)
        self.monkeypatch.setattr(owner, name, staticmethod(counted) if static else counted)


def _update_calls(tmp_path: Path, files: int, change: str) -> dict[str, int]:
    """The calls an update makes after `change` ("edit" or "touch") of one of `files`
    one-paper files."""
    folder = tmp_path / f"papers-{files}"
    paths = write_generated_corpus(folder, files, per_file=1)
    data = tmp_path / f"data-{files}"
    config = Config(include_seeds=False)
    opened, _ = Session.create(data, [folder], config).open()
    opened.close()
    middle = paths[files // 2]
    if change == "edit":
        middle.write_text(middle.read_text() + "\nAn edited abstract about quokkas.\n")
    else:
        later = middle.stat().st_mtime_ns + 5_000_000_000
        os.utime(middle, ns=(later, later))
    with pytest.MonkeyPatch.context() as patch:
        calls = Calls(patch)
        calls.count(store_module, "_read_stamps")
        calls.count(store_module, "_write_stamps")
        calls.count(store_module.os, "fsync")
        session = Session.create(data, [folder], config)
        opened, _ = session.open()
    assert opened.meta.papers == files + (1 if change == "edit" else 0)
    assert opened.location != ":memory:"
    opened.close()
    return calls.counts


@pytest.mark.parametrize("change", ["edit", "touch"])
def test_an_update_checks_and_flushes_as_often_whatever_the_number_of_files(tmp_path, change):
    few = _update_calls(tmp_path, 8, change)
    many = _update_calls(tmp_path, 40, change)
    assert many == few
    assert many["_read_stamps"] <= 10


def test_dropped_generations_are_removed_after_the_switch_and_leftovers_later(tmp_path):
    """A build drops the generation before the previous one by renaming it and removing it
    in a thread, after the new one is live; one a process ended before removing is removed
    by the next build."""
    folder = tmp_path / "papers"
    write_generated_corpus(folder, 6, per_file=1)
    data = tmp_path / "data"
    config = Config(include_seeds=False)
    for _ in range(3):
        opened, _ = Session.create(data, [folder], config).open(rebuild=True)
        opened.close()
    generation_files.wait_for_removals()
    root = Path(opened.location).parent
    assert len(list(root.glob("gen-*"))) == 2
    assert not generation_files.leftovers(root)
    left = root / f"{generation_files.REMOVED_PREFIX}gen-killed"
    (left / "sources").mkdir(parents=True)
    (left / "sources" / "a.bin").write_bytes(b"x")
    opened, _ = Session.create(data, [folder], config).open(rebuild=True)
    opened.close()
    generation_files.wait_for_removals()
    assert not left.exists()
    assert len(list(root.glob("gen-*"))) == 2


@pytest.mark.parametrize("parallel", [False, True])
def test_editing_one_of_many_files_writes_a_share_of_the_papers_again(
    tmp_path, monkeypatch, parallel
):
    """A part holds a share of many small files (`part_sources`), so an edit of one writes
    about that share again, not every paper of the run of files it is in (a worker's)."""
    from paperterm.index.search import build as build_module

    monkeypatch.setattr("paperterm.index.search.build_parts.MIN_PART_SOURCES", 4)
    if parallel:
        monkeypatch.setattr("paperterm.index.search.build_prepare.PARALLEL_BYTES", 0)
    folder = tmp_path / "papers"
    paths = write_generated_corpus(folder, 60, per_file=1)
    data = tmp_path / "data"
    config = Config(include_seeds=False)
    opened, _ = Session.create(data, [folder], config).open()
    before = {part.id: part.papers for part in opened.meta.parts}
    opened.close()
    assert max(before.values()) <= build_module.part_sources(60)
    middle = paths[30]
    middle.write_text(middle.read_text() + "\nAn edited abstract about quokkas.\n")
    opened, _ = Session.create(data, [folder], config).open()
    written = [part.papers for part in opened.meta.parts if part.id not in before]
    opened.close()
    # The edited file's part, the rest of the share it was in, and at most one pair of
    # small neighbours joined to keep to `MAX_PARTS`: a fraction of the 60 papers.
    assert 0 < sum(written) <= 3 * build_module.part_sources(60)


def test_an_update_looks_at_the_sources_once_unless_another_build_went_live(tmp_path):
    """Taking the build lock, an update does not look at every source again when the live
    generation is the one it found stale; when another process's build went live
    meanwhile, that one is used, not built again."""
    from paperterm.index.search import build as build_module

    folder = tmp_path / "papers"
    paths = write_generated_corpus(folder, 12, per_file=1)
    data = tmp_path / "data"
    config = Config(include_seeds=False)
    Session.create(data, [folder], config).open()[0].close()
    paths[3].write_text(paths[3].read_text() + "\nAn edited abstract about quokkas.\n")
    with pytest.MonkeyPatch.context() as patch:
        calls = Calls(patch)
        calls.count(store_module.Store, "freshness")
        Session.create(data, [folder], config).open()[0].close()
    assert calls.counts["freshness"] == 1
    paths[5].write_text(paths[5].read_text() + "\nAnother edit, about wombats.\n")
    late = Session.create(data, [folder], config)
    assert late.current_meta() is None  # stale
    other, _ = Session.create(data, [folder], config).open()  # another process's build
    other.close()
    with pytest.MonkeyPatch.context() as patch:
        calls = Calls(patch)
        calls.count(build_module.Builder, "run")
        opened = late.build()
    assert calls.counts["run"] == 0
    assert opened.location == other.location
    opened.close()


def test_a_smaller_build_writes_smaller_parts_with_whoosh():
    """A worker holds the Whoosh part it writes: a build of fewer bytes makes parts of
    fewer postings (down to `SMALL_PART_POSTINGS`), a large one of `PART_POSTINGS`, and a
    writer of bounded memory gets parts as before."""
    from paperterm.index.search import build_parts as build_module

    postings = build_module.postings_per_part
    per_part = build_module.BYTES_PER_POSTING * (build_module.MAX_PARTS - 4)
    assert postings(False, 1_000_000) == build_module.SMALL_PART_POSTINGS
    assert postings(False, 60_000_000) == build_module.SMALL_PART_POSTINGS
    assert postings(False, 1_000_000 * per_part) == 1_000_000
    assert postings(False, 10_000_000_000) == build_module.PART_POSTINGS
    assert build_module.SMALL_PART_POSTINGS < build_module.PART_POSTINGS
    assert postings(True, 60_000_000) == build_module.PART_POSTINGS
