"""The cyclic garbage collector, paused while the reader starts.

A start creates objects by the hundred thousand (Textual's modules, the screen's widgets,
their styles) and nearly all of them live as long as the reader does: the collector walked
them again and again before the first frame, a full collection among them, a large share
of the CPU from process start to the first frame. So it is paused from the start of the
reader (`paperterm` with no sub-command) until the first frame is drawn; then what is
alive is moved out of its sight (`gc.freeze`: the later collections, while one types, no
longer walk the start's objects either) and it runs as usual.
"""

from __future__ import annotations

import gc


class _Pause:
    paused = False


def pause() -> None:
    """Pause the collector (unless it is off already: then `resume` leaves it off)."""
    if gc.isenabled():
        gc.disable()
        _Pause.paused = True


def resume() -> None:
    """End a `pause`: freeze what is alive and turn the collector back on. Does nothing
    without a pause (the tests' apps, a second call)."""
    if _Pause.paused:
        _Pause.paused = False
        gc.freeze()
        gc.enable()
