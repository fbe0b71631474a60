"""BibTeX files, PMLR proceedings style: an `@Proceedings` entry naming the volume, then one
`@InProceedings` entry per paper with title, author and abstract.

Splitting the file into entries is left to bibtexparser 2: it handles nested braces,
quoted values, `@string`/`@comment` blocks and, most usefully here, keeps going after a
malformed entry and tells us where that entry started. We run it without middleware and
interpret the raw values ourselves (string macros, `#` concatenation, enclosing braces),
then undo what is particular to the format with `field_text` (LaTeX is left to the one
decoder: the loader renders every record alike).

Each paper also keeps its entry as published (`Paper.entry_type`, `Paper.fields`): the type as
written and its fields as LaTeX, with what it inherits from its volume (`crossref`, or the
file's only `@Proceedings`) written in, as BibTeX's crossref would: booktitle, editor, volume,
year, publisher... A PMLR volume (the `@Proceedings` entry PMLR's volumes start with: a
volume number and PMLR's own fields `shortname`, `published`, `conference_url`) gives each
entry its page and PDF on proceedings.mlr.press from the volume and the entry's key.
"""

from __future__ import annotations

import itertools
import logging
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import bibtexparser
from bibtexparser.middlewares.names import (
    parse_single_name_into_parts,
    split_multiple_persons_names,
)
from bibtexparser.model import (
    Block,
    DuplicateBlockKeyBlock,
    DuplicateFieldKeyBlock,
    Entry,
    ParsingFailedBlock,
    String,
)
from bibtexparser.splitter import Splitter

from paperterm.index.links import Known, arxiv_id, paper_links, pmlr_links
from paperterm.index.papers import Paper
from paperterm.index.problems import Problem, sorted_out
from paperterm.index.sources import bibtex_chunks
from paperterm.index.sources.bibtex_chunks import Chunk, Window, chunks, file_lines, parts
from paperterm.index.text.field_text import clean, plain

# The splitter logs each malformed entry; we report those as Problems, and without a
# handler Python's last-resort handler would print the log lines over the terminal UI.
logging.getLogger("bibtexparser").addHandler(logging.NullHandler())

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_YEAR = re.compile(r"\b(1[5-9]\d\d|2\d\d\d)\b")
_DOI = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.I)
_ENTRY_KEY = re.compile(r"@\s*\w+\s*[{(]\s*([^,\s{}()]*)")
_ENTRY_TYPE = re.compile(r"\s*@\s*(\w+)")
_WS = re.compile(r"\s+")
_VOLUME_TYPES = {"proceedings", "mvproceedings"}
#: What an entry inherits from its volume (BibTeX's crossref; biblatex's inheritance).
_INHERITED = ("booktitle", "editor", "volume", "year", "month", "address", "publisher", "series")
#: Fields only PMLR's `@Proceedings` entries carry: with a volume number, a PMLR volume.
_PMLR_VOLUME_FIELDS = ("shortname", "published", "conference_url")
_PMLR_SERIES = "Proceedings of Machine Learning Research"
#: Kept in `Paper.abstract` (and in every record) already.
_NOT_KEPT = ("abstract", "crossref")
#: What a chunk must hold to declare a string or a volume (bibtexparser lower-cases the
#: type and takes any `@string...` for a string; `re.I` matches a superset of that).
_DECLARES = re.compile(r"@(?:string|(?:mv)?proceedings)", re.I)
#: What follows a block start up to its first mark: its key, unless a backslash escapes a
#: mark in it (`{` blocks end their key at `{}",=`, `(` blocks at `)` too).
_KEYS = re.compile(r"@\w*[ \t]*(?:\{([^{}\",=]*)|\(([^{}\",=)]*))")


@dataclass(frozen=True, slots=True)
class _Volume:
    """A `@Proceedings` entry: its short name and year, what its papers inherit, and its
    PMLR volume number ("" when it is not a PMLR volume)."""

    name: str = ""
    year: int | None = None
    inherited: dict[str, str] = field(default_factory=dict)
    pmlr: str = ""


def _split_concatenation(raw: str) -> list[str]:
    """A field value's parts around top-level `#` (BibTeX string concatenation)."""
    if "#" not in raw:
        return [raw]
    parts: list[str] = []
    depth = 0
    quoted = False
    start = 0
    escaped = False
    for index, char in enumerate(raw):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "{":
            depth += 1
        elif char == "}":
            depth = max(depth - 1, 0)
        elif char == '"' and depth == 0:
            quoted = not quoted
        elif char == "#" and depth == 0 and not quoted:
            parts.append(raw[start:index])
            start = index + 1
    parts.append(raw[start:])
    return parts


def _resolve(raw: str, strings: dict[str, str]) -> str:
    """A raw field value (`{..}`, `".."`, a number, a macro, or `#`-joined parts) as text."""
    pieces = []
    for part in _split_concatenation(raw):
        part = part.strip()
        if len(part) >= 2 and (part[0], part[-1]) in (("{", "}"), ('"', '"')):
            pieces.append(part[1:-1])
        elif part.lower() in strings:
            pieces.append(strings[part.lower()])
        else:
            pieces.append(part)
    return "".join(pieces)


def _fields(entry: Entry, strings: dict[str, str]) -> dict[str, str]:
    """Field name (lower case) to resolved value; of repeated fields the first counts."""
    fields: dict[str, str] = {}
    for item in entry.fields:
        value = item.value if isinstance(item.value, str) else str(item.value)
        fields.setdefault(item.key.strip().lower(), _resolve(value, strings))
    return fields


def _authors(raw: str) -> list[str]:
    """`Last, First and First Last and {Org Name}` to display names, first name first."""
    names = []
    try:
        people = split_multiple_persons_names(raw)
    except Exception:  # a defensive net: the splitter is third-party code
        people = raw.split(" and ")
    for person in people:
        try:
            merged = parse_single_name_into_parts(person, strict=False).merge_first_name_first
        except Exception:
            merged = person
        name = plain(merged)
        if name:
            names.append(name)
    return names


def _year(fields: dict[str, str]) -> int | None:
    for key in ("year", "date"):
        match = _YEAR.search(fields.get(key, ""))
        if match:
            return int(match.group(1))
    return None


def _volume_name(fields: dict[str, str]) -> str:
    """A proceedings volume's short label: `MIDL 2024` rather than its long booktitle."""
    short = plain(fields.get("shortname", ""))
    year = fields.get("year", "").strip()
    if short:
        return short if not year or year in short else f"{short} {year}"
    for key in ("booktitle", "name", "title"):
        name = plain(fields.get(key, ""))
        if name:
            return name
    return ""


def _arxiv_id(fields: dict[str, str]) -> str:
    """biblatex's `eprint` with `archiveprefix = {arXiv}` (or `eprinttype`)."""
    archive = (fields.get("archiveprefix") or fields.get("eprinttype") or "").strip().lower()
    eprint = fields.get("eprint", "").strip()
    if archive != "arxiv" or not eprint:
        return ""
    return arxiv_id(eprint)


def _is_pmlr(fields: dict[str, str]) -> bool:
    """Published by PMLR: said in `publisher` or `series`."""
    said = f"{fields.get('publisher', '')} {fields.get('series', '')}".lower()
    return "pmlr" in said or _PMLR_SERIES.lower() in said


def _volume(fields: dict[str, str]) -> _Volume:
    volume = fields.get("volume", "").strip()
    pmlr = volume.isdigit() and (
        any(fields.get(name) for name in _PMLR_VOLUME_FIELDS) or _is_pmlr(fields)
    )
    inherited = {name: _one_line(fields[name]) for name in _INHERITED if fields.get(name)}
    if pmlr:
        inherited.setdefault("publisher", "PMLR")
        inherited.setdefault("series", _PMLR_SERIES)
    return _Volume(_volume_name(fields), _year(fields), inherited, volume if pmlr else "")


def _pmlr_volume(volume: _Volume, record: dict[str, str]) -> str:
    """The PMLR volume an entry is in: its volume's, or its own `volume` when the entry
    says PMLR published it; "" when not known to be in PMLR."""
    own = record.get("volume", "").strip()
    return volume.pmlr or (own if own.isdigit() and _is_pmlr(record) else "")


def _one_line(value: str) -> str:
    return _WS.sub(" ", value).strip()


def _record_fields(entry: Entry, fields: dict[str, str], volume: _Volume) -> dict[str, str]:
    """The entry as published: its own fields (as LaTeX, on one line) and, where it has
    none, its volume's, as BibTeX's crossref would fill them in."""
    kept = {name: _one_line(value) for name, value in fields.items() if name not in _NOT_KEPT}
    for name, value in volume.inherited.items():
        kept.setdefault(name, value)
    return {name: value for name, value in kept.items() if value}


def _entry_type(entry: Entry) -> str:
    """The type as the file writes it (`InProceedings`), which bibtexparser lower-cases."""
    match = _ENTRY_TYPE.match(entry.raw or "")
    written = match.group(1) if match else ""
    return written if written.lower() == entry.entry_type.lower() else entry.entry_type


class _Lines:
    """The file's line (0-based) where each block of a text starts (`file_lines`): a
    chunk's text, `offset` lines into the file."""

    def __init__(self, text: str, blocks: list[Block], offset: int = 0) -> None:
        self.text = text
        self.offset = offset
        self._lines = file_lines(text, blocks)

    def __call__(self, block: Block) -> int:
        line = self._lines.get(id(block))
        if line is None:  # not one of the blocks (a duplicate's earlier block)
            line = file_lines(self.text, [block])[id(block)]
        return line + self.offset


def _failure(path: Path, block: ParsingFailedBlock, line: int, first: int | None) -> Problem:
    """The problem a failed block at `line` is (`first`: the line of the block a duplicate
    repeats the key of; lines 0-based)."""
    if isinstance(block, DuplicateBlockKeyBlock):
        said = f" (first at line {first + 1})" if first is not None else ""
        return Problem(str(path), line + 1, f"duplicate key '{block.key}'{said}; entry skipped")
    match = _ENTRY_KEY.match(block.raw or "")
    key = f" '{match.group(1)}'" if match and match.group(1) else ""
    reason = getattr(block.error, "abort_reason", None) or str(block.error)
    reason = " ".join(reason.split())
    return Problem(str(path), line + 1, f"malformed entry{key} skipped: {reason}")


def parse(
    path: Path, text: str, collection: str | None = None
) -> tuple[list[Paper], list[Problem]]:
    try:
        library = bibtexparser.parse_string(text, parse_stack=[])
        _unlinked(library.blocks)
    except Exception as error:  # the splitter re-raises what it considers its own bugs
        return [], [Problem(str(path), 0, f"cannot read as BibTeX: {error}")]
    problems: list[Problem] = []
    strings = {month: month.capitalize() for month in _MONTHS}
    for string in library.strings:
        strings[string.key.strip().lower()] = _resolve(string.value, strings)

    entries: list[tuple[Entry, int]] = []
    volumes: dict[str, _Volume] = {}
    line_of = _Lines(text, library.blocks)
    for block in library.blocks:
        if isinstance(block, DuplicateFieldKeyBlock):
            kept = block.ignore_error_block
            if not isinstance(kept, Entry):  # bibtexparser always keeps the entry
                continue
            entry = kept
            repeated = ", ".join(sorted(block.duplicate_keys))
            problems.append(
                Problem(
                    str(path),
                    line_of(block) + 1,
                    f"entry '{entry.key}' repeats field(s) {repeated}; the first value is used",
                )
            )
        elif isinstance(block, ParsingFailedBlock):
            problems.append(_failure(path, block, line_of(block), _first(block, line_of)))
            continue
        elif isinstance(block, Entry):
            entry = block
        else:
            continue
        if entry.entry_type.lower() in _VOLUME_TYPES:
            volumes.setdefault(entry.key.lower(), _volume(_fields(entry, strings)))
        else:
            entries.append((entry, line_of(block) + 1))

    found = (_paper(path, entry, line, strings, volumes, collection) for entry, line in entries)
    return sorted_out(path, found, problems, "no paper entries found")


def _first(block: ParsingFailedBlock, line_of: _Lines) -> int | None:
    """The line of the block a duplicate repeats the key of (None: not a duplicate)."""
    if isinstance(block, DuplicateBlockKeyBlock) and block.previous_block.start_line is not None:
        return line_of(block.previous_block)
    return None


def _paper(
    path: Path,
    entry: Entry,
    line: int,
    strings: dict[str, str],
    volumes: dict[str, _Volume],
    collection: str | None,
) -> Paper | Problem:
    """The paper an entry (at `line`) is, or why it is none."""
    fields = _fields(entry, strings)
    if not entry.key.strip():
        return Problem(str(path), line, "entry has no citation key; skipped")
    title = clean(fields.get("title", ""), paragraphs=False)
    abstract = clean(fields.get("abstract", ""))
    if not title and not abstract:
        return Problem(
            str(path), line, f"entry '{entry.key}' has neither title nor abstract; skipped"
        )
    default_volume = next(iter(volumes.values()), _Volume())
    volume = volumes.get(fields.get("crossref", "").strip().lower(), default_volume)
    name = (
        collection
        or volume.name
        or plain(fields.get("booktitle") or fields.get("journal") or "")
        or path.stem
    )
    doi = _DOI.sub("", fields.get("doi", "").strip())
    arxiv = _arxiv_id(fields)
    record = _record_fields(entry, fields, volume)
    pmlr = "" if fields.get("url") or fields.get("pdf") else _pmlr_volume(volume, record)
    links = paper_links(
        Known(
            urls=[fields.get("url", ""), fields.get("pdf", "")],
            pmlr_volume=pmlr,
            key=entry.key.strip(),
            openreview=fields.get("openreview", ""),
            doi=doi,
            arxiv_id=arxiv,
        )
    )
    for field_name, url in zip(("url", "pdf"), pmlr_links(pmlr, entry.key), strict=False):
        record.setdefault(field_name, url)
    return Paper(
        id=entry.key.strip(),
        collection=name,
        abstract=abstract,
        title=title,
        authors=_authors(fields.get("author", "")),
        year=_year(fields) or volume.year,
        doi=doi,
        arxiv_id=arxiv,
        links=links,
        source=str(path),
        line=line,
        entry_type=_entry_type(entry),
        fields=record,
    )


# --- a large file, read a chunk at a time ----------------------------------------------------


def stream(
    path: Path,
    read: Callable[[bool], Iterable[str]],
    collection: str | None = None,
    *,
    entries: int | None = None,
    window: Window | None = None,
) -> Iterator[Paper | Problem]:
    """`parse`'s papers and problems (in the same order, problems by line) for a file read
    a chunk of `entries` blocks at a time (`bibtex_chunks`), so that a file of any size is
    held a chunk at a time. `read(final)` gives the file's text in pieces; it is called for two
    passes: first (`final` False) for what `parse` knows before it makes any paper (every
    `@string`, every volume: an entry may use a string defined after it, and takes the
    file's first `@Proceedings` wherever it is), which reads only the chunks that declare
    one; then for the papers. Only a third-party failure differs: `parse` gives up the
    file, this the chunk. `window`: only a stretch of the file (`bibtex_stretches`)."""
    entries = entries or bibtex_chunks.ENTRIES
    strings, volumes = _declarations(read, entries)
    window = window or Window(read(True))
    entry_lines = dict(window.entries)  # the library's entry keys: the line each was first at
    string_lines = dict(window.strings)
    # Problems wait for the next chunk: a chunk after a backslash-newline starts on the line
    # its predecessor ends on (the splitter does not count that newline), and `parse` has
    # the block's problems before the entries' on a line. (line, kind, order, problem):
    pending: list[tuple[int, int, int, Problem]] = []
    order = itertools.count()
    found = False
    start = window.line  # the file's line (0-based) the chunk starts on
    for chunk in chunks(window.pieces, entries, tail=window.head):
        pending.sort(key=lambda item: item[:3])
        while pending and pending[0][0] <= start:
            yield pending.pop(0)[3]
        first_line, start = start, start + chunk.text.count("\n")  # a lookahead has none
        try:
            blocks = _blocks(chunk)
        except Exception as error:  # the splitter re-raises what it considers its own bugs
            found = True
            said = f"cannot read as BibTeX: {error}"
            problem = Problem(str(path), first_line + 1, said)
            pending.append((first_line + 1, 0, next(order), problem))
            continue
        line_of = _Lines(chunk.text, blocks, first_line)
        problems: list[Problem] = []
        kept: list[tuple[Entry, int]] = []
        for block in blocks:
            if isinstance(block, (Entry, String, DuplicateBlockKeyBlock)):
                seen = string_lines if _is_string(block) else entry_lines
                key = str(block.key)
                if key in seen:
                    problems.append(_duplicate(path, block, line_of(block), seen[key]))
                    continue
                if not isinstance(block, DuplicateBlockKeyBlock):
                    seen[key] = line_of(block)
            if isinstance(block, DuplicateFieldKeyBlock):
                entry = block.ignore_error_block
                if not isinstance(entry, Entry):
                    continue
                repeated = ", ".join(sorted(block.duplicate_keys))
                said = f"entry '{entry.key}' repeats field(s) {repeated}; the first value is used"
                problems.append(Problem(str(path), line_of(block) + 1, said))
            elif isinstance(block, ParsingFailedBlock):
                problems.append(_failure(path, block, line_of(block), _first(block, line_of)))
                continue
            elif isinstance(block, Entry):
                entry = block
            else:
                continue
            if entry.entry_type.lower() not in _VOLUME_TYPES:
                kept.append((entry, line_of(block) + 1))
        pending += ((problem.line, 0, next(order), problem) for problem in problems)
        papers: list[Paper] = []
        for entry, line in kept:
            paper = _paper(path, entry, line, strings, volumes, collection)
            if isinstance(paper, Problem):
                pending.append((paper.line, 1, next(order), paper))
            else:
                papers.append(paper)
        del blocks, kept
        found = found or bool(papers or problems or pending)
        yield from papers
    pending.sort(key=lambda item: item[:3])
    yield from (item[3] for item in pending)
    if not found:
        yield Problem(str(path), 0, "no paper entries found")


def _blocks(chunk: Chunk) -> list[Block]:
    """The chunk's blocks as bibtexparser splits the whole text (without the lookahead's)."""
    blocks = _unlinked(Splitter(chunk.text).split().blocks)
    return blocks[:-1] if chunk.lookahead else blocks


def _blocks_or_none(chunk: Chunk) -> list[Block]:
    """`_blocks` for the pass before the papers': none when the splitter fails (it raises
    what it takes for its own bugs), which the papers' pass reports, with the chunk's line."""
    try:
        return _blocks(chunk)
    except Exception:  # the splitter's own; said by the papers' pass (`stream`)
        return []


def _unlinked(blocks: list[Block]) -> list[Block]:
    """`blocks` with their errors' tracebacks dropped: a failed block keeps its exception,
    whose traceback holds the splitter's frames and so the library of every block, a cycle
    that only the garbage collector frees (and a build runs with it paused)."""
    for block in blocks:
        error = getattr(block, "error", None)
        if isinstance(error, BaseException):
            error.__traceback__ = None
    return blocks


def _is_string(block: Block) -> bool:
    if isinstance(block, DuplicateBlockKeyBlock):
        return isinstance(block.ignore_error_block, String)
    return isinstance(block, String)


def _duplicate(
    path: Path, block: Entry | String | DuplicateBlockKeyBlock, line: int, first: int
) -> Problem:
    """A block at `line` whose key an earlier chunk had, at `first` (bibtexparser's library
    would have made it a `DuplicateBlockKeyBlock`)."""
    if not isinstance(block, DuplicateBlockKeyBlock):
        block = DuplicateBlockKeyBlock(
            key=str(block.key),
            previous_block=block,
            duplicate_block=block,
            start_line=block.start_line,
            raw=block.raw,
        )
    return _failure(path, block, line, first)


#: Where a block is: its chunk, where its part starts in it, its place in the part.
_Place = tuple[int, int, int]


def _declarations(
    read: Callable[[bool], Iterable[str]], entries: int
) -> tuple[dict[str, str], dict[str, _Volume]]:
    """The strings and the volumes of a file read a chunk at a time, as `parse` has them:
    only the parts of chunks (`bibtex_chunks.parts`) that may declare one are split."""
    string_keys: set[str] = set()
    raw_strings: list[tuple[str, str]] = []
    #: (place, whether the library registers its key, entry) of each volume entry
    candidates: list[tuple[_Place, bool, Entry]] = []
    for chunk in chunks(read(False), entries):
        declared = [match.start() for match in _DECLARES.finditer(chunk.text)]
        for start, part in parts(chunk, declared):
            for number, block in enumerate(_blocks_or_none(part)):
                if isinstance(block, String):
                    if block.key not in string_keys:
                        string_keys.add(block.key)
                        raw_strings.append((block.key, block.value))
                    continue
                registered = isinstance(block, Entry)
                entry = (
                    block.ignore_error_block if isinstance(block, DuplicateFieldKeyBlock) else block
                )
                if isinstance(entry, Entry) and entry.entry_type.lower() in _VOLUME_TYPES:
                    candidates.append(((chunk.index, start, number), registered, entry))
    strings = {month: month.capitalize() for month in _MONTHS}
    for key, value in raw_strings:
        strings[key.strip().lower()] = _resolve(value, strings)
    earlier = _first_places(read, entries, candidates)
    taken: set[str] = set()
    volumes: dict[str, _Volume] = {}
    for place, registered, entry in candidates:
        if registered:
            if entry.key in taken or earlier.get(entry.key, place) < place:
                continue  # the library made it a duplicate of an earlier entry
            taken.add(entry.key)
        volumes.setdefault(entry.key.lower(), _volume(_fields(entry, strings)))
    return strings, volumes


def _first_places(
    read: Callable[[bool], Iterable[str]],
    entries: int,
    candidates: list[tuple[_Place, bool, Entry]],
) -> dict[str, _Place]:
    """For the keys of volume entries that are not the file's first block, the place of
    the first entry with that key (a volume at the start, as PMLR's files have it, needs
    no look); only the parts of chunks whose blocks may have one of the keys are split."""
    firsts: dict[str, _Place] = {}
    for place, registered, entry in candidates:
        if registered and place > (0, 0, 0):
            firsts.setdefault(entry.key, place)
    found: dict[str, _Place] = {}
    if not firsts:
        return found
    last = max(firsts.values())
    for chunk in chunks(read(False), entries):
        if chunk.index > last[0]:
            break
        keyed = [
            position
            for position, key in _keyed(chunk.text)
            if key is None or (key in firsts and (chunk.index, position) <= firsts[key][:2])
        ]
        for start, part in parts(chunk, keyed):
            for number, block in enumerate(_blocks_or_none(part)):
                if isinstance(block, (Entry, DuplicateBlockKeyBlock)) and not _is_string(block):
                    key = str(getattr(block, "key", ""))
                    place = (chunk.index, start, number)
                    if key in firsts and place < found.get(key, firsts[key]):
                        found[key] = place
    return found


def _keyed(text: str) -> list[tuple[int, str | None]]:
    """Where blocks of `text` start, and their keys (None: a backslash may escape a mark
    in it, so the key is not known without the splitter)."""
    found: list[tuple[int, str | None]] = []
    for match in _KEYS.finditer(text):
        raw = match.group(1) or match.group(2) or ""
        found.append((match.start(), None if "\\" in match.group(0) else raw.strip()))
    return found
