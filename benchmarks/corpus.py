"""A seeded synthetic corpus for the benchmarks: abstracts resampled from real sentences.

Sentences come from the bundled seeds and, when present, from the abstracts of the PMLR
BibTeX files in `<repo>/../shared/corpora/` (never copied into the repository). Each
synthetic abstract is 4 to 9 sentences drawn at random, plus one sentence naming a coined
method (`*Velora*`): real abstracts name their method, and without such words the vocabulary
would stop growing at the sources' few thousand words, which would make large corpora look
easier to search than they are.

The same abstracts can be written as seed-format text files (a header line naming the
collection, then one abstract per paragraph), as PMLR-like BibTeX (`@Proceedings` plus one
`@InProceedings` per paper with title, author, abstract and url), or as rows of the arXiv
metadata snapshot (JSON Lines, one `arxiv-<yymm>.jsonl` per month of 10,000 rows: id,
submitter, authors, wrapped title and abstract, categories, versions, authors_parsed...).
Output depends only on the seed, N and the source files.

    python benchmarks/corpus.py OUT_DIR --n 2600 [--seed 7] [--format text|bibtex|jsonl]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

from paperterm.index.sources import bibtex as bibtex_source
from paperterm.index.sources.files import bundled_seeds

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


def usable(sentence: str) -> bool:
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
            if usable(sentence):
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


#: arXiv numbers up to 99,999 papers a month; the snapshot's files are split by month here.
ARXIV_PER_MONTH = 10_000
_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
_CATEGORIES = ["cs.LG", "cs.CL", "cs.CV", "stat.ML", "cs.AI", "math.OC", "q-bio.GN", "eess.IV"]


def arxiv_row(item: Abstract, number: int, rng: random.Random) -> dict[str, object]:
    """A row as the arXiv snapshot writes it: title and abstract wrapped at ~80 columns with
    continuation lines indented, authors as one string and parsed, versions with dates."""
    month = 1 + number // ARXIV_PER_MONTH
    year, month = 2015 + (month - 1) // 12, 1 + (month - 1) % 12
    parsed = [[name.split(" ", 1)[1], name.split(" ", 1)[0], ""] for name in item.authors]
    categories = rng.sample(_CATEGORIES, rng.randint(1, 3))
    created = f"Mon, {1 + number % 28} {_MONTHS[month - 1]} {year} 12:00:00 GMT"
    return {
        "id": f"{year % 100:02d}{month:02d}.{number % ARXIV_PER_MONTH:05d}",
        "submitter": item.authors[0],
        "authors": ", ".join(item.authors[:-1])
        + (" and " if len(item.authors) > 1 else "")
        + item.authors[-1],
        "title": "\n  ".join(textwrap.wrap(item.title, 70)),
        "comments": f"{rng.randint(6, 40)} pages",
        "journal-ref": None,
        "doi": None,
        "report-no": None,
        "categories": " ".join(categories),
        "license": "http://arxiv.org/licenses/nonexclusive-distrib/1.0/",
        "abstract": "  " + "\n".join(textwrap.wrap(item.text, 78)) + "\n",
        "versions": [{"version": "v1", "created": created}],
        "update_date": f"{year}-{month:02d}-{1 + number % 28:02d}",
        "authors_parsed": parsed,
    }


def write_jsonl(
    folder: Path, abstracts: list[Abstract], per_file: int = ARXIV_PER_MONTH
) -> list[Path]:
    """arXiv snapshot rows, `arxiv-0001.jsonl`, ...: `per_file` rows each."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(len(abstracts))
    paths = []
    for number, chunk in enumerate(_chunks(abstracts, per_file), start=1):
        path = folder / f"arxiv-{number:04d}.jsonl"
        with open(path, "w", encoding="utf-8") as handle:
            for offset, item in enumerate(chunk):
                row = arxiv_row(item, (number - 1) * per_file + offset, rng)
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        paths.append(path)
    return paths


def write_json(folder: Path, abstracts: list[Abstract], per_file: int = PER_FILE) -> list[Path]:
    """One `papers.json`: a JSON array of {title, abstract, authors, venue}, indented, as a
    conference site's export is (`per_file` is not used)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "papers.json"
    records = [
        {"title": a.title, "abstract": a.text, "authors": a.authors, "venue": a.collection}
        for a in abstracts
    ]
    path.write_text(json.dumps(records, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return [path]


WRITERS = {"text": write_text, "bibtex": write_bibtex, "jsonl": write_jsonl, "json": write_json}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder to write the corpus files into")
    parser.add_argument("--n", type=int, default=2600, help="number of abstracts")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--format", choices=tuple(WRITERS), default="text")
    parser.add_argument(
        "--per-file", type=int, help=f"papers per file ({PER_FILE}; jsonl: {ARXIV_PER_MONTH})"
    )
    args = parser.parse_args()
    per_file = args.per_file or (ARXIV_PER_MONTH if args.format == "jsonl" else PER_FILE)
    pool = sentence_pool()
    abstracts = make_abstracts(args.n, args.seed, pool, per_file)
    paths = WRITERS[args.format](args.out, abstracts, per_file)
    print(
        f"{len(abstracts)} abstracts from {len(pool)} sentences "
        f"({', '.join(source_abstracts()[1])}) in {len(paths)} files under {args.out}"
    )


if __name__ == "__main__":
    main()
