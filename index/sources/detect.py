"""Which parser reads a file: by the source's `format`, else by the file's content.

A `.txt` file is a text list, `.bib` BibTeX, `.jsonl`/`.ndjson` JSON Lines, whatever they
hold. Any other file is recognised by its first part (`HEAD_CHARS`): XML by its root (ACL
Anthology's `<collection>`), JSON by the keys of its records (OpenReview notes, a
conference site's export, papercopilot's list, or any list of papers), a table by its
header row, BibTeX by its first entry; other text is a text list. A file whose shape is
none of these is refused (`refusal`), in one line that says what it looks like and which
`format`, `columns` or `[sources.fields]` would read it: it is never read as prose.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from pathlib import Path

from paperterm.index.papers import Paper
from paperterm.index.problems import Problem
from paperterm.index.sources.files import DEFAULT_READ, FORMAT_NAMES, ReadAs

#: A parser: `parse(path, text, collection) -> (papers, problems)`.
Parser = Callable[[Path, str, str | None], tuple[list[Paper], list[Problem]]]

#: How much of a file its shape is judged by.
HEAD_CHARS = 1 << 16
#: Every refusal's message starts so (a directly named file refused is a usage error).
REFUSED = "refused: "

_BY_EXTENSION = {
    ".txt": "text_list",
    ".bib": "bibtex",
    ".bibtex": "bibtex",
    ".jsonl": "json_records",
    ".ndjson": "json_records",
}
_TABLE_EXTENSIONS = (".csv", ".tsv", ".tab")
_JSON_KEY = re.compile(r'"((?:[^"\\\n]|\\.){1,60})"\s*:')
_XML_ROOT = re.compile(r"<([A-Za-z_][\w.:-]*)")
_BIB_ENTRY = re.compile(r"^[ \t]*@[ \t]*[a-zA-Z]+[ \t]*[{(]", re.MULTILINE)
_SITE_KEYS = {"eventtype", "event_type", "room_name", "virtualsite_url", "poster_position"}
#: Keys only abstracts-explorer style lists use (ours are `session`, `room`, `start`, `poster`).
_SCHEDULE_KEYS = {"poster_position", "room_name", "starttime"}
_COPILOT_KEYS = {"status", "track", "site", "aff", "authorids"}
_PAPER_KEYS = {"title", "abstract", "summary"}
_EXAMPLE_COLUMNS = '["title", "authors", "abstract", ...]'


def choose(path: Path, text: str, read_as: ReadAs = DEFAULT_READ) -> str:
    """The parser module for the file (`text`: its text, or its first part), or the
    refusal's message (it starts with `REFUSED`)."""
    if read_as.format != "auto":
        module = FORMAT_NAMES[read_as.format]
        if module == "json_records" and read_as.fields:
            return "json_fields"
        if module == "table":
            return _table(path, text, read_as) or "table"
        return module
    suffix = path.suffix.lower()
    if suffix in _BY_EXTENSION:
        if read_as.fields and _BY_EXTENSION[suffix] == "json_records":
            return "json_fields"
        return _BY_EXTENSION[suffix]
    head = text[:HEAD_CHARS].lstrip("\ufeff \t\r\n")
    if head.startswith("<"):
        return _xml(head)
    if head.startswith(("[", "{")):
        return _json(head, read_as)
    if suffix == ".json":
        return "json_fields" if read_as.fields else "json_records"  # it says what is wrong
    if suffix in _TABLE_EXTENSIONS or _tab_table(head) or _known_header(head):
        return _table(path, head, read_as) or "table"
    if suffix == ".xml":
        return f"{REFUSED}not XML (it does not start with a tag); no format reads it"
    if head.startswith("@") or (head.startswith("%") and _BIB_ENTRY.search(head)):
        return "bibtex"
    return "text_list"


def refusal(path: Path, read_as: ReadAs = DEFAULT_READ) -> str | None:
    """`path: refused: ...` when the file would be refused (judged by its first part), else
    None. Only the head is read; a file that cannot be read is left to the build to say."""
    if read_as.format == "auto" and path.suffix.lower() in _BY_EXTENSION:
        return None
    if read_as.format not in ("auto", "csv", "tsv"):
        return None
    try:
        with open(path, "rb") as handle:
            data = handle.read(HEAD_CHARS)
    except OSError:
        return None
    text = data.decode("utf-8-sig", "replace")
    chosen = choose(path, text, read_as)
    return f"{path}: {chosen}" if chosen.startswith(REFUSED) else None


def _xml(head: str) -> str:
    body = re.sub(r"<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^>]*>", "", head, flags=re.S | re.I).lstrip()
    match = _XML_ROOT.match(body)
    root = match.group(1) if match else ""
    if root == "collection" and re.search(r"<(volume|paper)\b", body):
        return "acl_xml"
    if root.lower() == "rss" or "<rss" in head[:2000].lower():
        what = "an RSS feed"
    elif root == "feed":
        what = "an Atom feed"
    elif root.lower() == "html" or head[:200].lower().startswith("<!doctype html"):
        what = "an HTML page"
    else:
        what = f"XML whose root is <{root or '?'}>"
    return (
        f"{REFUSED}{what}, not a paper list; the XML read is ACL Anthology's "
        '(format = "acl-xml", a <collection> of <volume>s)'
    )


def json_keys(head: str) -> set[str]:
    """The object keys in the first part of a JSON text (at any depth)."""
    return {match.group(1) for match in _JSON_KEY.finditer(head)}


def _json(head: str, read_as: ReadAs) -> str:
    keys = json_keys(head)
    if "notes" in keys or ("content" in keys and ({"forum", "invitation", "invitations"} & keys)):
        return "openreview"
    if "results" in keys and _SITE_KEYS & keys:
        return "site_json"
    if "speakers/authors" in keys or ("name" in keys and "virtualsite_url" in keys):
        return "site_json"
    if "title" in keys and _SCHEDULE_KEYS & keys:
        return "site_json"
    if {"title", "author"} <= keys and _COPILOT_KEYS & keys and "abstract" not in keys:
        return "papercopilot"
    if read_as.fields:
        return "json_fields"
    if _PAPER_KEYS & keys or not keys:
        return "json_records"
    shown = ", ".join(sorted(keys)[:8]) + (", ..." if len(keys) > 8 else "")
    return (
        f"{REFUSED}JSON whose records have none of title, abstract (keys: {shown}); map "
        'ours onto theirs: format = "json" with [sources.fields] title = "<their key>", '
        'abstract = "<their key>"'
    )


def _tab_table(head: str) -> bool:
    """Whether the first lines are rows of one tab-separated table (two tabs or more each,
    as many in each)."""
    lines = [line for line in head.split("\n") if line.strip()][:5]
    if len(lines) < 2:
        return False
    counts = {line.count("\t") for line in (lines[:-1] if len(lines) > 2 else lines)}
    return len(counts) == 1 and min(counts) >= 2


def _known_header(head: str) -> bool:
    """Whether the first line is a table's header row we know: a title or abstract column
    and at least one other of ours, cut at tabs or commas."""
    from paperterm.index.sources.table_header import header_fields, split_row

    first = head.split("\n", 1)[0]
    for delimiter in ("\t", ","):
        if delimiter in first:
            names = header_fields(split_row(first, delimiter))
            if names is not None and sum(1 for name in names if name) >= 2:
                return True
    return False


def _table(path: Path, head: str, read_as: ReadAs) -> str | None:
    """None when the table can be read (a header row we know, or `columns`), else why not."""
    from paperterm.index.sources.table_header import delimiter_of, header_fields, split_row

    if read_as.columns:
        return None
    delimiter = delimiter_of(path, head, read_as)
    first = head.lstrip("\ufeff").split("\n", 1)[0]
    cells = split_row(first, delimiter)
    if header_fields(cells) is not None:
        return None
    kind = "tab-separated" if delimiter == "\t" else "comma-separated"
    fmt = "tsv" if delimiter == "\t" else "csv"
    return (
        f"{REFUSED}a {kind} table of {len(cells)} columns without a header row we know "
        f'(no title or abstract column); name its columns: format = "{fmt}", '
        f'columns = {_EXAMPLE_COLUMNS} (our field per column, "" skips one)'
    )


#: The parser modules that take the source's `ReadAs` (the others need nothing of it).
_READING_PARSERS = frozenset(
    {"table", "site_json", "openreview", "papercopilot", "acl_xml", "json_fields"}
)


#: What reports call the format each parser module reads.
_MODULE_FORMATS = {
    "text_list": "text",
    "bibtex": "bibtex",
    "json_records": "json",
    "json_fields": "json (fields)",
    "site_json": "virtual-site",
    "openreview": "openreview",
    "papercopilot": "papercopilot",
    "acl_xml": "acl-xml",
}


def format_name(module: str, path: Path, read_as: ReadAs = DEFAULT_READ) -> str:
    """The format `choose`'s answer reads, as reports name it ("" for a refused file)."""
    if module.startswith(REFUSED):
        return ""
    if module == "table":
        if read_as.format in ("csv", "tsv"):
            return read_as.format
        return "tsv" if path.suffix.lower() in (".tsv", ".tab") else "csv"
    if module == "json_records" and path.suffix.lower() in (".jsonl", ".ndjson"):
        return "jsonl"
    return _MODULE_FORMATS.get(module, module)


def pick_parser(path: Path, text: str, read_as: ReadAs = DEFAULT_READ) -> Parser:
    """The parser for the file, as `detect.choose` picks it (the source's `format`, else
    the extension and the content); a file refused gets a parser that says why."""
    return parser_for(choose(path, text, read_as), read_as)


def parser_for(module: str, read_as: ReadAs = DEFAULT_READ) -> Parser:
    """The parser of `choose`'s answer: its module's, or one that gives the refusal."""
    if module.startswith(REFUSED):

        def refuse(
            path: Path, text: str, collection: str | None
        ) -> tuple[list[Paper], list[Problem]]:
            return [], [Problem(str(path), 0, module)]

        return refuse
    parse = importlib.import_module(f"paperterm.index.sources.{module}").parse
    if module not in _READING_PARSERS:
        parser: Parser = parse
        return parser

    def parse_as(
        path: Path, text: str, collection: str | None
    ) -> tuple[list[Paper], list[Problem]]:
        found: tuple[list[Paper], list[Problem]] = parse(path, text, collection, read_as)
        return found

    return parse_as
