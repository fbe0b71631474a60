"""The installed package holds every module and style sheet of the tree: `pip install .`
(the README's run command) installs only the packages pyproject.toml lists."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile

import pytest
from locations import ROOT

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

MAPPED = {"paperterm.index": "index", "paperterm.tui": "tui", "paperterm.seeds": "seeds"}


def _package_of(folder: str) -> str:
    top, _, rest = folder.partition("/")
    base = next(name for name, path in MAPPED.items() if path == top)
    return base + ("." + rest.replace("/", ".") if rest else "")


def test_every_package_folder_is_listed():
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    folders = {
        str(init.parent.relative_to(ROOT))
        for top in MAPPED.values()
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert (
        sorted(_package_of(folder) for folder in folders if _package_of(folder) not in listed) == []
    )


@pytest.mark.slow
def test_the_wheel_holds_every_module_and_style_sheet(tmp_path):
    source = tmp_path / "source"  # a copy: setuptools reuses what an earlier build left in build/
    shutil.copytree(
        ROOT, source, ignore=shutil.ignore_patterns(".*", "build", "__pycache__", "*.egg-info")
    )
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(tmp_path)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    if done.returncode != 0:
        pytest.skip(f"no wheel could be built here: {done.stderr.strip()[-200:]}")
    (wheel,) = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    wanted = {
        f"paperterm/{top}/{path.relative_to(ROOT / top)}"
        for top in MAPPED.values()
        for pattern in ("*.py", "*.tcss", "*.txt")
        for path in (ROOT / top).rglob(pattern)
        if "__pycache__" not in path.parts
    }
    assert sorted(wanted - names) == []
