"""Issue 10: the reader's exports follow the same rules as the CLI's (index/user_files.py),
and never make the reader wait on a pipe that nobody reads."""

from __future__ import annotations

import os
import stat

from reader_helpers import settle


async def export(reader, kind: str, *, bookmark: bool = True) -> list[str]:
    """Bookmark the first paper, export as `kind` from the reader; what it said."""
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        if bookmark:
            await pilot.press("b")
        app.export_bookmarks(kind)
        await pilot.pause()
        return [notification.message for notification in app._notifications]


async def test_export_through_a_symlink_keeps_the_link(reader, data_dir, tmp_path):
    real = tmp_path / "notes.md"
    real.write_text("old\n", encoding="utf-8")
    data_dir.mkdir(exist_ok=True)
    link = data_dir / "bookmarks-export.md"
    link.symlink_to(real)
    await export(reader, "markdown")
    assert link.is_symlink()
    assert real.read_text(encoding="utf-8").startswith("# Bookmarks")


async def test_export_to_a_pipe_nobody_reads_is_an_error_not_a_hang(reader, data_dir):
    data_dir.mkdir(exist_ok=True)
    fifo = data_dir / "bookmarks-export.json"
    os.mkfifo(fifo)
    messages = await export(reader, "json")  # the old reader blocked here for ever
    assert any("no program is reading" in message for message in messages), messages
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


async def test_a_new_export_gets_the_users_umask(reader, data_dir):
    old = os.umask(0o022)
    try:
        await export(reader, "bibtex", bookmark=False)
    finally:
        os.umask(old)
    assert stat.S_IMODE((data_dir / "bookmarks-export.bib").stat().st_mode) == 0o644
