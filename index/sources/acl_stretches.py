"""A large ACL Anthology XML file (`acl_xml`) read in stretches (`stretches.py`), streamed:
a stretch is parsed (with defusedxml) a block at a time, and each paper's element is let
go once read.

A stretch starts where a `<paper>` element of a `<volume>` of the `<collection>` starts.
The boundary finder parses the whole file with expat, so a `<paper` in a comment or a
CDATA section is no place. Each stretch takes its volume (its id and `<meta>`) from the
last `<volume` before it, and the collection's id from the file's start. A file a stretch
might read otherwise than the whole is read whole: not well-formed, with a DOCTYPE, a
root other than `<collection>`, a volume not in the collection, a paper not in a volume,
a volume's `<meta>` after its first paper, or a `<paper` or `<volume` that starts no such
element (a paper's line is its place among the file's `<paper`s, as `acl_xml` counts).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, cast
from xml.parsers import expat

from paperterm.index.papers import Paper
from paperterm.index.problems import Problem
from paperterm.index.sources.acl_xml import DECLARATION, PAPER_START, paper_of, volume_meta
from paperterm.index.sources.files import DEFAULT_READ, ReadAs
from paperterm.index.sources.stretching import BLOCK, Span, StretchFormat, texts

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element, XMLPullParser

#: Where a `<paper` or `<volume` element may start (a superset of `acl_xml`'s `<paper\b`).
_TAGS = re.compile(rb"<paper(?=[^\w])|<volume[\s/>]")
_VOLUME_TAG = re.compile(rb"<volume[\s/>]")
_TAIL = 7  # a tag's start is known with this many bytes after its "<"
_SLICE = 4096
_FEED = 1 << 16


class AclBoundaries:
    """The starts of the `<paper>` elements of the collection's volumes
    (`stretches.Boundaries`)."""

    def __init__(self) -> None:
        parser = expat.ParserCreate("utf-8")
        parser.StartElementHandler = self._start
        parser.EndElementHandler = self._end
        parser.StartDoctypeDeclHandler = self._refuse
        parser.EntityDeclHandler = self._refuse
        self._parser = parser
        self._stack: list[str] = []
        self._places: list[int] = []
        self._bad = False
        self._paper_in_volume = False
        self._elements = 0  # `<paper>` and `<volume>` elements
        self._texts = 0  # `<paper` and `<volume` in the text
        self._tail = b""

    def _refuse(self, *_: Any) -> None:
        raise _Refused  # stops the parse: no DTD is read, no entity expanded

    def _start(self, name: str, _attributes: Any) -> None:
        depth = len(self._stack)
        parent = self._stack[-1] if self._stack else ""
        self._stack.append(name)
        if depth == 0:
            self._bad = self._bad or name != "collection"
        elif name == "volume":
            self._elements += 1
            self._paper_in_volume = False
            self._bad = self._bad or depth != 1
        elif name == "paper":
            self._elements += 1
            self._bad = self._bad or depth != 2 or parent != "volume"
            self._paper_in_volume = True
            self._places.append(self._parser.CurrentByteIndex)
        elif name == "meta" and depth == 2:
            self._bad = self._bad or self._paper_in_volume

    def _end(self, _name: str) -> None:
        self._stack.pop()

    def feed(self, block: bytes, position: int) -> list[int]:
        if self._bad:
            return []
        data = self._tail + block
        cut = max(0, len(data) - _TAIL)  # a tag starting after it is counted with the next
        self._texts += sum(1 for match in _TAGS.finditer(data) if match.start() < cut)
        self._tail = data[cut:]
        try:
            self._parser.Parse(block, False)
        except (expat.ExpatError, _Refused):
            self._bad = True
        places, self._places = self._places, []
        return [] if self._bad else places

    def usable(self) -> bool:
        if not self._bad:
            self._texts += len(_TAGS.findall(self._tail))
            self._tail = b""
            try:
                self._parser.Parse(b"", True)
            except expat.ExpatError:
                self._bad = True
        return not self._bad and self._texts == self._elements


class _Refused(Exception):
    """A DOCTYPE or an entity declaration: the file is read whole (by defusedxml)."""


def read(
    path: Path,
    handle: BinaryIO,
    span: Span,
    collection: str | None,
    read_as: ReadAs = DEFAULT_READ,
) -> Iterator[Paper | Problem]:
    """The papers of a stretch, as `acl_xml.parse` gives them of the whole file."""
    from xml.etree.ElementTree import ParseError

    start, end, first = span
    found = False
    try:
        collection_id = _collection_id(handle)
        context = _volume_context(handle, start, collection_id) if start else None
        with _parser() as parser:
            if context is not None:
                parser.feed("<collection><volume>")
            lines = _Lines(first)
            stack: list[Element] = []
            metas: dict[int, dict[str, str]] = {}
            for piece in _slices(_pieces(handle, start, end), _FEED):
                lines.scan(piece)
                parser.feed(piece)
                for event, element in _events(parser):
                    if event == "start":
                        stack.append(element)
                        continue
                    stack.pop()
                    if len(stack) == 2 and element.tag == "paper":
                        volume = stack[1]
                        if id(volume) not in metas:
                            metas[id(volume)] = context or volume_meta(collection_id, volume)
                        found = True
                        line = lines.next()
                        yield paper_of(element, metas[id(volume)], path, line, collection, read_as)
                        volume.remove(element)
                    elif len(stack) == 1 and element.tag == "volume":
                        metas.pop(id(element), None)
                        context = None
                        stack[0].remove(element)
    except ParseError as error:
        yield Problem(str(path), 0, f"not well-formed XML: {str(error).split(':', 1)[0]}")
        return
    if not found:
        yield Problem(str(path), 0, FORMAT.nothing)


def _events(parser: XMLPullParser[Element]) -> Iterator[tuple[str, Element]]:
    """The start and end events the parser has found, each with its element."""
    for found in parser.read_events():
        event, element = cast("tuple[str, Element]", found)
        yield event, element


@contextmanager
def _parser() -> Iterator[XMLPullParser[Element]]:
    """A pull parser (defusedxml's), its cycles with its expat handlers broken once done
    with: a build's workers run with the cyclic garbage collector paused."""
    from xml.etree.ElementTree import TreeBuilder, XMLPullParser

    from defusedxml.ElementTree import DefusedXMLParser

    inner = DefusedXMLParser(target=TreeBuilder())
    try:
        yield XMLPullParser(("start", "end"), _parser=inner)
    finally:
        for name in ("parser", "_parser", "target", "_target"):
            inner.__dict__.pop(name, None)


def _slices(pieces: Iterator[str], size: int = _SLICE) -> Iterator[str]:
    """`pieces` `size` characters at a time (what is looked for near the start is found
    without parsing what follows; a stretch's papers are held a few at a time)."""
    for piece in pieces:
        for at in range(0, len(piece), size):
            yield piece[at : at + size]


def _pieces(handle: BinaryIO, start: int, end: int) -> Iterator[str]:
    """The stretch's text a block at a time; the file's XML declaration blanked, as
    `acl_xml.parse` blanks it."""
    pieces = texts(handle, start, end)
    if start:
        yield from pieces
        return
    head = ""
    for piece in pieces:
        head += piece
        if len(head) >= 1 << 16:
            break
    yield DECLARATION.sub(lambda match: " " * len(match.group()), head, count=1)
    yield from pieces


def _collection_id(handle: BinaryIO) -> str:
    """The id of the file's `<collection>`."""
    size = os.fstat(handle.fileno()).st_size
    with _parser() as parser:
        for piece in _slices(_pieces(handle, 0, size)):
            parser.feed(piece)
            for _event, element in _events(parser):
                return element.get("id", "")
    return ""


def _volume_context(handle: BinaryIO, start: int, collection_id: str) -> dict[str, str] | None:
    """`volume_meta` of the last volume that starts before `start`."""
    at = _last_volume(handle, start)
    if at is None:
        return None
    with _parser() as parser:
        parser.feed("<collection>")
        depth = 0
        volume: Element | None = None
        for piece in _slices(texts(handle, at, start)):
            parser.feed(piece)
            for event, element in _events(parser):
                if event == "start":
                    depth += 1
                    volume = element if depth == 2 and volume is None else volume
                    if depth == 3 and element.tag == "paper" and volume is not None:
                        return volume_meta(collection_id, volume)
                    continue
                depth -= 1
                if depth == 2 and element.tag == "meta":
                    assert volume is not None
                    return volume_meta(collection_id, volume)
    return None if volume is None else volume_meta(collection_id, volume)


def _last_volume(handle: BinaryIO, start: int) -> int | None:
    """Where the last `<volume` before `start` starts, read backwards a block at a time."""
    end = start
    while end > 0:
        begin = max(0, end - BLOCK)
        handle.seek(begin)
        data = handle.read(min(end + _TAIL, start) - begin)
        found = [match.start() for match in _VOLUME_TAG.finditer(data)]
        if found:
            return begin + found[-1]
        end = begin
    return None


class _Lines:
    """The line of each `<paper` of the stretch, as `acl_xml.parse` finds them."""

    def __init__(self, first: int) -> None:
        self._line = first
        self._carry = ""
        self._found: list[int] = []
        self._taken = 0

    def scan(self, piece: str) -> None:
        text = self._carry + piece
        limit = max(0, len(text) - _TAIL)
        at = 0
        for match in PAPER_START.finditer(text, 0, len(text)):
            if match.start() >= limit:
                break
            self._line += text.count("\n", at, match.start())
            at = match.start()
            self._found.append(self._line)
        self._line += text.count("\n", at, limit)
        self._carry = text[limit:]

    def next(self) -> int:
        """The line of the next paper (0 when there is none: not so in a file cut)."""
        line = self._found[self._taken] if self._taken < len(self._found) else 0
        self._taken += 1
        return line


FORMAT = StretchFormat("acl-xml", AclBoundaries, read, "no papers found")
