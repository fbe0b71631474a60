"""A snapshot of the agenda at 120x40 (update with `pytest --snapshot-update`): two
overlapping sessions in different rooms (a clash), a session without an end, a paper
without a session, the maybe paper shown."""

from __future__ import annotations

from reader_helpers import settle
from test_reader_agenda import agenda_reader


def test_agenda(snap_compare, tmp_path):
    async def run_before(pilot) -> None:
        await settle(pilot)
        await pilot.press("A")
        await settle(pilot)
        await pilot.press("M", "j")
        await settle(pilot)

    app = agenda_reader(tmp_path / "data")
    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)
