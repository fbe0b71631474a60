"""Whether this tree's name detection reads abstracts as another tree's does: the whole
`names.analyse` (display text, lowered text, sentences, every candidate's best occurrence
in order, the name) compared text by text, for a change meant only to be faster.

The other tree is a checkout of the code before the change (`git worktree add --detach
DIR main`); its `index/text/names.py` is imported beside this tree's. Texts: the records of
the files given (read as a build's worker reads them), and `--fuzz N` texts made of their
words shuffled with punctuation, capitals, parentheses, LaTeX and letters that are not
ASCII (among them the ones that fold to ASCII letters: İ ı ſ K).

    python benchmarks/check_names.py --base DIR FILE... [--fuzz N] [--seed S]
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

from paperterm.index.sources.loader import load_file
from paperterm.index.text import names

_PIECES = (
    ",", ".", ";", ":", "(", ")", "()", "(X)", "\"", "“", "”", "-", "—", "*", "**",
    "\\mathsf{", "}", "\\textbf{", "{\\tt ", "$x$", "İ", "ı", "ſ", "K", "é", "Σ", "ΑΣ", "ß",
    "’s", "'s", "?", "!",
    "\n\n", "we propose", "We introduce", "called", "named", "our", "Our", "is proposed",
    "is a novel", ", a novel", ", the first", "(", "which we call", "this paper presents",
)  # fmt: skip


def _base_names(tree: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "names_base", tree / "index" / "text" / "names.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["names_base"] = module
    spec.loader.exec_module(module)
    return module


def _reading(analysis: object) -> tuple[object, ...]:
    best = [
        (token, o.start, o.end, o.sentence, o.anchor, o.expansion, o.score)
        for token, o in analysis.best.items()  # type: ignore[attr-defined]
    ]
    a = analysis
    return (a.text, a.lowered, a.sentences, best, a.name)  # type: ignore[attr-defined]


def _fuzzed(words: list[str], rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(5, 220)):
        roll = rng.random()
        if roll < 0.2:
            parts.append(rng.choice(_PIECES))
        else:
            word = rng.choice(words)
            if roll < 0.3:
                word = word.upper()
            elif roll < 0.4:
                word = word.capitalize()
            elif roll < 0.45:
                word = "".join(ch.upper() if rng.random() < 0.4 else ch for ch in word)
            parts.append(word)
    joiners = (" ", " ", " ", " ", "", "  ", "-")
    return "".join(part + rng.choice(joiners) for part in parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--base", type=Path, required=True, help="the other tree")
    parser.add_argument("--fuzz", type=int, default=0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    base = _base_names(args.base)
    pairs = [
        (paper.abstract, paper.text)
        for path in args.files
        for paper in load_file(path.resolve())[0]
        if paper.abstract
    ]
    rng = random.Random(args.seed)
    words = sorted({word for abstract, _ in pairs[:5000] for word in abstract.split()})
    fuzzed = [(_fuzzed(words, rng), None) for _ in range(args.fuzz)] if words else []
    differ = 0
    for abstract, text in [*pairs, *fuzzed]:
        mine = _reading(names.analyse.__wrapped__(abstract, text))
        theirs = _reading(base.analyse.__wrapped__(abstract, text))
        if mine != theirs:
            differ += 1
            if differ <= 5:
                print("DIFFERS:", repr(abstract[:300]), mine[2:], theirs[2:], sep="\n  ")
    print(f"{len(pairs):,} records and {len(fuzzed):,} fuzzed texts: {differ} differ")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
