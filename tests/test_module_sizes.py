"""The core stays readable: no module of index/ over 600 lines, no class over 400."""

import ast
from pathlib import Path

import paperterm.index

INDEX = Path(paperterm.index.__file__).parent
MODULE_LINES = 600
CLASS_LINES = 400


def _modules() -> list[Path]:
    found = sorted(INDEX.rglob("*.py"))
    assert INDEX / "search" / "build.py" in found
    return found


def test_no_core_module_is_over_600_lines():
    long = {}
    for path in _modules():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MODULE_LINES:
            long[str(path.relative_to(INDEX))] = lines
    assert long == {}


def test_no_core_class_is_over_400_lines():
    long = {}
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > CLASS_LINES:
                    long[f"{path.relative_to(INDEX)}:{node.name}"] = lines
    assert long == {}
