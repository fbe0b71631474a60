"""Instructions from process start to the reader's first frame, against a bare Textual app's
(issue 14), counted by valgrind (callgrind's total `Ir`).

Unlike CPU time, the count does not move with the machine's load (two runs of one program
differ by ~0.03%), so a change of a few million instructions (about a millisecond) can be
told apart on a busy machine, where the CPU and wall medians of `bench_reader.py startup`
move by tens of milliseconds from run to run. Each program runs as `bench_reader.py`'s CPU
clocks do (an 80x24 pseudo-terminal, the reader's bytecode cached) under valgrind, and
leaves (`os._exit`) as soon as its first frame is drawn. Needs valgrind; ~20 s a program.

    python benchmarks/bench_first_frame_instructions.py [--sizes N ...] [--keep DIR]
        [--engine whoosh|tantivy] [--format text|jsonl]

`--engine tantivy --format jsonl --sizes 500000 --keep DIR`: the large corpus, as
`bench_reader.py` runs it (an index already in DIR/500000/data is reused).
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

from measure import fresh_bytecode, load_average, machine, table
from reader_startup import FIRST_FRAME_CLOCK, HELLO, READER_CPU
from reader_terminal import ENGINE, PtyApp, indexed_corpus, reader_command, terminal_env

#: The first-frame clock of `bench_reader.py`, ending the process once it has written.
LEAVING_CLOCK = FIRST_FRAME_CLOCK.replace(
    "            out.write(str(time.process_time()))",
    "            out.write(str(time.process_time()))\n        import os\n        os._exit(0)",
)
assert LEAVING_CLOCK != FIRST_FRAME_CLOCK


def instructions(program: str, arguments: list[str], marker: bytes) -> float:
    """Millions of instructions `python -c program` runs until its first frame."""
    with tempfile.TemporaryDirectory() as tmp:
        command = [sys.executable, "-c", program, str(Path(tmp) / "clock.txt"), *arguments]
        first = PtyApp(command, terminal_env())  # compiles the bytecode valgrind's run reads
        first.wait_for(marker, timeout=60)
        first.close(b"q")
        out = Path(tmp) / "callgrind.out"
        valgrind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
        counted = PtyApp(valgrind + command, terminal_env())
        counted.process.wait(timeout=600)
        counted.close(b"q")
    found = re.search(rb"Collected : (\d+)", counted.output)
    if found is None:
        raise SystemExit(f"no count: {counted.output[-500:].decode(errors='replace')}")
    return int(found.group(1)) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[2600, 50_000])
    parser.add_argument("--keep", type=Path, metavar="DIR", help="corpora and indexes (reused)")
    parser.add_argument("--engine", choices=("whoosh", "tantivy"), help="the reader's engine")
    parser.add_argument("--format", choices=("text", "jsonl"), default="text")
    args = parser.parse_args()
    ENGINE[0] = args.engine
    fresh_bytecode()
    print(f"{machine()}\n")
    hello = instructions(LEAVING_CLOCK + "clock_first_frame()" + HELLO, [], b"hello world")
    rows = [["hello world (bare Textual)", "-", f"{hello:.1f}", ""]]
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            where = (args.keep or Path(tmp)) / str(n)
            where.mkdir(parents=True, exist_ok=True)
            folder, data, _ = indexed_corpus(where, n, args.format, args.engine)
            reader = READER_CPU.replace(FIRST_FRAME_CLOCK, LEAVING_CLOCK)
            count = instructions(reader, reader_command(data, [folder])[3:], f"{n} papers".encode())
            rows.append(["paperterm: the list", n, f"{count:.1f}", f"{count / hello:.3f}x"])
    print(table(["to the first frame", "papers", "M instructions", "/ hello world"], rows))
    print(f"\nload average at the end: {load_average()}")


if __name__ == "__main__":
    main()
