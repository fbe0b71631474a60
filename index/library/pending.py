"""Changes that could not be saved, as `paperterm bookmarks ...` / `paperterm read ...` /
`paperterm decide ...` / `paperterm searches ...` / `paperterm watch ...` commands.

When the reader ends with changes it could not save (a full disk, a read-only folder), it
prints these once it has left the screen, so the user can run them when the problem is
fixed. Each command has its operation's effect on the file as it will be then, and is as
idempotent as the operation. Arguments are quoted for a POSIX shell; text with characters
a terminal would act on (escape sequences, bidi controls) uses bash/zsh `$'...'` quoting,
so printing the commands can never drive the terminal.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Sequence
from datetime import datetime

from paperterm.index.library.bookmarks import Add, Bookmark, ChangeTags, EditNote, Remove, SetNote
from paperterm.index.library.decisions import ClearDecision, SetDecision
from paperterm.index.library.op_store import Operation, Restore
from paperterm.index.library.reading import MarkRead, MarkUnread
from paperterm.index.library.searches import DeleteSearch, SavedSearch, SaveSearch
from paperterm.index.library.watches import AddWatch, RemoveWatch, Watch


def replay_commands(ops: Iterable[Operation[Bookmark]], options: Sequence[str] = ()) -> list[str]:
    """One shell command line per bookmark change; `options` are the global options that
    point the command at the same data dir and sources (e.g. `--data-dir DIR`)."""
    base = ["paperterm", *options, "bookmarks"]
    lines: list[list[str]] = []
    for op in ops:
        if isinstance(op, Restore):  # an undo: the bookmark exactly as it was, or none
            for paper_id, mark in op.entries:
                lines.append([*base, "remove", "--", paper_id])
                if isinstance(mark, Bookmark):
                    lines.append([*base, "add", "--", paper_id])
                    if mark.tags:
                        lines.append([*base, "tag", "--", paper_id, *mark.tags])
                    if mark.note:
                        lines.append([*base, "note", "--", paper_id, mark.note])
        if isinstance(op, Add):
            lines.append([*base, "add", "--", op.id])
        elif isinstance(op, Remove):
            lines.append([*base, "remove", "--", op.id])
        elif isinstance(op, ChangeTags):
            if op.add:
                lines.append([*base, "tag", "--", op.id, *op.add])
            if op.remove:
                lines.append([*base, "tag", "--remove", "--", op.id, *op.remove])
        elif isinstance(op, SetNote):
            lines.append([*base, "note", "--", op.id, op.note])
        elif isinstance(op, EditNote):
            if op.note:  # it adds a bookmark removed meanwhile: so does `add` (idempotent)
                lines.append([*base, "add", "--", op.id])
            lines.append([*base, "note", "--", op.id, op.note])
    return _unique_lines(lines)


def reading_commands(ops: Iterable[Operation[datetime]], options: Sequence[str] = ()) -> list[str]:
    """`paperterm read ID...` / `paperterm unread ID...` lines with the changes' effect (a
    paper read again gets the time of the command: the reading state keeps no more)."""
    base = ["paperterm", *options]
    lines: list[list[str]] = []
    for op in ops:
        if isinstance(op, MarkRead):
            read, unread = list(op.ids), []
        elif isinstance(op, MarkUnread):
            read, unread = [], list(op.ids)
        elif isinstance(op, Restore):
            read = [paper_id for paper_id, when in op.entries if when is not None]
            unread = [paper_id for paper_id, when in op.entries if when is None]
        else:
            raise TypeError(f"no command for {op!r}")
        if read:
            lines.append([*base, "read", "--", *read])
        if unread:
            lines.append([*base, "unread", "--", *unread])
    return _unique_lines(lines)


def decision_commands(ops: Iterable[Operation[str]], options: Sequence[str] = ()) -> list[str]:
    """`paperterm decide keep|maybe|skip|clear -- ID...` lines with the changes' effect
    (the read mark a decision brings is the reading state's own change)."""
    base = ["paperterm", *options, "decide"]
    lines: list[list[str]] = []
    for op in ops:
        if isinstance(op, SetDecision):
            lines.append([*base, op.decision, "--", *op.ids])
        elif isinstance(op, ClearDecision):
            lines.append([*base, "clear", "--", *op.ids])
        elif isinstance(op, Restore):
            for paper_id, decision in op.entries:
                lines.append([*base, decision or "clear", "--", paper_id])
        else:
            raise TypeError(f"no command for {op!r}")
    return _unique_lines(lines)


def search_commands(
    ops: Iterable[Operation[SavedSearch]], options: Sequence[str] = ()
) -> list[str]:
    """`paperterm searches save -- NAME QUERY` / `... delete -- NAME` lines with the
    changes' effect (a search saved again gets the time of the command)."""
    base = ["paperterm", *options, "searches"]
    lines: list[list[str]] = []
    for op in ops:
        if isinstance(op, SaveSearch):
            lines.append([*base, "save", "--", op.name, op.query])
        elif isinstance(op, DeleteSearch):
            lines.append([*base, "delete", "--", op.name])
        else:
            raise TypeError(f"no command for {op!r}")
    return _unique_lines(lines)


def watch_commands(ops: Iterable[Operation[Watch]], options: Sequence[str] = ()) -> list[str]:
    """`paperterm watch add|remove -- KIND VALUE` lines with the changes' effect."""
    base = ["paperterm", *options, "watch"]
    lines: list[list[str]] = []
    for op in ops:
        if isinstance(op, AddWatch):
            lines.append([*base, "add", "--", op.kind, op.value])
        elif isinstance(op, RemoveWatch):
            lines.append([*base, "remove", "--", op.kind, op.value])
        else:
            raise TypeError(f"no command for {op!r}")
    return _unique_lines(lines)


def _unique_lines(lines: list[list[str]]) -> list[str]:
    commands: list[str] = []
    for line in lines:
        command = " ".join(map(shell_quote, line))
        if not commands or commands[-1] != command:  # `b` pressed twice: one `add`
            commands.append(command)
    return commands


def shell_quote(text: str) -> str:
    """`text` as one shell word that prints safely on a terminal."""
    if all(ch.isprintable() or ch == "\n" for ch in text):
        return shlex.quote(text)
    return "$'" + "".join(_escape(ch) for ch in text) + "'"


def _escape(ch: str) -> str:
    if ch in "\\'":
        return "\\" + ch
    if ch == "\n":
        return "\\n"
    if ch.isprintable():
        return ch
    code = ord(ch)
    if code < 0x80:
        return f"\\x{code:02x}"  # above, \xHH is a raw byte: \u writes the character
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
