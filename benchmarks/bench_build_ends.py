"""When each build worker ends: a first launch (`bench_engines.child_build` into an empty
data dir), each worker's messages timestamped as the build process reads them, so how long
one core sat idle while the other worked shows apart from the machine's load.

For each worker: the files it prepared, its last message (its end, seconds after the build
started) and its CPU (from /proc); then the hand-overs (a busy worker's "stopped", with the
position where its run now ends) and how far apart the workers ended.

    cd benchmarks && python bench_build_ends.py ENGINE CORPUS_DIR DATA_DIR
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import bench_engines
from measure import fresh_bytecode

from paperterm.index.search import build_workers

STARTED = time.perf_counter()
#: (seconds, worker pid, message kind, its first field)
LOG: list[tuple[float, int, str, object]] = []
CPU: dict[int, float] = {}
_read = build_workers._Worker.read


def _cpu(pid: int) -> float | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")


def _timed_read(self: Any) -> list[tuple[Any, ...]]:
    pid = self.process.pid
    cpu = _cpu(pid)
    if cpu is not None:
        CPU[pid] = cpu
    messages = _read(self)
    now = round(time.perf_counter() - STARTED, 2)
    LOG.extend((now, pid, m[0], m[1] if len(m) > 1 else "") for m in messages if m[0] != "read")
    return messages


def main() -> None:
    engine, corpus, data = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    shutil.rmtree(data, ignore_errors=True)
    fresh_bytecode()
    build_workers._Worker.read = _timed_read  # type: ignore[method-assign]
    result = bench_engines.child_build([corpus], data, engine)
    ends = {}
    for pid in sorted({entry[1] for entry in LOG}):
        mine = [entry for entry in LOG if entry[1] == pid and entry[2] != "stopped"]
        ends[pid] = mine[-1][0]
        files = sum(entry[2] == "source" for entry in mine)
        print(f"worker {pid}: {files} files, ended at {ends[pid]} s, CPU {CPU.get(pid)} s")
    for when, pid, _, position in (entry for entry in LOG if entry[2] == "stopped"):
        print(f"  at {when} s worker {pid} stopped its run before position {position}")
    print(f"the workers ended {max(ends.values()) - min(ends.values()):.2f} s apart")
    print(json.dumps(result, default=str))


if __name__ == "__main__":
    main()
