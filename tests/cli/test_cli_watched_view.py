"""`--view watched`, the reader's "Watched" view, lists what `--watched` lists; the
commands printed for watch changes a reader could not save run as printed."""

from __future__ import annotations

import json
import shlex
from datetime import datetime, timezone

from locations import FIXTURES

from paperterm.index.library.pending import watch_commands
from paperterm.index.library.watches import AddWatch, RemoveWatch

WATCH = str(FIXTURES / "watch.json")


def test_view_watched_is_the_watched_papers(run):
    assert run("watch", "add", "author", "Ada Lovelace")[0] == 0
    by_view = run("list", "--view", "watched", "--json", "--source", WATCH)
    by_flag = run("list", "--watched", "--json", "--source", WATCH)
    assert by_view[0] == by_flag[0] == 0
    assert [r["id"] for r in json.loads(by_view[1])] == ["w-1", "w-3"]
    assert json.loads(by_view[1]) == json.loads(by_flag[1])


def test_the_commands_for_unsaved_watches_run(run):
    added = datetime(2025, 1, 1, tzinfo=timezone.utc)
    ops = [AddWatch("author", "Jürgen Müller", added), AddWatch("word", "graph diffusion", added)]
    ops.append(RemoveWatch("author", "Jürgen Müller"))
    commands = watch_commands(ops, ["--data-dir", "DATA"])
    assert commands[0] == "paperterm --data-dir DATA watch add -- author 'Jürgen Müller'"
    for command in commands:
        args = shlex.split(command)[3:]  # what follows `paperterm --data-dir DATA`
        assert run(*args)[0] == 0
    assert run("watch", "list")[1] == "word:graph diffusion\n"
