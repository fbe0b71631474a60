"""Display text at index build: CPU time of the LaTeX decoder and of loading, per format.

Every abstract is decoded once at index build (`enrich.render`), so the decoder's cost is
part of every first launch. `corpus.py` writes the same 2,600 abstracts as a seed-format
text list and as PMLR-like BibTeX (which escapes `%`, `&` and `#`); this measures, in CPU
time (process time, the minimum of R rounds with the display cache cleared):

  display   the display text of each abstract as the source gives it: `display_text` of the
            .txt paragraph, `display_text(clean(...))` of the .bib field
  load      `load_sources` of the folder: read, parse, render, merge, derive names and titles

and counts the display texts in which LaTeX is left over (a `\\command` or a brace without
its partner) and the abstracts whose display text differs between the two formats (both
should be 0).

    python benchmarks/bench_display.py [--rounds R]
"""

from __future__ import annotations

import argparse
import re
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import bibtexparser
import corpus
from measure import machine, table

from paperterm.index.sources.files import SourceSpec
from paperterm.index.sources.loader import load_sources
from paperterm.index.text import display
from paperterm.index.text.field_text import clean

N = 2600
_RENDER: dict[str, Callable[[str], str]] = {
    "text": lambda paragraph: display.display_text(paragraph),
    "bibtex": lambda field: display.display_text(clean(field)),
}
_COMMAND = re.compile(r"\\[A-Za-z]+")


def cpu_seconds(work: Callable[[], object], rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        display.display_text.cache_clear()
        started = time.process_time()
        work()
        best = min(best, time.process_time() - started)
    return best


def leftovers(text: str) -> bool:
    depth = 0
    for char in text:
        depth += (char == "{") - (char == "}")
        if depth < 0:
            return True
    return depth != 0 or bool(_COMMAND.search(text))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="paperterm-bench-") as tmp:
        folders = {"text": Path(tmp) / "text", "bibtex": Path(tmp) / "bibtex"}
        abstracts = corpus.make_abstracts(N)
        corpus.write_text(folders["text"], abstracts)
        corpus.write_bibtex(folders["bibtex"], abstracts)
        fields = {
            "text": [a for p in sorted(folders["text"].glob("*.txt")) for a in _paragraphs(p)],
            "bibtex": [a for p in sorted(folders["bibtex"].glob("*.bib")) for a in _bib(p)],
        }
        rows, shown = [], {}
        for kind, folder in folders.items():
            render = _RENDER[kind]
            display_s = cpu_seconds(lambda k=kind, r=render: [r(a) for a in fields[k]], args.rounds)
            load_s = cpu_seconds(
                lambda f=folder: load_sources([SourceSpec(f)]), max(1, args.rounds // 2)
            )
            papers = load_sources([SourceSpec(folder)]).papers
            shown[kind] = [paper.text for paper in papers]
            leaking = sum(leftovers(paper.text) or leftovers(paper.title) for paper in papers)
            rows.append(
                [
                    kind,
                    len(papers),
                    display_s * 1000,
                    display_s / len(papers) * 1e6,
                    load_s,
                    leaking,
                ]
            )
    differ = sum(a != b for a, b in zip(shown["text"], shown["bibtex"], strict=True))
    print(f"\n{N} abstracts; CPU, minimum of {args.rounds} rounds")
    print(table(["format", "papers", "display ms", "µs each", "load s", "LaTeX left"], rows))
    print(f"\nabstracts displayed differently as .txt and .bib: {differ}")


def _paragraphs(path: Path) -> list[str]:
    return [p.strip() for p in path.read_text(encoding="utf-8").split("\n\n")[1:] if p.strip()]


def _bib(path: Path) -> list[str]:
    library = bibtexparser.parse_string(path.read_text(encoding="utf-8"), parse_stack=[])
    return [e.fields_dict["abstract"].value for e in library.entries if "abstract" in e.fields_dict]


if __name__ == "__main__":
    main()
