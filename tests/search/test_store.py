"""The on-disk index: built on first use and reused, rebuilt when stale or damaged, and
recovering by itself from whatever state a data dir is in: killed builds, damaged or missing
files, stale locks, odd data dirs (it rebuilds what is damaged, ignores locks nobody holds,
and runs from an in-memory index, with a warning, where it cannot write)."""

from __future__ import annotations

import errno
import json
import marshal
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from damaged_postings import fill_hash_table
from engine_choice import ENGINES, engine_config
from generated import write_generated_corpus

from paperterm.index.atomic import FileLock
from paperterm.index.config import Config
from paperterm.index.search import build as build_module
from paperterm.index.search import store as store_module
from paperterm.index.search.searcher import Searcher
from paperterm.index.search.store import BuildCancelled, Store
from paperterm.index.search.whoosh_index import WhooshFiles
from paperterm.index.search.whoosh_segments import SegmentBuilder
from paperterm.index.session import Session, SessionError

SEED_PAPERS = 38


def _session(data: Path, sources: list[Path] | None = None) -> Session:
    return Session.create(data, sources or [], Config())


def _set_root(data: Path, sources: list[Path] | None = None) -> Path:
    """The folder of the index of these sources (the seeds by default)."""
    return _session(data, sources).store.root


def test_index_is_built_on_first_use_and_reused(tmp_path):
    data = tmp_path / "data"
    assert not data.exists()
    first, _ = _session(data).open()
    assert len(first.papers) == SEED_PAPERS
    current = _set_root(data) / "CURRENT"
    assert current.is_file()
    generation = current.read_text()
    second_session = _session(data)
    assert second_session.open_existing() is not None
    second, _ = second_session.open()
    assert second.location == first.location
    assert current.read_text() == generation
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


def test_an_index_of_schema_7_is_rebuilt_once(tmp_path):
    """An index written before segments had postings files of their own (SCHEMA_VERSION 7:
    no `.ptp`) is rebuilt on the first launch after the upgrade, from scratch (none of its
    parts is kept, as they have no postings files), and the new one is then reused."""
    data = tmp_path / "data"
    first, _ = _session(data).open()
    folder = Path(first.location)
    first.ix.close()
    meta = json.loads((folder / "meta.json").read_bytes())
    assert meta["schema"] == store_module.SCHEMA_VERSION
    for ptp in (folder / store_module.ENGINE_FOLDER).glob("*.ptp"):
        ptp.unlink()
        del meta["files"][f"{store_module.ENGINE_FOLDER}/{ptp.name}"]

    def record(schema: int) -> None:
        written = json.dumps({**meta, "schema": schema}).encode()
        (folder / "meta.json").write_bytes(written)
        current = _set_root(data) / "CURRENT"
        current.write_text(f"{folder.name} {store_module.crc_of(written)}\n", encoding="utf-8")

    record(store_module.SCHEMA_VERSION)
    assert _session(data).store.read_meta() is not None  # recorded as the store reads it
    record(7)
    session = _session(data)
    assert session.store.read_meta() is None
    assert session.open_existing() is None
    second, _ = session.open()
    assert second.location != first.location
    assert second.meta.schema == store_module.SCHEMA_VERSION
    engine = Path(second.location) / store_module.ENGINE_FOLDER
    assert list(engine.glob("*.ptp")) and not os.path.samefile(engine, folder)
    assert (
        len(Searcher(second.ix, second.papers, second.vocabulary()).search("transformer").hits) > 0
    )
    second.ix.close()
    third = _session(data).open_existing()
    assert third is not None and third.location == second.location


@pytest.mark.parametrize(
    "damage",
    ["toc", "segment", "papers", "meta", "current", "ptp cut", "ptp empty", "ptp byte", "no ptp"],
)
def test_damaged_index_is_rebuilt(tmp_path, damage):
    data = tmp_path / "data"
    first, _ = _session(data).open()
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
        (_set_root(data) / "CURRENT").write_text("gen-nonexistent 1\n", encoding="utf-8")
    session = _session(data)
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
    first, _ = _session(data).open()
    folder = Path(first.location)
    first.ix.close()
    damaged = sorted((folder / store_module.ENGINE_FOLDER).glob("*.ptp"))
    assert damaged
    for ptp in damaged:
        ptp.write_bytes(fill_hash_table(ptp.read_bytes()))
    names = [ptp.relative_to(folder).as_posix() for ptp in damaged]
    stamps = {**store_module._read_stamps(folder), **store_module._stamps(folder, names)}
    store_module._write_stamps(folder, stamps)  # as if they had kept their stamps
    session = _session(data)
    assert session.open_existing() is None
    second, _ = session.open()
    assert len(second.papers) == SEED_PAPERS
    assert second.location != first.location
    assert Searcher(second.ix, second.papers).search("attention").hits


def test_leftover_temp_build_is_removed_and_old_generations_pruned(tmp_path):
    data = tmp_path / "data"
    _session(data).open()
    root = _set_root(data)
    leftover = root / "tmp-killed"
    leftover.mkdir()
    (leftover / "junk").write_text("x")
    for _ in range(3):
        _session(data).open(rebuild=True)
    assert not leftover.exists()
    generations = list(root.glob("gen-*"))
    assert len(generations) == 2  # the live one and the previous one


def test_unwritable_data_dir_falls_back_to_memory(tmp_path, monkeypatch):
    def refuse(self):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(Store, "build_lock", refuse)
    session = _session(tmp_path / "data")
    opened, _ = session.open()
    assert opened.location == ":memory:"
    assert len(opened.papers) == SEED_PAPERS
    assert any("in-memory" in warning for warning in session.warnings)


def test_data_dir_that_is_a_file_is_refused(tmp_path):
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    with pytest.raises(SessionError, match="not a folder"):
        _session(not_a_folder)


def test_meta_records_counts_and_collections(tmp_path):
    opened, _ = _session(tmp_path / "data").open()
    meta = json.loads((Path(opened.location) / "meta.json").read_text(encoding="utf-8"))
    assert meta["papers"] == SEED_PAPERS
    assert meta["collections"] == ["ICML 2024 Papers", "ICML 2024 论文列表"]


def test_cancelled_build_leaves_no_trace(tmp_path):
    session = _session(tmp_path / "data")
    with pytest.raises(BuildCancelled):
        session.open(cancelled=lambda: True)
    root = _set_root(tmp_path / "data")
    assert not list(root.glob("tmp-*")) and not list(root.glob("gen-*"))
    shutil.rmtree(root)
    assert len(_session(tmp_path / "data").open()[0].papers) == SEED_PAPERS


# --- damaged or missing files, in detail ----------------------------------------


def _built(data: Path) -> Path:
    """Build the seeds' index in `data`; the live generation folder."""
    opened, _ = _session(data).open()
    opened.ix.close()
    return Path(opened.location)


def _reopened(data: Path) -> tuple[str, int, list[str]]:
    session = _session(data)
    opened, _ = session.open()
    return opened.location, len(opened.papers), session.warnings


# --- damaged or missing files -----------------------------------------------------------


def _cut_in_half(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _engine_files(gen: Path, suffix: str) -> list[Path]:
    return list((gen / store_module.ENGINE_FOLDER).glob(f"*{suffix}"))


def _edit_meta(gen: Path, **changes) -> None:
    meta = json.loads((gen / "meta.json").read_text())
    (gen / "meta.json").write_text(json.dumps({**meta, **changes}))


DAMAGE = {
    "postings file missing": lambda gen, root: [p.unlink() for p in _engine_files(gen, ".pst")],
    "postings file truncated": lambda gen, root: [
        _cut_in_half(p) for p in _engine_files(gen, ".pst")
    ],
    "terms file emptied": lambda gen, root: [
        p.write_bytes(b"") for p in _engine_files(gen, ".trm")
    ],
    "table of contents missing": lambda gen, root: [p.unlink() for p in _engine_files(gen, ".toc")],
    "papers file missing": lambda gen, root: (gen / store_module.PAPERS_FILE).unlink(),
    "papers file truncated": lambda gen, root: _cut_in_half(gen / store_module.PAPERS_FILE),
    "papers file not a record file": lambda gen, root: (gen / store_module.PAPERS_FILE).write_text(
        "{}"
    ),
    "papers file of another version": lambda gen, root: (
        gen / store_module.PAPERS_FILE
    ).write_bytes(marshal.dumps((("id", "title"), [("a", "b")]))),
    "rows file missing": lambda gen, root: (gen / store_module.ROWS_FILE).unlink(),
    "rows file truncated": lambda gen, root: _cut_in_half(gen / store_module.ROWS_FILE),
    "meta.json missing": lambda gen, root: (gen / "meta.json").unlink(),
    "meta.json truncated": lambda gen, root: _cut_in_half(gen / "meta.json"),
    "meta.json from a newer version": lambda gen, root: _edit_meta(gen, added_later=1),
    "meta.json counts wrong": lambda gen, root: _edit_meta(gen, papers=7),
    "CURRENT empty": lambda gen, root: (root / "CURRENT").write_text(""),
    "CURRENT points outside": lambda gen, root: (root / "CURRENT").write_text(f"../{gen.name} 1"),
    "CURRENT binary": lambda gen, root: (root / "CURRENT").write_bytes(b"\xff\x00gen-\x1b[2J"),
    "generation folder gone": lambda gen, root: os.rename(gen, root / "elsewhere"),
}


@pytest.mark.parametrize("damage", DAMAGE)
def test_damaged_index_is_rebuilt_on_next_start(tmp_path, damage):
    data = tmp_path / "data"
    generation = _built(data)
    DAMAGE[damage](generation, _set_root(data))
    assert _session(data).open_existing() is None
    location, count, warnings = _reopened(data)
    assert count == SEED_PAPERS
    assert location not in (str(generation), ":memory:")
    assert warnings == []
    # ... and the rebuilt index is the one the start after that uses.
    assert _reopened(data)[0] == location


@pytest.mark.parametrize("vocabulary", ["missing", "truncated"])
def test_damaged_vocabulary_is_counted_again(tmp_path, vocabulary):
    data = tmp_path / "data"
    generation = _built(data)
    path = generation / store_module.VOCABULARY_FILE
    path.unlink() if vocabulary == "missing" else _cut_in_half(path)
    opened, _ = _session(data).open()
    searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
    try:
        assert searcher.search("complement*").total >= 1
    finally:
        searcher.close()


def test_parser_version_change_rebuilds(tmp_path, monkeypatch):
    data = tmp_path / "data"
    generation = _built(data)
    monkeypatch.setattr(store_module, "PARSER_VERSION", store_module.PARSER_VERSION + 1)
    location, count, _ = _reopened(data)
    assert location != str(generation) and count == SEED_PAPERS


# --- builds that stop half-way ----------------------------------------------------------

#: Steps of a build, in order, and how to make each one fail.
BUILD_STEPS = ["prepare", "part", "commit", "papers", "checksums", "rename", "current"]


class _OsFailingRename:
    """The `os` module as the store sees it, with a `rename` that fails."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def __getattr__(self, name: str):
        return getattr(os, name)

    def rename(self, *args, **kwargs):
        raise self.error


def _fail_at(monkeypatch, step: str, error: BaseException) -> None:
    def fail(*args, **kwargs):
        raise error

    if step == "prepare":
        monkeypatch.setattr(build_module, "prepare_source", fail)
    elif step == "part":
        monkeypatch.setattr(SegmentBuilder, "finish", fail)
    elif step == "commit":
        monkeypatch.setattr(WhooshFiles, "commit", fail)
    elif step == "papers":
        monkeypatch.setattr(build_module, "write_papers", fail)
    elif step == "checksums":
        monkeypatch.setattr(store_module, "_checksums", fail)
    elif step == "rename":
        monkeypatch.setattr(store_module, "os", _OsFailingRename(error))
    else:
        real_write = store_module.atomic_write_text

        def write(path, text, **kwargs):
            if Path(path).name == "CURRENT":
                raise error
            real_write(path, text, **kwargs)

        monkeypatch.setattr(store_module, "atomic_write_text", write)


@pytest.mark.parametrize("step", BUILD_STEPS)
def test_rebuild_interrupted_at_any_step_keeps_the_old_index(tmp_path, monkeypatch, step):
    data = tmp_path / "data"
    generation = _built(data)
    with monkeypatch.context() as patch:
        _fail_at(patch, step, KeyboardInterrupt())
        with pytest.raises(KeyboardInterrupt):
            _session(data).open(rebuild=True)
    root = _set_root(data)
    assert [p.name for p in root.glob("gen-*")] == [generation.name]
    assert not list(root.glob("tmp-*"))
    assert _reopened(data)[:2] == (str(generation), SEED_PAPERS)


@pytest.mark.parametrize("step", [s for s in BUILD_STEPS if s != "part"])
def test_first_build_failing_to_write_runs_from_memory_and_leaves_nothing(
    tmp_path, monkeypatch, step
):
    data = tmp_path / "data"
    with monkeypatch.context() as patch:
        _fail_at(patch, step, OSError(errno.EROFS, "Read-only file system"))
        location, count, warnings = _reopened(data)
    assert (location, count) == (":memory:", SEED_PAPERS)
    assert len(warnings) == 1 and "Read-only file system" in warnings[0]
    root = _set_root(data)
    assert not list(root.glob("gen-*")) and not list(root.glob("tmp-*"))
    assert _reopened(data)[1:] == (SEED_PAPERS, [])  # writable again: built on disk


def test_temporary_files_of_a_killed_build_are_removed_by_the_next(tmp_path):
    data = tmp_path / "data"
    _built(data)
    root = _set_root(data)
    leftovers = [root / "tmp-killed", root / ".CURRENT.abc123.tmp"]
    leftovers[0].mkdir()
    leftovers[1].write_text("gen-half")
    _session(data).open(rebuild=True)
    assert not any(path.exists() for path in leftovers)


# --- stale locks ------------------------------------------------------------------------


def test_stale_build_lock_file_is_ignored(tmp_path):
    data = tmp_path / "data"
    root = _set_root(data)
    root.mkdir(parents=True)
    (root / "build.lock").write_text("12345 from a process long gone\n")
    location, count, warnings = _reopened(data)
    assert location.startswith(str(data)) and count == SEED_PAPERS
    assert warnings == []


# --- data dirs that are not what they should be -----------------------------------------


@pytest.mark.parametrize("kind", ["broken link", "link loop"])
def test_data_dir_that_is_a_dangling_link_is_refused(tmp_path, kind):
    data = tmp_path / "data"
    if kind == "broken link":
        data.symlink_to(tmp_path / "nowhere")
    else:
        (tmp_path / "other").symlink_to(data)
        data.symlink_to(tmp_path / "other")
    with pytest.raises(SessionError, match="symbolic link"):
        _session(data)


def test_data_dir_link_to_a_folder_is_fine(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "data").symlink_to(tmp_path / "real")
    assert _reopened(tmp_path / "data")[1] == SEED_PAPERS
    assert (_set_root(tmp_path / "real") / "CURRENT").is_file()


DAMAGED_DIRS = {
    "data dir under a file": lambda data: data.parent.write_text("x"),
    "index is a file": lambda data: (data.mkdir(), (data / "index").write_text("x")),
    "CURRENT is a folder": lambda data: (_set_root(data) / "CURRENT").mkdir(parents=True),
    "build.lock is a folder": lambda data: (_set_root(data) / "build.lock").mkdir(parents=True),
}


@pytest.mark.parametrize("damage", DAMAGED_DIRS)
def test_data_dir_that_cannot_hold_an_index_runs_from_memory(tmp_path, damage):
    data = tmp_path / "file" / "data" if damage == "data dir under a file" else tmp_path / "data"
    DAMAGED_DIRS[damage](data)
    location, count, warnings = _reopened(data)
    assert (location, count) == (":memory:", SEED_PAPERS)
    assert len(warnings) == 1 and "in-memory" in warnings[0] and str(data) in warnings[0]
    assert not list(data.glob("index/*/*/gen-*"))  # no half-installed generation left behind


def test_read_only_data_dir_runs_from_memory(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    data.chmod(0o500)
    try:
        if os.access(data, os.W_OK):
            pytest.skip("running as root: permissions do not stop writes")
        location, count, warnings = _reopened(data)
    finally:
        data.chmod(0o700)
    assert (location, count) == (":memory:", SEED_PAPERS)
    assert "Permission denied" in warnings[0]


def test_non_utf8_file_names_and_json_surrogates_do_not_stop_the_build(tmp_path):
    folder = tmp_path / "corpus"
    folder.mkdir()
    latin_name = os.fsdecode(b"caf\xe9")  # a lone surrogate in the str, as Linux hands it
    (folder / f"{latin_name}.txt").write_text("An abstract about coffee and its effects.\n")
    (folder / "lone.json").write_text(
        '[{"id": "x\\ud800", "title": "T \\udfff", "abstract": "Lone \\ud800 surrogate."}]'
    )
    data = tmp_path / "data"
    location, count, warnings = _reopened_with(data, folder)
    assert count == 2 and location != ":memory:" and warnings == []
    opened, _ = _session(data, [folder]).open()
    assert opened.location == location  # the saved index reads back, not rebuilt
    by_source = {Path(p.source).name: p for p in opened.papers}
    assert by_source[f"{latin_name}.txt"].collection == latin_name  # kept exactly
    assert by_source["lone.json"].title == "T \ufffd"


def _reopened_with(data: Path, folder: Path) -> tuple[str, int, list[str]]:
    session = _session(data, [folder])
    opened, _ = session.open()
    return opened.location, len(opened.papers), session.warnings


# --- a real build, killed at random moments ----------------------------------------------

KILL_ROUNDS = 12
KILL_ABSTRACTS = 300


def _cli(env: dict[str, str], *args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "paperterm.tui.cli.main", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kwargs,
    )


def _finish(process: subprocess.Popen) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=120)
    return process.returncode, out, err


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
def test_index_rebuild_killed_at_random_moments_recovers(tmp_path, engine):
    engine_config(engine)  # skips tantivy when it is not installed
    corpus = tmp_path / "corpus"
    write_generated_corpus(corpus, KILL_ABSTRACTS)
    (tmp_path / "config.toml").write_text(
        f"include_seeds = false\n[[sources]]\npath = '{corpus}'\n"
    )
    env = {
        **os.environ,
        "PAPERTERM_DATA_DIR": str(tmp_path / "data"),
        "PAPERTERM_CONFIG": str(tmp_path / "config.toml"),
        "PAPERTERM_ENGINE": engine,
    }
    started = time.perf_counter()
    code, out, err = _finish(_cli(env, "index", "--rebuild"))
    build_seconds = time.perf_counter() - started
    assert code == 0 and out.startswith(f"{KILL_ABSTRACTS} papers"), err

    rng = random.Random(20240721)
    killed_while_running = rounds = 0
    # KILL_ROUNDS rounds, more (up to three times as many) while fewer than half the kills
    # landed during a build: on a loaded machine the first build may have been slower than
    # the later ones, so a kill drawn late in its length can come after the build ended.
    while rounds < KILL_ROUNDS or (
        killed_while_running < KILL_ROUNDS // 2 and rounds < 3 * KILL_ROUNDS
    ):
        rounds += 1
        delay = rng.uniform(0.0, build_seconds * 1.1)
        process = _cli(env, "index", "--rebuild")
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        process.communicate(timeout=120)
        if process.returncode == -signal.SIGKILL:
            killed_while_running += 1
        else:  # the build ended within `delay`: draw the next kills from that shorter length
            build_seconds = min(build_seconds, delay)

        listing = _cli(env, "list", "--json")
        search = _cli(env, "search", "--json", "generated")
        code, out, err = _finish(listing)
        assert code == 0, f"after a kill at {delay:.2f} s: {err}"
        assert len(json.loads(out)) == KILL_ABSTRACTS
        assert "Traceback" not in err
        code, out, err = _finish(search)
        assert code == 0, f"after a kill at {delay:.2f} s: {err}"
        assert json.loads(out)["total"] == KILL_ABSTRACTS  # every paper is in a "Generated" list
    # The kills did land during the builds (not all after them), spread over their length.
    assert killed_while_running >= KILL_ROUNDS // 2

    code, _, err = _finish(_cli(env, "index", "--rebuild"))
    assert code == 0, err
    (root,) = (tmp_path / "data" / "index" / engine).iterdir()
    assert not list(root.glob("tmp-*")) and not list(root.glob(".CURRENT.*"))
    assert len(list(root.glob("gen-*"))) <= 2


def test_an_in_memory_index_writes_nothing_to_the_temp_dir(tmp_path, monkeypatch):
    """Whoosh's RamStorage kept its writers' scratch files in `$TMPDIR/MAIN.tmp`, shared by
    every process: two in-memory builds at once deleted each other's files and crashed
    (found by two `paperterm index` runs over an unwritable data dir), and a temp dir that
    cannot be written failed the build that was meant to need no disk."""
    import tempfile

    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    monkeypatch.setattr(tempfile, "tempdir", str(a_file / "tmp"))  # nothing can go there
    opened, _ = _session(a_file / "data").open()
    assert opened.location == ":memory:" and len(opened.papers) == SEED_PAPERS


# --- an answer from its own sources only (issue 10) -----------------------------------------


def _list_file(path: Path, name: str, abstracts: list[str]) -> Path:
    path.write_text("\n\n".join([name, *abstracts]) + "\n", encoding="utf-8")
    return path


def test_each_set_of_sources_answers_from_its_own_index(tmp_path):
    data = tmp_path / "data"
    a = _list_file(tmp_path / "a.txt", "List A", ["Aardvarks dig burrows at night."])
    b = _list_file(tmp_path / "b.txt", "List B", ["Bobcats hunt rabbits at dawn."])
    first, _ = _session(data, [a]).open()
    with FileLock(_set_root(data, [a]) / "build.lock"):  # "another process rebuilds A"
        session = _session(data, [b])
        opened, _ = session.open()
    assert [p.collection for p in opened.papers] == ["List B"]
    searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
    assert searcher.search("bobcats").total == 1
    assert searcher.search("aardvarks").total == 0
    assert session.warnings == []
    assert _session(data, [a]).open_existing().location == first.location


def test_the_indexes_of_the_least_recently_used_sets_are_removed(tmp_path, monkeypatch):
    data = tmp_path / "data"
    monkeypatch.setattr(store_module, "MAX_SETS", 3)
    lists = [
        _list_file(tmp_path / f"{n}.txt", f"List {n}", [f"Abstract number {n} here."])
        for n in range(5)
    ]
    for moment, path in enumerate(lists):
        _session(data, [path]).open()
        os.utime(_set_root(data, [path]) / "used", ns=(moment, moment))
    kept = sorted(p.name for p in (data / "index" / "whoosh").iterdir())
    assert kept == sorted(_set_root(data, [path]).name for path in lists[2:])


@pytest.mark.slow
def test_a_command_answers_from_its_own_sources_while_another_process_rebuilds(tmp_path):
    a = tmp_path / "a"
    write_generated_corpus(a, 300)
    b = _list_file(tmp_path / "b.txt", "List B", ["Bobcats hunt rabbits at dawn."])
    env = {**os.environ, "PAPERTERM_DATA_DIR": str(tmp_path / "data")}
    env["PAPERTERM_CONFIG"] = str(tmp_path / "none.toml")
    (tmp_path / "none.toml").write_text("")
    assert _finish(_cli(env, "--source", str(a), "index"))[0] == 0
    lock = FileLock(_set_root(tmp_path / "data", [a]) / "build.lock")
    rebuild = _cli(env, "--source", str(a), "index", "--rebuild")
    try:
        while lock.try_acquire():  # until the rebuild holds A's lock
            lock.release()
            assert rebuild.poll() is None, "the rebuild ended before it was caught"
        rebuild.send_signal(signal.SIGSTOP)
        code, out, err = _finish(_cli(env, "--source", str(b), "search", "--json", "bobcats"))
        assert code == 0, err
        assert json.loads(out)["total"] == 1
        code, out, err = _finish(_cli(env, "--source", str(b), "list", "--json"))
        assert [paper["collection"] for paper in json.loads(out)] == ["List B"]
        assert err == ""
    finally:
        rebuild.send_signal(signal.SIGCONT)
    assert _finish(rebuild)[0] == 0


# --- damage is detected, never served (issue 10) --------------------------------------------


def _damage_at(path: Path, offset: int, size: int = 4096) -> None:
    """Zeros over `size` bytes from `offset` (as `dd conv=notrunc` would write them)."""
    with open(path, "r+b") as handle:
        handle.seek(offset)
        handle.write(b"\0" * min(size, max(0, path.stat().st_size - offset)))


def _index_files(generation: Path) -> list[Path]:
    return sorted(
        path
        for path in generation.rglob("*")
        if path.is_file() and path.name not in ("verified.json",) and path.stat().st_size
    )


def _damage_sweep(tmp_path: Path, rounds: int, seed: int) -> None:
    corpus = tmp_path / "corpus"
    write_generated_corpus(corpus, 200)
    data = tmp_path / "data"
    opened, _ = _session(data, [corpus]).open()
    queries = ["generated", opened.papers[0].text.split()[2].strip(".").lower(), "ba*"]
    expected = _answers(opened, queries)
    rng = random.Random(seed)
    damaged = 0
    for _ in range(rounds):
        generation = Path(_session(data, [corpus]).open()[0].location)
        target = rng.choice(_index_files(generation))
        before = target.read_bytes()
        _damage_at(target, rng.randrange(target.stat().st_size))
        damaged += target.read_bytes() != before
        session = _session(data, [corpus])
        opened, _ = session.open()
        assert _answers(opened, queries) == expected, f"after damage to {target.name}"
    assert damaged >= rounds // 2  # most rounds changed something


def _answers(opened, queries: list[str]) -> list[tuple[int, list[str]]]:
    searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
    found = []
    for query in queries:
        results = searcher.search(query, limit=20)
        found.append((results.total, [(h.paper.id, h.snippet) for h in results.hits]))
    return found


def test_damage_to_index_files_is_detected_and_repaired(tmp_path):
    _damage_sweep(tmp_path, rounds=6, seed=1)


@pytest.mark.slow
def test_damage_at_many_offsets_never_gives_a_wrong_answer(tmp_path):
    _damage_sweep(tmp_path, rounds=82, seed=2)


def test_check_reads_every_file_and_says_what_it_found(tmp_path):
    data = tmp_path / "data"
    generation = _built(data)
    session = _session(data)
    sound = session.check()
    assert (sound.damaged, sound.rebuilt) == ([], False)
    assert sound.files > 5
    postings = next((generation / store_module.ENGINE_FOLDER).glob("*.pst"))
    stamp = postings.stat()
    _damage_at(postings, 100, 16)
    os.utime(postings, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # the mtime put back
    found = _session(data).check()
    assert found.damaged == [f"engine/{postings.name}: checksum differs"]
    assert found.rebuilt and found.location != str(generation)
    assert _session(data).check().damaged == []


# --- change detection not fooled (issue 10) --------------------------------------------------


def test_an_edit_that_keeps_the_size_and_the_mtime_is_noticed(tmp_path):
    data = tmp_path / "data"
    source = _list_file(tmp_path / "list.txt", "Mine", ["A study of otters and rivers."])
    _session(data, [source]).open()
    stamp = source.stat()
    source.write_text(source.read_text().replace("otters", "beaver"), encoding="utf-8")
    os.utime(source, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # `touch -r`
    assert source.stat().st_size == stamp.st_size
    session = _session(data, [source])
    assert session.open_existing() is None
    opened, _ = session.open()
    searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
    assert searcher.search("beaver").total == 1
    assert searcher.search("otters").total == 0


def test_a_meta_written_keeps_every_field_of_a_source_entry():
    from dataclasses import fields as dataclass_fields

    from paperterm.index.search.store import Fingerprint, Meta, SourceEntry

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
