"""Parsing TOML text, with errors that say where: the config file and the bookmarks file both
name file, line and column when they do not parse.

tomllib (tomli before Python 3.11) gives the place only inside its message, as "why (at line
L, column C)" or "why (at end of document)"; `parse_toml` turns either into a
`TomlSyntaxError` with the line and column as numbers.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from paperterm.index.text.lazy_pattern import compile_later

_AT_POSITION = compile_later(r"(?P<why>.*) \(at line (?P<line>\d+), column (?P<column>\d+)\)", re.S)
_AT_END = compile_later(r"(?P<why>.*) \(at end of document\)", re.S)


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
    first parse: the reader's first frame reads no TOML (when there is no config file), and
    tomllib is ~2 ms of its start."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib
    try:
        document: dict[str, Any] = tomllib.loads(text)
        return document
    except tomllib.TOMLDecodeError as error:
        raise syntax_error(str(error), text) from None


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
