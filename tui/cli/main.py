"""The `paperterm` command: the reader (no sub-command) and sub-commands for scripts.

A thin face over `paperterm.index`: it parses arguments, calls the same functions the TUI
calls, and prints. Textual is imported only when the reader starts, so scripted use stays fast.
Errors are one line on stderr: exit status 2 for bad usage or input, 1 for other failures.
"""

from __future__ import annotations

import os
import sys
import time
import traceback
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, TextIO

from platformdirs import user_log_dir

from paperterm.index.config import ENGINES, ConfigError
from paperterm.index.library.bookmarks import Bookmark
from paperterm.index.library.filters import Filters, allowed_ids
from paperterm.index.papers import name_label
from paperterm.index.private_files import open_private_log
from paperterm.index.session import SessionError
from paperterm.index.text.display import safe_text
from paperterm.tui import collector
from paperterm.tui.cli.context import (
    FAILURE,
    USAGE_ERROR,
    Arguments,
    BookmarkCommandError,
    ClosedStdout,
    CommandFailed,
    Context,
    UsageError,
    field,
)
from paperterm.tui.cli.escape import user_text

if TYPE_CHECKING:
    import argparse

    from paperterm.index.search.hits import Results


#: The reader's options, by their full names (their attributes): `paperterm` with these
#: only is read without argparse (`parse_arguments`).
_READER_OPTIONS = {
    "--data-dir": "data_dir",
    "--config": "config",
    "--engine": "engine",
    "--source": "source",
}


def parse_arguments(argv: Sequence[str]) -> Arguments:
    """The command line. The reader's own (its options only, each spelt out in full with its
    value) is read here: importing argparse and making a parser slowed the reader's start.
    Anything else (a command, `--help`, an abbreviation, a mistake, `--`) goes to the full
    parser (tui/cli/parser.py), so its answers and its errors are what the user sees; the
    attributes are the same either way (tests/cli/test_cli_arguments.py)."""
    return _reader_arguments(argv) or build_parser(argv).parse_args(argv)


def _reader_arguments(argv: Sequence[str]) -> SimpleNamespace | None:
    """The reader's options as argparse reads them (`--data-dir DIR`, `--source=PATH`, the
    last of a repeated option, every `--source`), or None for anything it would read
    otherwise or refuse: another word, a value that starts with `-` or is missing, an engine
    it does not know."""
    given: dict[str, object] = {}
    words = iter(argv)
    for word in words:
        name, equals, value = word.partition("=")
        attribute = _READER_OPTIONS.get(name)
        if attribute is None:
            return None
        if not equals:
            value = next(words, "-")  # missing: as a value that starts with `-`
            if value.startswith("-"):
                return None
        if attribute == "engine" and value not in ENGINES:
            return None
        if attribute == "source":
            sources = given.setdefault("source", [])
            assert isinstance(sources, list)
            sources.append(value)
        else:
            given[attribute] = value
    return SimpleNamespace(**given, command=None)


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    # The commands' modules with the parser: the reader's start does without them.
    from paperterm.tui.cli.bookmarks import add_bookmark_commands
    from paperterm.tui.cli.parser import (
        Parser,
        TopParser,
        VersionAction,
        common_parser,
        positive_int,
    )
    from paperterm.tui.cli.planning import add_agenda_and_watch_commands, add_planning_commands
    from paperterm.tui.cli.reading import add_reading_commands, add_view_options
    from paperterm.tui.cli.searches import add_search_commands
    from paperterm.tui.cli.sources import add_sources_command
    from paperterm.tui.cli.triage import add_triage_commands

    common = common_parser()
    parser = TopParser(
        prog="paperterm",
        parents=[common],
        description="A keyboard-driven terminal reader for paper abstracts. "
        "Without a command it opens the reader.",
    )
    parser.common = common
    parser.argv = argv
    parser.add_argument("--version", action=VersionAction)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    listing = commands.add_parser("list", parents=[common], help="print the papers (of a view)")
    listing.add_argument("--json", action="store_true", help="a JSON array of full records")
    add_view_options(listing)
    listing.set_defaults(run=cmd_list)

    search = commands.add_parser(
        "search", parents=[common], help="search the papers", allow_abbrev=False
    )
    search.dash_words = True
    search.add_argument(
        "query",
        nargs="+",
        help="the query (its words may be given unquoted: `search graph -vision`), "
        "or - to read one query per line from stdin",
    )
    search.add_argument("--limit", type=positive_int, default=10, metavar="N")
    search.add_argument("--json", action="store_true", help="JSON output")
    search.add_argument(
        "--exact", action="store_true", help="search the words as typed (no typo correction)"
    )
    search.set_defaults(run=cmd_search)

    show = commands.add_parser("show", parents=[common], help="print one paper")
    show.add_argument("id", help="a paper id (a unique prefix is enough)")
    show.add_argument("--json", action="store_true")
    show.set_defaults(run=cmd_show)

    index = commands.add_parser("index", parents=[common], help="build the index if needed")
    index.add_argument("--rebuild", action="store_true", help="rebuild even if up to date")
    index.add_argument(
        "--check",
        action="store_true",
        help="read every index file against its checksum; rebuild what is damaged",
    )
    index.set_defaults(run=cmd_index)

    doctor = commands.add_parser(
        "doctor",
        parents=[common],
        help="check the terminal, clipboard, data dir, index and sources (one line each)",
    )
    doctor.set_defaults(doctor=True)

    key_table = commands.add_parser(
        "keys",
        parents=[common],
        help="print the reader's key bindings, with the config's [keys] applied",
    )
    key_table.add_argument("--json", action="store_true", help="a JSON array, one per binding")
    key_table.add_argument(
        "--markdown", action="store_true", help="a Markdown table (docs/keys.md holds it)"
    )
    key_table.set_defaults(run=_cmd_keys)

    add_bookmark_commands(commands, common)
    add_reading_commands(commands, common)
    add_planning_commands(commands, common)
    add_agenda_and_watch_commands(commands, common)
    add_triage_commands(commands, common)
    add_search_commands(commands, common)
    add_sources_command(commands, common)
    return parser


# --- sub-commands --------------------------------------------------------------------------


def cmd_list(ctx: Context) -> int:
    from paperterm.tui.cli.reading import select

    selection = select(ctx)
    if ctx.args.json:
        ctx.emit_json([selection.record(paper) for paper in selection.papers], indent=1)
        return 0
    for paper in selection.papers:
        ctx.line(f"{field(paper.id)}  {field(paper.title)}  [{_collections(paper.collections)}]")
    return 0


def _search_json(results: Results, decisions: Mapping[str, str]) -> dict[str, object]:
    return {
        "query": results.query,
        "total": results.total,
        "took_ms": results.took_ms,
        "hits": [
            {
                "id": hit.paper.id,
                "title": hit.paper.title,
                "name": hit.paper.name,
                "score": round(hit.score, 4),
                "collection": hit.paper.collection,
                "snippet": hit.marked_snippet(),
                "decision": decisions.get(hit.paper.id),
            }
            for hit in results.hits
        ],
        "notes": results.notes,
        "suggestion": results.suggestion,
        "corrected": results.corrected,
        "corrections": [{"from": typed, "to": better} for typed, better in results.corrections],
    }


def cmd_search(ctx: Context) -> int:
    opened = ctx.open()
    from paperterm.index.search.query import parse_query  # the reader starts without it
    from paperterm.index.search.searcher import Searcher  # deferred: it imports Whoosh
    from paperterm.index.search.topic_clauses import has_topic_clause
    from paperterm.tui.cli.planning import computed_topics

    query = " ".join(ctx.args.query)
    searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
    marks: dict[str, Bookmark] | None = None
    decisions: dict[str, str] = {}
    if ctx.args.json:
        from paperterm.tui.cli.reading import decisions_of

        decisions = decisions_of(ctx)

    topics: dict[str, str] | None = None

    def run(text: str) -> None:
        nonlocal marks, topics
        parsed = parse_query(text)
        if topics is None and has_topic_clause(parsed):
            topics = computed_topics(ctx) or {}
        allowed = None
        if parsed.tagged:
            if marks is None:
                marks = ctx.bookmarks()
            allowed = allowed_ids(
                opened.papers,
                marks,
                Filters(),
                parsed.tags,
                parsed.excluded_tags,
                parsed.tag_prefixes,
            )
        results = searcher.search(
            text, limit=ctx.args.limit, allowed=allowed, exact=ctx.args.exact, topics=topics
        )
        if ctx.args.json:
            ctx.emit_json(_search_json(results, decisions))
        else:
            _print_results(ctx, results)

    try:
        if query == "-":
            if sys.stdin is None:  # started with stdin closed (`<&-`)
                raise UsageError("paperterm: search -: there is no stdin to read queries from")
            for raw in sys.stdin:
                run(user_text(raw.rstrip("\r\n")))
                ctx.out.flush()
            return 0
        run(query)
    finally:
        searcher.close()
    return 0


def _print_results(ctx: Context, results: Results) -> None:
    # Imported here, as the searcher is: the reader's start does without them.
    from paperterm.index.search.hits import correction_note, mark

    bold = ctx.out.isatty() and "NO_COLOR" not in os.environ
    if results.corrected:
        ctx.line(
            f"({' · '.join(correction_note(results.corrected, results.corrections, '--exact'))})"
        )
    for note in results.notes:
        ctx.line(f"({field(note)})")
    if not results.hits:
        hint = f"; did you mean: {results.suggestion}" if results.suggestion else ""
        ctx.line(f"no papers match {results.query!r}{field(hint)}")
        return
    for rank, hit in enumerate(results.hits, start=1):
        paper = hit.paper
        ctx.line(f"{rank:>2}. {field(paper.title)}  [{field(paper.collection)}]  {field(paper.id)}")
        snippet = safe_text(hit.snippet, keep_newlines=False)
        if bold:
            # Spans index the snippet; safe_text keeps its length only if nothing was removed.
            if snippet == hit.snippet:
                snippet = mark(snippet, hit.spans, "\x1b[1m", "\x1b[22m")
            print(f"    {snippet}", file=ctx.out)
        else:
            ctx.line(f"    {hit.marked_snippet('[', ']') if snippet == hit.snippet else snippet}")
    shown = len(results.hits)
    ctx.line(f"{shown} of {results.total} matches, {results.took_ms:.1f} ms")


def cmd_show(ctx: Context) -> int:
    from paperterm.index.record_view import credited_authors, record_lines
    from paperterm.tui.cli.planning import watch_matcher
    from paperterm.tui.cli.reading import decisions_of, paper_record

    paper = ctx.paper(ctx.args.id)
    if ctx.args.json:
        watcher = watch_matcher(ctx, ctx.open().papers)
        record = paper_record(paper, ctx.reading(), ctx.bookmarks(), decisions_of(ctx), watcher)
        ctx.emit_json(record, indent=1)
        return 0
    # Each field on its line, folded to one (`field`); the abstract's paragraphs below.
    ctx.line(field(paper.title))
    if name_label(paper):
        ctx.line(f"Name: {field(paper.name)}")
    ctx.line(f"Collection: {_collections(paper.collections)}")
    if paper.authors:
        ctx.line(f"Authors: {', '.join(field(name) for name in credited_authors(paper))}")
    if paper.year:
        ctx.line(f"Year: {field(paper.year)}")
    for label, value in record_lines(paper):
        ctx.line(f"{label}: {field(value)}")
    for link in paper.links:
        ctx.line(f"Link: {field(link)}")
    ctx.line(f"Id: {field(paper.id)}")
    ctx.line()
    ctx.line(paper.text)
    return 0


def _collections(names: Sequence[str]) -> str:
    return ", ".join(field(name) for name in names)


def cmd_index(ctx: Context) -> int:
    """Build the index on disk now. Only an in-memory index (the data dir cannot be written)
    is a failure here, whereas other commands just use it: this one is asked to build."""
    if ctx.args.check:
        return _check_index(ctx)
    started = time.perf_counter()
    opened = ctx.open(rebuild=ctx.args.rebuild)
    seconds = time.perf_counter() - started
    if opened.location == ":memory:":
        raise CommandFailed(
            f"paperterm: {ctx.data_dir}: the index could not be written there "
            "(only an in-memory index was built)"
        )
    meta = opened.meta
    ctx.line(
        f"{meta.papers} papers, {len(meta.collections)} collections, {seconds:.2f} s "
        f"({opened.location})"
    )
    return 0


def _check_index(ctx: Context) -> int:
    """`index --check`: exit status 0 when every file was sound, 1 when damage was found
    (and the index rebuilt)."""
    found = ctx.session.check()
    for problem in found.damaged:
        ctx.line(f"damaged: {problem}")
    if found.damaged:
        ctx.line(f"rebuilt: {found.papers} papers ({found.location})")
        return FAILURE
    verb = "built" if found.rebuilt else "sound"
    ctx.line(f"{verb}: {found.papers} papers, {found.files} files checked ({found.location})")
    return 0


def _cmd_keys(ctx: Context) -> int:
    from paperterm.tui.cli.key_table import cmd_keys  # `paperterm keys` only

    return cmd_keys(ctx)


def start_reader(ctx: Context) -> int:
    collector.pause()  # until the first frame (the app resumes it then)
    try:
        # Deferred: Textual is imported only when the reader starts (see the docstring).
        from paperterm.tui.app import check_reader_config
        from paperterm.tui.lifecycle import run_reader

        check_reader_config(ctx.config)  # a broken config is reported first, terminal or not
        if not (_is_terminal(sys.stdin) and _is_terminal(sys.stdout)):
            raise UsageError(
                "paperterm: the reader needs a terminal on stdin and stdout "
                "(over ssh use `ssh -t`; for scripts use `paperterm list` or `paperterm search`)"
            )
        return run_reader(ctx.session, ctx.config, log_dir())
    finally:
        collector.resume()


def _is_terminal(stream: TextIO | None) -> bool:
    return stream is not None and stream.isatty()


def log_dir() -> Path:
    """Where crash logs and unsaved changes go (the per-user log folder)."""
    return Path(user_log_dir("paperterm", appauthor=False))


# --- entry point ---------------------------------------------------------------------------


#: Arguments that are text the user typed (not file names, which must stay as they are).
_TEXT_ARGUMENTS = ("query", "id", "ids", "text", "tags", "view", "name")


def main(argv: Sequence[str] | None = None) -> int:
    _hold_standard_descriptors()
    # Never fail on a character the locale cannot encode (shown as "?"), nor on input bytes
    # it cannot decode (kept as surrogates, then read as UTF-8 by `user_text`).
    errors = {"stdout": "replace", "stderr": "replace", "stdin": "surrogateescape"}
    for name, handler in errors.items():
        stream = getattr(sys, name)
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors=handler)
    try:
        given = sys.argv[1:] if argv is None else argv
        args = parse_arguments(given)
        if getattr(args, "run", None) is not None or getattr(args, "doctor", False):
            collector.resume()  # paused by `run` for the imports: a sub-command runs as usual
        for name in _TEXT_ARGUMENTS:
            value = getattr(args, name, None)
            if isinstance(value, str):
                setattr(args, name, user_text(value))
            elif isinstance(value, list):
                setattr(args, name, [user_text(item) for item in value])
        if getattr(args, "doctor", False):
            # Its own config reading: a broken config is one of the things it reports.
            # Imported here, as `keys`'s module is: the reader's start does without them.
            from paperterm.tui.cli.doctor import run_doctor

            return run_doctor(args, sys.stdout if sys.stdout is not None else ClosedStdout())
        ctx = Context(args, sys.stdout, sys.stderr)
        run = getattr(args, "run", None)
        return run(ctx) if run is not None else start_reader(ctx)
    except (UsageError, ConfigError, SessionError, BookmarkCommandError) as error:
        _say(str(error))
        return USAGE_ERROR
    except CommandFailed as error:
        _say(str(error))
        return FAILURE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader of our output went away (`paperterm list | head`): not an error.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except Exception as error:
        # The engine is loaded when the index is opened (after the reader's first frame),
        # so its error is told here; its module is imported only on this path.
        from paperterm.index.search.tantivy import TantivyMissing

        if isinstance(error, TantivyMissing):
            _say(str(error))
            return USAGE_ERROR
        return _crash(error)


def _say(message: str) -> None:
    """An error as one line on stderr (if there is a stderr)."""
    if not message.startswith("paperterm"):
        message = f"paperterm: {message}"
    print(safe_text(message, keep_newlines=False), file=sys.stderr)


def _hold_standard_descriptors() -> None:
    """Open /dev/null on descriptors 0-2 if paperterm was started with them closed (`>&-`,
    `2>&-`, `<&-`). Python has made the stream None already; without this the first file
    paperterm opens (an index segment, bookmarks.toml) would get the number and anything
    written to "stdout" or "stderr" below Python would land in it."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)


def _crash(error: Exception) -> int:
    """An unexpected failure: one line for the user, the traceback in a log file."""
    folder = log_dir()
    where = ""
    try:
        log = folder / "crash.log"
        with open_private_log(log) as handle:
            handle.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')}\n")
            handle.write("".join(traceback.format_exception(error)))
        where = f" (details in {log})"
    except OSError:
        pass
    summary = safe_text(f"{type(error).__name__}: {error}", keep_newlines=False)
    print(f"paperterm: internal error: {summary}{where}", file=sys.stderr)
    return FAILURE


if __name__ == "__main__":
    sys.exit(main())
