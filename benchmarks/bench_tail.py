"""The build's tail: what its process does after the worker processes end, step by step.

    python benchmarks/bench_tail.py build CORPUS DATA [--engine E] [--keep DIR]
    python benchmarks/bench_tail.py replay DIR DATA [--engine E]

`build`: `Session.open` of the files of CORPUS into DATA (emptied first), each step of the
build timed (wall, CPU of the process's threads, CPU of its main thread); the tail is from the
end of `Builder._prepare` (the workers' end) to the build's. `--keep DIR`: once the workers
are done, the build folder is hard-linked to DIR/tmp and the builder's state pickled to
DIR/state.pickle (the tail's numbers then count that too).

`replay`: the tail (`MergedCorpus`, `Builder._parts`, `Builder._finish`, as `Builder._build`
runs them) over what `build --keep` kept, into DATA: run it with each tree's python in turn
for an A/B of the tail without building again. Compare what they write with `cmp` (the
papers, rows and vocabulary files of the generation).
"""

from __future__ import annotations

import argparse
import functools
import os
import pickle
import resource
import shutil
import sys
import time
from concurrent.futures import Future
from pathlib import Path
from typing import Any

T0 = time.perf_counter()


def _wrap(owner: Any, name: str, depth: list[int]) -> None:
    original = getattr(owner, name)
    label = f"{getattr(owner, '__name__', owner)}.{name}"

    @functools.wraps(original)
    def timed(*args: Any, **kwargs: Any) -> Any:
        wall, cpu, thread = time.perf_counter(), time.process_time(), time.thread_time()
        depth[0] += 1
        try:
            return original(*args, **kwargs)
        finally:
            depth[0] -= 1
            print(
                f"{'  ' * depth[0]}{label:40s} at {wall - T0:8.2f}  "
                f"wall {time.perf_counter() - wall:7.3f}  cpu {time.process_time() - cpu:7.3f}  "
                f"main thread {time.thread_time() - thread:7.3f}",
                flush=True,
            )

    setattr(owner, name, timed)


def _timed_steps() -> None:
    from paperterm.index.search import build, merged, store, vocabulary

    depth = [0]
    for name in ("_prepare", "_list", "_parts", "_finish", "_early_checksums", "run"):
        if hasattr(build.Builder, name):
            _wrap(build.Builder, name, depth)
    for name in ("MergedCorpus", "write_papers", "_rows_process"):
        if hasattr(build, name):
            _wrap(build, name, depth)
    _wrap(merged, "plan_merge", depth)
    _wrap(vocabulary.Vocabulary, "dumps", depth)
    for name in ("publish", "open_rows", "open_engine"):
        _wrap(store.Store, name, depth)
    for name in ("_checksums", "fsync_tree"):
        _wrap(store, name, depth)


def build(corpus: Path, data: Path, engine: str, keep: Path | None) -> None:
    from paperterm.index.config import Config
    from paperterm.index.search import build as build_module
    from paperterm.index.session import Session

    if keep is not None:
        shutil.rmtree(keep, ignore_errors=True)
        keep.mkdir(parents=True)
        prepare = build_module.Builder._prepare

        def keeping(self: Any, sources: Any, fresh: Any, *read: Any) -> Any:
            # Without the callback that starts the tail while the workers write their last
            # parts (`Builder._list`): the tail runs after this, as the replay runs it.
            candidates = prepare(self, sources, fresh, *([lambda: None] if read else []))
            for future in list(self._early_checks.values()):
                future.result()
            shutil.copytree(self.tmp, keep / "tmp", copy_function=os.link)
            state = {"sources": sources, "candidates": candidates, "words": self.words}
            state |= {"files": self.files, "file_digests": self.file_digests}
            state["part_postings"] = self.part_postings
            (keep / "state.pickle").write_bytes(pickle.dumps(state))
            return candidates

        build_module.Builder._prepare = keeping  # type: ignore[method-assign]
    _timed_steps()
    shutil.rmtree(data, ignore_errors=True)
    config = Config()
    config.engine = engine
    files = sorted(path for path in corpus.iterdir() if path.is_file())
    wall, cpu = time.perf_counter(), time.process_time()
    opened, _ = Session.create(data, files, config).open()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(
        f"build: wall {time.perf_counter() - wall:.2f} s, its process's CPU "
        f"{time.process_time() - cpu:.2f} s, child processes' CPU "
        f"{children.ru_utime + children.ru_stime:.2f} s, {len(opened.papers)} papers"
    )


def _tail(builder: Any, sources: list[Any], candidates: list[Any]) -> Any:
    """The tail as `Builder._build` runs it (with workers, `_list` runs beside their last
    parts; replayed, after them)."""
    try:
        listed = builder._list(sources, [source for source in sources if source.fresh])
        parts = builder._parts(sources, listed.corpus, candidates)
        return builder._finish(sources, listed, parts)
    finally:
        if builder._rows is not None:
            builder._rows.stop()


def _tail_before_orch17(builder: Any, sources: list[Any], candidates: list[Any]) -> Any:
    """The tail as `Builder._build` ran it before orch17 (for a replay with that code)."""
    from paperterm.index.search import build as build_module
    from paperterm.index.search.store import SOURCES_FOLDER

    rows = None
    if hasattr(build_module, "_rows_process"):
        rows = build_module._rows_process(sum(source.count for source in sources))
    try:
        corpus = build_module.MergedCorpus(builder.tmp / SOURCES_FOLDER, sources)
        parts = builder._parts(sources, corpus, candidates)
        builder.words.subtract(corpus.absorbed_words)
        extra = () if rows is None else (rows,)
        return builder._finish(sources, corpus, parts, +builder.words, *extra)
    finally:
        if rows is not None:
            rows.stop()


def replay(kept: Path, data: Path, engine: str) -> None:
    from paperterm.index.search import build as build_module
    from paperterm.index.search.records import no_collection
    from paperterm.index.search.store import SOURCES_FOLDER, Store, file_crc
    from paperterm.index.sources.files import SourceSpec

    _timed_steps()
    state = pickle.loads((kept / "state.pickle").read_bytes())
    shutil.rmtree(data, ignore_errors=True)
    store = Store(data, [SourceSpec(file.path) for file in state["files"]], engine)
    store.root.mkdir(parents=True)
    builder = build_module.Builder(store, state["files"], [])
    builder.tmp = store.new_build_folder()
    shutil.rmtree(builder.tmp)
    shutil.copytree(kept / "tmp", builder.tmp, copy_function=os.link)
    builder.words, builder.file_digests = state["words"], state["file_digests"]
    builder.part_postings = state["part_postings"]
    for path in sorted((builder.tmp / SOURCES_FOLDER).iterdir()):  # taken while reading
        done: Future[list[int]] = Future()
        done.set_result(list(file_crc(path)))
        builder._early_checks[f"{SOURCES_FOLDER}/{path.name}"] = done
    sources = state["sources"]
    os.sync()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall, cpu, thread = time.perf_counter(), time.process_time(), time.thread_time()
    with no_collection():
        if hasattr(builder, "_list"):  # the tail's steps since orch17
            opened = _tail(builder, sources, state["candidates"])
        else:
            opened = _tail_before_orch17(builder, sources, state["candidates"])
    main_thread = time.thread_time() - thread
    builder._checker.shutdown()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    children = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    print(
        f"tail: wall {time.perf_counter() - wall:.2f} s, CPU {time.process_time() - cpu:.2f} s "
        f"(main thread {main_thread:.2f} s), child processes {children:.2f} s; "
        f"{len(opened.papers)} papers in {opened.location}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    building = commands.add_parser("build")
    building.add_argument("corpus", type=Path)
    building.add_argument("data", type=Path)
    building.add_argument("--engine", default="tantivy")
    building.add_argument("--keep", type=Path)
    replaying = commands.add_parser("replay")
    replaying.add_argument("kept", type=Path)
    replaying.add_argument("data", type=Path)
    replaying.add_argument("--engine", default="tantivy")
    args = parser.parse_args()
    if args.command == "build":
        build(args.corpus, args.data, args.engine, args.keep)
    else:
        replay(args.kept, args.data, args.engine)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
