"""`paperterm topics`, `agenda` and `watch`: the corpus grouped into topics, the kept
papers' agenda and the watch list (index/planning/, index/library/watches.py)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from paperterm.index.text.display import safe_text
from paperterm.tui.cli.context import Context, UsageError, loaded, save_change

if TYPE_CHECKING:
    import argparse

    from paperterm.index.papers import Paper
    from paperterm.index.planning.watch import WatchList, WatchMatcher

#: watches.py's KINDS, written out: the parser is built on every command's start and the
#: watch modules are needed only by the commands that watch (a test checks they agree).
KINDS = ("author", "author_id", "word")


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


def computed_topics(ctx: Context) -> dict[str, str] | None:
    """The topics kept with the index (computed and kept when missing) for a corpus that
    carries none: id -> label; None when it carries its own."""
    from paperterm.index.planning.kept_topics import generation_folder, kept_topics, topic_labels

    opened = ctx.open()
    kept = kept_topics(opened.papers, opened.meta, generation_folder(ctx.session, opened))
    if kept.warning:
        ctx.warn(kept.warning)
    return None if kept.topics is None else topic_labels(kept.topics)


def cmd_topics(ctx: Context) -> int:
    from paperterm.index.planning.kept_topics import generation_folder, kept_topics
    from paperterm.index.planning.topics import topics_json

    opened = ctx.open()
    papers = opened.papers
    folder = generation_folder(ctx.session, opened)
    kept = kept_topics(papers, opened.meta, folder, wanted=True)
    if kept.warning:
        ctx.warn(kept.warning)
    found = kept.topics or []
    if ctx.args.json:
        ctx.emit_json(topics_json(found), indent=1)
        return 0
    width = len(f"{max((t.count for t in found), default=0):,}")
    for topic in found:
        ctx.line(f"{topic.count:>{width},}  {', '.join(topic.words)}")
    covered = sum(topic.count for topic in found)
    ctx.line(f"{len(found)} topics; {covered:,} of {len(papers):,} papers have one")
    return 0


def add_agenda_and_watch_commands(
    commands: argparse._SubParsersAction, common: argparse.ArgumentParser
) -> None:
    agenda = commands.add_parser(
        "agenda",
        parents=[common],
        help="the kept papers by day and session, clashes flagged; JSON, Markdown or iCalendar",
    )
    agenda.add_argument("--maybe", action="store_true", help="the maybe papers too")
    agenda.add_argument(
        "--json",
        action="store_true",
        help='{"days": [{"date", "sessions": [...]}], "unscheduled": [...]}',
    )
    agenda.add_argument(
        "--ics", metavar="FILE", help="write an iCalendar file, one event per session (- stdout)"
    )
    agenda.add_argument("--md", metavar="FILE", help="write the agenda as Markdown (- stdout)")
    agenda.add_argument(
        "--tz", metavar="ZONE", help="show times in this IANA zone (e.g. Europe/Paris)"
    )
    agenda.set_defaults(run=cmd_agenda)
    watch = commands.add_parser(
        "watch", parents=[common], help="the authors and words you watch (watch.toml)"
    )
    actions = watch.add_subparsers(dest="watch_action", metavar="ACTION", required=True)
    for name, helped in (("add", "watch an author or a word"), ("remove", "stop watching")):
        action = actions.add_parser(name, parents=[common], help=helped)
        action.add_argument("kind", choices=KINDS, metavar="KIND", help=", ".join(KINDS))
        action.add_argument("value", nargs="+", metavar="VALUE", help="the name, id or words")
        action.set_defaults(run=cmd_watch)
    listing = actions.add_parser(
        "list", parents=[common], help="what is watched: the config's, then watch.toml's"
    )
    listing.add_argument("--json", action="store_true", help="a JSON array of labels")
    listing.set_defaults(run=cmd_watch)


def cmd_agenda(ctx: Context) -> int:
    from paperterm.index.library.decisions import DecisionStore
    from paperterm.index.planning.agenda import UnknownZoneError, build_agenda
    from paperterm.index.planning.agenda_ics import agenda_ics

    args = ctx.args
    wanted = {"keep", "maybe"} if args.maybe else {"keep"}
    decisions = loaded(DecisionStore.in_dir(ctx.data_dir)).entries
    papers = [p for p in ctx.open().papers if decisions.get(p.id) in wanted]
    try:
        tz = args.tz or ctx.config.agenda_time_zone
        agenda = build_agenda(papers, tz=tz, default_minutes=ctx.config.agenda_default_minutes)
    except UnknownZoneError as error:
        raise UsageError(f"paperterm: --tz: {error}") from None
    wrote = False
    if args.ics:
        _write(ctx, args.ics, agenda_ics(agenda).decode("utf-8"), "calendar")
        wrote = True
    if args.md:
        _write(ctx, args.md, agenda.to_markdown(), "agenda")
        wrote = True
    if args.json:
        ctx.emit_json(agenda.to_json(), indent=1)
    elif not wrote:
        ctx.out.write(safe_text(agenda.to_markdown()))
    return 0


def _write(ctx: Context, target: str, text: str, what: str) -> None:
    """`text` to the file `target` (as a shell redirect would), or to stdout for `-`."""
    if target == "-":
        ctx.out.write(safe_text(text))
        return
    from paperterm.tui.cli.exports import write_export

    path = Path(target).expanduser()
    write_export(path, text)
    ctx.line(f"{what} written to {path}")


def watch_list(ctx: Context) -> WatchList:
    """The config's `[watch]` lists, then what watch.toml holds."""
    from paperterm.index.library.watches import WatchStore
    from paperterm.index.planning.watch import WatchList

    configured = WatchList(
        ctx.config.watch_authors, ctx.config.watch_words, ctx.config.watch_author_ids
    )
    return loaded(WatchStore.in_dir(ctx.data_dir)).watch_list(configured)


def watch_matcher(ctx: Context, papers: Sequence[Paper]) -> WatchMatcher | None:
    """A matcher of the watch list against the corpus's names; None when nothing is
    watched."""
    from paperterm.index.planning.watch import WatchMatcher, corpus_author_names

    watching = watch_list(ctx)
    if not watching:
        return None
    return WatchMatcher(watching, corpus_author_names(papers))


def cmd_watch(ctx: Context) -> int:
    from paperterm.index.library.watches import WatchStore

    args = ctx.args
    if args.watch_action == "list":
        labels = _labels(watch_list(ctx))
        if args.json:
            ctx.emit_json(labels)
        else:
            for label in labels:
                ctx.line(label)
        return 0
    value = " ".join(args.value)
    store = loaded(WatchStore.in_dir(ctx.data_dir))
    if args.watch_action == "add":
        try:
            save_change(lambda: store.watch(args.kind, value))
        except ValueError as error:
            raise UsageError(f"paperterm: watch add: {error}") from None
        ctx.line(f"watching {args.kind}:{value}")
    else:
        save_change(lambda: store.unwatch(args.kind, value))
        ctx.line(f"not watching {args.kind}:{value}")
    return 0


def _labels(watching: WatchList) -> list[str]:
    return [
        *(f"author:{name}" for name in watching.authors),
        *(f"author:{author_id}" for author_id in watching.author_ids),
        *(f"word:{word}" for word in watching.words),
    ]
