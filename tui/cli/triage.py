"""`paperterm decide keep|maybe|skip|clear ID... | -` and `paperterm facets [QUERY]`: the
triage decisions (index/library/decisions.py) and the counts over a set of papers
(index/library/facets.py)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from paperterm.index.library.bookmarks import Bookmark
from paperterm.index.library.decisions import DecisionStore, decide
from paperterm.index.library.filters import Filters, allowed_ids
from paperterm.index.library.reading import DECISIONS
from paperterm.index.papers import Paper
from paperterm.tui.cli.context import Context, UsageError, loaded, save_change
from paperterm.tui.cli.escape import user_text
from paperterm.tui.cli.planning import computed_topics

if TYPE_CHECKING:
    import argparse


def add_triage_commands(
    commands: argparse._SubParsersAction, common: argparse.ArgumentParser
) -> None:
    decide_cmd = commands.add_parser(
        "decide",
        parents=[common],
        help="triage papers: keep, maybe or skip them (marks them read), or clear the decision",
    )
    decide_cmd.add_argument(
        "decision",
        choices=[*DECISIONS, "clear"],
        metavar="DECISION",
        help="keep, maybe, skip or clear",
    )
    decide_cmd.add_argument(
        "ids",
        nargs="+",
        metavar="ID",
        help="paper ids (a unique prefix is enough), or - to read one id per line from stdin",
    )
    decide_cmd.set_defaults(run=cmd_decide)
    facets = commands.add_parser(
        "facets",
        parents=[common],
        help="count the papers (or a search's) by status, type, session, topic, track, "
        "collection, tag, decision and read",
    )
    facets.add_argument("query", nargs="*", help="a search (all papers when none is given)")
    facets.add_argument(
        "--json", action="store_true", help='{"total": N, "facets": {"status": {...}, ...}}'
    )
    facets.set_defaults(run=cmd_facets)


def cmd_decide(ctx: Context) -> int:
    decision = None if ctx.args.decision == "clear" else ctx.args.decision
    keys = _ids_given(ctx.args.ids)
    decisions = loaded(DecisionStore.in_dir(ctx.data_dir))
    reading = ctx.reading()
    papers = ctx.open().papers
    by_id = {paper.id: paper for paper in papers}
    chosen: list[tuple[str, str]] = []  # every id checked before any change
    for key in keys:
        if decision is None and key in decisions.entries:  # its paper may have left
            paper = by_id.get(key)
            chosen.append((key, paper.title if paper else ""))
            continue
        try:
            paper = by_id.get(key) or ctx.paper(key)
        except UsageError:
            if decision is None:  # nobody knows it: already undecided (idempotent)
                chosen.append((key, ""))
                continue
            raise
        chosen.append((paper.id, paper.title))
    ids = list(dict.fromkeys(paper_id for paper_id, _ in chosen))
    save_change(lambda: decide(decisions, reading, ids, decision))
    for paper_id, title in dict(chosen).items():
        ctx.line(f"{ctx.args.decision} {paper_id}  {title}".rstrip())
    return 0


def _ids_given(ids: list[str]) -> list[str]:
    """The ids as given, or read from stdin (one a line, blank lines skipped) for `-`."""
    if ids != ["-"]:
        if "-" in ids:
            raise UsageError("paperterm: decide: - (read ids from stdin) must be the only id")
        return ids
    if sys.stdin is None:
        raise UsageError("paperterm: decide -: there is no stdin to read ids from")
    return [word for line in sys.stdin if (word := user_text(line.strip()))]


def cmd_facets(ctx: Context) -> int:
    from paperterm.index.library.facets import FACETS, count_facets

    papers = ctx.open().papers
    topics = computed_topics(ctx)
    query = " ".join(ctx.args.query).strip()
    marks = ctx.bookmarks()
    if query:
        papers = _searched(ctx, query, marks, topics)
    decisions = loaded(DecisionStore.in_dir(ctx.data_dir))
    reading = ctx.reading().entries
    counts = count_facets(papers, marks, decisions.entries, reading, topics=topics)
    if ctx.args.json:
        ctx.emit_json({"total": len(papers), "facets": counts}, indent=1)
        return 0
    ctx.line(f"{len(papers):,} paper{'s' * (len(papers) != 1)}")
    for facet in FACETS:
        values = counts[facet]
        if not values:
            continue
        ctx.line(f"{facet}:")
        for value, count in values.items():
            ctx.line(f"  {count:>7,}  {value}")
    return 0


def _searched(
    ctx: Context, query: str, marks: dict[str, Bookmark], topics: dict[str, str] | None
) -> list[Paper]:
    """Every paper `query` finds, as `paperterm search` finds them (`tag:` included;
    `topic:` from `topics` when computed)."""
    from paperterm.index.search.query import parse_query  # deferred, as in `search`
    from paperterm.index.search.searcher import Searcher  # deferred: it imports Whoosh

    opened = ctx.open()
    parsed = parse_query(query)
    allowed = None
    if parsed.tagged:
        allowed = allowed_ids(
            opened.papers,
            marks,
            Filters(),
            parsed.tags,
            parsed.excluded_tags,
            parsed.tag_prefixes,
        )
    searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
    try:
        results = searcher.search(query, limit=None, snippets=False, allowed=allowed, topics=topics)
    finally:
        searcher.close()
    for note in results.notes:
        ctx.warn(note)
    return [hit.paper for hit in results.hits]
