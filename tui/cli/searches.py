"""`paperterm searches ...`: the saved searches for scripts (the store the reader's `S`
saves to), so that a search the reader could not save can be saved later."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from paperterm.index.library.op_store import one_line
from paperterm.index.library.searches import SearchesStore
from paperterm.tui.cli.context import Context, UsageError, loaded, save_change

if TYPE_CHECKING:
    import argparse


def add_search_commands(
    commands: argparse._SubParsersAction, common: argparse.ArgumentParser
) -> None:
    group = commands.add_parser("searches", parents=[common], help="list or change saved searches")
    actions = group.add_subparsers(
        dest="action", metavar="ACTION", required=True, parser_class=type(group)
    )
    listing = actions.add_parser("list", parents=[common], help="print the saved searches")
    listing.set_defaults(run=cmd_list)
    save = actions.add_parser(
        "save", parents=[common], help="save a query under a name (replaces one saved before)"
    )
    save.add_argument("name", metavar="NAME")
    save.add_argument("query", metavar="QUERY")
    save.set_defaults(run=cmd_save)
    delete = actions.add_parser(
        "delete", parents=[common], help="delete a saved search (idempotent)"
    )
    delete.add_argument("name", metavar="NAME")
    delete.set_defaults(run=cmd_delete)


def _store(ctx: Context) -> SearchesStore:
    return loaded(SearchesStore.in_dir(ctx.data_dir))


def cmd_list(ctx: Context) -> int:
    searches = ctx.saved_searches()
    for search in searches:
        origin = "config" if search.added is None else f"{search.added:%Y-%m-%d}"
        ctx.line(f"{one_line(search.name)}  ({origin})  {one_line(search.query)}")
    if not searches:
        ctx.line("no saved searches yet")
    return 0


def cmd_save(ctx: Context) -> int:
    name, query = one_line(ctx.args.name), ctx.args.query.strip()
    if not name:
        raise UsageError("a saved search needs a name")
    if any(search.name == name for search in ctx.config.searches):
        raise UsageError(f"{name!r} is a search of the config file; choose another name")
    store = _store(ctx)
    save_change(partial(store.save_search, name, query))
    ctx.line(f"saved the search {name!r}")
    return 0


def cmd_delete(ctx: Context) -> int:
    store = _store(ctx)
    name = one_line(ctx.args.name)
    save_change(partial(store.delete, name))
    ctx.line(f"deleted the search {name!r}")
    return 0
