"""The on-disk index: one per set of sources, built on first use, brought up to date source by
source, swapped in atomically, and checked against checksums before it is trusted.

Layout inside `<data dir>/index/`:

    <engine>/<set>/          the index of one set of sources (`engine` is "whoosh"; each
                             engine's files live apart, so switching engines never mixes them)
        set.json             the sources it is for (for people, and the clean-up)
        CURRENT              the live generation's name, and its meta.json's CRC-32
        build.lock           held (`FileLock`) by the process that builds this set
        used                 touched when the set is opened (the clean-up drops the least
                             recently used sets beyond `MAX_SETS`)
        gen-<stamp>/         a complete index:
            meta.json        versions, each source file's fingerprint, the engine's parts,
                             counts, problems, and the size and CRC-32 of every other file
            verified.json    which files were checked since they last changed (`verify`)
            papers.bin       every paper, in corpus order (records.py)
            rows.bin         what the list shows of each paper, and its id
            vocab.json       the corpus's words and how often they occur
            sources/*.bin    each source file's prepared records and word counts
            engine/          the engine's files (Whoosh: segments, table of contents;
                             tantivy: a folder per part and parts.json)
        tmp-<stamp>/         a build in progress (or killed mid-way: removed by the next)

A command answers from the index of its own sources only (two processes with different
sources never see each other's). A build writes a whole new generation, reusing the files
of the previous one that did not change (hard links), and only then points CURRENT at it:
a reader never sees a half-written index, a killed build leaves the old one live, and
readers that opened the previous generation keep working (it is kept until the next build).

What is read is checked first (`verify`): every file against the size and CRC-32 the build
recorded, once after each change of the file (its inode, size, mtime and ctime: any write
changes the ctime, which cannot be set back). A file that fails means a rebuild, never an
answer from it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import stat
import time
import zlib

# hashlib's own blake2b, without importing hashlib: its OpenSSL load is ~2 ms of the
# reader's start (issue 14).
from _blake2 import blake2b
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from paperterm.index.atomic import (
    FileLock,
    atomic_write_text,
    fsync_folder,
    remove_stale_temp_files,
    write_json,
)
from paperterm.index.papers import Paper
from paperterm.index.private_files import make_private_dir, make_tree_private
from paperterm.index.search.engine_files import EngineFiles, EngineIndex
from paperterm.index.search.generation_files import (
    checksums,
    file_crc,
    fsync_tree,
    leftovers,
    link_tree,
    remove_later,
)
from paperterm.index.search.records import PAPERS, ROWS, PaperList, RecordFile, RecordFileError
from paperterm.index.search.whoosh_index import WhooshFiles
from paperterm.index.sources.files import DEFAULT_READ, ReadAs, SourceSpec

#: The checksums `publish` takes (tests replace it).
_checksums = checksums
#: Bump when the schema, the analyzers or what the files hold change: forces a rebuild.
SCHEMA_VERSION = 9
#: Bump when parsing or derivation (names, titles, display text) or what a source's record
#: file holds (its header's merge keys) changes.
PARSER_VERSION = 6
#: Sets of sources whose indexes are kept; the least recently used beyond are removed.
MAX_SETS = 4

Progress = Callable[[int, int], None]
META_FILE = "meta.json"
VERIFIED_FILE = "verified.json"
PAPERS_FILE = "papers.bin"
ROWS_FILE = "rows.bin"
VOCABULARY_FILE = "vocab.json"
SOURCES_FOLDER = "sources"
ENGINE_FOLDER = "engine"


def _tantivy_files() -> EngineFiles:
    """The optional engine (raises `TantivyMissing` when tantivy is not installed)."""
    from paperterm.index.search.tantivy_index import TantivyFiles

    return TantivyFiles()


#: The engines whose indexes the store keeps, by name (`engine_files.EngineFiles`).
ENGINES: dict[str, Callable[[], EngineFiles]] = {"whoosh": WhooshFiles, "tantivy": _tantivy_files}
_READ_CHUNK = 1 << 20


class StoreError(Exception):
    """The index cannot be used or built; the message is one line for the user."""


class BuildCancelled(Exception):
    pass


# --- sources and their fingerprints ----------------------------------------------------------


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


# --- what a generation records ---------------------------------------------------------------


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


# --- one set's store -------------------------------------------------------------------------


class Store:
    """The indexes of one set of sources, for one engine."""

    def __init__(self, data_dir: Path, specs: Sequence[SourceSpec], engine: str = "whoosh"):
        self.data_dir = data_dir
        self.specs = list(specs)
        self.engine_name = engine
        self._engine: EngineFiles | None = None
        self.engine_root = data_dir / "index" / engine
        self.root = self.engine_root / set_key(self.specs)

    @property
    def engine(self) -> EngineFiles:
        """The engine's files, made when first used (opening or building its index): the
        reader's first frame reads only the meta and the row store, and tantivy's files
        load its native module (17 MB, ~270 page faults; issue 14)."""
        if self._engine is None:
            self._engine = ENGINES[self.engine_name]()
        return self._engine

    # --- reading -------------------------------------------------------------------------

    def current_generation(self) -> Path | None:
        found = self._current()
        return found[0] if found else None

    def _current(self, root: Path | None = None) -> tuple[Path, int] | None:
        root = self.root if root is None else root
        try:
            text = (root / "CURRENT").read_text(encoding="utf-8")
        except (OSError, ValueError):  # missing, unreadable, or not text
            return None
        parts = text.split()
        if len(parts) != 2 or not parts[0].startswith("gen-") or "/" in parts[0]:
            return None
        if "\\" in parts[0] or not parts[1].isdigit():
            return None
        folder = root / parts[0]
        return (folder, int(parts[1])) if folder.is_dir() else None

    def read_meta(self, root: Path | None = None) -> tuple[Path, Meta] | None:
        """The live generation and its record, when both are sound and of this version (of
        this set, or of the set in `root`)."""
        found = self._current(root)
        if found is None:
            return None
        folder, crc = found
        try:
            data = (folder / META_FILE).read_bytes()
            if crc_of(data) != crc:
                return None
            meta = Meta.from_json(json.loads(data))
        except (OSError, ValueError, TypeError, KeyError):
            return None
        if not meta.current_versions or meta.engine != self.engine_name:
            return None
        return folder, meta

    @staticmethod
    def freshness(meta: Meta, files: Sequence[SourceFile]) -> str:
        """ "current" when `meta` was built from exactly these files as they are now
        ("restamped" when some were touched since, their content the same), else "stale"."""
        firsts: dict[str, SourceEntry] = {}  # each file's first source (stretches share one)
        for entry in meta.sources:
            firsts.setdefault(entry.file_key, entry)
        if list(firsts) != [file.key for file in files]:
            return "stale"
        restamped = False
        for entry, file in zip(firsts.values(), files, strict=True):
            now = Fingerprint.unchanged(file.path, entry.fingerprint)
            if now is None:
                return "stale"
            restamped = restamped or not now.same_stamp(entry.fingerprint)
        return "restamped" if restamped else "current"

    def open_rows(self, folder: Path, meta: Meta) -> PaperList | None:
        """The papers of a generation, checked and opened for reading (no Whoosh)."""
        if self.verify(folder, meta, [PAPERS_FILE, ROWS_FILE]):
            return None
        try:
            papers = PaperList(
                RecordFile(folder / PAPERS_FILE, PAPERS), RecordFile(folder / ROWS_FILE, ROWS)
            )
        except (OSError, RecordFileError):
            return None
        return papers if len(papers) == meta.papers else None

    def open_engine(self, folder: Path, meta: Meta) -> EngineIndex | None:
        """The engine's index of a generation, its files checked first (`OpenIndex.ix`)."""
        engine_files = [name for name in meta.files if name.startswith(f"{ENGINE_FOLDER}/")]
        if self.verify(folder, meta, engine_files):
            return None
        try:
            ix = self.engine.open(folder / ENGINE_FOLDER)
            if ix.doc_count_all() != meta.papers:
                ix.close()
                return None
        except Exception:  # any damage means "rebuild", never a crash
            return None
        return ix

    def mark_used(self) -> None:
        """Note that this set was just used (for the clean-up of old sets)."""
        with contextlib.suppress(OSError):
            os.utime(self.root / "used")

    # --- checking ------------------------------------------------------------------------

    def verify(
        self, folder: Path, meta: Meta, names: Sequence[str] | None = None, full: bool = False
    ) -> list[str]:
        """The files (of `names`, or all) that are missing or fail their checksum, each as
        "name: reason". A file is read only when it changed since it was last found sound
        (`full`: every file is read)."""
        failed = self.failing(folder, meta, names, full)
        return [f"{name}: {reason}" for name, reason in failed.items()]

    def failing(
        self, folder: Path, meta: Meta, names: Sequence[str] | None = None, full: bool = False
    ) -> dict[str, str]:
        """`verify`, as each failing file's name -> why. verified.json is read and written
        once for all of `names`: a build checks every source's record file in one call."""
        stamps = {} if full else _read_stamps(folder)
        wanted = list(meta.files) if names is None else list(names)
        problems: dict[str, str] = {}
        checked: dict[str, list[int]] = {}
        for name in wanted:
            expected = meta.files.get(name)
            if expected is None:
                problems[name] = "not recorded"
                continue
            path = folder / name
            now = Fingerprint.of(path)
            if now is None:
                problems[name] = "missing"
                continue
            stamp = [now.ino, now.size, now.mtime_ns, now.ctime_ns]
            if stamps.get(name) == stamp:
                continue
            try:
                size, crc = file_crc(path)
            except OSError as error:
                problems[name] = f"unreadable ({error.strerror})"
                continue
            if [size, crc] != expected:
                problems[name] = "size differs" if size != expected[0] else "checksum differs"
                continue
            checked[name] = stamp
        if checked:
            _write_stamps(folder, {**stamps, **checked})
        return problems

    # --- building ------------------------------------------------------------------------

    def build_lock(self) -> FileLock:
        """The lock a process holds while it builds (waiting for it waits for the build)."""
        return FileLock(self.root / "build.lock", timeout=None)

    def new_build_folder(self) -> Path:
        """A fresh temporary folder for a build (call with the build lock held): what builds
        killed mid-way left is removed first."""
        self.remove_leftovers()
        make_private_dir(self.root)
        self._describe_set()
        tmp = self.root / f"tmp-{time.time_ns():x}-{os.getpid()}"
        (tmp / ENGINE_FOLDER).mkdir(parents=True)
        (tmp / SOURCES_FOLDER).mkdir()
        return tmp

    def _describe_set(self) -> None:
        described = self.root / "set.json"
        if not described.exists():
            sources = [
                {"path": path_key(Path(os.path.abspath(s.path))), "collection": s.collection}
                for s in self.specs
            ]
            write_json(described, {"engine": self.engine.name, "sources": sources})
        (self.root / "used").touch(mode=0o600)

    def publish(self, tmp: Path, meta: Meta, keep_tmp: bool = False) -> Path:
        """Make a finished build the live generation: records every file's checksum in
        meta.json, moves the folder to its final name, and points CURRENT at it. With
        `keep_tmp` (a reader still uses the build's own folder), the generation is made of
        hard links and `tmp` stays until the next build."""
        durable = set(meta.files)  # given: made durable when checked (`checked_and_synced`)
        meta.files = {**meta.files, **_checksums(tmp, skip=durable)}
        data = json.dumps(meta.to_json(), ensure_ascii=False).encode("utf-8", "surrogatepass")
        (tmp / META_FILE).write_bytes(data)
        final = self.root / ("gen-" + tmp.name.removeprefix("tmp-"))
        try:
            make_tree_private(tmp)  # the engines create files with the umask's modes
            if keep_tmp:
                link_tree(tmp, final, durable)
                make_tree_private(final)
            else:
                fsync_tree(tmp, durable)
                os.rename(tmp, final)
            fsync_folder(self.root)
            atomic_write_text(self.root / "CURRENT", f"{final.name} {crc_of(data)}\n")
        except BaseException:
            if self.current_generation() != final:  # not made live: nothing will use it
                shutil.rmtree(final, ignore_errors=True)
            raise
        _write_stamps(final, _stamps(final, list(meta.files)))
        self.remove_old_generations(keep={final.name})
        return final

    def remove_leftovers(self) -> None:
        """What builds killed mid-way left: their folders (removed by a thread, see
        `remove_later`) and CURRENT's temporary files."""
        remove_later([*self.root.glob("tmp-*"), *leftovers(self.root)])
        remove_stale_temp_files(self.root / "CURRENT")

    def remove_old_generations(self, keep: set[str]) -> None:
        """Drop all generations but the live one and the newest previous one (which a
        running reader may still be using), by a thread, once they are out of the way
        (`remove_later`): the new generation is live already."""
        old = sorted(
            (p for p in self.root.glob("gen-*") if p.name not in keep),
            key=lambda p: p.name,
        )
        remove_later(old[:-1])

    def remove_old_sets(self) -> None:
        """Keep the indexes of the `MAX_SETS` most recently used sets of sources (and this
        one); a set another process is building is left alone."""
        try:
            sets = [p for p in self.engine_root.iterdir() if p.is_dir() and p != self.root]
        except OSError:
            return
        sets.sort(key=last_used, reverse=True)
        for folder in sets[MAX_SETS - 1 :]:
            lock = FileLock(folder / "build.lock")
            if lock.try_acquire():
                try:
                    shutil.rmtree(folder, ignore_errors=True)
                finally:
                    lock.release()
        _remove_old_layout(self.data_dir / "index")


def last_used(folder: Path) -> int:
    """When a set was last used (`Store.mark_used`; 0: never, or unknown)."""
    try:
        return (folder / "used").stat().st_mtime_ns
    except OSError:
        return 0


def _remove_old_layout(root: Path) -> None:
    """The index as paperterm kept it before sets of sources (`index/gen-*`, `CURRENT`)."""
    lock = FileLock(root / "build.lock")
    if not (root / "CURRENT").exists() or not lock.try_acquire():
        return
    try:
        for entry in [*root.glob("gen-*"), *root.glob("tmp-*")]:
            shutil.rmtree(entry, ignore_errors=True)
        (root / "CURRENT").unlink(missing_ok=True)
    finally:
        lock.release()


def _stamps(folder: Path, names: Sequence[str]) -> dict[str, list[int]]:
    found = {}
    for name in names:
        now = Fingerprint.of(folder / name)
        if now is not None:
            found[name] = [now.ino, now.size, now.mtime_ns, now.ctime_ns]
    return found


def _read_stamps(folder: Path) -> dict[str, list[int]]:
    try:
        data = json.loads((folder / VERIFIED_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_stamps(folder: Path, stamps: dict[str, list[int]]) -> None:
    """Best effort: a data dir that cannot be written is checked again next time."""
    with contextlib.suppress(OSError):
        write_json(folder / VERIFIED_FILE, stamps)
