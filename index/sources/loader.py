"""Finding corpus files and turning them into `Paper` records.

Each format has a parser module (`text_list`, ...) exposing
`parse(path, text, collection) -> tuple[list[Paper], list[Problem]]`; this module picks the
parser (by extension, or by sniffing the content when the extension says nothing useful),
decodes bytes, walks folders, and never lets one bad file stop the others. Parsers give the
record as the source has it; every record is then rendered (`enrich.render`), duplicates
merged, and each paper that remains enriched once (`enrich.enrich`).
"""

from __future__ import annotations

import importlib
import os
import re
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from paperterm.index.papers import Paper, content_id, digest_id, normalize_for_id
from paperterm.index.problems import Problem
from paperterm.index.sources.enrich import distinct_titles, enrich, render

Parser = Callable[[Path, str, str | None], tuple[list[Paper], list[Problem]]]

#: Extensions we read when walking a folder, and the parser module for each. Parsers are
#: imported when first needed: a start with a ready index parses nothing and skips them.
FORMATS: dict[str, str] = {
    ".txt": "text_list",
    ".bib": "bibtex",
    ".bibtex": "bibtex",
    ".json": "json_records",
    ".jsonl": "json_records",
    ".ndjson": "json_records",
}
_SNIFF_BYTES = 8192
_BIB_ENTRY = re.compile(r"^[ \t]*@[ \t]*[a-zA-Z]+[ \t]*[{(]", re.MULTILINE)
_NOT_WORD = re.compile(r"[\W_]+")


@dataclass(frozen=True, slots=True)
class SourceSpec:
    """A configured source: a file or folder, with an optional collection name override."""

    path: Path
    collection: str | None = None


@dataclass(slots=True)
class Corpus:
    papers: list[Paper] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)

    @property
    def collections(self) -> list[str]:
        seen: dict[str, None] = {}
        for paper in self.papers:
            for name in paper.collections:
                seen.setdefault(name, None)
        return list(seen)


def bundled_seeds() -> list[SourceSpec]:
    """The ICML 2024 lists shipped inside the package."""
    folder = resources.files("paperterm.seeds")
    return [
        SourceSpec(Path(str(entry)))
        for entry in sorted(folder.iterdir(), key=lambda e: e.name)
        if entry.name.endswith(".txt")
    ]


def discover(spec: SourceSpec) -> tuple[list[Path], list[Problem]]:
    """The corpus files a source names: the file itself, or a folder's files, recursively.

    Folders are walked in sorted order (so results do not depend on the file system),
    symlinked folders are followed once (loops are cut), unreadable entries are reported.
    """
    path = spec.path
    if not path.exists():
        return [], [Problem(str(path), 0, "no such file or folder")]
    if not path.is_dir():
        return [path], []
    found: list[Path] = []
    problems: list[Problem] = []
    seen_dirs: set[tuple[int, int]] = set()

    def walk(folder: Path) -> None:
        try:
            info = folder.stat()
        except OSError as error:
            problems.append(Problem(str(folder), 0, f"cannot read folder: {error.strerror}"))
            return
        key = (info.st_dev, info.st_ino)
        if key in seen_dirs:
            return
        seen_dirs.add(key)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as error:
            problems.append(Problem(str(folder), 0, f"cannot read folder: {error.strerror}"))
            return
        for entry in entries:
            child = Path(entry.path)
            try:
                if entry.is_dir():
                    walk(child)
                elif entry.is_file() and child.suffix.lower() in FORMATS:
                    found.append(child)
            except OSError as error:
                problems.append(Problem(str(child), 0, f"cannot read: {error.strerror}"))

    walk(path)
    return found, problems


def looks_binary(data: bytes) -> bool:
    """NUL bytes or a high share of control bytes in the first few KiB: not a text list."""
    head = data[:_SNIFF_BYTES]
    if not head:
        return False
    if b"\x00" in head:
        return True
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 12, 13, 27))
    return controls / len(head) > 0.05


def decode(path: Path, data: bytes) -> tuple[str | None, list[Problem]]:
    """Bytes to text: UTF-8 (with or without BOM), else Latin-1 with a warning."""
    if looks_binary(data):
        return None, [Problem(str(path), 0, "not a text file (binary content); skipped")]
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        warning = Problem(str(path), line, "not valid UTF-8; read as Latin-1")
        return data.decode("latin-1"), [warning]


def pick_parser(path: Path, text: str) -> Parser:
    """The parser for the extension; for other files, by the first thing in them:
    `@` (or `%` comments before an `@entry{`) is BibTeX, `[`/`{` JSON, anything else text."""
    module = FORMATS.get(path.suffix.lower())
    if module is None:
        head = text[:_SNIFF_BYTES].lstrip()
        if head.startswith(("[", "{")):
            module = "json_records"
        elif head.startswith("@") or (head.startswith("%") and _BIB_ENTRY.search(head)):
            module = "bibtex"
        else:
            module = "text_list"
    parser: Parser = importlib.import_module(f"paperterm.index.sources.{module}").parse
    return parser


def load_file(path: Path, collection: str | None = None) -> tuple[list[Paper], list[Problem]]:
    """The records of one file, rendered (display text and title) but not yet enriched."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            # A pipe would block the start for ever, /dev/zero would never end.
            return [], [Problem(str(path), 0, "not a regular file (a pipe or device); skipped")]
        data = path.read_bytes()
    except OSError as error:
        return [], [Problem(str(path), 0, f"cannot read: {error.strerror or error}")]
    text, problems = decode(path, data)
    if text is None:
        return [], problems
    papers, parse_problems = pick_parser(path, text)(path, text, collection)
    return [render(paper) for paper in papers], problems + parse_problems


def load_sources(specs: Iterable[SourceSpec]) -> Corpus:
    """Every paper from every source, duplicates merged, problems collected (never raised)."""
    corpus = Corpus()
    for spec in specs:
        files, problems = discover(spec)
        corpus.problems.extend(problems)
        for path in files:
            papers, problems = load_file(path, spec.collection)
            corpus.files.append(path)
            corpus.papers.extend(papers)
            corpus.problems.extend(problems)
    corpus.papers = [enrich(paper) for paper in merge_duplicates(corpus.papers)]
    distinct_titles(corpus.papers)
    return corpus


def _fold(text: str) -> str:
    """Text compared for duplicates: case, width, white space and punctuation folded."""
    return _NOT_WORD.sub(" ", normalize_for_id(text)).strip()


def _identities(paper: Paper, abstract: str) -> list[tuple[str, str]]:
    """What makes two records the same paper: DOI, arXiv id, or title (none for a record
    without one) and abstract, both folded."""
    keys = []
    if paper.doi:
        keys.append(("doi", paper.doi.strip().lower()))
    if paper.arxiv_id:
        keys.append(("arxiv", paper.arxiv_id.strip().lower()))
    if abstract:
        keys.append(("text", f"{_fold(paper.title)}\n{abstract}"))
    return keys


def _absorb(first: Paper, later: Paper) -> None:
    """`first` lists `later`'s collections and takes what it lacked (authors, year, ...)."""
    for name in later.collections:
        if name not in first.collections:
            first.collections.append(name)
    for url in later.links:
        if url not in first.links:
            first.links.append(url)
    first.title = first.title or later.title  # a source's title beats a derived one
    first.authors = first.authors or later.authors
    first.year = first.year if first.year is not None else later.year
    first.doi = first.doi or later.doi
    first.arxiv_id = first.arxiv_id or later.arxiv_id
    if later.entry_type and not first.entry_type:
        # A BibTeX entry describes the record as published; its fields are LaTeX, so they
        # replace plain ones rather than mix with them.
        first.entry_type, first.fields = later.entry_type, dict(later.fields)
    elif bool(later.entry_type) == bool(first.entry_type):
        first.fields = {**later.fields, **first.fields}


def merge_duplicates(papers: list[Paper]) -> list[Paper]:
    """The same paper from several sources becomes one record, with the first one's id,
    listing every collection.

    Records are compared as rendered (`enrich.render`): on the display text of title and
    abstract, which reads the same whatever markup a source used (`{B}ayesian`, `\\'e`).
    Same paper: the same DOI, the same arXiv id, or the same folded title and abstract.
    A record known only by its abstract (a content id, like the seeds' papers, whose titles
    are derived) also matches any record with the same abstract. Two different papers that
    happen to share an id (e.g. the BibTeX key `preface` in two proceedings) are both kept,
    the later one with a suffix from its content so the ids stay unique.
    """
    merged: list[Paper] = []
    by_identity: dict[tuple[str, str], Paper] = {}
    by_abstract: dict[str, Paper] = {}
    anonymous_by_abstract: dict[str, Paper] = {}
    ids: set[str] = set()
    for paper in papers:
        abstract = _fold(paper.text)
        anonymous = bool(abstract) and paper.id == digest_id(normalize_for_id(paper.abstract))
        identities = _identities(paper, abstract)
        first = next((by_identity[key] for key in identities if key in by_identity), None)
        if first is None and abstract:
            first = (by_abstract if anonymous else anonymous_by_abstract).get(abstract)
        if first is None:
            first = paper
            if paper.id in ids:
                suffix = content_id(f"{paper.title}\n{paper.abstract}")[:6]
                paper.id = f"{paper.id}~{suffix}"
                while paper.id in ids:
                    paper.id += "~"
            ids.add(paper.id)
            merged.append(paper)
        else:
            _absorb(first, paper)
        for key in identities:
            by_identity.setdefault(key, first)
        if abstract:
            by_abstract.setdefault(abstract, first)
            if anonymous:
                anonymous_by_abstract.setdefault(abstract, first)
    return merged
