"""Every worker of the reader names itself: without a `description`, Textual's `@work`
writes one from the `repr` of every argument, on the screen's thread, each time the worker
starts (a 50,000-row list or a reading state's every entry, on every keystroke)."""

from __future__ import annotations

import ast
from pathlib import Path

import paperterm.tui

TUI = Path(paperterm.tui.__file__).parent


def _work_decorators() -> list[tuple[str, ast.Call]]:
    found = []
    for path in sorted(TUI.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for decorator in node.decorator_list:
                    call = decorator if isinstance(decorator, ast.Call) else None
                    if call is not None and getattr(call.func, "id", None) == "work":
                        found.append((f"{path.relative_to(TUI)}:{node.name}", call))
    return found


def test_every_worker_has_a_description():
    decorators = _work_decorators()
    assert len(decorators) >= 10  # the reader's workers were found
    unnamed = [
        where
        for where, call in decorators
        if "description" not in {keyword.arg for keyword in call.keywords}
    ]
    assert unnamed == []
