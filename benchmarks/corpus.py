"""A seeded synthetic corpus for the benchmarks: abstracts resampled from real sentences.

Sentences come from the bundled seeds and, when present, from the abstracts of the PMLR
BibTeX files in `<repo>/../shared/corpora/` (never copied into the repository). Each
synthetic abstract is 4 to 9 sentences drawn at random, plus one sentence naming a coined
method (`*Velora*`): real abstracts name their method, and without such words the vocabulary
would stop growing at the sources' few thousand words, which would make large corpora look
easier to search than they are.

The same abstracts can be written as seed-format text files (a header line naming the
collection, then one abstract per paragraph) or as PMLR-like BibTeX (`@Proceedings` plus one
`@InProceedings` per paper with title, author, abstract and url). Output depends only on the
seed, N and the source files.

    python benchmarks/corpus.py OUT_DIR --n 2600 [--seed 7] [--format text|bibtex]
"""

from __future__ import annotations

import argparse
import random
import re
from dataclasses import dataclass
from pathlib import Path

from paperterm.index.sources import bibtex as bibtex_source
from paperterm.index.sources.loader import bundled_seeds

REPO = Path(__file__).resolve().parents[1]
SHARED_CORPORA = REPO.parent / "shared" / "corpora"
DEFAULT_SEED = 20240721
PER_FILE = 500

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"“(*$])")
_WS = re.compile(r"\s+")
_TITLE_WORD = re.compile(r"^[A-Za-z][A-Za-z-]*$")
_SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]
_FIRST_NAMES = [
    "Ada", "Bo", "Chen", "Dara", "Elif", "Femi", "Goran", "Hana", "Ines", "Jun", "Kofi",
    "Lena", "Mateo", "Nadia", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tariq", "Uma",
    "Vera", "Wei", "Ximena", "Yusuf", "Zoe",
]  # fmt: skip
_NAMING_TEMPLATES = [
    "We call our method *{name}*.",
    "We introduce {name}, and release its code.",
    "Our approach, {name}, is simple to implement.",
    "We name the resulting model {name}.",
    "Experiments show that {name} compares favourably with strong baselines.",
]
_SMALL_WORDS = {"a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to"}


@dataclass(frozen=True, slots=True)
class Abstract:
    key: str
    collection: str
    title: str
    authors: list[str]
    text: str


def titled_sources() -> list[Path]:
    """The PMLR BibTeX files in `../shared/corpora/` (real titles); when there are none, says
    that the calling measurement is skipped and returns []."""
    found = sorted(SHARED_CORPORA.glob("*.bib")) if SHARED_CORPORA.is_dir() else []
    if not found:
        print(f"skipped: no BibTeX corpora with real titles in {SHARED_CORPORA}")
    return found


def split_sentences(text: str) -> list[str]:
    text = _WS.sub(" ", text).strip()
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def _usable(sentence: str) -> bool:
    """Sentences that survive both output formats unchanged: balanced braces, no BibTeX
    entry markers, and long enough to read as a sentence."""
    depth = 0
    for char in sentence:
        depth += (char == "{") - (char == "}")
        if depth < 0:
            return False
    return depth == 0 and "@" not in sentence and len(sentence.split()) >= 5


def source_abstracts() -> tuple[list[str], list[str]]:
    """The abstracts sentences are drawn from, and the names of the files they came from.
    Read raw from the seed files (their first line is the list's name) and through the
    project's BibTeX parser from the shared corpora: its HTML and wrapping undone, its LaTeX
    as the file spells it, like the seeds' inline LaTeX."""
    abstracts: list[str] = []
    used: list[str] = []
    for spec in bundled_seeds():
        paragraphs = spec.path.read_text(encoding="utf-8").split("\n\n")
        abstracts.extend(p for p in paragraphs[1:] if p.strip())
        used.append(spec.path.name)
    for path in sorted(SHARED_CORPORA.glob("*.bib")) if SHARED_CORPORA.is_dir() else []:
        papers, _ = bibtex_source.parse(path, path.read_text(encoding="utf-8"), None)
        abstracts.extend(paper.abstract for paper in papers if paper.abstract)
        used.append(path.name)
    return abstracts, used


def sentence_pool() -> list[str]:
    seen: dict[str, None] = {}
    for abstract in source_abstracts()[0]:
        for sentence in split_sentences(abstract):
            if _usable(sentence):
                seen.setdefault(sentence, None)
    return list(seen)


def _coined_name(rng: random.Random) -> str:
    return "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()


def _title(rng: random.Random, name: str, pool: list[str]) -> str:
    """`Name: A Few Words Taken From One Sentence`, in title case."""
    for _ in range(20):
        words = [w.strip(",;:()") for w in rng.choice(pool).split()]
        words = [w for w in words if _TITLE_WORD.match(w)]
        if len(words) >= 6:
            break
    size = min(len(words), rng.randint(5, 10))
    start = rng.randint(0, len(words) - size)
    picked = words[start : start + size]
    cased = [
        w if w.isupper() or (i and w.lower() in _SMALL_WORDS) else w[:1].upper() + w[1:]
        for i, w in enumerate(picked)
    ]
    return f"{name}: {' '.join(cased)}"


def _authors(rng: random.Random) -> list[str]:
    return [f"{rng.choice(_FIRST_NAMES)} {_coined_name(rng)}" for _ in range(rng.randint(1, 6))]


def collection_name(index: int) -> str:
    return f"Synthetic Proceedings part {index + 1}"


def make_abstracts(
    n: int, seed: int = DEFAULT_SEED, pool: list[str] | None = None, per_file: int = PER_FILE
) -> list[Abstract]:
    """`n` distinct abstracts; the i-th belongs to collection `i // per_file`."""
    pool = pool if pool is not None else sentence_pool()
    rng = random.Random(seed)
    out: list[Abstract] = []
    seen: set[str] = set()
    while len(out) < n:
        name = _coined_name(rng)
        sentences = rng.sample(pool, rng.randint(4, 9))
        naming = rng.choice(_NAMING_TEMPLATES).format(name=name)
        sentences.insert(rng.randint(1, len(sentences)), naming)
        text = " ".join(sentences)
        if text in seen:
            continue
        seen.add(text)
        index = len(out)
        out.append(
            Abstract(
                key=f"syn{seed % 1000:03d}-{index:06d}",
                collection=collection_name(index // per_file),
                title=_title(rng, name, pool),
                authors=_authors(rng),
                text=text,
            )
        )
    return out


def _chunks(abstracts: list[Abstract], per_file: int) -> list[list[Abstract]]:
    return [abstracts[i : i + per_file] for i in range(0, len(abstracts), per_file)]


def write_text(folder: Path, abstracts: list[Abstract], per_file: int = PER_FILE) -> list[Path]:
    """Seed-format files `part-001.txt`, ...: header line, then one paragraph each."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number, chunk in enumerate(_chunks(abstracts, per_file), start=1):
        path = folder / f"part-{number:03d}.txt"
        body = "\n\n".join(a.text for a in chunk)
        path.write_text(f"{chunk[0].collection}\n\n{body}\n", encoding="utf-8")
        paths.append(path)
    return paths


def _bib_escape(text: str) -> str:
    """`%` and `&` escaped outside math (inside `$..$` they are left alone)."""
    parts = re.split(r"(\$[^$]*\$)", text)
    return "".join(
        part if part.startswith("$") else re.sub(r"(?<!\\)([%&#])", r"\\\1", part) for part in parts
    )


def write_bibtex(folder: Path, abstracts: list[Abstract], per_file: int = PER_FILE) -> list[Path]:
    """PMLR-like files `part-001.bib`, ...: one `@Proceedings`, then `@InProceedings`."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number, chunk in enumerate(_chunks(abstracts, per_file), start=1):
        path = folder / f"part-{number:03d}.bib"
        volume = f"SYN{number}"
        lines = [
            f"@Proceedings{{{volume}-2024,",
            f'    booktitle = "{chunk[0].collection}",',
            f'    shortname = "{volume}",',
            '    year = "2024",',
            "}",
            "",
        ]
        for item in chunk:
            lines += [
                f"@InProceedings{{{item.key},",
                f"  title = {{{_bib_escape(item.title)}}},",
                f"  author = {{{' and '.join(item.authors)}}},",
                f"  booktitle = {{{chunk[0].collection}}},",
                "  year = {2024},",
                f"  abstract = {{{_bib_escape(item.text)}}},",
                f"  url = {{https://example.org/syn/{item.key}.html}},",
                "}",
                "",
            ]
        path.write_text("\n".join(lines), encoding="utf-8")
        paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder to write the corpus files into")
    parser.add_argument("--n", type=int, default=2600, help="number of abstracts")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--format", choices=("text", "bibtex"), default="text")
    parser.add_argument("--per-file", type=int, default=PER_FILE)
    args = parser.parse_args()
    pool = sentence_pool()
    abstracts = make_abstracts(args.n, args.seed, pool, args.per_file)
    write = write_text if args.format == "text" else write_bibtex
    paths = write(args.out, abstracts, args.per_file)
    print(
        f"{len(abstracts)} abstracts from {len(pool)} sentences "
        f"({', '.join(source_abstracts()[1])}) in {len(paths)} files under {args.out}"
    )


if __name__ == "__main__":
    main()
