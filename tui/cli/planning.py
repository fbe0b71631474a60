"""`paperterm topics [--json]`: the corpus grouped into topics (index/planning/topics.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from paperterm.tui.cli.context import Context

if TYPE_CHECKING:
    import argparse


def add_planning_commands(
    commands: argparse._SubParsersAction, common: argparse.ArgumentParser
) -> None:
    topics = commands.add_parser(
        "topics",
        parents=[common],
        help="group the papers into topics, each named by its distinctive words",
    )
    topics.add_argument(
        "--json", action="store_true", help='a JSON array of {"label", "words", "count", "ids"}'
    )
    topics.set_defaults(run=cmd_topics)


def cmd_topics(ctx: Context) -> int:
    from paperterm.index.planning.topics import topics, topics_json

    papers = ctx.open().papers
    found = topics(papers)
    if ctx.args.json:
        ctx.emit_json(topics_json(found), indent=1)
        return 0
    width = len(f"{max((t.count for t in found), default=0):,}")
    for topic in found:
        ctx.line(f"{topic.count:>{width},}  {', '.join(topic.words)}")
    covered = sum(topic.count for topic in found)
    ctx.line(f"{len(found)} topics; {covered:,} of {len(papers):,} papers have one")
    return 0
