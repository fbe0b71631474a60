"""The reader's main flow as a user drives it, shared by the local and the SSH test:
wait for the list, search "DNA", open the result, bookmark it, clear the search, quit."""

from __future__ import annotations

import re
import sys
from datetime import datetime
from pathlib import Path

from tmux_pane import (
    WAIT_SECONDS,
    Pane,
    background_at,
    press_and_wait_for_restyle,
    wait_for,
    wait_for_exit,
    wait_until,
)

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

#: The status line with every paper in view (not "1 of 38 papers").
ALL_PAPERS = re.compile(r"(?<!of )\b38 papers\b")
ONE_PAPER = "1 of 38 papers"
CADUCEUS_ROW = "Caduceus: the first family"
CADUCEUS_ABSTRACT = "Large-scale sequence modeling"
SEARCH_BAR = range(0, 1)


def list_rows(screen: str) -> range:
    """The list pane's rows: below the search bar, above the rule over the detail pane."""
    lines = screen.split("\n")
    rule = next((i for i, line in enumerate(lines) if line.startswith("────")), None)
    assert rule is not None and rule > 2, f"no list pane above a rule:\n{screen}"
    return range(1, rule)


def row_holding(pane: Pane, text: str) -> str | None:
    """The styled row whose text holds `text`, if one does."""
    return next((row for row in pane.styled_rows() if background_at(row, text) is not None), None)


def read_bookmarks(path: Path) -> dict | None:
    """The parsed bookmarks file, or None while it does not exist yet."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    return tomllib.loads(text)


def search_bookmark_quit(pane: Pane, data_dir: Path, caduceus_id: str) -> str:
    """Drive the flow and check each step; returns what the pane shows after the exit."""
    screen = wait_for(pane, ALL_PAPERS)
    # The footer teaches the list's keys on the last row, under the status line.
    rows_shown = screen.rstrip("\n").split("\n")
    assert rows_shown[-1].strip().startswith("/ search") and "? all keys" in rows_shown[-1]
    assert ALL_PAPERS.search(rows_shown[-2]), screen
    # The second row is not the cursor's: it has the list's plain background.
    second = list_rows(screen).start + 1
    title = screen.split("\n")[second].strip()[:20]
    plain = background_at(pane.styled_rows()[second], title)
    assert plain is not None, screen

    # `/` moves the focus to the search box (its colours change); wait for that before
    # typing, or the first letters could still go to the list.
    press_and_wait_for_restyle(pane, "/", SEARCH_BAR)
    pane.type("DNA")
    wait_for(pane, ONE_PAPER)
    screen = wait_for(pane, CADUCEUS_ABSTRACT)  # the detail pane shows the paper
    rows = list_rows(screen)
    lines = screen.split("\n")
    assert CADUCEUS_ROW in lines[rows.start], screen
    assert "DNA" in lines[rows.start + 1], screen  # where the query matched, under it
    assert not lines[rows.start + 2].strip(), screen  # the only row in view

    # The Caduceus row is highlighted, and Enter moves the focus to it: the highlight
    # changes to the focused one.
    searching = background_at(pane.styled_rows()[rows.start], CADUCEUS_ROW)
    assert searching not in (None, plain), screen
    pane.keys("Enter")

    def focused_highlight() -> str | None:
        row = row_holding(pane, CADUCEUS_ROW)
        background = background_at(row, CADUCEUS_ROW) if row is not None else None
        return background if background not in (None, searching) else None

    focused = wait_until(pane, focused_highlight, "the focus on the Caduceus row", WAIT_SECONDS)
    assert focused != plain, pane.screen()

    pane.keys("b")
    # The bookmark's star, then the unread mark (not read yet: only opened in the list).
    wait_for(pane, re.compile(rf"★• +{re.escape(CADUCEUS_ROW)}"))
    saved = wait_until(
        pane, lambda: read_bookmarks(data_dir / "bookmarks.toml"), "bookmarks.toml", WAIT_SECONDS
    )
    assert saved["version"] == 1
    assert [mark["id"] for mark in saved["bookmarks"]] == [caduceus_id]
    assert isinstance(saved["bookmarks"][0]["added"], datetime)

    # Escape clears the search (the focus is on the list); then q quits.
    pane.keys("Escape")
    wait_for(pane, ALL_PAPERS)
    pane.keys("q")
    status = wait_for_exit(pane)
    after = pane.everything()
    assert status == 0, f"exit status {status}; the pane shows:\n{after}"
    assert "Traceback" not in after, after
    return after
