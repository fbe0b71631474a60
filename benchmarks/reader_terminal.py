"""The reader driven in a pseudo-terminal, shared by bench_reader.py's parts: a process on a
fresh pseudo-terminal whose output is watched for markers, its environment, the reader's
command line, an indexed synthetic corpus, and the figures `--json` prints."""

from __future__ import annotations

import contextlib
import fcntl
import os
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from pathlib import Path

import corpus

from paperterm.index.config import Config
from paperterm.index.search.open_index import OpenIndex
from paperterm.index.session import Session

KEY_INTERVAL_S = 0.150


class PtyApp:
    """A process on a fresh pseudo-terminal; its output is collected by a reader thread."""

    def __init__(self, command: list[str], env: dict[str, str], size=(80, 24)) -> None:
        self.master, slave = os.openpty()
        columns, rows = size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            command, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True
        )
        os.close(slave)
        self.output = bytearray()
        self.changed = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        while True:
            try:
                data = os.read(self.master, 1 << 16)
            except OSError:
                data = b""
            with self.changed:
                if not data:
                    self.changed.notify_all()
                    return
                self.output += data
                self.changed.notify_all()

    def mark(self) -> int:
        with self.changed:
            return len(self.output)

    def wait_for(self, marker: bytes, since: int = 0, timeout: float = 30) -> float | None:
        """Seconds until `marker` shows up in the output after offset `since` (None: never)."""
        deadline = time.perf_counter() + timeout
        with self.changed:
            while self.output.find(marker, since) < 0:
                left = deadline - time.perf_counter()
                if left <= 0 or not self.reader.is_alive():
                    return None
                self.changed.wait(left)
            return time.perf_counter()

    def wait_for_any(
        self, markers: list[bytes], since: int = 0, timeout: float = 30
    ) -> tuple[bytes | None, float | None]:
        """The first of `markers` to show up after offset `since`, and when."""
        deadline = time.perf_counter() + timeout
        with self.changed:
            while True:
                for marker in markers:
                    if self.output.find(marker, since) >= 0:
                        return marker, time.perf_counter()
                left = deadline - time.perf_counter()
                if left <= 0 or not self.reader.is_alive():
                    return None, None
                self.changed.wait(left)

    def send(self, data: bytes) -> float:
        os.write(self.master, data)
        return time.perf_counter()

    def close(self, quit_key: bytes) -> None:
        with contextlib.suppress(OSError):
            os.write(self.master, quit_key)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.reader.join(timeout=5)
        os.close(self.master)


#: Where the reader's bytecode is cached between runs (see `terminal_env`).
BYTECODE = Path(tempfile.gettempdir()) / "paperterm-bench-bytecode"


def terminal_env() -> dict[str, str]:
    """The environment of a process in a pseudo-terminal. Bytecode is cached (outside the
    tree), as an installed paperterm's is (pip compiles it): with PYTHONDONTWRITEBYTECODE
    set, as in some shells here, every run compiled paperterm's modules from source, ~85 ms
    of its start that a user never pays (Textual's own bytecode comes with its wheel)."""
    env = {**os.environ, "TERM": "xterm-256color", "COLORTERM": "truecolor"}
    env.pop("NO_COLOR", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(BYTECODE)
    return env


#: The search engine the reader is run with (`--engine`; None: its default, Whoosh).
ENGINE: list[str | None] = [None]
# What `--json` prints: each size's figures, keyed by the size, filled in as they are measured.
RESULTS: dict[str, dict[str, object]] = {}


def reader_command(data: Path, sources: list[Path]) -> list[str]:
    command = [sys.executable, "-m", "paperterm.tui.cli", "--data-dir", str(data)]
    for source in sources:
        command += ["--source", str(source)]
    if ENGINE[0] is not None:
        command += ["--engine", ENGINE[0]]
    return command


def indexed_corpus(
    folder: Path, n: int, fmt: str = "text", engine: str | None = None
) -> tuple[Path, Path, OpenIndex]:
    """A synthetic corpus of `n` abstracts in `folder`, indexed: (source, data dir, index).
    A corpus already there (`--keep DIR`) is used as it is, its index too if current.
    `fmt`: the corpus's files (benchmarks/corpus.py); `engine`: the index's."""
    source = folder / "corpus"
    if not source.exists():
        per_file = corpus.ARXIV_PER_MONTH if fmt == "jsonl" else corpus.PER_FILE
        abstracts = corpus.make_abstracts(n, per_file=per_file)
        corpus.WRITERS[fmt](source, abstracts, per_file)
    data = folder / "data"
    config = Config() if engine is None else Config(engine=engine)
    started = time.perf_counter()
    opened, _ = Session.create(data, [source], config).open()
    print(f"({n} papers indexed in {time.perf_counter() - started:.0f} s)")
    return source, data, opened


def ms_columns(stats: dict[str, float]) -> list[float]:
    return [round(stats["p50"], 1), round(stats["p95"], 1), round(stats["max"], 1)]
