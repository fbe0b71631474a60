"""Decoding a corpus file's bytes: UTF-8, Latin-1 line by line where it is not UTF-8,
UTF-16/32 with a byte-order mark; and telling a binary file from text."""

from __future__ import annotations

import codecs
from pathlib import Path

from paperterm.index.problems import Problem

SNIFF_BYTES = 8192


def looks_binary(data: bytes) -> bool:
    """NUL bytes or a high share of control bytes in the first few KiB: not a text list."""
    head = data[:SNIFF_BYTES]
    if not head:
        return False
    if b"\x00" in head:
        return True
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 12, 13, 27))
    return controls / len(head) > 0.05


#: The byte order marks of the wide Unicode encodings (what Windows editors save as
#: "Unicode"), UTF-32's first: its little-endian mark begins with UTF-16's.
_WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def wide_codec(data: bytes) -> str | None:
    """The codec of the byte order mark `data` begins with ("utf-16", "utf-32"), or None
    (UTF-8, with or without its own)."""
    return next((codec for bom, codec in _WIDE_BOMS if data.startswith(bom)), None)


def decode(path: Path, data: bytes) -> tuple[str | None, list[Problem]]:
    """Bytes to text: UTF-16 or UTF-32 with a byte order mark; else UTF-8 (with or without
    BOM), a line that is not as Latin-1, with a warning at the first (as a build reads JSON
    Lines, line by line: `Reading._lines`)."""
    wide = wide_codec(data)
    if wide is not None:
        try:
            return data.decode(wide), []
        except UnicodeDecodeError as error:
            line = data[: error.start].decode(wide, "replace").count("\n") + 1
            reason = f"not valid {wide.upper()} text; save it as UTF-8"
            return None, [Problem(str(path), line, reason)]
    if looks_binary(data):
        return None, [Problem(str(path), 0, "not a text file (binary content); skipped")]
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        warning = Problem(str(path), line, "not valid UTF-8; read as Latin-1")
        lines = data.split(b"\n")
        return "\n".join(line_text(raw, i == 0)[0] for i, raw in enumerate(lines)), [warning]


def line_text(raw: bytes, first: bool) -> tuple[str, bool]:
    """One line's text: UTF-8 (the first line's BOM dropped), else Latin-1; and whether it
    was read as Latin-1."""
    try:
        return raw.decode("utf-8-sig" if first else "utf-8"), False
    except UnicodeDecodeError:
        return raw.decode("latin-1"), True
