"""Widgets mounted the first time they are needed (the views sidebar, the progress row, the
search note and warnings line, the related list, the "window too small" notice): the first
frame does without them.

A late message can ask for one while the app ends (a SIGTERM under load), when the parent
has left the DOM: then nothing is made or mounted (mounting there raised MountError), and
nothing is kept: a widget made then and kept stayed unmounted, and every later call had the
detached one (commit c33add3).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from textual.widget import Widget

W = TypeVar("W", bound=Widget)


def mount_once(
    parent: Widget,
    kept: W | None,
    make: Callable[[], W],
    *,
    holder: Callable[[W], Widget] | None = None,
    before: str | None = None,
    after: str | None = None,
) -> W | None:
    """`kept` (the widget made before) if there is one; else, while `parent` is attached, a
    widget from `make`, mounted under `parent` (at `before` or `after`; inside `holder(widget)`
    when a container around it is what is mounted), for the caller to keep. None while
    `parent` is not attached: keep nothing, and ask again next time."""
    if kept is not None:
        return kept
    if not parent.is_attached:
        return None
    widget = make()
    parent.mount(widget if holder is None else holder(widget), before=before, after=after)
    return widget
