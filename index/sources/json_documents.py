"""The records of a JSON document, each with its line: an array, the array an object holds
under one of a few keys (`results`, `notes`, `papers`, ...), or JSON Lines. Shared by the parsers
of conference exports; `json_records` keeps its own reading of generic lists."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from paperterm.index.problems import Problem
from paperterm.index.sources.json_records import _after_space, _line_of, _lines, _why

#: The keys an object holds its records under, in the order they are looked for.
LIST_KEYS = ("results", "notes", "papers", "items", "records", "data", "events")


def records_of(path: Path, text: str) -> tuple[list[tuple[int, Any]], list[Problem]]:
    """(line, value) of each record; a document that is not JSON is one problem (the
    records before a syntax error in an array are kept)."""
    stripped = text.lstrip("\ufeff \t\r\n")
    if not stripped:
        return [], [Problem(str(path), 0, "empty file")]
    start = len(text) - len(stripped)
    if stripped.startswith("["):
        items, error, line = _array_items(text, start)
        problems = [] if error is None else [_invalid(path, line, error)]
        return items, problems
    try:
        document = json.loads(stripped)
    except (ValueError, RecursionError) as error:
        if _why(error) == "Extra data":  # JSON Lines: one record a line
            return _lines(path, text)
        return [], [_invalid(path, getattr(error, "lineno", 0), _why(error))]
    if not isinstance(document, dict):
        return [], [Problem(str(path), 0, "not a list of records (a lone JSON value)")]
    for key in LIST_KEYS:
        value = document.get(key)
        if isinstance(value, list):
            match = re.search(rf'"{key}"\s*:\s*\[', text)
            if match:
                items, failure, _ = _array_items(text, match.end() - 1)
                if failure is None and len(items) == len(value):
                    return items, []
            return [(0, item) for item in value], []
    return [(_line_of(text, start), document)], []


def _array_items(text: str, start: int) -> tuple[list[tuple[int, Any]], str | None, int]:
    """The values of the JSON array opening at `text[start]`, each with its line (lines
    counted on from the previous value's, not from the start); the error and its line when
    the array is cut short (the values before it kept)."""
    decoder = json.JSONDecoder()
    items: list[tuple[int, Any]] = []
    index, line, counted = start + 1, 1 + text.count("\n", 0, start), start

    def line_at(position: int) -> int:
        nonlocal line, counted
        line += text.count("\n", counted, position)
        counted = position
        return line

    while True:
        index = _after_space(text, index)
        if index < len(text) and text[index] == "]":
            return items, None, 0
        try:
            value, end = decoder.raw_decode(text, index)
        except json.JSONDecodeError as error:
            return items, error.msg, _line_of(text, error.pos)
        except RecursionError:
            return items, "nested too deeply", line_at(index)
        items.append((line_at(index), value))
        index = _after_space(text, end)
        if index < len(text) and text[index] == ",":
            index += 1
        elif index < len(text) and text[index] == "]":
            return items, None, 0
        else:
            return items, "Expecting ',' delimiter", line_at(index)


def _invalid(path: Path, line: int, error: str) -> Problem:
    return Problem(str(path), line, f"not valid JSON: {error}; rest skipped")
