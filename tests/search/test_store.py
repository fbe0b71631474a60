"""The on-disk index: built on first use and reused, rebuilt when stale or damaged, one index
per set of sources, and change detection not fooled. Recovery from killed builds, damaged
files, stale locks and odd data dirs: test_store_recovery.py."""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
from pathlib import Path

import pytest
from damaged_postings import fill_hash_table
from generated import write_generated_corpus
from store_sessions import (
    SEED_PAPERS,
    built_seeds,
    cli_process,
    finished,
    list_file,
    reopened,
    session_of,
    set_root,
)

from paperterm.index.atomic import FileLock
from paperterm.index.search import generation_meta
from paperterm.index.search import store as store_module
from paperterm.index.search.searcher import Searcher
from paperterm.index.search.store import BuildCancelled, Store
from paperterm.index.session import SessionError


def test_index_is_built_on_first_use_and_reused(tmp_path):
    data = tmp_path / "data"
    assert not data.exists()
    first, _ = session_of(data).open()
    assert len(first.papers) == SEED_PAPERS
    current = set_root(data) / "CURRENT"
    assert current.is_file()
    generation = current.read_text()
    second_session = session_of(data)
    assert second_session.open_existing() is not None
    second, _ = second_session.open()
    assert second.location == first.location
    assert current.read_text() == generation
    assert [p.id for p in second.papers] == [p.id for p in first.papers]


def test_changing_a_source_rebuilds(tmp_path):
    source = tmp_path / "list.txt"
    source.write_text("Mine\n\nFirst abstract about dogs.\n", encoding="utf-8")
    data = tmp_path / "data"
    first, _ = session_of(data, [source]).open()
    assert len(first.papers) == 1
    source.write_text("Mine\n\nFirst abstract about dogs.\n\nSecond about cats.\n", "utf-8")
    os.utime(source, ns=(1, 1))  # a different mtime even on coarse clocks
    second, _ = session_of(data, [source]).open()
    assert second.location != first.location
    assert len(second.papers) == 2


def test_adding_a_source_rebuilds(tmp_path):
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "a.txt").write_text("A\n\nAn abstract.\n", encoding="utf-8")
    data = tmp_path / "data"
    assert len(session_of(data, [folder]).open()[0].papers) == 1
    (folder / "b.txt").write_text("B\n\nAnother abstract.\n", encoding="utf-8")
    assert len(session_of(data, [folder]).open()[0].papers) == 2


def test_schema_change_rebuilds(tmp_path, monkeypatch):
    data = tmp_path / "data"
    first, _ = session_of(data).open()
    monkeypatch.setattr(generation_meta, "SCHEMA_VERSION", generation_meta.SCHEMA_VERSION + 1)
    session = session_of(data)
    assert session.open_existing() is None
    second, _ = session.open()
    assert second.location != first.location
    assert second.meta.schema == generation_meta.SCHEMA_VERSION


def test_an_index_of_schema_7_is_rebuilt_once(tmp_path):
    """An index written before segments had postings files of their own (SCHEMA_VERSION 7:
    no `.ptp`) is rebuilt on the first launch after the upgrade, from scratch (none of its
    parts is kept, as they have no postings files), and the new one is then reused."""
    data = tmp_path / "data"
    first, _ = session_of(data).open()
    folder = Path(first.location)
    first.ix.close()
    meta = json.loads((folder / "meta.json").read_bytes())
    assert meta["schema"] == generation_meta.SCHEMA_VERSION
    for ptp in (folder / store_module.ENGINE_FOLDER).glob("*.ptp"):
        ptp.unlink()
        del meta["files"][f"{store_module.ENGINE_FOLDER}/{ptp.name}"]

    def record(schema: int) -> None:
        written = json.dumps({**meta, "schema": schema}).encode()
        (folder / "meta.json").write_bytes(written)
        current = set_root(data) / "CURRENT"
        current.write_text(f"{folder.name} {generation_meta.crc_of(written)}\n", encoding="utf-8")

    record(generation_meta.SCHEMA_VERSION)
    assert session_of(data).store.read_meta() is not None  # recorded as the store reads it
    record(7)
    session = session_of(data)
    assert session.store.read_meta() is None
    assert session.open_existing() is None
    second, _ = session.open()
    assert second.location != first.location
    assert second.meta.schema == generation_meta.SCHEMA_VERSION
    engine = Path(second.location) / store_module.ENGINE_FOLDER
    assert list(engine.glob("*.ptp")) and not os.path.samefile(engine, folder)
    assert (
        len(Searcher(second.ix, second.papers, second.vocabulary()).search("transformer").hits) > 0
    )
    second.ix.close()
    third = session_of(data).open_existing()
    assert third is not None and third.location == second.location


@pytest.mark.parametrize(
    "damage",
    ["toc", "segment", "papers", "meta", "current", "ptp cut", "ptp empty", "ptp byte", "no ptp"],
)
def test_damaged_index_is_rebuilt(tmp_path, damage):
    data = tmp_path / "data"
    first, _ = session_of(data).open()
    folder = Path(first.location)
    engine = folder / store_module.ENGINE_FOLDER
    first.ix.close()
    if damage == "toc":
        for toc in engine.glob("*.toc"):
            toc.unlink()
    elif damage == "segment":
        for postings in engine.glob("*.pst"):
            postings.write_bytes(postings.read_bytes()[:20])
    elif damage.startswith(("ptp", "no ptp")):  # the scorer's postings files
        for ptp in engine.glob("*.ptp"):
            content = ptp.read_bytes()
            if damage == "ptp cut":
                ptp.write_bytes(content[: len(content) // 2])
            elif damage == "ptp empty":
                ptp.write_bytes(b"")  # mapping an empty file raises ValueError
            elif damage == "ptp byte":
                middle = len(content) // 2
                flipped = bytes([content[middle] ^ 1])
                ptp.write_bytes(content[:middle] + flipped + content[middle + 1 :])
            else:
                ptp.unlink()
    elif damage == "papers":
        (folder / store_module.PAPERS_FILE).write_bytes(b"\x00garbage")
    elif damage == "meta":
        (folder / "meta.json").write_text("not json", encoding="utf-8")
    else:
        (set_root(data) / "CURRENT").write_text("gen-nonexistent 1\n", encoding="utf-8")
    session = session_of(data)
    assert session.open_existing() is None
    second, _ = session.open()
    assert len(second.papers) == SEED_PAPERS
    assert second.location != first.location


def test_a_postings_file_damaged_with_its_stamps_kept_is_rebuilt(tmp_path):
    """Damage that kept a file's size and times (a disk's, not a write's) is not read again
    by the check (the stamps it recorded for the file still match): a postings file whose
    hash table has no free slot (a look-up of a missing term would never end) is found
    when the index is opened, and the index is rebuilt as for other damage."""
    data = tmp_path / "data"
    first, _ = session_of(data).open()
    folder = Path(first.location)
    first.ix.close()
    damaged = sorted((folder / store_module.ENGINE_FOLDER).glob("*.ptp"))
    assert damaged
    for ptp in damaged:
        ptp.write_bytes(fill_hash_table(ptp.read_bytes()))
    names = [ptp.relative_to(folder).as_posix() for ptp in damaged]
    stamps = {**store_module._read_stamps(folder), **store_module._stamps(folder, names)}
    store_module._write_stamps(folder, stamps)  # as if they had kept their stamps
    session = session_of(data)
    assert session.open_existing() is None
    second, _ = session.open()
    assert len(second.papers) == SEED_PAPERS
    assert second.location != first.location
    assert Searcher(second.ix, second.papers).search("attention").hits


def test_leftover_temp_build_is_removed_and_old_generations_pruned(tmp_path):
    data = tmp_path / "data"
    session_of(data).open()
    root = set_root(data)
    leftover = root / "tmp-killed"
    leftover.mkdir()
    (leftover / "junk").write_text("x")
    for _ in range(3):
        session_of(data).open(rebuild=True)
    assert not leftover.exists()
    generations = list(root.glob("gen-*"))
    assert len(generations) == 2  # the live one and the previous one


def test_unwritable_data_dir_falls_back_to_memory(tmp_path, monkeypatch):
    def refuse(self):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(Store, "build_lock", refuse)
    session = session_of(tmp_path / "data")
    opened, _ = session.open()
    assert opened.location == ":memory:"
    assert len(opened.papers) == SEED_PAPERS
    assert any("in-memory" in warning for warning in session.warnings)


def test_data_dir_that_is_a_file_is_refused(tmp_path):
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    with pytest.raises(SessionError, match="not a folder"):
        session_of(not_a_folder)


def test_meta_records_counts_and_collections(tmp_path):
    opened, _ = session_of(tmp_path / "data").open()
    meta = json.loads((Path(opened.location) / "meta.json").read_text(encoding="utf-8"))
    assert meta["papers"] == SEED_PAPERS
    assert meta["collections"] == ["ICML 2024 Papers", "ICML 2024 论文列表"]


def test_cancelled_build_leaves_no_trace(tmp_path):
    session = session_of(tmp_path / "data")
    with pytest.raises(BuildCancelled):
        session.open(cancelled=lambda: True)
    root = set_root(tmp_path / "data")
    assert not list(root.glob("tmp-*")) and not list(root.glob("gen-*"))
    shutil.rmtree(root)
    assert len(session_of(tmp_path / "data").open()[0].papers) == SEED_PAPERS


def test_parser_version_change_rebuilds(tmp_path, monkeypatch):
    data = tmp_path / "data"
    generation = built_seeds(data)
    monkeypatch.setattr(generation_meta, "PARSER_VERSION", generation_meta.PARSER_VERSION + 1)
    location, count, _ = reopened(data)
    assert location != str(generation) and count == SEED_PAPERS


# --- an answer from its own sources only (issue 10) -----------------------------------------


def test_each_set_of_sources_answers_from_its_own_index(tmp_path):
    data = tmp_path / "data"
    a = list_file(tmp_path / "a.txt", "List A", ["Aardvarks dig burrows at night."])
    b = list_file(tmp_path / "b.txt", "List B", ["Bobcats hunt rabbits at dawn."])
    first, _ = session_of(data, [a]).open()
    with FileLock(set_root(data, [a]) / "build.lock"):  # "another process rebuilds A"
        session = session_of(data, [b])
        opened, _ = session.open()
    assert [p.collection for p in opened.papers] == ["List B"]
    searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
    assert searcher.search("bobcats").total == 1
    assert searcher.search("aardvarks").total == 0
    assert session.warnings == []
    assert session_of(data, [a]).open_existing().location == first.location


def test_the_indexes_of_the_least_recently_used_sets_are_removed(tmp_path, monkeypatch):
    data = tmp_path / "data"
    monkeypatch.setattr(store_module, "MAX_SETS", 3)
    lists = [
        list_file(tmp_path / f"{n}.txt", f"List {n}", [f"Abstract number {n} here."])
        for n in range(5)
    ]
    for moment, path in enumerate(lists):
        session_of(data, [path]).open()
        os.utime(set_root(data, [path]) / "used", ns=(moment, moment))
    kept = sorted(p.name for p in (data / "index" / "whoosh").iterdir())
    assert kept == sorted(set_root(data, [path]).name for path in lists[2:])


@pytest.mark.slow
def test_a_command_answers_from_its_own_sources_while_another_process_rebuilds(tmp_path):
    a = tmp_path / "a"
    write_generated_corpus(a, 300)
    b = list_file(tmp_path / "b.txt", "List B", ["Bobcats hunt rabbits at dawn."])
    env = {**os.environ, "PAPERTERM_DATA_DIR": str(tmp_path / "data")}
    env["PAPERTERM_CONFIG"] = str(tmp_path / "none.toml")
    (tmp_path / "none.toml").write_text("")
    assert finished(cli_process(env, "--source", str(a), "index"))[0] == 0
    lock = FileLock(set_root(tmp_path / "data", [a]) / "build.lock")
    rebuild = cli_process(env, "--source", str(a), "index", "--rebuild")
    try:
        while lock.try_acquire():  # until the rebuild holds A's lock
            lock.release()
            assert rebuild.poll() is None, "the rebuild ended before it was caught"
        rebuild.send_signal(signal.SIGSTOP)
        code, out, err = finished(
            cli_process(env, "--source", str(b), "search", "--json", "bobcats")
        )
        assert code == 0, err
        assert json.loads(out)["total"] == 1
        code, out, err = finished(cli_process(env, "--source", str(b), "list", "--json"))
        assert [paper["collection"] for paper in json.loads(out)] == ["List B"]
        assert err == ""
    finally:
        rebuild.send_signal(signal.SIGCONT)
    assert finished(rebuild)[0] == 0


# --- change detection not fooled (issue 10) --------------------------------------------------


def test_an_edit_that_keeps_the_size_and_the_mtime_is_noticed(tmp_path):
    data = tmp_path / "data"
    source = list_file(tmp_path / "list.txt", "Mine", ["A study of otters and rivers."])
    session_of(data, [source]).open()
    stamp = source.stat()
    source.write_text(source.read_text().replace("otters", "beaver"), encoding="utf-8")
    os.utime(source, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # `touch -r`
    assert source.stat().st_size == stamp.st_size
    session = session_of(data, [source])
    assert session.open_existing() is None
    opened, _ = session.open()
    searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
    assert searcher.search("beaver").total == 1
    assert searcher.search("otters").total == 0


def test_a_meta_written_keeps_every_field_of_a_source_entry():
    from dataclasses import fields as dataclass_fields

    from paperterm.index.search.generation_meta import Fingerprint, Meta, SourceEntry

    entry = SourceEntry(
        key="0:a.json",
        path="a.json",
        collection="C",
        fingerprint=Fingerprint(size=1, mtime_ns=2, ino=3, ctime_ns=4, digest="d"),
        cache="c.bin",
        records=3,
        problems=["a.json:1: odd"],
        span=[0, 10, 1],
        format="json",
        joins={"added": 1, "joined": 2, "not_joined": 0, "fields": {"title": 3}},
    )
    meta = Meta.transient("whoosh", [])
    meta.sources = [entry]
    written = meta.to_json()["sources"][0]
    assert set(written) == {f.name for f in dataclass_fields(SourceEntry)}
    assert SourceEntry.from_json(written) == entry
