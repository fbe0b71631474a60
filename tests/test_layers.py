"""The core never imports Textual: the CLI stays fast and the TUI stays a thin face."""

import pkgutil
import subprocess
import sys

import paperterm.index
import paperterm.tui.cli


def _core_modules() -> list[str]:
    return [
        module.name
        for module in pkgutil.walk_packages(paperterm.index.__path__, "paperterm.index.")
    ]


def test_core_and_cli_do_not_import_textual():
    modules = _core_modules()
    assert "paperterm.index.search.searcher" in modules
    assert "paperterm.index.library.bookmarks" in modules
    cli = [
        m.name
        for m in pkgutil.walk_packages(paperterm.tui.cli.__path__, "paperterm.tui.cli.")
        if not m.name.endswith(".__main__")  # `python -m paperterm.tui.cli`: runs the command
    ]
    assert "paperterm.tui.cli.main" in cli
    code = (
        "import importlib, sys\n"
        f"for name in {[*modules, *cli]!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "print(','.join(bad))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""


def _imported_after(statement: str, prefixes: tuple[str, ...]) -> list[str]:
    """The modules starting with one of `prefixes` that `statement` imports, in a fresh
    interpreter."""
    code = (
        f"import sys\n{statement}\n"
        f"print(','.join(sorted(m for m in sys.modules if m.startswith({prefixes!r}))))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return [name for name in done.stdout.strip().split(",") if name]


def test_the_reader_draws_its_first_frame_before_whoosh_searches():
    """The searcher (with Whoosh, ~90 ms to import here) loads in the index
    worker, after the list is on screen: the reader's modules must not import it."""
    heavy = ("paperterm.index.search.searcher", "whoosh.index", "whoosh.searching")
    assert _imported_after("import paperterm.tui.app", heavy) == []


def test_the_reader_state_and_view_rules_need_no_textual():
    statement = "import paperterm.tui.state, paperterm.tui.view, paperterm.tui.status"
    imported = _imported_after(statement, ("textual",))
    assert imported == []


def test_the_reader_controllers_need_no_textual():
    """The screens wire the controllers to widgets; the controllers import no Textual, so
    their rules are tested without a terminal."""
    import paperterm.tui.controllers

    names = [
        module.name
        for module in pkgutil.walk_packages(
            paperterm.tui.controllers.__path__, "paperterm.tui.controllers."
        )
    ]
    assert {"paperterm.tui.controllers.search", "paperterm.tui.controllers.library"} <= set(names)
    imported = _imported_after(f"import {', '.join(names)}", ("textual",))
    assert imported == []
