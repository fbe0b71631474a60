"""Triage decisions: keep, maybe or skip per paper, in `reading.toml`'s `[decision]` table.

`DecisionStore` is a second store over the reading state's file (see reading.py for the
layout): it shares its lock, so a save of either merges into the file as it is on disk and
keeps the other's table, and both are kept with the bookmarks' guarantees (`OpLogStore`).
A decision also marks the paper read (`decide`): two changes, the decision saved first.
Undo is `undo_changes`, taken before the change: it puts both tables back as they were.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from paperterm.index.library.op_store import Document, FileFormat, OpLogStore, Restore, restore_of
from paperterm.index.library.reading import (
    DECISIONS,
    READING_FILENAME,
    ReadingFormat,
    ReadingStore,
    mark_read,
    parse_reading_tables,
    render_reading_file,
)

#: What `paperterm list --decision` takes: a decision, or `none` for undecided papers.
DECISION_FILTERS = (*DECISIONS, "none")


@dataclass(frozen=True, slots=True)
class SetDecision:
    """Give `ids` the decision `decision` (replacing any other)."""

    ids: tuple[str, ...]
    decision: str

    def apply(self, entries: dict[str, str]) -> None:
        for paper_id in self.ids:
            entries[paper_id] = self.decision


@dataclass(frozen=True, slots=True)
class ClearDecision:
    """Make `ids` undecided (their read state stays)."""

    ids: tuple[str, ...]

    def apply(self, entries: dict[str, str]) -> None:
        for paper_id in self.ids:
            entries.pop(paper_id, None)


class DecisionFormat(FileFormat[str]):
    noun = "decisions"
    what = ReadingFormat.what
    read_only_text = "the decisions are read-only until the reading state file is fixed"
    max_bytes = ReadingFormat.max_bytes
    versions = ReadingFormat.versions

    def parse(self, raw: dict[str, Any], text: str, path: Path) -> Document[str]:
        reads, decisions = parse_reading_tables(raw, text, path)
        return Document(decisions, {**raw, "read": reads})

    def render(self, document: Document[str]) -> str:
        extra = dict(document.extra)
        reads = extra.pop("read", {})
        assert isinstance(reads, dict)
        return render_reading_file(reads, document.entries, extra)


class DecisionStore(OpLogStore[str]):
    """Which papers are kept, maybe or skipped (see `OpLogStore`)."""

    format = DecisionFormat()

    @classmethod
    def in_dir(cls, data_dir: Path) -> DecisionStore:
        return cls(Path(data_dir) / READING_FILENAME)

    def decision(self, paper_id: str) -> str | None:
        return self.entries.get(paper_id)

    def counts(self, ids: Iterable[str] | None = None) -> dict[str, int]:
        """How many of `ids` (else of all entries) have each decision, zeros included."""
        found = dict.fromkeys(DECISIONS, 0)
        entries = self.entries
        for paper_id in entries if ids is None else ids:
            decision = entries.get(paper_id)
            if decision is not None:
                found[decision] += 1
        return found


def decision_change(ids: Iterable[str], decision: str | None) -> SetDecision | ClearDecision:
    """The change that gives `ids` `decision` (None clears); ValueError for another word."""
    unique = tuple(dict.fromkeys(ids))
    if decision is None:
        return ClearDecision(unique)
    if decision not in DECISIONS:
        raise ValueError(f"unknown decision {decision!r} (one of {', '.join(DECISIONS)})")
    return SetDecision(unique, decision)


def undo_changes(
    decisions: DecisionStore, reading: ReadingStore, ids: Iterable[str]
) -> tuple[Restore[str], Restore[datetime]]:
    """The changes that put `ids`' decisions and read state back as they are now."""
    keys = tuple(dict.fromkeys(ids))
    return restore_of(decisions, keys), restore_of(reading, keys)


def decide(
    decisions: DecisionStore,
    reading: ReadingStore,
    ids: Iterable[str],
    decision: str | None,
    *,
    stage: bool = False,
) -> None:
    """Give `ids` `decision` (None clears it) and mark them read unless clearing: saved at
    once (`apply`), or staged for a later `save()` of both stores with `stage=True`."""
    unique = tuple(dict.fromkeys(ids))
    change = decision_change(unique, decision)
    if stage:
        decisions.stage(change)
        if decision is not None:
            reading.stage(mark_read(unique))
        return
    decisions.apply(change)
    if decision is not None:
        reading.apply(mark_read(unique))
