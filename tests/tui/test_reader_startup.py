"""What the reader's start imports (issue 14: warm start to the first frame within 1.3x a bare
Textual app). The dialogs, the key contexts, the search engine and the rest are imported
where they are used, after the first frame; importing them up front again would go unseen
by every other test, so this one checks, in a fresh interpreter."""

from __future__ import annotations

import gc
import json
import subprocess
import sys

import pytest
from reader_helpers import settle

from paperterm.index.config import Config
from paperterm.index.search.open_index import OpenIndex
from paperterm.index.session import Session, SessionError
from paperterm.tui import collector
from paperterm.tui.app import ReaderApp
from paperterm.tui.screens.main import MainScreen

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
    "whoosh",  # none of it: the Porter stemmer too is imported on the first stem
    "tantivy",
    "paperterm.index.search.vocabulary",
    "paperterm.index.search.correction",
    "paperterm.index.library.export",  # the parser's --format names are written out
    "paperterm.index.text.field_text",  # ... and the exporters' HTML clean-up with them
    "paperterm.tui.screens.read",  # reading a paper full screen
    "paperterm.tui.screens.triage",  # triage
    "paperterm.index.library.decisions",  # the triage decisions: read with the library
    "paperterm.tui.widgets.views",  # the views sidebar (mounted when first shown)
    "paperterm.index.library.affinity",  # "like my bookmarks"
    "importlib.resources",  # the bundled seeds are found from the package's path
    "tomllib",  # no TOML file is read before the first frame (without a config file)
    "paperterm.tui.clipboard",  # the routes to the clipboard, found on the first copy
    "paperterm.index.library.pending",  # changes kept pending: none before it
    "paperterm.index.problems",  # a source's problems: made by a build, or a missing source
    "hashlib",  # its OpenSSL load (~2 ms): the index's keys use `_blake2` (hashlib's blake2b)
    "paperterm.index.search.hits",  # a search's results (the first frame shows none)
    "paperterm.index.search.listener",  # a build's progress (a built index builds nothing)
    "paperterm.index.search.query",  # the parser: the start's search box is blank, not parsed
    "tomli_w",  # the library's files are written on a save (the start saves nothing)
    "argparse",  # the reader's options are read without it (tui/cli/main.py)
    "paperterm.tui.cli.parser",  # ... and without the commands' parser
    "paperterm.tui.cli.bookmarks",  # ... nor the commands' modules
    "paperterm.tui.cli.reading",
    "paperterm.tui.cli.exports",
)

#: The dataclasses defined before the first frame: each costs the start ~0.3-0.5 ms to define
#: (more when frozen), where a named tuple costs ~0.1 ms. A new one at the start should be a
#: named tuple, a plain class, or defined in a module imported later.
START_DATACLASSES = {
    "paperterm.index.config.Config",
    "paperterm.index.library.bookmarks.Bookmark",  # `extra` is left out of its hash
    # The changes to the library, with their stores: modules of their own saved less than
    # the 10 ms at 50,000 papers a start-up mechanism has to save (BENCHMARKS.md).
    "paperterm.index.library.bookmarks.Add",
    "paperterm.index.library.bookmarks.ChangeTags",
    "paperterm.index.library.bookmarks.EditNote",
    "paperterm.index.library.bookmarks.Remove",
    "paperterm.index.library.bookmarks.SetNote",
    "paperterm.index.library.reading.MarkRead",
    "paperterm.index.library.reading.MarkUnread",
    "paperterm.index.library.searches.DeleteSearch",
    "paperterm.index.library.searches.SaveSearch",
    "paperterm.index.library.op_store.Document",  # generic (a named tuple is not on 3.10)
    "paperterm.index.library.op_store.Restore",  # generic too
    "paperterm.index.papers.Paper",
    "paperterm.index.search.generation_meta.Fingerprint",
    "paperterm.index.search.generation_meta.Meta",
    "paperterm.index.search.generation_meta.Part",
    "paperterm.index.search.generation_meta.SourceEntry",
    "paperterm.index.search.generation_meta.SourceFile",
    "paperterm.index.session.Session",
}

START = """
import json, sys
from paperterm.index.config import Config
from paperterm.tui.app import check_reader_config
from paperterm.tui.cli import main
from paperterm.tui.lifecycle import run_reader
check_reader_config(Config())
main.parse_arguments([])
from paperterm.index.sources.files import bundled_seeds, discover
for spec in bundled_seeds():  # the start walks its sources (have they changed?)
    discover(spec)
import dataclasses
defined = sorted(
    f"{name}.{value.__name__}"
    for name, module in list(sys.modules.items())
    if name.startswith("paperterm.")
    for value in list(vars(module).values())
    if isinstance(value, type) and value.__module__ == name and dataclasses.is_dataclass(value)
)
print(json.dumps({"modules": sorted(sys.modules), "dataclasses": defined}))
"""


def test_the_reader_starts_without_what_the_first_frame_does_not_need():
    done = subprocess.run(
        [sys.executable, "-c", START], capture_output=True, text=True, check=True, timeout=60
    )
    started = json.loads(done.stdout)
    imported = set(started["modules"])
    assert "textual.app" in imported and "paperterm.tui.screens.main" in imported
    assert [name for name in LATER if name in imported] == []
    assert sorted(set(started["dataclasses"]) - START_DATACLASSES) == []


TANTIVY_SESSION = """
import json, sys
from pathlib import Path
from paperterm.index.config import Config
from paperterm.index.config import Config
from paperterm.index.session import Session, SessionError
session = Session.create(Path(sys.argv[1]), [], Config(engine="tantivy"))
assert session.open_papers() is None  # no index yet: its store looked for one
print(json.dumps(sorted(sys.modules)))
"""


def test_a_tantivy_session_starts_without_loading_tantivy(tmp_path):
    """`engine = "tantivy"` is checked as the session is made (is it installed?), and the
    store looks for its index, without importing it: its native module and the engine's
    module load with the engine's index, after the first frame."""
    pytest.importorskip("tantivy")
    done = subprocess.run(
        [sys.executable, "-c", TANTIVY_SESSION, str(tmp_path / "data")],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    imported = set(json.loads(done.stdout))
    assert "paperterm.index.session" in imported
    assert {"tantivy", "paperterm.index.search.tantivy.index"} & imported == set()


def test_a_tantivy_session_without_tantivy_says_how_to_get_it(tmp_path, monkeypatch):
    import importlib.util

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "tantivy" else find_spec(name, *a),
    )
    monkeypatch.setitem(sys.modules, "tantivy", None)  # `import tantivy` fails
    with pytest.raises(SessionError, match=r"needs the tantivy package: pip install"):
        Session.create(tmp_path / "data", [], Config(engine="tantivy"))


async def test_the_index_is_opened_after_the_first_frame(reader, monkeypatch):
    """The first frame shows the rows read from the built index's row store; the engine
    (Whoosh, or tantivy: ~170 ms to open at 500,000 papers) is opened by a worker after
    it."""
    events: list[str] = []
    first_frame = ReaderApp.on_main_screen_ready

    def on_first_frame(app: ReaderApp, message: MainScreen.Ready) -> None:
        events.append("first frame")
        first_frame(app, message)

    monkeypatch.setattr(ReaderApp, "on_main_screen_ready", on_first_frame)
    built = reader()
    async with built.run_test(size=(80, 24)) as pilot:  # the seeds, indexed
        await settle(pilot)
    open_existing = Session.open_existing

    def opened(session: Session, *args: object, **kwargs: object) -> OpenIndex | None:
        events.append("index opened")
        return open_existing(session, *args, **kwargs)

    monkeypatch.setattr(Session, "open_existing", opened)
    events.clear()
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.state.searcher is not None
    assert events == ["first frame", "index opened"]


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
