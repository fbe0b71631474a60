"""Headline quality on untitled lists: how many derived headlines are fragments, boilerplate
or duplicates of another row's headline.

Three untitled lists, each loaded through the whole loader (`load_sources`: names, headlines,
the corpus-wide pass that tells repeated headlines apart):

  seeds      the bundled ICML lists (38 abstracts)
  pmlr       the MIDL 2024 and ENLSP 2024 abstracts from ../shared/corpora, their titles left
             out (a seed-format list written to a temporary folder; skipped without them)
  synthetic  `corpus.py`'s 2,600 resampled abstracts in the text format

The checks here are this script's own, written apart from `headline_form.headline_problem` so
that the same rules do not grade themselves; they are deliberately plain:

  fragment     leans on what came before (this/these/those/such/our/it/they... among its
               first four words, or it opens with and/but/or/also/however), ends on a word a
               phrase cannot end on (a preposition, article, conjunction, auxiliary, "even",
               "both"...), has fewer than three words, unbalanced brackets, or starts as a
               sentence ("We ...", "In this paper")
  boilerplate  says where code or data is ("available at", "github", a URL, "code is
               released"), or what any abstract says ("we answer this question",
               "experiments show", "to the best of our knowledge")
  duplicate    the same headline (ignoring case) as an earlier row of the same list

Run it on any checkout to compare (PYTHONPATH pointing at a package copy of another tree
measures that tree; the checks stay this file's):

    python benchmarks/bench_headlines.py [--n 2600] [--show KIND]
"""

from __future__ import annotations

import argparse
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

import corpus

from paperterm.index.sources import bibtex
from paperterm.index.sources.files import SourceSpec, bundled_seeds
from paperterm.index.sources.loader import load_sources

_WORD = re.compile(r"[A-Za-z0-9'’-]+")
_LEANS = {
    "this", "these", "those", "such", "our", "it", "its", "they", "their", "them", "both",
    "proposed", "aforementioned",
}  # fmt: skip
_OPENERS = {"and", "but", "or", "also", "however", "moreover", "furthermore", "thus", "hence"}
_CANNOT_END = {
    "a", "an", "the", "of", "to", "for", "with", "in", "on", "by", "at", "from", "into", "via",
    "and", "or", "but", "nor", "as", "than", "that", "which", "who", "whose", "where", "when",
    "while", "whether", "if", "is", "are", "was", "were", "be", "been", "being", "has", "have",
    "had", "can", "could", "may", "might", "will", "would", "should", "must", "do", "does",
    "even", "both", "either", "so", "not", "only", "very", "more", "most", "such", "this",
    "these", "those", "its", "their", "our", "each", "every", "all", "any", "some", "between",
    "among", "using", "through", "under", "over", "across", "without", "within", "like",
    "including", "aiming", "allowing", "enabling", "making", "motivated", "due", "according",
}  # fmt: skip
_BOILERPLATE = re.compile(
    r"https?://|github|available (?:at|online|on|from)|publicly available|"
    r"(?:code|data|dataset|implementation|models?) (?:is|are|will be|has been) "
    r"(?:made )?(?:publicly |freely )?(?:available|released)|answer (?:this|the) question|"
    r"affirmative|to the best of our knowledge|experiments? (?:show|demonstrate|on)|"
    r"experimental results|results (?:show|demonstrate|indicate) that",
    re.IGNORECASE,
)
_SENTENCE_START = re.compile(r"(?:we|in this (?:paper|work|study)|here,) ", re.IGNORECASE)


def fragment(title: str) -> bool:
    words = [w.lower() for w in _WORD.findall(title)]
    _, colon, rest = title.partition(": ")
    body = [w.lower() for w in _WORD.findall(rest)] if colon else words
    body = body or words
    return (
        len(words) < 3
        or any(w in _LEANS for w in body[:4])
        or body[0] in _OPENERS
        or words[-1] in _CANNOT_END
        or title.count("(") != title.count(")")
        or bool(_SENTENCE_START.match(rest if colon else title))
    )


def boilerplate(title: str) -> bool:
    return bool(_BOILERPLATE.search(title))


def untitled_lists(n: int) -> Iterator[tuple[str, list[SourceSpec]]]:
    """(label, sources) of each untitled list; the temporary files live until the next."""
    yield "seeds", bundled_seeds()
    with tempfile.TemporaryDirectory() as folder:
        abstracts = []
        for path in sorted(corpus.SHARED_CORPORA.glob("*.bib")):
            papers, _ = bibtex.parse(path, path.read_text(encoding="utf-8"), None)
            abstracts += [" ".join(p.abstract.split()) for p in papers if p.abstract]
        if abstracts:
            target = Path(folder) / "pmlr.txt"
            target.write_text("PMLR abstracts\n\n" + "\n\n".join(abstracts) + "\n", "utf-8")
            yield "pmlr", [SourceSpec(target)]
    with tempfile.TemporaryDirectory() as folder:
        paths = corpus.write_text(Path(folder), corpus.make_abstracts(n))
        yield "synthetic", [SourceSpec(path) for path in paths]


def measure(titles: list[str]) -> dict[str, list[str]]:
    seen: set[str] = set()
    found: dict[str, list[str]] = {"fragment": [], "boilerplate": [], "duplicate": []}
    for title in titles:
        if fragment(title):
            found["fragment"].append(title)
        if boilerplate(title):
            found["boilerplate"].append(title)
        if title.casefold() in seen:
            found["duplicate"].append(title)
        seen.add(title.casefold())
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=2600, help="synthetic abstracts")
    parser.add_argument("--show", choices=("fragment", "boilerplate", "duplicate"))
    args = parser.parse_args()
    print(f"{'list':<10} {'headlines':>9} {'fragment':>9} {'boilerplate':>11} {'duplicate':>9}")
    for label, specs in untitled_lists(args.n):
        titles = [paper.title for paper in load_sources(specs).papers]
        found = measure(titles)
        counts = [len(found[kind]) for kind in ("fragment", "boilerplate", "duplicate")]
        print(f"{label:<10} {len(titles):>9} {counts[0]:>9} {counts[1]:>11} {counts[2]:>9}")
        if args.show:
            for title in found[args.show][:40]:
                print(f"    {title}")


if __name__ == "__main__":
    main()
