"""What each source gave a build, as `paperterm sources` and `paperterm doctor` report it:
the format it was read as, its records, the papers it added, the records it joined to
papers listed already, those it could not join (a source that only enriches), and the
fields it supplied. The counts are the build's (`merged.MergedCorpus.reports`), kept in
meta.json; a file read as several stretches is reported once."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from paperterm.index.search.generation_meta import Meta
from paperterm.index.sources.joining import REPORTED_FIELDS


@dataclass(slots=True)
class SourceReport:
    path: str
    collection: str | None
    format: str
    records: int = 0
    added: int = 0
    joined: int = 0
    not_joined: int = 0
    #: Field -> how many papers the source gave it to, in `REPORTED_FIELDS` order.
    fields: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return {
            "path": self.path,
            "collection": self.collection,
            "format": self.format,
            "records": self.records,
            "added": self.added,
            "joined": self.joined,
            "not_joined": self.not_joined,
            "fields": dict(self.fields),
        }

    def line(self) -> str:
        """One line: path, format, counts, then the fields supplied with their counts."""
        supplied = ", ".join(f"{name} {count}" for name, count in self.fields.items())
        return (
            f"{self.path}: {self.format or 'unread'}, {self.records} records, "
            f"{self.added} added, {self.joined} joined, {self.not_joined} not joined; "
            f"fields: {supplied or 'none'}"
        )


def source_reports(meta: Meta) -> list[SourceReport]:
    """Each source file of the build, in config order."""
    reports: dict[tuple[str, str | None], SourceReport] = {}
    counts: dict[tuple[str, str | None], Counter[str]] = {}
    for entry in meta.sources:
        key = (entry.path, entry.collection)
        report = reports.get(key)
        if report is None:
            report = reports[key] = SourceReport(entry.path, entry.collection, entry.format)
            counts[key] = Counter()
        report.format = report.format or entry.format
        report.records += entry.records
        report.added += int(entry.joins.get("added", 0))
        report.joined += int(entry.joins.get("joined", 0))
        report.not_joined += int(entry.joins.get("not_joined", 0))
        counts[key].update(entry.joins.get("fields", {}))
    for key, report in reports.items():
        given = counts[key]
        report.fields = {name: given[name] for name in REPORTED_FIELDS if given[name] > 0}
    return list(reports.values())
