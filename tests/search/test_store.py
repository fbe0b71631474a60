import json
import os
import shutil
from pathlib import Path

import pytest

from paperterm.index.config import Config
from paperterm.index.search import store as store_module
from paperterm.index.search.store import Store
from paperterm.index.session import Session


def _session(data: Path, sources: list[Path] | None = None) -> Session:
    return Session.create(data, sources or [], Config())


def test_index_is_built_on_first_use_and_reused(tmp_path):
    data = tmp_path / "data"
    assert not data.exists()
    first, _ = _session(data).open()
    assert len(first.papers) == 38
    assert (data / "index" / "CURRENT").is_file()
    generation = (data / "index" / "CURRENT").read_text().strip()
    second_session = _session(data)
    assert second_session.open_existing() is not None
    second, _ = second_session.open()
    assert second.location == first.location
    assert (data / "index" / "CURRENT").read_text().strip() == generation
    assert [p.id for p in second.papers] == [p.id for p in first.papers]


def test_changing_a_source_rebuilds(tmp_path):
    source = tmp_path / "list.txt"
    source.write_text("Mine\n\nFirst abstract about dogs.\n", encoding="utf-8")
    data = tmp_path / "data"
    first, _ = _session(data, [source]).open()
    assert len(first.papers) == 1
    source.write_text("Mine\n\nFirst abstract about dogs.\n\nSecond about cats.\n", "utf-8")
    os.utime(source, ns=(1, 1))  # a different mtime even on coarse clocks
    second, _ = _session(data, [source]).open()
    assert second.location != first.location
    assert len(second.papers) == 2


def test_adding_a_source_rebuilds(tmp_path):
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "a.txt").write_text("A\n\nAn abstract.\n", encoding="utf-8")
    data = tmp_path / "data"
    assert len(_session(data, [folder]).open()[0].papers) == 1
    (folder / "b.txt").write_text("B\n\nAnother abstract.\n", encoding="utf-8")
    assert len(_session(data, [folder]).open()[0].papers) == 2


def test_schema_change_rebuilds(tmp_path, monkeypatch):
    data = tmp_path / "data"
    first, _ = _session(data).open()
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", store_module.SCHEMA_VERSION + 1)
    session = _session(data)
    assert session.open_existing() is None
    second, _ = session.open()
    assert second.location != first.location
    assert second.meta.schema == store_module.SCHEMA_VERSION


@pytest.mark.parametrize("damage", ["toc", "segment", "papers", "meta", "current"])
def test_damaged_index_is_rebuilt(tmp_path, damage):
    data = tmp_path / "data"
    first, _ = _session(data).open()
    folder = Path(first.location)
    first.ix.close()
    if damage == "toc":
        for toc in folder.glob("*.toc"):
            toc.unlink()
    elif damage == "segment":
        for segment in folder.glob("*.seg"):
            segment.write_bytes(segment.read_bytes()[:20])
        for postings in folder.glob("*.pst"):
            postings.write_bytes(b"")
    elif damage == "papers":
        (folder / store_module.PAPERS_FILE).write_bytes(b"\x00garbage")
    elif damage == "meta":
        (folder / "meta.json").write_text("not json", encoding="utf-8")
    else:
        (data / "index" / "CURRENT").write_text("gen-nonexistent\n", encoding="utf-8")
    session = _session(data)
    assert session.open_existing() is None
    second, _ = session.open()
    assert len(second.papers) == 38
    assert second.location != first.location


def test_leftover_temp_build_is_removed_and_old_generations_pruned(tmp_path):
    data = tmp_path / "data"
    _session(data).open()
    leftover = data / "index" / "tmp-killed"
    leftover.mkdir()
    (leftover / "junk").write_text("x")
    for _ in range(3):
        _session(data).open(rebuild=True)
    assert not leftover.exists()
    generations = list((data / "index").glob("gen-*"))
    assert len(generations) == 2  # the live one and the previous one


def test_opens_previous_index_read_only_while_another_process_builds(tmp_path):
    import fcntl

    data = tmp_path / "data"
    first, _ = _session(data).open()
    source = tmp_path / "new.txt"
    source.write_text("New\n\nA new abstract.\n", encoding="utf-8")
    with open(data / "index" / "build.lock", "a+") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        # Another session over other sources sees the lock held: it must not wait or
        # fail, but show what is there with a warning.
        session = _session(data, [source])
        opened, _ = session.open()
        assert opened.location == first.location
        assert any("rebuilding" in warning for warning in session.warnings)


def test_unwritable_data_dir_falls_back_to_memory(tmp_path, monkeypatch):
    import errno

    def refuse(self, wait):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(Store, "build_lock", refuse)
    session = _session(tmp_path / "data")
    opened, _ = session.open()
    assert opened.location == ":memory:"
    assert len(opened.papers) == 38
    assert any("in-memory" in warning for warning in session.warnings)


def test_data_dir_that_is_a_file_is_refused(tmp_path):
    from paperterm.index.session import SessionError

    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    with pytest.raises(SessionError, match="not a folder"):
        _session(not_a_folder)


def test_meta_records_counts_and_collections(tmp_path):
    opened, _ = _session(tmp_path / "data").open()
    meta = json.loads((Path(opened.location) / "meta.json").read_text(encoding="utf-8"))
    assert meta["papers"] == 38
    assert meta["collections"] == ["ICML 2024 Papers", "ICML 2024 论文列表"]


def test_cancelled_build_leaves_no_trace(tmp_path):
    from paperterm.index.search.store import BuildCancelled

    session = _session(tmp_path / "data")
    with pytest.raises(BuildCancelled):
        session.open(cancelled=lambda: True)
    root = tmp_path / "data" / "index"
    assert not list(root.glob("tmp-*")) and not list(root.glob("gen-*"))
    shutil.rmtree(root)
    assert len(_session(tmp_path / "data").open()[0].papers) == 38
