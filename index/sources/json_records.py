"""JSON and JSON-lines paper lists.

`.json`: an array of paper objects, or an object holding that array under `papers`, `items`
or `records` (a lone paper object is read as a list of one). `.jsonl`/`.ndjson`: one object
per line; a bad line is reported and the rest load. The arXiv metadata snapshot is JSON lines
even though it is named `.json`, so a `.json` file that is not one JSON document is read as
JSON lines.

Field names are the usual ones (title, abstract/summary, authors, id/doi/arxiv id, year or a
date, url/link/links); the arXiv snapshot's rows (`authors_parsed`, `versions`,
`update_date`, `categories`) load as they are.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from paperterm.index.links import Known, arxiv_id, paper_links
from paperterm.index.papers import Paper, content_id
from paperterm.index.problems import Problem, sorted_out
from paperterm.index.sources.bounds import SOURCE_LIMIT
from paperterm.index.text.field_text import clean, plain

_LIST_KEYS = ("papers", "items", "records")
_URL_KEYS = ("url", "link", "links", "pdf_url", "pdf")
#: Bibliographic fields kept as given (`Paper.fields`), by their BibTeX names.
_FIELD_KEYS = {
    "journal": "journal", "booktitle": "booktitle", "pages": "pages", "volume": "volume",
    "number": "number", "issue": "number", "publisher": "publisher", "url": "url",
    "pdf": "pdf", "pdf_url": "pdf", "openreview": "openreview",
}  # fmt: skip
_LIST_START = re.compile(r'"(?:papers|items|records)"\s*:\s*\[')
_PAPER_KEYS = {"title", "abstract", "summary"}
#: `Paper`'s conference fields a record may give under the same names: text, and lists.
_CONFERENCE_TEXT = ("venue", "status", "type", "track", "topic", "tldr", "session", "room")
_CONFERENCE_TEXT_MORE = ("start", "end", "poster")
_CONFERENCE_LISTS = ("affiliations", "author_ids", "keywords")
_DOI = re.compile(r"(10\.\d{4,9}/\S+)")
_YEAR = re.compile(r"\b(1[5-9]\d\d|2\d\d\d)\b")
#: Where a record may give its date, after its year and its first version's.
_DATE_KEYS = ("date", "published", "update_date", "updated")
# arXiv rows wrap their abstracts and start each new paragraph with an indented line.
_INDENTED_LINE = re.compile(r"\n[ \t]+(?=\S)")


def _text(value: Any) -> str:
    if isinstance(value, str):
        return _valid(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return ""


def _valid(text: str) -> str:
    """`text` with lone surrogates (JSON may spell them, "\\ud800", but they are no
    character and cannot be written as UTF-8) replaced by U+FFFD. (An ASCII string, which
    `isascii` knows without reading it, has none.)"""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _why(error: ValueError | RecursionError) -> str:
    if isinstance(error, json.JSONDecodeError):
        return error.msg
    return "nested too deeply"


def _line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def _after_space(text: str, index: int) -> int:
    """The first position at or after `index` that is not JSON white space."""
    while index < len(text) and text[index] in " \t\n\r":
        index += 1
    return index


def _array_values(
    text: str, start: int, failures: list[tuple[str, int]]
) -> Iterator[tuple[int, Any]]:
    """The values of the JSON array opening at `text[start]`, each with its line, one at a
    time; a syntax error ends them, its message and line appended to `failures`.

    Decoding value by value (not `json.loads` on the whole) gives us line numbers, keeps
    the values before a syntax error, and lets a reader show the first papers while the
    rest are read. Lines are counted from the value before, not from the start.
    """
    decoder = json.JSONDecoder()
    index = start + 1
    line, counted = _line_of(text, start), start
    while True:
        index = _after_space(text, index)
        if index < len(text) and text[index] == "]":
            return
        try:
            value, end = decoder.raw_decode(text, index)
        except json.JSONDecodeError as error:
            failures.append((error.msg, _line_of(text, error.pos)))
            return
        except RecursionError:
            failures.append(("nested too deeply", _line_of(text, index)))
            return
        line += text.count("\n", counted, index)
        counted = index
        yield line, value
        index = _after_space(text, end)
        if index < len(text) and text[index] == ",":
            index += 1
        elif index < len(text) and text[index] == "]":
            return
        else:
            failures.append(("Expecting ',' delimiter", _line_of(text, index)))
            return


def _array_items(text: str, start: int) -> tuple[list[tuple[int, Any]], str | None, int]:
    """`_array_values` as a list: (items, error message or None, error line)."""
    failures: list[tuple[str, int]] = []
    items = list(_array_values(text, start, failures))
    return (items, *failures[0]) if failures else (items, None, 0)


def array_papers(path: Path, text: str, collection: str | None) -> Iterator[Paper | Problem]:
    """The records of a .json file that holds an array, as `parse` reads them, one at a
    time, each paper as soon as it is decoded: a paper, or the problem with a record, in
    line order (a syntax error last: the rest is skipped)."""
    start = len(text) - len(text.lstrip())
    failures: list[tuple[str, int]] = []
    for line, record in _array_values(text, start, failures):
        yield _from_record(path, line, record, collection)
    for message, line in failures:
        yield Problem(str(path), line, f"not valid JSON: {message}; rest skipped")


def holds_array(text: str) -> bool:
    """Whether a .json file's text is an array (`array_papers` reads it)."""
    return text.lstrip()[:1] == "["


def _records(path: Path, text: str) -> tuple[list[tuple[int, Any]], list[Problem]]:
    """(line, value) for every record of a .json file that is not an array
    (`array_papers` reads those); JSON lines if it is not one document."""
    stripped = text.lstrip()
    if not stripped:
        return [], [Problem(str(path), 0, "empty file")]
    start = len(text) - len(stripped)
    try:
        document = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as error:
        if _why(error) == "Extra data" or _looks_like_lines(text):
            return _lines(path, text)
        line = getattr(error, "lineno", 0)
        return [], [Problem(str(path), line, f"not valid JSON: {_why(error)}")]
    if isinstance(document, dict):
        for key in _LIST_KEYS:
            if isinstance(document.get(key), list):
                match = _LIST_START.search(text)
                if match:
                    items, failure, _ = _array_items(text, match.end() - 1)
                    if failure is None and len(items) == len(document[key]):
                        return items, []
                return [(0, item) for item in document[key]], []
        if _PAPER_KEYS & set(document):
            return [(_line_of(text, start), document)], []
    return [], [
        Problem(str(path), 0, "no papers found: expected an array of objects or JSON lines")
    ]


def _looks_like_lines(text: str) -> bool:
    first = text.lstrip().split("\n", 1)[0].strip()
    try:
        return isinstance(json.loads(first), dict)
    except (json.JSONDecodeError, RecursionError):
        return False


def _lines(path: Path, text: str) -> tuple[list[tuple[int, Any]], list[Problem]]:
    """JSON Lines: records end at "\n" only (a "\r" before it is JSON white space).
    `str.splitlines` would also split at U+2028, U+2029, U+0085, form feeds..., which JSON
    strings may hold unescaped (`json.dumps(ensure_ascii=False)` and jq write them so),
    dropping the record and shifting every later line number."""
    records: list[tuple[int, Any]] = []
    problems: list[Problem] = []
    for number, line in enumerate(text.split("\n"), start=1):
        value = _line_value(path, number, line)
        if isinstance(value, Problem):
            problems.append(value)
        elif value is not _BLANK:
            records.append((number, value))
    return records, problems


_BLANK = object()


def _line_value(path: Path, number: int, line: str) -> Any:
    """The value on one line of JSON Lines (`_BLANK` for a blank line), or the problem."""
    if not line or line.isspace():  # (`strip` would copy the line)
        return _BLANK
    try:
        return json.loads(line)
    except (json.JSONDecodeError, RecursionError) as error:
        return Problem(str(path), number, f"not valid JSON: {_why(error)}; skipped")


def streams(path: Path, first_line: str) -> bool:
    """Whether the file is JSON Lines, read line by line (`parse_line`): a .jsonl/.ndjson
    file, or a .json one whose first line is a whole paper object (the arXiv snapshot),
    which `parse` would read as JSON Lines too."""
    if path.suffix.lower() in (".jsonl", ".ndjson"):
        return True
    if path.suffix.lower() != ".json" or not first_line.lstrip().startswith("{"):
        return False
    try:
        value = json.loads(first_line)
    except (json.JSONDecodeError, RecursionError):
        return False
    return isinstance(value, dict) and bool(_PAPER_KEYS & set(value))


def parse_line(
    path: Path, number: int, line: str, collection: str | None
) -> Paper | Problem | None:
    """One line of a JSON Lines file as `parse` reads it: its paper, why it is none, or None
    for a blank line."""
    value = _line_value(path, number, line)
    if value is _BLANK:
        return None
    if isinstance(value, Problem):
        return value
    return _from_record(path, number, value, collection)


def _from_record(path: Path, line: int, record: Any, collection: str | None) -> Paper | Problem:
    if not isinstance(record, dict):
        return Problem(str(path), line, "record is not a JSON object; skipped")
    paper = _paper(path, line, record, collection)
    return Problem(str(path), line, paper) if isinstance(paper, str) else paper


def _author_name(value: Any) -> str:
    if isinstance(value, str):
        return _text(value)
    if isinstance(value, dict):
        name = _text(value.get("name")) or _text(value.get("literal"))
        if name:
            return name
        first = _text(value.get("first") or value.get("given") or value.get("firstName"))
        last = _text(value.get("last") or value.get("family") or value.get("lastName"))
        return f"{first} {last}"
    if isinstance(value, list):  # arXiv's authors_parsed rows: [last, first, suffix]
        parts = [_text(part) for part in value[:3]]
        last, first, suffix = [*parts, "", "", ""][:3]
        return " ".join(part for part in (first, last, suffix) if part)
    return ""


def _split_author_string(value: str) -> list[str]:
    """Names from "A, B and C" or "A and B"; BibTeX's "Last, First and Last, First" too."""
    people = [part.strip() for part in re.split(r"\s+and\s+|\n", value) if part.strip()]
    if len(people) > 1 and all(person.count(",") == 1 for person in people):
        return [" ".join(reversed(person.split(","))) for person in people]
    return [name for person in people for name in person.split(",")]


def _authors(record: dict[str, Any]) -> list[str]:
    value = record.get("authors_parsed") or record.get("authors") or record.get("author")
    if isinstance(value, str):
        raw = _split_author_string(_text(value))
    elif isinstance(value, list):
        names = (_listed_author(item) for item in value)
        return [name for name in names if name]
    elif isinstance(value, dict):
        raw = [_author_name(value)]
    else:
        raw = []
    names = (plain(name) for name in raw)
    return [name for name in names if name]


def _listed_author(item: Any) -> str:
    """`plain(_author_name(item))` of an item of an author list. arXiv's rows
    ([last, first, suffix], most of strings) are named here, in fewer steps: a build names
    every author of every record."""
    if not isinstance(item, list):
        return plain(_author_name(item))
    parts = [part if type(part) is str and part.isascii() else _text(part) for part in item[:3]]
    if len(parts) == 3:
        last, first, suffix = parts
    else:
        last, first, suffix = (*parts, "", "", "")[:3]
    if suffix or not (first and last):
        return plain(" ".join(part for part in (first, last, suffix) if part))
    return plain(f"{first} {last}")


def _arxiv_id(record: dict[str, Any]) -> str:
    for key in ("arxiv_id", "arxiv", "arxivId", "id"):
        value = record.get(key)
        if value is not None:  # (absent, it names none)
            found = arxiv_id(_text(value))
            if found:
                return found
    return ""


def _doi(record: dict[str, Any]) -> str:
    match = _DOI.search(_text(record.get("doi")).strip())
    return match.group(1).rstrip(".,;") if match else ""


def _year(record: dict[str, Any], arxiv_id: str) -> int | None:
    year = record.get("year")
    if isinstance(year, int) and not isinstance(year, bool):
        return year
    versions = record.get("versions")
    first_version = versions[0] if isinstance(versions, list) and versions else {}
    candidates = (
        year,
        first_version.get("created") if isinstance(first_version, dict) else None,
        *(record.get(key) for key in _DATE_KEYS),
    )
    for candidate in candidates:
        match = _YEAR.search(_text(candidate)) if candidate is not None else None
        if match:
            return int(match.group(1))
    if re.match(r"\d{4}\.", arxiv_id):  # new-style ids start with yymm
        return 2000 + int(arxiv_id[:2])
    return None


def _urls(value: Any) -> list[str]:
    """URLs given as a string, as `{"href": ...}` / `{"url": ...}`, or a list of those."""
    items = value if isinstance(value, list) else [value]
    return [
        _text(item.get("href") or item.get("url") if isinstance(item, dict) else item)
        for item in items
    ]


def _record_fields(record: dict[str, Any]) -> dict[str, str]:
    """The bibliographic fields a record gives as text or numbers, by BibTeX name."""
    fields: dict[str, str] = {}
    for key, name in _FIELD_KEYS.items():
        if record.get(key) is None:  # most: an arXiv row has none of them
            continue
        value = plain(_text(record.get(key)))
        if value:
            fields.setdefault(name, value)
    return fields


def _abstract(record: dict[str, Any]) -> str:
    raw = _text(record.get("abstract")) or _text(record.get("summary"))
    raw = raw[:SOURCE_LIMIT]  # (a huge one is cut by the loader anyway: `bounds`)
    if "authors_parsed" in record or "versions" in record:
        raw = raw.strip()
        if "\n " in raw or "\n\t" in raw:
            raw = _INDENTED_LINE.sub("\n\n", raw)
    return clean(raw)


def _paper(path: Path, line: int, record: dict[str, Any], collection: str | None) -> Paper | str:
    """The paper a record describes, or why it cannot be one."""
    title = clean(_text(record.get("title")), paragraphs=False)
    abstract = _abstract(record)
    if not title and not abstract:
        return "record has neither title nor abstract; skipped"
    arxiv_id = _arxiv_id(record)
    doi = _doi(record)
    explicit = _text(record.get("id")).strip()
    paper_id = arxiv_id or doi or explicit or content_id(abstract or title)
    name = collection or plain(_text(record.get("collection") or record.get("venue"))) or path.stem
    return Paper(
        id=paper_id,
        collection=name,
        abstract=abstract,
        title=title,
        authors=_authors(record),
        year=_year(record, arxiv_id),
        doi=doi,
        arxiv_id=arxiv_id,
        links=paper_links(
            Known(
                urls=[
                    url
                    for key in _URL_KEYS
                    if record.get(key) is not None
                    for url in _urls(record.get(key))
                ],
                doi=doi,
                arxiv_id=arxiv_id,
            )
        ),
        source=str(path),
        line=line,
        fields=_record_fields(record),
        **_conference(record),
    )


def _conference(record: dict[str, Any]) -> dict[str, Any]:
    """The conference fields a record gives under `Paper`'s own names (a list of names, or
    one text with commas, for the lists)."""
    found: dict[str, Any] = {}
    for key in (*_CONFERENCE_TEXT, *_CONFERENCE_TEXT_MORE):
        value = record.get(key)
        if value is not None:
            text = plain(_text(value))
            if text:
                found[key] = text
    for key in _CONFERENCE_LISTS:
        value = record.get(key)
        if isinstance(value, str):
            value = value.split(",") if key == "keywords" else [value]
        if isinstance(value, list):
            items = [plain(_text(item)) for item in value]
            if any(items):
                found[key] = items if key != "keywords" else [item for item in items if item]
    return found


def parse(
    path: Path, text: str, collection: str | None = None
) -> tuple[list[Paper], list[Problem]]:
    if path.suffix.lower() in (".jsonl", ".ndjson"):
        records, problems = _lines(path, text)
    elif holds_array(text):
        return sorted_out(path, array_papers(path, text, collection), [], "no papers found")
    else:
        records, problems = _records(path, text)
    found = (_from_record(path, line, record, collection) for line, record in records)
    return sorted_out(path, found, problems, "no papers found")
