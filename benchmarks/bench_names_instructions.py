"""Instructions an abstract of name detection (`names.analyse`), counted by valgrind.

The records of the files given (`FILE:START:STOP` for rows START to STOP of a file) are read
as a build's worker reads them. A child process under callgrind runs the analyses once
(warming the caches), then again inside one `eval`, the only stretch counted
(`--toggle-collect=builtin_eval`, the cyclic garbage collector off); a second child runs the
same loop without the analyses, and its count is taken away. Unlike CPU time, the count
does not move with the machine's load. For another checkout (a worktree of main), run this
file with that checkout's Python (its venv's `python`, which imports its `paperterm`): its
`names` loaded beside this tree's in one process counted ~2% fewer instructions than in its
own, for no reason found. Needs valgrind; ~10 s for 1,000 abstracts.

    python benchmarks/bench_names_instructions.py FILE[:START:STOP]...
"""

from __future__ import annotations

import argparse
import gc
import pickle
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from measure import machine

from paperterm.index.sources.loader import load_file

#: What the counted `eval` runs: each analysis ("analyse"), or the loop alone ("loop").
_COUNTED = "[None for abstract, text in pairs if {call} is None]"


def _child(pairs_file: Path, loop_only: bool) -> None:
    from paperterm.index.text import names

    pairs = pickle.loads(pairs_file.read_bytes())
    analyse = names.analyse.__wrapped__  # every abstract analysed, none from the cache
    for abstract, text in pairs:
        analyse(abstract, text)
    gc.collect()
    gc.disable()
    call = "(abstract, text)" if loop_only else "analyse(abstract, text)"
    eval(_COUNTED.format(call=call), {"pairs": pairs, "analyse": analyse})


def _count(pairs_file: Path, loop_only: bool) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        command = [
            "valgrind", "--tool=callgrind", "--toggle-collect=builtin_eval",
            f"--callgrind-out-file={out}", sys.executable, __file__, "--child", str(pairs_file),
        ]  # fmt: skip
        command += ["--loop-only"] if loop_only else []
        subprocess.run(command, check=True, capture_output=True)
        found = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
    assert found, "no count in callgrind's output"
    return int(found.group(1))


def _pairs(spec: str) -> list[tuple[str, str]]:
    path, _, rows = spec.partition(":")
    start, _, stop = rows.partition(":")
    papers = load_file(Path(path).resolve())[0]
    chosen = papers[int(start or 0) : int(stop) if stop else None]
    return [(paper.abstract, paper.text) for paper in chosen if paper.abstract]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="FILE or FILE:START:STOP")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--loop-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.child, args.loop_only)
        return
    pairs = [pair for spec in args.files for pair in _pairs(spec)]
    with tempfile.TemporaryDirectory() as tmp:
        pairs_file = Path(tmp) / "pairs.pickle"
        pairs_file.write_bytes(pickle.dumps(pairs))
        counted = _count(pairs_file, False) - _count(pairs_file, True)
    print(
        f"machine: {machine()}; {len(pairs):,} abstracts: "
        f"{counted / len(pairs) / 1e3:.1f}k instructions an abstract"
    )


if __name__ == "__main__":
    main()
