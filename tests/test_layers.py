"""The core never imports Textual: the CLI stays fast and the TUI stays a thin face."""

import pkgutil
import subprocess
import sys

import paperterm.index


def test_core_and_cli_do_not_import_textual():
    modules = [f"paperterm.index.{m.name}" for m in pkgutil.iter_modules(paperterm.index.__path__)]
    assert "paperterm.index.search" in modules and "paperterm.index.bookmarks" in modules
    code = (
        "import importlib, sys\n"
        f"for name in {[*modules, 'paperterm.tui.cli']!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "print(','.join(bad))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == ""
