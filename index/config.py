"""The user's config file: read, validated strictly, with errors that name file, line and key.

Every key is documented in config.example.toml. Unknown keys are errors (with a "did you
mean"), so a typo never silently does nothing.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from platformdirs import user_config_dir, user_data_dir

from paperterm.index.library.searches import SavedSearch
from paperterm.index.sources.files import FORMAT_NAMES, OUR_FIELDS, SourceSpec
from paperterm.index.toml_text import TomlSyntaxError, parse_toml
from paperterm.index.user_files import read_regular_file

APP_NAME = "paperterm"
#: The example config, every key commented, is 3 KB; a config a thousand times larger is
#: not a config (and `--config /dev/zero` must end).
CONFIG_MAX_BYTES = 1 << 20
CONFIG_ENV = "PAPERTERM_CONFIG"
DATA_DIR_ENV = "PAPERTERM_DATA_DIR"
ENGINE_ENV = "PAPERTERM_ENGINE"
#: The search engines: "auto" is Whoosh (pure Python, always there); "tantivy" needs the
#: optional extra (`pip install 'paperterm[tantivy]'`).
ENGINES = ("auto", "whoosh", "tantivy")

_TOP_KEYS = {
    "data_dir": str,
    "engine": str,
    "include_seeds": bool,
    "sources": list,
    "search": dict,
    "ui": dict,
    "keys": dict,
    "reading": dict,
    "searches": list,
    "agenda": dict,
    "watch": dict,
}
_SEARCH_KEYS: dict[str, type] = {"limit": int, "debounce_ms": int}
_UI_KEYS: dict[str, type] = {"theme": str, "side_by_side_min_width": int, "footer": bool}
#: (`columns` and `fields` are checked item by item: `_source_spec`.)
_SOURCE_KEYS: dict[str, type] = {
    "path": str, "collection": str, "format": str, "columns": object, "separator": str,
    "fields": object,
}  # fmt: skip
_READING_KEYS: dict[str, type] = {"mark_on_dwell_ms": int, "mark_on_open": bool}
_SAVED_SEARCH_KEYS: dict[str, type] = {"name": str, "query": str}
_AGENDA_KEYS: dict[str, type] = {"default_minutes": int, "time_zone": str}
#: (Arrays of strings, checked item by item: `_strings`.)
_WATCH_KEYS: dict[str, type] = {"authors": object, "words": object, "author_ids": object}
#: Every key the config takes, by table ("" is the top level; `[keys]` takes binding ids).
SCHEMA: dict[str, Mapping[str, type]] = {
    "": _TOP_KEYS,
    "sources": _SOURCE_KEYS,
    "search": _SEARCH_KEYS,
    "ui": _UI_KEYS,
    "reading": _READING_KEYS,
    "searches": _SAVED_SEARCH_KEYS,
    "agenda": _AGENDA_KEYS,
    "watch": _WATCH_KEYS,
}


class ConfigError(Exception):
    """A config problem as one line: `file:line: key: why`."""


@dataclass(slots=True)
class Config:
    path: Path | None = None
    data_dir: Path | None = None
    engine: str = "auto"
    include_seeds: bool = True
    sources: list[SourceSpec] = field(default_factory=list)
    search_limit: int = 200
    debounce_ms: int = 60
    theme: str | None = None
    side_by_side_min_width: int = 100
    #: Whether the reader shows the footer of keys (the status line's hint stays).
    footer: bool = True
    #: Mark a paper read once the cursor has rested on it this long (0: only when opened).
    mark_on_dwell_ms: int = 0
    #: Whether reading a paper full screen marks it read.
    mark_on_open: bool = True
    searches: list[SavedSearch] = field(default_factory=list)
    #: How long an agenda session lasts when the data gives no end, in minutes.
    agenda_default_minutes: int = 60
    #: The IANA zone the agenda shows times in (None: each conference's own).
    agenda_time_zone: str | None = None
    #: `[watch]`: author names, words and OpenReview author ids to watch.
    watch_authors: tuple[str, ...] = ()
    watch_words: tuple[str, ...] = ()
    watch_author_ids: tuple[str, ...] = ()
    keys: dict[str, str] = field(default_factory=dict)
    key_lines: dict[str, int] = field(default_factory=dict)
    #: Lines of the values checked after loading (by the reader), by dotted key.
    lines: dict[str, int] = field(default_factory=dict)

    def key_error(self, key: str, why: str) -> ConfigError:
        """An error about one `[keys]` entry, for checks made by the TUI's key table."""
        line = self.key_lines.get(key, 0)
        return ConfigError(_where(self.path, line, f"keys.{key}", why))

    def error(self, dotted_key: str, why: str) -> ConfigError:
        """An error about a value checked after loading, e.g. `ui.theme`."""
        return ConfigError(_where(self.path, self.lines.get(dotted_key, 0), dotted_key, why))


def default_config_path() -> Path:
    return Path(user_config_dir(APP_NAME, appauthor=False)) / "config.toml"


def default_data_dir() -> Path:
    return Path(user_data_dir(APP_NAME, appauthor=False))


def resolve_config_path(option: str | None) -> tuple[Path, bool]:
    """The config file to read, and whether the user named it (then it must exist)."""
    if option:
        return Path(option).expanduser(), True
    env = os.environ.get(CONFIG_ENV)
    if env:
        return Path(env).expanduser(), True
    return default_config_path(), False


def resolve_data_dir(option: str | None, config: Config) -> Path:
    if option:
        return Path(option).expanduser()
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env).expanduser()
    if config.data_dir is not None:
        return config.data_dir
    return default_data_dir()


def resolve_engine(option: str | None, config: Config) -> str:
    """The engine asked for: the option, else $PAPERTERM_ENGINE, else the config's."""
    if option:
        return option
    env = os.environ.get(ENGINE_ENV)
    if env:
        if env not in ENGINES:
            raise ConfigError(f"{ENGINE_ENV}: must be one of {', '.join(ENGINES)}, not {env!r}")
        return env
    return config.engine


def load_config(path: Path, must_exist: bool) -> Config:
    """The config in `path`; a missing file is the defaults unless the user named it (a
    default path under an XDG_CONFIG_HOME that is a file is missing, too)."""
    try:
        data, _ = read_regular_file(path, CONFIG_MAX_BYTES, "config file")
    except (FileNotFoundError, NotADirectoryError):
        if must_exist:
            raise ConfigError(f"{path}: config file not found") from None
        return Config()
    except OSError as error:
        raise ConfigError(f"{path}: cannot read config: {error.strerror}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise ConfigError(f"{path}:{line}: not valid UTF-8") from None
    return parse_config(text, path)


def parse_config(text: str, path: Path | None = None) -> Config:
    try:
        raw = parse_toml(text)
    except TomlSyntaxError as error:
        raise ConfigError(error.at(str(path) if path is not None else "<config>")) from None
    locate = _Locator(text)
    config = Config(path=path)
    _check_keys(raw, _TOP_KEYS, "", path, locate)
    if "data_dir" in raw:
        config.data_dir = _expand(raw["data_dir"], path)
    if "engine" in raw:
        if raw["engine"] not in ENGINES:
            raise ConfigError(
                _where(
                    path,
                    locate.key("", "engine"),
                    "engine",
                    f"must be one of {', '.join(ENGINES)}, not {raw['engine']!r}",
                )
            )
        config.engine = raw["engine"]
    if "include_seeds" in raw:
        config.include_seeds = raw["include_seeds"]
    for number, entry in enumerate(raw.get("sources", []), start=1):
        where = f"sources[{number}]"
        if not isinstance(entry, dict):
            raise ConfigError(
                _where(
                    path,
                    locate.section("sources"),
                    where,
                    "must be a table with a path ([[sources]])",
                )
            )
        _check_keys(entry, _SOURCE_KEYS, "sources", path, locate)
        if "path" not in entry:
            raise ConfigError(_where(path, locate.section("sources"), where, "needs a path"))
        config.sources.append(_source_spec(entry, path, locate))
    search = raw.get("search", {})
    _check_keys(search, _SEARCH_KEYS, "search", path, locate)
    config.search_limit = _number(search, "limit", config.search_limit, "search", path, locate)
    config.debounce_ms = _number(search, "debounce_ms", config.debounce_ms, "search", path, locate)
    ui = raw.get("ui", {})
    _check_keys(ui, _UI_KEYS, "ui", path, locate)
    config.theme = ui.get("theme")
    if "theme" in ui:
        config.lines["ui.theme"] = locate.key("ui", "theme")
    config.side_by_side_min_width = _number(
        ui, "side_by_side_min_width", config.side_by_side_min_width, "ui", path, locate
    )
    config.footer = ui.get("footer", config.footer)
    reading = raw.get("reading", {})
    _check_keys(reading, _READING_KEYS, "reading", path, locate)
    config.mark_on_dwell_ms = _number(
        reading, "mark_on_dwell_ms", config.mark_on_dwell_ms, "reading", path, locate
    )
    config.mark_on_open = reading.get("mark_on_open", config.mark_on_open)
    config.searches = _saved_searches(raw.get("searches", []), path, locate)
    agenda = raw.get("agenda", {})
    _check_keys(agenda, _AGENDA_KEYS, "agenda", path, locate)
    config.agenda_default_minutes = _number(
        agenda, "default_minutes", config.agenda_default_minutes, "agenda", path, locate
    )
    if "time_zone" in agenda:
        config.agenda_time_zone = _time_zone(agenda["time_zone"], path, locate)
    watch = raw.get("watch", {})
    _check_keys(watch, _WATCH_KEYS, "watch", path, locate)
    config.watch_authors = _strings(watch, "authors", path, locate)
    config.watch_words = _strings(watch, "words", path, locate)
    config.watch_author_ids = _strings(watch, "author_ids", path, locate)
    for name, value in raw.get("keys", {}).items():
        line = locate.key("keys", name)
        if not isinstance(value, str) or not value.strip():
            raise ConfigError(
                _where(path, line, f"keys.{name}", 'must be a string of key names, e.g. "j,down"')
            )
        config.keys[name] = value
        config.key_lines[name] = line
    return config


#: The formats whose records have named keys or columns (`columns`, `[sources.fields]`).
_MAPPED_FORMATS = {
    "columns": ("auto", "csv", "tsv"),
    "fields": ("auto", "json", "jsonl", "csv", "tsv", "openreview", "virtual-site",
               "papercopilot", "acl-xml"),
}  # fmt: skip


def _source_spec(entry: dict[str, Any], path: Path | None, locate: _Locator) -> SourceSpec:
    """A `[[sources]]` table as a `SourceSpec`: `format` one of ours, `columns` our fields
    (or ""), `[sources.fields]` our fields to their keys."""

    def error(key: str, why: str, section: str = "sources") -> ConfigError:
        return ConfigError(_where(path, locate.key(section, key), f"{section}.{key}", why))

    fmt = entry.get("format", "auto")
    if fmt not in FORMAT_NAMES:
        raise error("format", f"must be one of {', '.join(FORMAT_NAMES)}, not {fmt!r}")
    columns = entry.get("columns", [])
    if not isinstance(columns, list) or not all(isinstance(c, str) for c in columns):
        raise error("columns", 'must be an array of strings (our field per column, "" skips)')
    for number, column in enumerate(columns, start=1):
        if column and column not in OUR_FIELDS:
            why = f"column {number}: {column!r} is not one of our fields"
            raise error("columns", why + _did_you_mean(column, OUR_FIELDS))
    fields = entry.get("fields", {})
    if not isinstance(fields, dict):
        raise error("fields", "must be a table ([sources.fields]: our field = their key)")
    for ours, theirs in fields.items():
        if ours not in OUR_FIELDS:
            why = "is not one of our fields" + _did_you_mean(ours, OUR_FIELDS)
            raise error(ours, why, "sources.fields")
        if not isinstance(theirs, str) or not theirs.strip():
            raise error(ours, "must be their key or dotted path, a string", "sources.fields")
    for key, value in (("columns", columns), ("fields", fields)):
        if value and fmt not in _MAPPED_FORMATS[key]:
            raise error(key, f"does not apply to format = {fmt!r}")
    return SourceSpec(
        _expand(entry["path"], path),
        entry.get("collection"),
        fmt,
        tuple(columns),
        entry.get("separator", ""),
        tuple((ours, theirs.strip()) for ours, theirs in fields.items()),
    )


def _saved_searches(tables: list[object], path: Path | None, locate: _Locator) -> list[SavedSearch]:
    """`[[searches]]`: each a table with a non-empty `name` (unique) and a `query`."""
    searches: list[SavedSearch] = []
    for number, table in enumerate(tables, start=1):
        where = f"searches[{number}]"
        line = locate.section("searches", number)
        if not isinstance(table, dict):
            raise ConfigError(_where(path, line, where, "must be a table ([[searches]])"))
        _check_keys(table, _SAVED_SEARCH_KEYS, "searches", path, locate)
        for key in ("name", "query"):
            if key not in table:
                raise ConfigError(_where(path, line, where, f"needs a {key}"))
        name = " ".join(table["name"].split())
        if not name:
            raise ConfigError(_where(path, line, f"{where}.name", "must not be empty"))
        if any(search.name == name for search in searches):
            raise ConfigError(_where(path, line, f"{where}.name", f"{name!r} is used twice"))
        searches.append(SavedSearch(name, table["query"].strip()))
    return searches


def check_key_ids(config: Config, known: Iterable[str]) -> None:
    """Reject `[keys]` entries that name no binding, suggesting the closest id."""
    known = sorted(known)
    for name in config.keys:
        if name not in known:
            raise config.key_error(name, "no such key binding" + _did_you_mean(name, known))


#: The range of every number in the config, with the reason for its ends.
BOUNDS = {
    # At least one result; 10,000 rows is already far more than anyone scrolls, and each
    # costs the reader a row to build on every keystroke.
    "search.limit": (1, 10_000),
    # Beyond this, "search as you type" no longer feels like it.
    "search.debounce_ms": (0, 2_000),
    # 40 columns is the smallest window the reader draws in; no terminal is 1,000 wide.
    "ui.side_by_side_min_width": (40, 1_000),
    # 0 is off; past a minute on one row nobody is skimming any more.
    "reading.mark_on_dwell_ms": (0, 60_000),
    # A session of at least a minute and at most a day.
    "agenda.default_minutes": (1, 1_440),
}


def _number(
    table: dict[str, Any], key: str, default: int, section: str, path: Path | None, locate: _Locator
) -> int:
    """An integer setting within its `BOUNDS` (the type was checked by `_check_keys`)."""
    if key not in table:
        return default
    value: int = table[key]
    low, high = BOUNDS[f"{section}.{key}"]
    if not low <= value <= high:
        raise ConfigError(
            _where(
                path,
                locate.key(section, key),
                f"{section}.{key}",
                f"must be between {low:,} and {high:,}, not {value:,}",
            )
        )
    return value


def _time_zone(name: str, path: Path | None, locate: _Locator) -> str:
    """`[agenda] time_zone`: an IANA zone this machine knows."""
    from zoneinfo import ZoneInfo

    try:
        ZoneInfo(name.strip())
    except (ValueError, OSError, KeyError):  # ZoneInfoNotFoundError is a KeyError
        why = f"unknown time zone {name!r} (an IANA name such as 'Europe/Paris')"
        line = locate.key("agenda", "time_zone")
        raise ConfigError(_where(path, line, "agenda.time_zone", why)) from None
    return name.strip()


def _strings(
    table: dict[str, Any], key: str, path: Path | None, locate: _Locator
) -> tuple[str, ...]:
    """An array of non-blank strings (`[watch]`), each once."""
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ConfigError(
            _where(path, locate.key("watch", key), f"watch.{key}", "must be an array of names")
        )
    return tuple(dict.fromkeys(" ".join(v.split()) for v in value))


def _check_keys(
    table: object, schema: Mapping[str, type], section: str, path: Path | None, locate: _Locator
) -> None:
    if not isinstance(table, dict):
        raise ConfigError(_where(path, locate.section(section), section, "must be a table"))
    for key, value in table.items():
        dotted = f"{section}.{key}" if section else key
        line = locate.key(section, key)
        if key not in schema:
            hint = _did_you_mean(key, schema)
            raise ConfigError(_where(path, line, dotted, "unknown key" + hint))
        expected = schema[key]
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            raise ConfigError(
                _where(
                    path, line, dotted, f"must be {_TYPE_NAMES[expected]}, not {_type_name(value)}"
                )
            )


_TYPE_NAMES = {
    str: "a string",
    bool: "true or false",
    int: "a whole number",
    list: "an array of tables",
    dict: "a table",
}


def _type_name(value: object) -> str:
    for kind, name in _TYPE_NAMES.items():
        if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
            return name
    return type(value).__name__


def _did_you_mean(word: str, choices: Iterable[str]) -> str:
    import difflib  # only for a mistake: scripted commands start without it

    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _expand(value: str, config_path: Path | None) -> Path:
    """`~` and $VARS expanded; relative paths are relative to the config file."""
    expanded = Path(os.path.expandvars(os.path.expanduser(value)))
    if not expanded.is_absolute() and config_path is not None:
        expanded = config_path.parent / expanded
    return expanded


def _where(path: Path | None, line: int, key: str, why: str) -> str:
    place = str(path) if path is not None else "<config>"
    if line:
        place += f":{line}"
    return f"{place}: {key}: {why}"


class _Locator:
    """Finds the line where a key is set, since a parsed TOML document has no positions."""

    _HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")

    def __init__(self, text: str) -> None:
        # TOML ends lines with LF or CRLF only: `str.splitlines` would also split at
        # U+2028, U+0085, form feeds..., which TOML strings may hold, and miscount lines.
        self.lines = text.split("\n")

    def section(self, section: str, nth: int = 1) -> int:
        """The line of the `nth` header of `section` (`[[searches]]` repeats), else 0."""
        seen = 0
        for number, line in enumerate(self.lines, start=1):
            match = self._HEADER.match(line)
            if match and match.group(1).strip("\"'") == section:
                seen += 1
                if seen == nth:
                    return number
        return 0

    def key(self, section: str, key: str) -> int:
        current = ""
        pattern = re.compile(
            rf"^\s*(?:\"{re.escape(key)}\"|'{re.escape(key)}'|{re.escape(key)})\s*="
        )
        dotted = re.compile(rf"^\s*{re.escape(section)}\.{re.escape(key)}\s*=") if section else None
        for number, line in enumerate(self.lines, start=1):
            header = self._HEADER.match(line)
            if header:
                current = header.group(1).strip("\"'")
                continue
            if current == section and pattern.match(line):
                return number
            if dotted is not None and current == "" and dotted.match(line):
                return number
        return self.section(section) if section else 0
