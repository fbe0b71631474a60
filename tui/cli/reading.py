"""`paperterm read ID...`, `paperterm unread ID...`, and one view of the papers for `list` and
`export` (a reading list): `--view NAME`, `--unread` / `--read`, `--decision`, `--watched`,
`--sort KEY` (same store and rules as the reader: index/library/reading.py, decisions.py,
filters.py, sorting.py; the formats are index/library/export.py's)."""

from __future__ import annotations

from collections.abc import Container, Mapping
from typing import TYPE_CHECKING, NamedTuple

from paperterm.index.library.bookmarks import Bookmark
from paperterm.index.library.filters import (
    ALL,
    WATCHED,
    Filters,
    UnknownView,
    ViewKey,
    all_tags,
    allowed_ids,
    like_seeds,
    list_title,
    query_matches,
    resolve_view,
)
from paperterm.index.library.reading import DECISIONS, ReadingStore, mark_read, mark_unread
from paperterm.index.library.sorting import DEFAULT_SORT, SORTS, SortKeys, effective_sort
from paperterm.index.papers import Paper
from paperterm.tui.cli.context import Context, UsageError, field, loaded, save_change
from paperterm.tui.cli.exports import add_export_options, emit_export

if TYPE_CHECKING:
    import argparse

    from paperterm.index.planning.watch import WatchMatcher


def add_reading_commands(
    commands: argparse._SubParsersAction, common: argparse.ArgumentParser
) -> None:
    read = commands.add_parser("read", parents=[common], help="mark papers read")
    read.add_argument("ids", nargs="+", metavar="ID", help="paper ids (a unique prefix is enough)")
    read.set_defaults(run=cmd_read)
    unread = commands.add_parser("unread", parents=[common], help="mark papers unread")
    unread.add_argument("ids", nargs="+", metavar="ID")
    unread.set_defaults(run=cmd_unread)
    export = commands.add_parser(
        "export",
        parents=[common],
        help="export the papers of a view (a reading list): Markdown, BibTeX, RIS, CSV, JSON",
    )
    add_export_options(export)
    add_view_options(export)
    export.set_defaults(run=cmd_export, json=False)


def add_view_options(parser: argparse.ArgumentParser) -> None:
    """`--view`, `--unread` / `--read` and `--sort`, for commands that print a view."""
    parser.add_argument(
        "--view",
        metavar="NAME",
        help="a saved search, collection or bookmark tag "
        "(or collection:NAME, tag:NAME, search:NAME when a name is ambiguous)",
    )
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--unread", action="store_true", help="only papers not read yet")
    which.add_argument("--read", action="store_true", help="only papers already read")
    parser.add_argument(
        "--decision",
        choices=[*DECISIONS, "none"],
        metavar="DECISION",
        help="only papers kept, maybe or skipped (`paperterm decide`), or none: undecided",
    )
    parser.add_argument(
        "--watched",
        action="store_true",
        help="only papers by an author or with a word you watch (`paperterm watch`)",
    )
    parser.add_argument(
        "--sort",
        choices=list(SORTS),
        metavar="KEY",
        help=f"order: {', '.join(SORTS)} (relevance, the default: a saved search's own "
        "order; corpus order otherwise)",
    )


def cmd_read(ctx: Context) -> int:
    store = ctx.reading()
    papers = [ctx.paper(key) for key in ctx.args.ids]  # every id checked before any change
    save_change(lambda: store.apply(mark_read(paper.id for paper in papers)))
    for paper in papers:
        ctx.line(f"read {field(paper.id)}  {field(paper.title)}")
    return 0


def cmd_unread(ctx: Context) -> int:
    store = ctx.reading()
    ids = [_read_id(ctx, store, key) for key in ctx.args.ids]
    save_change(lambda: store.apply(mark_unread(ids)))
    for paper_id in ids:
        ctx.line(f"unread {field(paper_id)}")
    return 0


def _read_id(ctx: Context, store: ReadingStore, key: str) -> str:
    """A read id as given (its paper may have left the corpus), else a paper id or prefix;
    an id nobody knows is already unread, so it is taken as it is (idempotent)."""
    if store.is_read(key):
        return key
    try:
        return ctx.paper(key).id
    except UsageError:
        return key


class Selection(NamedTuple):
    """The papers of one view, in order, with what the records say about each. A named
    tuple, not a dataclass: the reader's start imports this module (the parser's
    sub-commands) and a dataclass is slower to define."""

    papers: list[Paper]
    reading: ReadingStore
    marks: dict[str, Bookmark]
    view: ViewKey = ALL
    decisions: Mapping[str, str] = {}
    watcher: WatchMatcher | None = None

    def record(self, paper: Paper) -> dict[str, object]:
        return paper_record(paper, self.reading, self.marks, self.decisions, self.watcher)


def paper_record(
    paper: Paper,
    reading: ReadingStore,
    marks: Container[str],
    decisions: Mapping[str, str],
    watcher: WatchMatcher | None,
) -> dict[str, object]:
    """The paper's JSON record (`list --json`, `show --json`) with `read`, `bookmarked`,
    `decision` (null when undecided) and `watched` (labels: "author:NAME", "word:WORD")."""
    return {
        **paper.to_json(),
        "read": reading.is_read(paper.id),
        "bookmarked": paper.id in marks,
        "decision": decisions.get(paper.id),
        "watched": watcher.watched(paper) if watcher is not None else [],
    }


def decisions_of(ctx: Context) -> dict[str, str]:
    """The triage decisions by paper id; a damaged reading.toml is a usage error."""
    from paperterm.index.library.decisions import DecisionStore

    return loaded(DecisionStore.in_dir(ctx.data_dir)).entries


def select(ctx: Context) -> Selection:
    """The papers `--view`, `--unread` / `--read` and `--sort` ask for (all, in corpus
    order, when none is given)."""
    args = ctx.args
    opened = ctx.open()
    papers = opened.papers
    marks = ctx.bookmarks()
    sort = args.sort or DEFAULT_SORT
    # Only what needs the reading state reads it: a damaged reading.toml stops those alone.
    needs_reading = args.json or args.unread or args.read or sort in ("unread", "like")
    reading = ctx.reading() if needs_reading else ReadingStore.in_dir(ctx.data_dir)
    view, ranked = ALL, None
    if args.view:
        searches = ctx.saved_searches()
        collections = list(dict.fromkeys(name for p in papers for name in p.collections))
        try:
            view = resolve_view(args.view, collections, all_tags(marks), searches)
        except UnknownView as error:
            raise UsageError(f"paperterm: --view: {error}") from None
        if view == WATCHED:  # the reader's "Watched" view: what --watched lists
            view, args.watched = ALL, True
        if view.kind == "search":
            query = next(s.query for s in searches if s.name == view.name)
            from paperterm.index.search.query import parse_query
            from paperterm.index.search.searcher import Searcher  # deferred: Whoosh
            from paperterm.index.search.topic_clauses import has_topic_clause
            from paperterm.tui.cli.planning import computed_topics

            topics = computed_topics(ctx) if has_topic_clause(parse_query(query)) else None
            searcher = Searcher(opened.ix, papers, opened.vocabulary())
            try:
                ranked = query_matches(searcher, query, papers, marks, topics)
            finally:
                searcher.close()
    sort = effective_sort(sort, ranked is not None)
    filters = Filters(unread_only=args.unread, view=view)
    allowed = allowed_ids(papers, marks, filters, read=reading.entries, search_ids=ranked)
    by_id = {paper.id: paper for paper in papers}
    if ranked is not None:
        chosen = [by_id[i] for i in ranked if allowed is None or i in allowed]
    else:
        chosen = [paper for paper in papers if allowed is None or paper.id in allowed]
    if args.read:
        chosen = [paper for paper in chosen if reading.is_read(paper.id)]
    decisions = decisions_of(ctx) if args.json or args.decision else {}
    if args.decision:
        wanted = None if args.decision == "none" else args.decision
        chosen = [paper for paper in chosen if decisions.get(paper.id) == wanted]
    watcher = None
    if args.json or args.watched:
        from paperterm.tui.cli.planning import watch_matcher

        watcher = watch_matcher(ctx, papers)
    if args.watched:
        chosen = [p for p in chosen if watcher is not None and watcher.watched(p)]
    scores = None
    if sort == "like":
        from paperterm.index.library.affinity import TermVectors  # the reader starts without

        scores = TermVectors(papers).rank(like_seeds(marks, view)).scores
    chosen = SortKeys(papers).order(
        chosen,
        lambda paper: paper.id,
        sort,
        read=reading.entries,
        bookmarked=marks,
        scores=scores,
    )
    return Selection(chosen, reading, marks, view, decisions, watcher)


#: `--decision` in an export's heading.
_DECISION_WORDS = {"keep": "kept", "maybe": "maybe", "skip": "skipped", "none": "undecided"}


def cmd_export(ctx: Context) -> int:
    """The view's papers in the chosen format, in the view's order; Markdown's heading names
    the view (and `unread` / `read`, the decision and `watched` when only those are in it)."""
    from paperterm.index.library.export import EXPORTERS  # see tui/cli/exports.py
    from paperterm.index.library.export_items import paper_items

    selection = select(ctx)
    args = ctx.args
    title = list_title(selection.view, unread=args.unread, read=args.read)
    if args.decision:
        title += f" · {_DECISION_WORDS[args.decision]}"
    if args.watched:
        title += " · watched"
    items = paper_items(selection.papers, selection.marks)
    written = f"{len(items)} paper{'s' * (len(items) != 1)}"
    emit_export(ctx, EXPORTERS[args.format].text(items, title), written)
    return 0
