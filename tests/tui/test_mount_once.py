"""`mount_once`: a widget mounted on its first use, and nothing made or kept while its parent
is not attached (the app ending): commit c33add3's bug was a widget made then and kept, so
that every later call had the detached one."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.containers import Container, Horizontal
from textual.widgets import Static

from paperterm.tui.widgets.mount_once import mount_once


class Host(App[None]):
    def compose(self) -> ComposeResult:
        yield Container(Static("first", id="first"), id="box")


class Maker:
    """Makes the widget to mount, and remembers each it made."""

    def __init__(self) -> None:
        self.made: list[Static] = []

    def __call__(self) -> Static:
        self.made.append(Static("late", id="late"))
        return self.made[-1]


async def test_made_and_mounted_the_first_time_then_kept():
    app = Host()
    async with app.run_test() as pilot:
        make = Maker()
        line = mount_once(app.query_one("#box"), None, make, before="#first")
        await pilot.pause()
        assert line is make.made[0] and line.is_attached
        assert [child.id for child in app.query_one("#box").children] == ["late", "first"]
        assert mount_once(app.query_one("#box"), line, make) is line and len(make.made) == 1


async def test_a_holder_is_mounted_around_the_widget():
    app = Host()
    async with app.run_test() as pilot:
        box = app.query_one("#box")
        bar = mount_once(
            box, None, lambda: Static(id="bar"), holder=lambda w: Horizontal(w, id="row")
        )
        await pilot.pause()
        assert bar is not None and bar.parent is app.query_one("#row")


async def test_while_the_parent_is_detached_nothing_is_made_or_kept():
    app = Host()
    async with app.run_test() as pilot:
        make = Maker()
        waiting = Container(id="later")  # not mounted yet: as a screen that has left
        assert mount_once(waiting, None, make) is None
        assert mount_once(waiting, None, make) is None  # asked again: still nothing kept
        assert make.made == []
        box = app.query_one("#box")
        await box.remove()
        await pilot.pause()
        assert not box.is_attached
        assert mount_once(box, None, make) is None and make.made == []
        # A parent attached later gets a widget of its own, mounted.
        await app.screen.mount(waiting)
        line = mount_once(waiting, None, make)
        await pilot.pause()
        assert line is make.made[0] and line.is_attached and line.parent is waiting
