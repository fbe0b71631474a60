"""Where a source's files are: the formats paperterm reads, the bundled seeds, and the walk
of a source folder. Light to import (no parser): a start with a built index needs only this
to see whether its sources changed."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from paperterm.index.problems import Problem


#: Extensions we read when walking a folder, and the parser module for each. Parsers are
#: imported when first needed: a start with a ready index parses nothing and skips them.
FORMATS: dict[str, str] = {
    ".txt": "text_list",
    ".bib": "bibtex",
    ".bibtex": "bibtex",
    ".json": "json_records",
    ".jsonl": "json_records",
    ".ndjson": "json_records",
    ".csv": "table",
    ".tsv": "table",
    ".tab": "table",
    ".xml": "acl_xml",
}

#: The `format` values a `[[sources]]` table takes, and the parser module of each ("auto":
#: the file's content decides, `detect.py`).
FORMAT_NAMES: dict[str, str] = {
    "auto": "",
    "text": "text_list",
    "bibtex": "bibtex",
    "json": "json_records",
    "jsonl": "json_records",
    "csv": "table",
    "tsv": "table",
    "openreview": "openreview",
    "virtual-site": "site_json",
    "papercopilot": "papercopilot",
    "acl-xml": "acl_xml",
}

#: Our field names: what `columns` and `[sources.fields]` may name.
OUR_FIELDS = (
    "id", "title", "abstract", "authors", "affiliations", "author_ids", "year", "venue",
    "status", "type", "track", "topic", "keywords", "tldr", "session", "room", "start", "end",
    "poster", "url", "pdf", "doi", "arxiv", "openreview", "code",
)  # fmt: skip


class ReadAs(NamedTuple):
    """How a source's files are read: `format` (a `FORMAT_NAMES` key), `columns` (our field
    per column of a headerless table, "" skips one), `separator` (between names in one
    authors value, "" guesses), `fields` ((our field, their key or dotted path) pairs)."""

    format: str = "auto"
    columns: tuple[str, ...] = ()
    separator: str = ""
    fields: tuple[tuple[str, str], ...] = ()

    def key(self) -> str:
        """The options as one line ("" for the defaults): what cached records are kept by,
        so that a change of them reads the files again."""
        if self == DEFAULT_READ:
            return ""
        import json

        return json.dumps(
            [self.format, list(self.columns), self.separator, [list(f) for f in self.fields]],
            ensure_ascii=True,
        )


DEFAULT_READ = ReadAs()


class SourceSpec(NamedTuple):
    """A configured source: a file or folder, with an optional collection name override and
    how to read it (`ReadAs`). A named tuple, not a frozen dataclass: less to define as the
    reader starts."""

    path: Path
    collection: str | None = None
    format: str = "auto"
    columns: tuple[str, ...] = ()
    separator: str = ""
    fields: tuple[tuple[str, str], ...] = ()

    @property
    def read_as(self) -> ReadAs:
        return ReadAs(self.format, self.columns, self.separator, self.fields)


def bundled_seeds() -> list[SourceSpec]:
    """The ICML 2024 lists shipped inside the package: files in its `seeds` folder (found
    from the package's own path: importlib.resources is slow to import, at every start
    of the reader)."""
    import paperterm.seeds

    folder = Path(paperterm.seeds.__file__).parent
    return [
        SourceSpec(entry)
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
        return [], [_problem(path, "no such file or folder")]
    if not path.is_dir():
        return [path], []
    found: list[Path] = []
    problems: list[Problem] = []
    seen_dirs: set[tuple[int, int]] = set()

    def walk(folder: Path) -> None:
        try:
            info = folder.stat()
        except OSError as error:
            problems.append(_problem(folder, f"cannot read folder: {error.strerror}"))
            return
        key = (info.st_dev, info.st_ino)
        if key in seen_dirs:
            return
        seen_dirs.add(key)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as error:
            problems.append(_problem(folder, f"cannot read folder: {error.strerror}"))
            return
        for entry in entries:
            child = Path(entry.path)
            try:
                if entry.is_dir():
                    walk(child)
                elif entry.is_file() and child.suffix.lower() in FORMATS:
                    found.append(child)
            except OSError as error:
                problems.append(_problem(child, f"cannot read: {error.strerror}"))

    walk(path)
    return found, problems


def _problem(path: Path, message: str) -> Problem:
    """A problem with a source's files. Its class is imported here, when one is made: a
    start walks the sources (whether they changed) and a frozen dataclass is costly to
    define."""
    from paperterm.index.problems import Problem

    return Problem(str(path), 0, message)
