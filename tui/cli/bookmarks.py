"""`paperterm bookmarks ...`: the bookmark commands for scripts (same store as the reader)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from paperterm.index.library.bookmarks import BookmarkStore
from paperterm.tui.cli.context import (
    BookmarkCommandError,
    Context,
    field,
    loaded,
    save_change,
)
from paperterm.tui.cli.exports import add_export_options, emit_export

if TYPE_CHECKING:
    import argparse


def add_bookmark_commands(commands: argparse._SubParsersAction, common: argparse.ArgumentParser):
    group = commands.add_parser(
        "bookmarks", parents=[common], help="list, change or export bookmarks"
    )
    actions = group.add_subparsers(
        dest="action", metavar="ACTION", required=True, parser_class=type(group)
    )

    listing = actions.add_parser("list", parents=[common], help="print the bookmarks")
    listing.add_argument("--json", action="store_true")
    listing.set_defaults(run=cmd_list)

    add = actions.add_parser("add", parents=[common], help="bookmark papers (idempotent)")
    add.add_argument("ids", nargs="+", metavar="ID")
    add.set_defaults(run=cmd_add)

    remove = actions.add_parser("remove", parents=[common], help="remove bookmarks (idempotent)")
    remove.add_argument("ids", nargs="+", metavar="ID")
    remove.set_defaults(run=cmd_remove)

    tag = actions.add_parser("tag", parents=[common], help="add tags to a bookmark")
    tag.add_argument("id", metavar="ID")
    tag.add_argument("tags", nargs="+", metavar="TAG")
    tag.add_argument("--remove", action="store_true", help="remove these tags instead")
    tag.set_defaults(run=cmd_tag)

    note = actions.add_parser("note", parents=[common], help="set a bookmark's note ('' clears)")
    note.add_argument("id", metavar="ID")
    note.add_argument("text", metavar="TEXT")
    note.set_defaults(run=cmd_note)

    export = actions.add_parser("export", parents=[common], help="export the bookmarks")
    add_export_options(export)
    export.add_argument("--tag", metavar="TAG", help="only the bookmarks with this tag")
    export.set_defaults(run=cmd_export)


def _store(ctx: Context) -> BookmarkStore:
    return loaded(BookmarkStore.in_dir(ctx.data_dir))


def _bookmark_id(ctx: Context, store: BookmarkStore, key: str) -> str:
    """A bookmarked id as given (it may have left the corpus), else a paper id or prefix."""
    if store.get(key) is not None:
        return key
    marked = [mark.id for mark in store.bookmarks if mark.id.startswith(key)] if key else []
    if len(marked) == 1:
        return marked[0]
    return ctx.paper(key).id


def cmd_list(ctx: Context) -> int:
    store = _store(ctx)
    papers = {paper.id: paper for paper in ctx.open().papers}
    if ctx.args.json:
        from paperterm.index.library.export import export_json  # see tui/cli/exports.py
        from paperterm.index.library.export_items import bookmark_items

        ctx.out.write(_json_lines(ctx, export_json(bookmark_items(store.bookmarks, papers))))
        return 0
    for mark in store.bookmarks:
        paper = papers.get(mark.id)
        title = paper.title if paper else f"{mark.title or '(no title)'} [missing from corpus]"
        tags = f"  #{' #'.join(field(tag) for tag in mark.tags)}" if mark.tags else ""
        ctx.line(f"{field(mark.id)}  {mark.added:%Y-%m-%d}  {field(title)}{tags}")
        if mark.note:
            ctx.line(f"    note: {field(mark.note)}")
    if not store.bookmarks:
        ctx.line("no bookmarks yet")
    return 0


def _json_lines(ctx: Context, text: str) -> str:
    return ctx.json_text(text).rstrip("\n") + "\n"


def cmd_add(ctx: Context) -> int:
    store = _store(ctx)
    papers = [ctx.paper(key) for key in ctx.args.ids]
    for paper in papers:
        if not store.is_bookmarked(paper.id):
            save_change(partial(store.add, paper.id, paper.title))
        ctx.line(f"bookmarked {field(paper.id)}  {field(paper.title)}")
    return 0


def cmd_remove(ctx: Context) -> int:
    store = _store(ctx)
    for key in ctx.args.ids:
        try:
            paper_id = _bookmark_id(ctx, store, key)
        except Exception:  # an unknown id is already "not bookmarked": idempotent
            paper_id = key
        save_change(partial(store.remove, paper_id))
        ctx.line(f"removed {field(paper_id)}")
    return 0


def _bookmarked(ctx: Context, store: BookmarkStore) -> str:
    """The id of the bookmark `ctx.args.id` names; an error when it is not bookmarked."""
    paper_id = _bookmark_id(ctx, store, ctx.args.id)
    if not store.is_bookmarked(paper_id):
        raise BookmarkCommandError(f"{paper_id} is not bookmarked (bookmarks add {paper_id})")
    return paper_id


def cmd_tag(ctx: Context) -> int:
    store = _store(ctx)
    paper_id = _bookmarked(ctx, store)
    change = store.remove_tags if ctx.args.remove else store.add_tags
    save_change(lambda: change(paper_id, ctx.args.tags))
    mark = store.get(paper_id)
    tags = ", ".join(field(tag) for tag in mark.tags) if mark and mark.tags else "(none)"
    ctx.line(f"{field(paper_id)}  tags: {tags}")
    return 0


def cmd_note(ctx: Context) -> int:
    store = _store(ctx)
    paper_id = _bookmarked(ctx, store)
    save_change(lambda: store.set_note(paper_id, ctx.args.text))
    ctx.line(f"{field(paper_id)}  note {'set' if ctx.args.text.strip() else 'cleared'}")
    return 0


def cmd_export(ctx: Context) -> int:
    from paperterm.index.library.export import EXPORTERS  # see tui/cli/exports.py
    from paperterm.index.library.export_items import bookmark_items

    store = _store(ctx)
    papers = {paper.id: paper for paper in ctx.open().papers}
    items = bookmark_items(store.bookmarks, papers, ctx.args.tag)
    if ctx.args.tag is not None and not items:
        raise BookmarkCommandError(f"no bookmark has the tag {ctx.args.tag!r}")
    emit_export(ctx, EXPORTERS[ctx.args.format].export(items), f"{len(items)} bookmarks")
    return 0
