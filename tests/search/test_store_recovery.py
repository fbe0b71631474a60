"""The on-disk index recovering by itself from whatever state a data dir is in: killed builds,
damaged or missing files, stale locks, odd data dirs (it rebuilds what is damaged, ignores
locks nobody holds, and runs from an in-memory index, with a warning, where it cannot write)."""

from __future__ import annotations

import errno
import json
import marshal
import os
import random
import signal
import time
from pathlib import Path

import pytest
from engine_choice import ENGINES, engine_config
from generated import write_generated_corpus
from store_sessions import (
    SEED_PAPERS,
    built_seeds,
    cli_process,
    finished,
    reopened,
    session_of,
    set_root,
)

from paperterm.index.search import build as build_module
from paperterm.index.search import build_prepare
from paperterm.index.search import store as store_module
from paperterm.index.search.searcher import Searcher
from paperterm.index.search.whoosh.index import WhooshFiles
from paperterm.index.search.whoosh.segments import SegmentBuilder
from paperterm.index.session import SessionError

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
    generation = built_seeds(data)
    DAMAGE[damage](generation, set_root(data))
    assert session_of(data).open_existing() is None
    location, count, warnings = reopened(data)
    assert count == SEED_PAPERS
    assert location not in (str(generation), ":memory:")
    assert warnings == []
    # ... and the rebuilt index is the one the start after that uses.
    assert reopened(data)[0] == location


@pytest.mark.parametrize("vocabulary", ["missing", "truncated"])
def test_damaged_vocabulary_is_counted_again(tmp_path, vocabulary):
    data = tmp_path / "data"
    generation = built_seeds(data)
    path = generation / store_module.VOCABULARY_FILE
    path.unlink() if vocabulary == "missing" else _cut_in_half(path)
    opened, _ = session_of(data).open()
    searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
    try:
        assert searcher.search("complement*").total >= 1
    finally:
        searcher.close()


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
        monkeypatch.setattr(build_prepare, "prepare_source", fail)
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
    generation = built_seeds(data)
    with monkeypatch.context() as patch:
        _fail_at(patch, step, KeyboardInterrupt())
        with pytest.raises(KeyboardInterrupt):
            session_of(data).open(rebuild=True)
    root = set_root(data)
    assert [p.name for p in root.glob("gen-*")] == [generation.name]
    assert not list(root.glob("tmp-*"))
    assert reopened(data)[:2] == (str(generation), SEED_PAPERS)


@pytest.mark.parametrize("step", [s for s in BUILD_STEPS if s != "part"])
def test_first_build_failing_to_write_runs_from_memory_and_leaves_nothing(
    tmp_path, monkeypatch, step
):
    data = tmp_path / "data"
    with monkeypatch.context() as patch:
        _fail_at(patch, step, OSError(errno.EROFS, "Read-only file system"))
        location, count, warnings = reopened(data)
    assert (location, count) == (":memory:", SEED_PAPERS)
    assert len(warnings) == 1 and "Read-only file system" in warnings[0]
    root = set_root(data)
    assert not list(root.glob("gen-*")) and not list(root.glob("tmp-*"))
    assert reopened(data)[1:] == (SEED_PAPERS, [])  # writable again: built on disk


def test_temporary_files_of_a_killed_build_are_removed_by_the_next(tmp_path):
    data = tmp_path / "data"
    built_seeds(data)
    root = set_root(data)
    leftovers = [root / "tmp-killed", root / ".CURRENT.abc123.tmp"]
    leftovers[0].mkdir()
    leftovers[1].write_text("gen-half")
    session_of(data).open(rebuild=True)
    assert not any(path.exists() for path in leftovers)


# --- stale locks ------------------------------------------------------------------------


def test_stale_build_lock_file_is_ignored(tmp_path):
    data = tmp_path / "data"
    root = set_root(data)
    root.mkdir(parents=True)
    (root / "build.lock").write_text("12345 from a process long gone\n")
    location, count, warnings = reopened(data)
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
        session_of(data)


def test_data_dir_link_to_a_folder_is_fine(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "data").symlink_to(tmp_path / "real")
    assert reopened(tmp_path / "data")[1] == SEED_PAPERS
    assert (set_root(tmp_path / "real") / "CURRENT").is_file()


DAMAGED_DIRS = {
    "data dir under a file": lambda data: data.parent.write_text("x"),
    "index is a file": lambda data: (data.mkdir(), (data / "index").write_text("x")),
    "CURRENT is a folder": lambda data: (set_root(data) / "CURRENT").mkdir(parents=True),
    "build.lock is a folder": lambda data: (set_root(data) / "build.lock").mkdir(parents=True),
}


@pytest.mark.parametrize("damage", DAMAGED_DIRS)
def test_data_dir_that_cannot_hold_an_index_runs_from_memory(tmp_path, damage):
    data = tmp_path / "file" / "data" if damage == "data dir under a file" else tmp_path / "data"
    DAMAGED_DIRS[damage](data)
    location, count, warnings = reopened(data)
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
        location, count, warnings = reopened(data)
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
    opened, _ = session_of(data, [folder]).open()
    assert opened.location == location  # the saved index reads back, not rebuilt
    by_source = {Path(p.source).name: p for p in opened.papers}
    assert by_source[f"{latin_name}.txt"].collection == latin_name  # kept exactly
    assert by_source["lone.json"].title == "T \ufffd"


def _reopened_with(data: Path, folder: Path) -> tuple[str, int, list[str]]:
    session = session_of(data, [folder])
    opened, _ = session.open()
    return opened.location, len(opened.papers), session.warnings


# --- a real build, killed at random moments ----------------------------------------------

KILL_ROUNDS = 12
KILL_ABSTRACTS = 300


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
    code, out, err = finished(cli_process(env, "index", "--rebuild"))
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
        process = cli_process(env, "index", "--rebuild")
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        process.communicate(timeout=120)
        if process.returncode == -signal.SIGKILL:
            killed_while_running += 1
        else:  # the build ended within `delay`: draw the next kills from that shorter length
            build_seconds = min(build_seconds, delay)

        listing = cli_process(env, "list", "--json")
        search = cli_process(env, "search", "--json", "generated")
        code, out, err = finished(listing)
        assert code == 0, f"after a kill at {delay:.2f} s: {err}"
        assert len(json.loads(out)) == KILL_ABSTRACTS
        assert "Traceback" not in err
        code, out, err = finished(search)
        assert code == 0, f"after a kill at {delay:.2f} s: {err}"
        assert json.loads(out)["total"] == KILL_ABSTRACTS  # every paper is in a "Generated" list
    # The kills did land during the builds (not all after them), spread over their length.
    assert killed_while_running >= KILL_ROUNDS // 2

    code, _, err = finished(cli_process(env, "index", "--rebuild"))
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
    opened, _ = session_of(a_file / "data").open()
    assert opened.location == ":memory:" and len(opened.papers) == SEED_PAPERS


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
    opened, _ = session_of(data, [corpus]).open()
    queries = ["generated", opened.papers[0].text.split()[2].strip(".").lower(), "ba*"]
    expected = _answers(opened, queries)
    rng = random.Random(seed)
    damaged = 0
    for _ in range(rounds):
        generation = Path(session_of(data, [corpus]).open()[0].location)
        target = rng.choice(_index_files(generation))
        before = target.read_bytes()
        _damage_at(target, rng.randrange(target.stat().st_size))
        damaged += target.read_bytes() != before
        session = session_of(data, [corpus])
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
    generation = built_seeds(data)
    session = session_of(data)
    sound = session.check()
    assert (sound.damaged, sound.rebuilt) == ([], False)
    assert sound.files > 5
    postings = next((generation / store_module.ENGINE_FOLDER).glob("*.pst"))
    stamp = postings.stat()
    _damage_at(postings, 100, 16)
    os.utime(postings, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # the mtime put back
    found = session_of(data).check()
    assert found.damaged == [f"engine/{postings.name}: checksum differs"]
    assert found.rebuilt and found.location != str(generation)
    assert session_of(data).check().damaged == []
