"""What the reader's start imports (issue 14: warm start to the first frame within 1.3x a bare
Textual app). The dialogs, the key contexts, the search engine and the rest are imported
where they are used, after the first frame; importing them up front again would go unseen
by every other test, so this one checks, in a fresh interpreter."""

from __future__ import annotations

import gc
import json
import subprocess
import sys

from reader_helpers import settle

from paperterm.tui import collector

#: Modules the first frame does without (each costs the start several milliseconds).
LATER = (
    "paperterm.tui.screens.dialogs",  # every dialog, and TextArea for the note
    "paperterm.tui.contexts",  # only for checking [keys] remaps
    "paperterm.index.library.edits",
    "textual.widgets._text_area",
    "paperterm.index.search.searcher",  # the index worker imports it, after the first frame
    "whoosh.index",
    "whoosh.searching",
    "rapidfuzz",  # typo look-ups
    "bibtexparser",  # reading .bib sources: a build's
    "importlib.metadata",  # --version only
    "textual.widgets._progress_bar",  # a first launch's progress row
    "paperterm.tui.cli.doctor",
    "paperterm.tui.cli.key_table",
)

START = """
import json, sys
from paperterm.index.config import Config
from paperterm.tui.app import check_reader_config
from paperterm.tui.cli import main
from paperterm.tui.lifecycle import run_reader
check_reader_config(Config())
main.build_parser([])
print(json.dumps(sorted(sys.modules)))
"""


def test_the_reader_starts_without_what_the_first_frame_does_not_need():
    done = subprocess.run(
        [sys.executable, "-c", START], capture_output=True, text=True, check=True, timeout=60
    )
    imported = set(json.loads(done.stdout))
    assert "textual.app" in imported and "paperterm.tui.screens.main" in imported
    assert [name for name in LATER if name in imported] == []


async def test_the_first_frame_turns_the_collector_back_on_with_the_start_frozen(reader):
    """`paperterm` pauses the garbage collector for its start (tui/cli/main.py); the app
    turns it back on once its first frame is drawn, the start's objects frozen."""
    collector.pause()
    try:
        assert not gc.isenabled()
        app = reader()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert gc.isenabled() and gc.get_freeze_count() > 0
    finally:
        collector.resume()
        gc.enable()
        gc.unfreeze()
