"""The `paperterm` command: `run` is its entry point; main.py has its parser and commands."""

from __future__ import annotations


def run() -> int:
    """`paperterm`, as installed. The cyclic garbage collector is paused before the
    command's modules are imported: it ran again and again during that import, over
    objects that nearly all live on, slowing the reader's start. A sub-command turns it
    back on as it starts (`main`), the reader at its first frame (tui/collector.py)."""
    from paperterm.tui import collector

    collector.pause()
    from paperterm.tui.cli.main import main

    return main()
