"""Changes that could not be saved, printed as commands: right, quoted, inert on a terminal."""

from __future__ import annotations

import shlex
import subprocess
from datetime import datetime, timezone

from hypothesis import given
from hypothesis import strategies as st

from paperterm.index.library.bookmarks import Add, ChangeTags, EditNote, Remove, SetNote
from paperterm.index.library.pending import replay_commands, shell_quote

WHEN = datetime(2024, 5, 1, tzinfo=timezone.utc)
OPTIONS = ["--data-dir", "/home/me/my data"]


def test_each_operation_becomes_the_command_with_its_effect() -> None:
    ops = [
        Add("aaa", "A", WHEN),
        ChangeTags("aaa", add=("to-read", "-odd"), remove=("old",)),
        SetNote("aaa", "line one\nline 'two'"),
        Remove("bbb"),
        EditNote("ccc", "was", "now", "C", WHEN),
    ]
    assert replay_commands(ops, OPTIONS) == [
        "paperterm --data-dir '/home/me/my data' bookmarks add -- aaa",
        "paperterm --data-dir '/home/me/my data' bookmarks tag -- aaa to-read -odd",
        "paperterm --data-dir '/home/me/my data' bookmarks tag --remove -- aaa old",
        "paperterm --data-dir '/home/me/my data' bookmarks note -- aaa "
        "'line one\nline '\"'\"'two'\"'\"''",
        "paperterm --data-dir '/home/me/my data' bookmarks remove -- bbb",
        "paperterm --data-dir '/home/me/my data' bookmarks add -- ccc",
        "paperterm --data-dir '/home/me/my data' bookmarks note -- ccc now",
    ]


def test_a_key_pressed_twice_is_one_command_but_order_is_kept() -> None:
    ops = [Add("a", "", WHEN), Add("a", "", WHEN), Remove("a"), Add("a", "", WHEN)]
    assert [line.split()[-1] for line in replay_commands(ops)] == ["a", "a", "a"]
    assert [line.split()[2] for line in replay_commands(ops)] == ["add", "remove", "add"]


def test_text_a_terminal_would_act_on_is_escaped() -> None:
    quoted = shell_quote("see \x1b]2;owned\x07 \u202eflip\u202c \x9b done")
    assert quoted == "$'see \\x1b]2;owned\\x07 \\u202eflip\\u202c \\u009b done'"
    assert quoted.isprintable()


@given(st.text(max_size=40))
def test_quoting_round_trips_through_a_shell(text: str) -> None:
    text = text.replace("\x00", "")  # no shell argument can hold a NUL
    quoted = shell_quote(text)
    assert all(ch.isprintable() or ch == "\n" for ch in quoted)
    if quoted.startswith("$'"):
        words = subprocess.run(
            ["bash", "-c", f"printf '%s' {quoted}"],
            capture_output=True,
            check=True,
            env={"LC_ALL": "C.UTF-8"},
        ).stdout
        assert words == text.encode("utf-8", "surrogateescape")
    else:
        assert shlex.split(quoted) == [text]


def test_reading_changes_and_undo_steps_become_commands() -> None:
    from paperterm.index.library.bookmarks import Bookmark
    from paperterm.index.library.op_store import Restore
    from paperterm.index.library.pending import reading_commands
    from paperterm.index.library.reading import MarkRead, MarkUnread

    ops = [
        MarkRead(("a", "b"), WHEN),
        MarkUnread(("c",)),
        Restore((("a", None), ("c", WHEN))),
    ]
    base = "paperterm --data-dir '/home/me/my data'"
    assert reading_commands(ops, OPTIONS) == [
        f"{base} read -- a b",
        f"{base} unread -- c",
        f"{base} read -- c",
        f"{base} unread -- a",
    ]
    mark = Bookmark("m", WHEN, "M", ("x", "y"), "a note")
    assert replay_commands([Restore((("m", mark), ("n", None)))], OPTIONS) == [
        f"{base} bookmarks remove -- m",
        f"{base} bookmarks add -- m",
        f"{base} bookmarks tag -- m x y",
        f"{base} bookmarks note -- m 'a note'",
        f"{base} bookmarks remove -- n",
    ]


def test_decisions_and_their_undo_become_commands() -> None:
    from paperterm.index.library.decisions import ClearDecision, SetDecision
    from paperterm.index.library.op_store import Restore
    from paperterm.index.library.pending import decision_commands

    ops = [
        SetDecision(("a", "b"), "keep"),
        ClearDecision(("c",)),
        Restore((("a", None), ("c", "maybe"))),
    ]
    base = "paperterm --data-dir '/home/me/my data' decide"
    assert decision_commands(ops, OPTIONS) == [
        f"{base} keep -- a b",
        f"{base} clear -- c",
        f"{base} clear -- a",
        f"{base} maybe -- c",
    ]
