"""config.example.toml, the README and docs/ say only what is true: every key, binding id, option,
command, environment variable and default path they mention is checked against the code."""

from __future__ import annotations

import os
import re
import sys

import pytest
from locations import ROOT

from paperterm.index.config import SCHEMA, default_config_path, default_data_dir, parse_config
from paperterm.tui import keys
from paperterm.tui.app import check_reader_config
from paperterm.tui.cli.key_table import key_name, key_rows, markdown_table
from paperterm.tui.cli.main import build_parser

EXAMPLE = ROOT / "config.example.toml"
README = (ROOT / "README.md").read_text(encoding="utf-8")
#: The README and every page of docs/, as one text.
DOCS = "\n".join(
    [README] + [path.read_text(encoding="utf-8") for path in sorted((ROOT / "docs").glob("*.md"))]
)
KEYS_DOC = (ROOT / "docs" / "keys.md").read_text(encoding="utf-8")
#: A commented-out setting or table header in the example: `# limit = 200`, `# [[sources]]`.
_COMMENTED = re.compile(r"^# (\[\[?[\w.]+\]\]?|[\w\"]+ = .+)$")


def example_with_everything() -> str:
    """The example with every commented-out setting put in."""
    lines = EXAMPLE.read_text(encoding="utf-8").split("\n")
    return "\n".join(line[2:] if _COMMENTED.match(line) else line for line in lines)


def test_the_example_with_every_setting_uncommented_is_a_valid_config():
    config = parse_config(example_with_everything(), EXAMPLE)
    check_reader_config(config)  # the [keys] ids, the key names, no clash, the theme
    assert config.keys  # the example shows remaps


def test_the_example_documents_every_key_the_config_takes():
    text = example_with_everything()
    for table, schema in SCHEMA.items():
        if table:
            assert re.search(rf"^\[\[?{table}\]\]?$", text, re.M), table
        for key, kind in schema.items():
            if kind in (list, dict) and not table:
                continue  # a table of its own, checked above
            assert re.search(rf"^{key} = ", text, re.M), f"{table}.{key}"


def test_the_keys_page_is_the_key_table():
    rows = re.findall(r"^\| ([^|]+) \| ([^|]+) \| `(\w+)` \| ([^|]+) \|$", KEYS_DOC, re.M)
    assert [binding_id for _, _, binding_id, _ in rows] == [spec.id for spec in keys.SPECS]
    for (where, shown, _, what), spec in zip(rows, keys.SPECS, strict=True):
        assert where == keys.SCOPES[spec.scope]
        assert shown == ", ".join(f"`{key_name(k)}`" for k in keys.split_keys(spec.keys))
        assert what == spec.description


def test_the_keys_page_holds_what_paperterm_keys_markdown_prints():
    table = "\n".join(markdown_table(key_rows({})))
    assert table in KEYS_DOC, (
        "regenerate: paperterm --config EMPTY.toml keys --markdown (an empty config file)"
    )


def test_every_binding_id_and_config_key_the_docs_name_exists():
    for text in (DOCS, EXAMPLE.read_text(encoding="utf-8")):
        for binding_id in re.findall(r"keys\.(\w+):", text):
            assert binding_id in keys.BY_ID, binding_id
        for dotted in re.findall(r"`(search|ui)\.(\w+)`", text):
            assert dotted[1] in SCHEMA[dotted[0]], dotted


def _options_and_commands() -> tuple[set[str], set[str]]:
    parser = build_parser()
    options: set[str] = set()
    commands: set[str] = set()
    stack = [parser]
    while stack:
        current = stack.pop()
        for action in current._actions:
            options.update(action.option_strings)
            choices = getattr(action, "choices", None)
            for name, sub in choices.items() if isinstance(choices, dict) else ():
                if hasattr(sub, "_actions"):
                    commands.add(name)
                    stack.append(sub)
    return options, commands


def test_every_command_and_option_the_docs_name_exists():
    options, commands = _options_and_commands()
    named = re.findall(r"`paperterm ([a-z]+)", DOCS) + re.findall(
        r"^paperterm ([a-z]+)", DOCS, re.M
    )
    assert "keys" in named
    for command in named:
        assert command in commands, command
    usage = "\n".join(line for line in DOCS.splitlines() if "-m pytest" not in line)
    for option in set(re.findall(r"(?<![\w-])(--[a-z][a-z-]+)", usage)):
        assert option in options, option


def test_every_environment_variable_the_docs_name_is_read_by_the_code():
    source = "\n".join(
        path.read_text(encoding="utf-8")
        for folder in ("index", "tui")
        for path in (ROOT / folder).rglob("*.py")
    )
    for text in (DOCS, EXAMPLE.read_text(encoding="utf-8")):
        for name in set(re.findall(r"\bPAPERTERM_[A-Z_]+\b", text)):
            assert f'"{name}"' in source, name


@pytest.mark.skipif(sys.platform != "linux", reason="the docs give the Linux defaults")
def test_the_default_paths_the_docs_give_are_the_defaults(monkeypatch):
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME"):
        monkeypatch.delenv(name, raising=False)
    home = os.path.expanduser("~")
    config = str(default_config_path()).replace(home, "~", 1)
    data = str(default_data_dir()).replace(home, "~", 1)
    for text in (DOCS, EXAMPLE.read_text(encoding="utf-8")):
        assert config in text and data in text
