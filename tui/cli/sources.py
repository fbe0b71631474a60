"""`paperterm sources`: what each source gave the index (`index.search.source_report`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paperterm.index.search.source_report import source_reports
from paperterm.tui.cli.context import Context

if TYPE_CHECKING:
    import argparse

NO_RECORD = "no source was recorded (the index is in memory only, or has no sources)"


def add_sources_command(
    commands: argparse._SubParsersAction, common: argparse.ArgumentParser
) -> None:
    sources = commands.add_parser(
        "sources",
        parents=[common],
        help="per source: format, records, papers added and joined, fields supplied",
    )
    sources.add_argument("--json", action="store_true", help="a JSON array, one per source")
    sources.set_defaults(run=cmd_sources)


def cmd_sources(ctx: Context) -> int:
    """Builds the index if needed; one line (or JSON object) per source file."""
    reports = source_reports(ctx.open().meta)
    if ctx.args.json:
        ctx.emit_json([report.to_json() for report in reports], indent=1)
        return 0
    if not reports:
        ctx.line(NO_RECORD)
    for report in reports:
        ctx.line(report.line())
    return 0
