"""What a generation records of itself (meta.json, `Meta`): the versions it was written
with, each source (`SourceFile` as the build reads it, `SourceEntry` as recorded, with its
`Fingerprint`), the engine's parts, and every file's checksum."""

from __future__ import annotations

import json
import os
import stat
import time
import zlib

# hashlib's own blake2b, without importing hashlib: the reader's start need not load
# OpenSSL.
from _blake2 import blake2b
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from paperterm.index.papers import Paper
from paperterm.index.sources.files import DEFAULT_READ, ReadAs, SourceSpec

#: Bump when the schema, the analyzers or what the files hold change: forces a rebuild.
SCHEMA_VERSION = 12


#: Bump when parsing or derivation (names, titles, display text) or what a source's record
#: file holds (its header's merge keys) changes.
PARSER_VERSION = 8


_READ_CHUNK = 1 << 20


#: A stretch of a large file that a build reads as a source of its own: its
#: first byte, the byte after its last, and its first line's number (`segments.py`).
Span = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One file of a source set: which source (spec) named it, and its path; `span`: the
    stretch of it this source is, when a build reads a large file in stretches; `read_as`:
    how its source says to read it."""

    spec: int
    path: Path
    collection: str | None = None
    span: Span | None = None
    read_as: ReadAs = DEFAULT_READ

    @property
    def file_key(self) -> str:
        """The file within its set (the same file under two specs is two sources; read
        otherwise, it is another source)."""
        options = self.read_as.key()
        key = f"{self.spec}:{path_key(self.path)}"
        return f"{key}?{options}" if options else key

    @property
    def key(self) -> str:
        """The source within its set: the file's key, and where its stretch starts."""
        return self.file_key if self.span is None else f"{self.file_key}#{self.span[0]}"


def path_key(path: Path) -> str:
    """A path as the bytes it is on disk: how the locale decodes a name that is not ASCII
    (`LC_ALL=C` with `PYTHONUTF8=0`) must not make the index look stale."""
    return os.fsencode(path).decode("utf-8", "surrogateescape")


def set_key(specs: Sequence[SourceSpec]) -> str:
    """The name of the index of a set of sources (absolute paths, collection overrides)."""
    described = [
        [path_key(Path(os.path.abspath(s.path))), s.collection, *_options(s)] for s in specs
    ]
    text = json.dumps(described, ensure_ascii=True)
    return blake2b(text.encode("ascii"), digest_size=8).hexdigest()


def _options(spec: SourceSpec) -> list[str]:
    """How a source is read, when not by default (the sets of before keep their names)."""
    options = spec.read_as.key()
    return [options] if options else []


@dataclass(slots=True)
class Fingerprint:
    """What identifies a file's content without reading it: inode, size, modification and
    status-change times. Any write changes the ctime (a tool that puts the mtime back, like
    `touch -r`, cannot put it back); when the stamp differs, the content's digest decides."""

    size: int
    mtime_ns: int
    ino: int
    ctime_ns: int
    digest: str = ""

    @classmethod
    def of(cls, path: Path) -> Fingerprint | None:
        try:
            info = os.stat(path)
        except OSError:
            return None
        if not stat.S_ISREG(info.st_mode):
            return None
        return cls(info.st_size, info.st_mtime_ns, info.st_ino, info.st_ctime_ns)

    def same_stamp(self, other: Fingerprint) -> bool:
        return (self.size, self.mtime_ns, self.ino, self.ctime_ns) == (
            other.size,
            other.mtime_ns,
            other.ino,
            other.ctime_ns,
        )

    @classmethod
    def unchanged(cls, path: Path, recorded: Fingerprint) -> Fingerprint | None:
        """The file's fingerprint now (with the recorded digest) when its content is the
        recorded one: its stamp is, or (touched, copied back, edited with its mtime put
        back) the digest of what it holds now is. None when it changed."""
        now = cls.of(path)
        if now is None or not recorded.digest:
            return None
        if not now.same_stamp(recorded) and file_digest(path) != recorded.digest:
            return None
        now.digest = recorded.digest
        return now


def content_digest(data: bytes) -> str:
    return blake2b(data, digest_size=16).hexdigest()


def file_digest(path: Path) -> str | None:
    digest = blake2b(digest_size=16)
    try:
        with open(path, "rb") as handle:
            while chunk := handle.read(_READ_CHUNK):
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest()


@dataclass(slots=True)
class SourceEntry:
    """A source file as the generation read it."""

    key: str
    path: str
    collection: str | None
    fingerprint: Fingerprint
    #: The file in `sources/` with its prepared records.
    cache: str
    records: int
    problems: list[str] = field(default_factory=list)
    #: The stretch of the file the source is (`SourceFile.span`); its fingerprint is the
    #: whole file's.
    span: list[int] | None = None
    #: The format it was read as, and how its records joined the papers
    #: (`merged.MergedCorpus.reports`: added, joined, not_joined, fields).
    format: str = ""
    joins: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SourceEntry:
        return cls(**{**data, "fingerprint": Fingerprint(**data["fingerprint"])})

    @property
    def file_key(self) -> str:
        """`SourceFile.file_key` of the file the source is (a stretch of)."""
        return self.key if self.span is None else self.key[: self.key.rindex("#")]


@dataclass(slots=True)
class Part:
    """A part of the engine's index: the papers of a run of consecutive source files."""

    id: str
    sources: list[str]
    papers: int
    digest: str


@dataclass(slots=True)
class Meta:
    schema: int
    parser: int
    engine: str
    sources: list[SourceEntry]
    parts: list[Part]
    papers: int
    collections: list[str]
    built_at: float
    seconds: float
    problems: list[str] = field(default_factory=list)
    #: Every other file of the generation (relative path) -> [size, CRC-32].
    files: dict[str, list[int]] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Meta:
        return cls(
            **{
                **data,
                "sources": [SourceEntry.from_json(entry) for entry in data["sources"]],
                "parts": [Part(**part) for part in data["parts"]],
            }
        )

    def to_json(self) -> dict[str, Any]:
        """What `asdict` gives, made field by field: `asdict` deep-copies every value, a
        cost that grows with the sources, which an update of one of them paid too."""
        data = {name: getattr(self, name) for name in _META_FIELDS}
        data["sources"] = [_entry_json(entry) for entry in self.sources]
        data["parts"] = [
            {"id": p.id, "sources": list(p.sources), "papers": p.papers, "digest": p.digest}
            for p in self.parts
        ]
        data["collections"] = list(self.collections)
        data["problems"] = list(self.problems)
        data["files"] = {name: list(checksum) for name, checksum in self.files.items()}
        return data

    @classmethod
    def transient(
        cls,
        engine: str,
        papers: Sequence[Paper],
        problems: Sequence[str] = (),
        seconds: float = 0.0,
    ) -> Meta:
        """The record of an index kept in no generation (in memory, or a build's parts so
        far): counts and collections only."""
        return cls(
            schema=0,
            parser=0,
            engine=engine,
            sources=[],
            parts=[],
            papers=len(papers),
            collections=list(dict.fromkeys(c for paper in papers for c in paper.collections)),
            built_at=time.time(),
            seconds=seconds,
            problems=list(problems),
        )

    @property
    def current_versions(self) -> bool:
        return self.schema == SCHEMA_VERSION and self.parser == PARSER_VERSION


_META_FIELDS = [item.name for item in fields(Meta)]


def _entry_json(entry: SourceEntry) -> dict[str, Any]:
    """`asdict` of a source's record (see `Meta.to_json`)."""
    mark = entry.fingerprint
    return {
        "key": entry.key,
        "path": entry.path,
        "collection": entry.collection,
        "fingerprint": {
            "size": mark.size,
            "mtime_ns": mark.mtime_ns,
            "ino": mark.ino,
            "ctime_ns": mark.ctime_ns,
            "digest": mark.digest,
        },
        "cache": entry.cache,
        "records": entry.records,
        "problems": list(entry.problems),
        "span": None if entry.span is None else list(entry.span),
        "format": entry.format,
        "joins": dict(entry.joins),
    }


def crc_of(data: bytes) -> int:
    return zlib.crc32(data) & 0xFFFFFFFF
