"""`paperterm keys [--json]`: the reader's key table with the config's `[keys]` applied, for
scripts and for users who keep notes; and where paperterm looks (config file, data dir,
environment), for `paperterm --help`.

The keys are written as `[keys]` takes them (`j, down`, `?`, `ctrl+p`), so a line can be
copied into the config. A `[keys]` table the reader would refuse is refused here too, with
the same one-line error (exit 2).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cache

from paperterm.index.config import (
    CONFIG_ENV,
    DATA_DIR_ENV,
    ConfigError,
    default_config_path,
    default_data_dir,
    load_config,
    resolve_config_path,
)
from paperterm.tui import keys
from paperterm.tui.cli.context import Arguments, Context


def key_name(key: str) -> str:
    """A Textual key name as `[keys]` takes it: `question_mark` -> `?`, `slash` -> `/`,
    `ctrl+p` and `space` as they are."""
    return _characters().get(key, key)


@cache
def _characters() -> dict[str, str]:
    """Textual's names of the printable characters that have one: `slash` -> `/`."""
    from textual.keys import _character_to_key

    named = {_character_to_key(chr(code)): chr(code) for code in range(33, 127)}
    # `comma` stays a name: a comma separates the keys of a `[keys]` value.
    return {name: char for name, char in named.items() if name not in (char, "comma")}


def key_rows(keymap: Mapping[str, str]) -> list[dict[str, object]]:
    """Every binding, in the table's order, with the keymap applied."""
    effective = keys.effective_keys(keymap)
    return [
        {
            "id": spec.id,
            "context": keys.SCOPES[spec.scope],
            "keys": [key_name(key) for key in effective[spec.id]],
            "default_keys": [key_name(key) for key in keys.split_keys(spec.keys)],
            "description": spec.description,
        }
        for spec in keys.SPECS
    ]


def markdown_table(rows: list[dict[str, object]]) -> list[str]:
    """`key_rows` as the Markdown table of docs/keys.md: where, keys, `[keys]` name, what."""
    table = ["| where | keys | `[keys]` name | what it does |", "| --- | --- | --- | --- |"]
    for row in rows:
        shown = ", ".join(f"`{key}`" for key in row["keys"])  # type: ignore[attr-defined]
        table.append(f"| {row['context']} | {shown} | `{row['id']}` | {row['description']} |")
    return table


def cmd_keys(ctx: Context) -> int:
    # Deferred: the contexts are read from the screens' bindings (Textual).
    from paperterm.tui.contexts import CONTEXTS

    rows = key_rows(keys.check_keymap(ctx.config, CONTEXTS))
    if ctx.args.json:
        ctx.emit_json(rows, indent=1)
        return 0
    if ctx.args.markdown:
        for line in markdown_table(rows):
            ctx.line(line)
        return 0
    key_width = max(len(", ".join(row["keys"])) for row in rows)  # type: ignore[arg-type]
    id_width = max(len(str(row["id"])) for row in rows)
    heading = None
    for row in rows:
        if row["context"] != heading:
            if heading is not None:
                ctx.line()
            heading = row["context"]
            ctx.line(str(heading))
        shown = ", ".join(row["keys"])  # type: ignore[arg-type]
        changed = "" if row["keys"] == row["default_keys"] else "  (remapped)"
        ctx.line(f"  {shown:<{key_width}}  {row['id']:<{id_width}}  {row['description']}{changed}")
    return 0


# --- where paperterm looks, for --help ------------------------------------------------------

#: Environment variables that change what paperterm does, beside its own.
OTHER_ENV = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "NO_COLOR", "TERM", "COLORTERM")


def places_text(args: Arguments, environ: Mapping[str, str] | None = None) -> str:
    """The config file, the data dir and the environment in effect, as `--help` ends.
    Never fails: a broken config is said, not raised (`--help` must always work)."""
    env = os.environ if environ is None else environ
    option = getattr(args, "config", None)
    config_path, must_exist = resolve_config_path(option)
    how = "--config" if option else (CONFIG_ENV if must_exist else "default")
    config_data_dir = None
    try:
        config = load_config(config_path, must_exist)
        config_data_dir = config.data_dir
        state = "" if config_path.is_file() else ", not there: the defaults apply"
    except ConfigError as error:
        state = f"; {error}"
    data_option = getattr(args, "data_dir", None)
    if data_option:
        data_dir, data_how = os.path.expanduser(data_option), "--data-dir"
    elif env.get(DATA_DIR_ENV):
        data_dir, data_how = os.path.expanduser(env[DATA_DIR_ENV]), DATA_DIR_ENV
    elif config_data_dir is not None:
        data_dir, data_how = str(config_data_dir), "data_dir in the config file"
    else:
        data_dir, data_how = str(default_data_dir()), "default"
    lines = [
        "in effect:",
        f"  config file  {config_path} ({how}{state})",
        f"  data dir     {data_dir} ({data_how}): the index and bookmarks.toml",
        "environment:",
    ]
    for name in (CONFIG_ENV, DATA_DIR_ENV):
        lines.append(f"  {name:<18} {env.get(name) or '(not set)'}")
    lines += [f"  {name:<18} {env[name]}" for name in OTHER_ENV if env.get(name)]
    lines += [
        f"defaults: config file {default_config_path()}",
        f"          data dir {default_data_dir()}",
        "`paperterm keys` lists the reader's keys; `paperterm doctor` checks the setup.",
    ]
    return "\n".join(lines) + "\n"
