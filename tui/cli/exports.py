"""Writing an export (`paperterm bookmarks export`, `paperterm export`): to `-o FILE` as a
shell redirect would, or to stdout made safe for a terminal."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from paperterm.index.text.display import safe_text
from paperterm.index.user_files import resolve_target, user_mode, write_user_file
from paperterm.tui.cli.context import CommandFailed, Context, UsageError

if TYPE_CHECKING:
    import argparse

#: The names of `EXPORTERS` (index/library/export.py), written out: the parser is built on
#: every start, the reader's too, and importing the exporters and what they import (HTML
#: entities, csv, the BibTeX and RIS writers) would slow it. A test checks that the two
#: agree.
FORMATS = ("bibtex", "csv", "json", "markdown", "ris")


def add_export_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=FORMATS, required=True)
    parser.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")


def emit_export(ctx: Context, text: str, written: str) -> None:
    """`text` to `-o FILE` (then `written`, e.g. "3 bookmarks", is said to be there) or to
    stdout. JSON goes to stdout as `--json` output does."""
    if ctx.args.output:
        target = Path(ctx.args.output).expanduser()
        write_export(target, text)
        if resolve_target(str(target))[1] != 1:  # -o /dev/stdout: nothing after the export
            ctx.line(f"{written} written to {target}")
    elif ctx.args.format == "json":
        ctx.out.write(ctx.json_text(text).rstrip("\n") + "\n")
    else:
        # Notes and titles are anyone's text: on stdout (a terminal, often) nothing in them
        # may act as a control sequence. A file (-o) gets the export as it is.
        text = safe_text(text)
        ctx.out.write(text if text.endswith("\n") else text + "\n")


def write_export(target: Path, text: str) -> None:
    """Write an export where the user said, as a shell redirect would (index/user_files.py):
    through a symlink, into a FIFO or device, replacing only a regular file, in a new
    file with the user's umask. A path that cannot be (a missing folder) is bad input (2),
    a failing write (a full disk, /dev/full) a failure (1)."""
    try:
        write_user_file(target, text.encode("utf-8"), new_mode=user_mode())
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError) as error:
        where = error.filename or target
        raise UsageError(f"{where}: cannot write the export: {error.strerror}") from None
    except OSError as error:
        why = error.strerror or str(error)
        raise CommandFailed(f"{target}: cannot write the export: {why}") from None
