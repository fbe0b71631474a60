"""Parsing TOML text, with errors that say where: the config file and the bookmarks file both
name file, line and column when they do not parse.

tomllib (tomli before Python 3.11) gives the place only inside its message, as "why (at line
L, column C)" or "why (at end of document)"; `parse_toml` turns either into a
`TomlSyntaxError` with the line and column as numbers.

Values nested more than `MAX_NESTING` deep (arrays, inline tables, tables) are refused
here too, with the line where the nesting goes too deep: tomllib and tomli_w recurse, and
a document one of them could read the other might not write back.
"""

from __future__ import annotations

import re
import sys
from typing import Any

_AT_POSITION = re.compile(r"(?P<why>.*) \(at line (?P<line>\d+), column (?P<column>\d+)\)", re.S)
_AT_END = re.compile(r"(?P<why>.*) \(at end of document\)", re.S)
#: How deep values may nest: far past any file a person writes, far below any recursion limit.
MAX_NESTING = 100
_TOO_DEEP = f"values are nested more than {MAX_NESTING} levels deep"


class TomlSyntaxError(ValueError):
    """Text that is not TOML: why, and where (1-based; None when tomllib did not say)."""

    def __init__(self, why: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(why)
        self.why = why
        self.line = line
        self.column = column

    def at(self, place: str) -> str:
        """The error as one line, after `place` (a file name): `place:L:C: why`."""
        where = place + "".join(f":{n}" for n in (self.line, self.column) if n is not None)
        return f"{where}: {self.why}"


def parse_toml(text: str) -> dict[str, Any]:
    """The TOML document in `text`; raises `TomlSyntaxError`. tomllib is imported on the
    first parse: the reader's first frame reads no TOML (when there is no config file)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib
    try:
        document: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise syntax_error(str(error), text) from None
    except RecursionError:
        raise TomlSyntaxError(_TOO_DEEP, deep_line(text)) from None
    if nesting_exceeds(document, MAX_NESTING):
        raise TomlSyntaxError(_TOO_DEEP, deep_line(text))
    return document


def nesting_exceeds(document: dict[str, Any], limit: int) -> bool:
    """Whether containers in `document` nest more than `limit` deep (without recursing)."""
    stack: list[tuple[dict[str, Any] | list[Any], int]] = [(document, 0)]
    while stack:
        value, depth = stack.pop()
        for child in value.values() if isinstance(value, dict) else value:
            if isinstance(child, (dict, list)):
                if depth + 1 > limit:
                    return True
                stack.append((child, depth + 1))
    return False


def deep_line(text: str) -> int:
    """The line (1-based) where brackets and braces first nest more than `MAX_NESTING`
    deep, strings and comments skipped; else the line with the most brackets and dots
    (a long dotted key nests too)."""
    depth, line, quote = 0, 1, ""
    index, end = 0, len(text)
    while index < end:
        ch = text[index]
        if quote:
            if ch == "\\" and quote in ('"', '"""'):
                line += text.startswith("\n", index + 1)
                index += 2
                continue
            if text.startswith(quote, index):
                index += len(quote)
                quote = ""
                continue
            if ch == "\n":
                line += 1
        elif ch == "\n":
            line += 1
        elif ch == "#":
            newline = text.find("\n", index)
            index = end if newline < 0 else newline
            continue
        elif ch in "\"'":
            quote = ch * 3 if text.startswith(ch * 3, index) else ch
            index += len(quote)
            continue
        elif ch in "[{":
            depth += 1
            if depth > MAX_NESTING:
                return line
        elif ch in "]}":
            depth = max(0, depth - 1)
        index += 1
    lines = text.split("\n")
    signs = [sum(map(line_text.count, "[{.")) for line_text in lines]
    return signs.index(max(signs)) + 1


def syntax_error(message: str, text: str) -> TomlSyntaxError:
    """tomllib's `message` about `text`, with its place as numbers."""
    if match := _AT_POSITION.fullmatch(message):
        return TomlSyntaxError(_one_line(match["why"]), int(match["line"]), int(match["column"]))
    if match := _AT_END.fullmatch(message):
        last_line = text.rsplit("\n", 1)[-1]
        why = f"{_one_line(match['why'])} at end of file"
        return TomlSyntaxError(why, text.count("\n") + 1, len(last_line) + 1)
    return TomlSyntaxError(_one_line(message))


def _one_line(text: str) -> str:
    return " ".join(text.split())
