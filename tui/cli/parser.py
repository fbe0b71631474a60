"""The full command line, read by argparse: every command's options, `--help`, `--version`
and the errors. The reader's own options are read without it when that is all there is
(`parse_arguments` in main.py): importing argparse and making a parser slowed the
reader's start."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import NoReturn

from paperterm.index.config import ENGINES
from paperterm.tui.cli.context import UsageError


class Parser(argparse.ArgumentParser):
    #: Set on `paperterm search`: a word that starts with one `-` and is none of its options
    #: is part of the query (`search -vision`, `search graph -tag:done`), not an unknown option,
    #: as `-word` excludes a word in the query language.
    dash_words = False

    def error(self, message: str) -> NoReturn:  # one line, not argparse's usage dump
        raise UsageError(f"{self.prog}: {message} (see --help)")

    def _parse_optional(self, arg_string: str):  # argparse's private hook: no stable type
        if (
            self.dash_words
            and arg_string.startswith("-")
            and not arg_string.startswith("--")  # `--lim`: an option misspelt, an error
            and arg_string not in self._option_string_actions
        ):
            return None  # a positional: a word of the query
        return super()._parse_optional(arg_string)


class TopParser(Parser):
    """`paperterm --help` ends with where paperterm looks: the config file, the data dir and
    the environment in effect (read from the command line as given, `--config` included)."""

    common: argparse.ArgumentParser
    argv: Sequence[str] = ()

    def format_help(self) -> str:
        from paperterm.tui.cli.key_table import places_text  # only for --help

        try:
            given, _ = self.common.parse_known_args(list(self.argv))
        except UsageError:
            given = argparse.Namespace()
        return super().format_help() + "\n" + places_text(given)


def common_parser() -> Parser:
    """The options every command shares (and the reader's)."""
    common = Parser(add_help=False)
    common.add_argument(
        "--data-dir",
        metavar="DIR",
        default=argparse.SUPPRESS,
        help="index, bookmarks and reading state folder (env PAPERTERM_DATA_DIR)",
    )
    common.add_argument(
        "--config",
        metavar="FILE",
        default=argparse.SUPPRESS,
        help="config file (env PAPERTERM_CONFIG)",
    )
    common.add_argument(
        "--engine",
        choices=ENGINES,
        default=argparse.SUPPRESS,
        help="search engine (env PAPERTERM_ENGINE; tantivy needs paperterm[tantivy])",
    )
    common.add_argument(
        "--source",
        metavar="PATH",
        action="append",
        default=argparse.SUPPRESS,
        help="corpus file or folder, instead of the configured ones (repeatable)",
    )
    return common


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


class VersionAction(argparse.Action):
    """`--version`: the version is looked up only when asked for (argparse's own action takes
    it as a string when the parser is made, on every start)."""

    def __init__(self, option_strings: Sequence[str], dest: str) -> None:
        super().__init__(
            option_strings,
            dest,
            nargs=0,
            default=argparse.SUPPRESS,
            help="show program's version number and exit",
        )

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> NoReturn:
        parser.exit(message=f"paperterm {_version()}\n")


def _version() -> str:
    # Deferred: importlib.metadata is slow to import, and only --version needs it.
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("paperterm")
    except PackageNotFoundError:
        return "unknown"
