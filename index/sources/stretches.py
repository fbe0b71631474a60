"""One large source file read in stretches: what a format gives to be read so.

A build cuts a large file into stretches (`search.segments`), each read by whichever
worker gets it, and the papers of all its stretches, in order, must be those of reading
the file whole: the same records, ids, lines and problems. A format plugs in with two
things (`StretchFormat`):

- a boundary finder (`Boundaries`): fed the file's bytes a block at a time, from its
  start, it gives the places a stretch may begin, each a record's first byte, with no
  record (nor anything a record's reading depends on) across it. Each format keeps what
  state it needs (a JSON array's depth, a text list's last line); a place it is not sure
  of is one it does not give;
- a stretch reader (`StretchReader`): the papers and problems of the file's bytes
  `span[0]:span[1]`, whose first line is line `span[2]`, read a block at a time (a stretch
  is held a record at a time, never whole), as the source says to read it (`ReadAs`).
  What a stretch needs of the rest of the file (a text list's name, BibTeX's strings and
  volumes, a table's header row, an XML volume's meta) it reads there itself.

A stretch that finds nothing says so with its format's "nothing" problem (line 0), which
the build keeps only when no stretch of the file found anything (`NOTHING`).
"""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO

from paperterm.index.sources.files import DEFAULT_READ, ReadAs
from paperterm.index.sources.stretching import (
    BLOCK,
    NOTHING,
    Boundaries,
    Span,
    StretchFormat,
    StretchReader,
    lines,
    texts,
)

__all__ = [
    "BLOCK",
    "JSON_LINES",
    "NOTHING",
    "Boundaries",
    "Span",
    "StretchFormat",
    "StretchReader",
    "lines",
    "stretch_format",
    "stretch_kind",
    "stretch_module",
    "texts",
]


def stretch_format(
    module: str, path: Path | None = None, head: str = "", read_as: ReadAs = DEFAULT_READ
) -> StretchFormat | None:
    """The stretch format of the parser module a file is read by (`detect.choose`), None
    for one that is read whole (`path`, `head`, `read_as`: what a table's finder needs to
    know its delimiter)."""
    if module == "text_list":
        from paperterm.index.sources import text_stretches

        return text_stretches.FORMAT
    if module == "json_records":
        from paperterm.index.sources import json_stretches

        return json_stretches.FORMAT
    if module == "bibtex":
        from paperterm.index.sources import bibtex_stretches

        return bibtex_stretches.FORMAT
    if module == "table":
        from paperterm.index.sources import table_stretches

        return table_stretches.format_of(path, head, read_as)
    if module == "acl_xml":
        from paperterm.index.sources import acl_stretches

        return acl_stretches.FORMAT
    return None


#: The parser module each stretch format reads as (`StretchFormat.name` to `detect.choose`'s).
_MODULES = {
    "text": "text_list",
    "json": "json_records",
    "bibtex": "bibtex",
    "table": "table",
    "acl-xml": "acl_xml",
}


def stretch_module(form: StretchFormat) -> str:
    """The parser module whose reading of a whole file `form` reads in stretches."""
    return _MODULES[form.name]


#: `stretch_kind` of a JSON Lines file (read line by line: `loader.Reading`).
JSON_LINES = "jsonl"


def stretch_kind(
    path: Path, handle: BinaryIO, read_as: ReadAs = DEFAULT_READ
) -> StretchFormat | str | None:
    """How a build reads a stretch of the file read as `read_as` says: `JSON_LINES`, a
    format's reader, or None when the file is not one to cut (binary, UTF-16 or UTF-32, of
    a format read whole)."""
    from paperterm.index.sources.decoding import looks_binary, wide_codec
    from paperterm.index.sources.detect import choose
    from paperterm.index.sources.json_records import streams

    handle.seek(0)
    head = handle.read(BLOCK)
    handle.seek(0)
    newline = head.find(b"\n")
    first = head[: newline + 1] if newline >= 0 else b""
    if wide_codec(head) is not None:
        return None
    lines_read = read_as.format in ("auto", "jsonl") and not read_as.fields
    text = first.decode("utf-8-sig", "replace")
    if lines_read and first and not looks_binary(first) and streams(path, text):
        return JSON_LINES
    if looks_binary(head):
        return None
    text = head.decode("utf-8-sig", "replace")
    return stretch_format(choose(path, text, read_as), path, text, read_as)
