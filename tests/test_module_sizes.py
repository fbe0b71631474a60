"""The code stays readable: no module of index/, tui/, benchmarks/ or tests/ over 600 lines,
no class over 400."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("index", "tui", "benchmarks", "tests")
MODULE_LINES = 600
CLASS_LINES = 400
#: Modules allowed over MODULE_LINES, relative to the repository (none).
LONG_MODULES: set[str] = set()


def _modules() -> list[Path]:
    found = sorted(path for folder in FOLDERS for path in (ROOT / folder).rglob("*.py"))
    for known in (
        "index/search/build.py",
        "tui/app.py",
        "benchmarks/report.py",
        "tests/conftest.py",
    ):
        assert ROOT / known in found
    return found


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_no_module_is_over_600_lines():
    long = {}
    for path in _modules():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MODULE_LINES and _name(path) not in LONG_MODULES:
            long[_name(path)] = lines
    assert long == {}


def test_no_class_is_over_400_lines():
    long = {}
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > CLASS_LINES:
                    long[f"{_name(path)}:{node.name}"] = lines
    assert long == {}
