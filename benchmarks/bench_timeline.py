"""A first launch's timeline: when each phase of the build happens in the build's process and
in each worker process, with each process's CPU, so that what is not the workers' parallel
work (their start and imports, the build's own steps before and after them, a core idle
while one worker ends) shows apart from the machine's load.

`bench_index.child_build` into an empty data dir. The workers are started through this file
(`--worker`): it stamps their start (the kernel's), their imports done, the task heard, each
source's first record and end, each part written and their end, then runs the worker as
`python -m paperterm.index.search.build_workers` would. Times are CLOCK_BOOTTIME (the one
/proc's process start times are counted in), printed in seconds after the build began.

    cd benchmarks && python bench_timeline.py CORPUS_DIR DATA_DIR [--engine E] [--json OUT]

`--engine` (whoosh, tantivy; the default is the config's, Whoosh): the engine built.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from measure import fresh_bytecode

CLOCK = time.CLOCK_BOOTTIME
LOG_DIR = "PAPERTERM_TIMELINE_DIR"


def now() -> float:
    return time.clock_gettime(CLOCK)


def cpu() -> float:
    return time.process_time()


def sched() -> tuple[float, float]:
    """(seconds on a CPU, seconds runnable but waiting for one) of this process's main
    thread (/proc schedstat): wall minus both is time it slept (I/O, pipes)."""
    ran, waited, _ = Path("/proc/thread-self/schedstat").read_text().split()
    return int(ran) / 1e9, int(waited) / 1e9


def started_at(pid: int | str = "self") -> float:
    """When process `pid` started (CLOCK_BOOTTIME, 10 ms ticks)."""
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(stat[19]) / os.sysconf("SC_CLK_TCK")


def worker() -> None:
    """A build worker, stamped (run as `python bench_timeline.py --worker`)."""
    entered = now()
    marks: list[tuple[float, float, str]] = [(started_at(), 0.0, "process start")]
    marks.append((entered, cpu(), "script entered"))
    from paperterm.index.search import build_workers as bw

    marks.append((now(), cpu(), "imports done"))

    def mark(what: str) -> None:
        marks.append((now(), cpu(), what))

    first = bw._Inbox.first

    def timed_first(self: Any) -> Any:
        message = first(self)
        mark("task heard")
        return message

    bw._Inbox.first = timed_first  # type: ignore[method-assign]
    prepare = bw.prepare_source

    def timed_prepare(file: Any, folder: Any, *args: Any, **kwargs: Any) -> Any:
        on_record = kwargs["on_record"]
        seen = [False]

        def first_record(paper: Any, words: Any) -> None:
            if not seen[0]:
                seen[0] = True
                mark(f"first record {file.path.name}")
            on_record(paper, words)

        kwargs["on_record"] = first_record
        mark(f"source start {file.path.name}")
        result = prepare(file, folder, *args, **kwargs)
        mark(f"source end {file.path.name}")
        return result

    bw.prepare_source = timed_prepare
    end = bw.PartFeed.end

    def timed_end(self: Any) -> Any:
        before = now(), cpu()
        written = end(self)
        if written is not None:
            marks.append((*before, "part write start"))
            mark("part written")
        return written

    bw.PartFeed.end = timed_end  # type: ignore[method-assign]
    serve = bw.serve

    def timed_serve(*args: Any) -> None:
        mark("serve start")
        serve(*args)
        mark("serve end")
        ran, waited = sched()
        wall = now() - marks[0][0]
        mark(
            f"sched: ran {ran:.2f} s, waited for a CPU {waited:.2f} s, slept "
            f"{wall - ran - waited:.2f} s of {wall:.2f} s"
        )
        path = Path(os.environ[LOG_DIR]) / f"worker-{os.getpid()}.json"
        path.write_text(json.dumps(marks))

    bw.serve = timed_serve
    bw.main()


def build(corpus: Path, data: Path, out: Path | None, engine: str | None = None) -> None:
    import shutil
    import tempfile

    logs = Path(tempfile.mkdtemp(prefix="timeline-"))
    os.environ[LOG_DIR] = str(logs)
    marks: list[tuple[float, float, str]] = [(started_at(), 0.0, "bench process start")]
    import bench_engines
    import bench_index

    from paperterm.index.search import build, build_workers, merged, records, store

    def stamp(owner: Any, name: str, label: str | None = None) -> None:
        method = getattr(owner, name)
        label = label or name

        def timed(*args: Any, **kwargs: Any) -> Any:
            marks.append((now(), cpu(), f"{label} start"))
            try:
                return method(*args, **kwargs)
            finally:
                marks.append((now(), cpu(), f"{label} end"))

        setattr(owner, name, timed)

    popen = build_workers.subprocess.Popen

    class Popen(popen):  # type: ignore[misc, valid-type]
        def __init__(self, args: list[str], **kwargs: Any) -> None:
            if args[1:] == ["-m", "paperterm.index.search.build_workers"]:
                args = [args[0], str(Path(__file__).resolve()), "--worker"]
            marks.append((now(), cpu(), "Popen"))
            super().__init__(args, **kwargs)

    build_workers.subprocess.Popen = Popen  # type: ignore[misc]
    for owner, name in (
        (build.Builder, "run"),
        (build.Builder, "_stretched"),
        (build.Builder, "_reuse"),
        (build.Builder, "_prepare"),
        (build.Builder, "_list"),
        (build.Builder, "_parts"),
        (build.Builder, "_publish_partial"),
        (build.Builder, "_finish"),
        (build_workers.WorkerPool, "start"),
        (build_workers.WorkerPool, "run"),
        (build_workers.WorkerPool, "stop"),
        (build, "find_donor"),
        (build, "write_papers"),
        (build, "_rows_process"),
        (merged, "MergedCorpus"),
        (store.Store, "publish"),
        (store.Store, "open_rows"),
        (store.Store, "open_engine"),
        (store.Store, "new_build_folder"),
        (records, "no_collection"),
    ):
        stamp(owner, name)
    build.MergedCorpus = merged.MergedCorpus
    shutil.rmtree(data, ignore_errors=True)
    files = sorted(corpus.iterdir())
    marks.append((now(), cpu(), "child_build start"))
    if engine is None:
        result = bench_index.child_build([corpus], data)
    else:
        result = bench_engines.child_build([corpus], data, engine)
    marks.append((now(), cpu(), "child_build end"))
    ran, waited = sched()
    marks.append(
        (now(), cpu(), f"sched (main thread): ran {ran:.2f} s, waited for a CPU {waited:.2f} s")
    )
    t0 = next(m[0] for m in marks if m[2] == "run start")
    lines = [
        f"{len(files)} files, engine {engine or 'the default'}; build wall "
        f"{result['wall']:.2f} s, CPU {result['cpu']:.2f} s, "
        f"workers' CPU {result['workers_cpu']:.2f} s, parts {result['parts']}"
    ]
    lines.append("build process:")
    lines += [f"  {m[0] - t0:8.3f}  cpu {m[1]:7.3f}  {m[2]}" for m in marks]
    workers = {}
    for path in sorted(logs.glob("worker-*.json")):
        wmarks = json.loads(path.read_text())
        workers[path.stem] = wmarks
        lines.append(f"{path.stem}:")
        for when, spent, what in wmarks:
            if what.startswith(("first record", "source start")):
                continue  # each file's end says enough
            lines.append(f"  {when - t0:8.3f}  cpu {spent:7.3f}  {what}")
    stamped = sum(wmarks[-1][1] for wmarks in workers.values())
    children = result["workers_cpu"]
    assert isinstance(children, float)
    lines.append(
        f"children's CPU but the workers' until they said done (the rows process, the "
        f"workers' exits): {children - stamped:.2f} s"
    )
    print("\n".join(lines))
    if out is not None:
        out.write_text(
            json.dumps(
                {"t0": t0, "build": marks, "workers": workers, "result": result}, default=str
            )
        )
    shutil.rmtree(logs, ignore_errors=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        worker()
    else:
        args = sys.argv[1:]
        out = Path(args[args.index("--json") + 1]) if "--json" in args else None
        engine = args[args.index("--engine") + 1] if "--engine" in args else None
        fresh_bytecode()
        build(Path(args[0]), Path(args[1]), out, engine)
