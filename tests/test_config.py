from pathlib import Path

import pytest
from locations import ROOT

from paperterm.index.config import (
    CONFIG_MAX_BYTES,
    Config,
    ConfigError,
    check_key_ids,
    load_config,
    parse_config,
    resolve_config_path,
    resolve_data_dir,
    resolve_engine,
)

EXAMPLE = ROOT / "config.example.toml"


def test_example_config_is_valid_and_documents_every_key():
    config = load_config(EXAMPLE, must_exist=True)
    text = EXAMPLE.read_text(encoding="utf-8")
    for key in (
        "data_dir",
        "engine",
        "include_seeds",
        "[[sources]]",
        "path",
        "collection",
        "[search]",
        "limit",
        "debounce_ms",
        "[ui]",
        "theme",
        "side_by_side_min_width",
        "[reading]",
        "mark_on_dwell_ms",
        "mark_on_open",
        "[[searches]]",
        "name =",
        "query =",
        "[keys]",
    ):
        assert key in text
    assert config.search_limit > 0


def test_missing_default_config_is_fine_but_a_named_one_must_exist(tmp_path):
    assert load_config(tmp_path / "none.toml", must_exist=False).sources == []
    with pytest.raises(ConfigError, match=r"none\.toml: config file not found"):
        load_config(tmp_path / "none.toml", must_exist=True)


def test_values_are_read(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text(
        'data_dir = "~/pt"\ninclude_seeds = false\n[[sources]]\npath = "lists"\n'
        'collection = "Mine"\n[search]\nlimit = 30\n[ui]\ntheme = "nord"\n'
        '[keys]\nbookmark = "m"\n',
        encoding="utf-8",
    )
    config = load_config(path, must_exist=True)
    assert config.data_dir == Path.home() / "pt"
    assert config.include_seeds is False
    assert config.sources[0].path == tmp_path / "lists"
    assert config.sources[0].collection == "Mine"
    assert config.search_limit == 30
    assert config.theme == "nord"
    assert config.keys == {"bookmark": "m"}
    assert config.key_lines == {"bookmark": 11}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[search]\nlimt = 3\n", r"c.toml:2: search.limt: unknown key \(did you mean 'limit'\?\)"),
        ("include_seeds = 1\n", "c.toml:1: include_seeds: must be true or false, not a whole"),
        ("[search]\nlimit = true\n", "c.toml:2: search.limit: must be a whole number"),
        ("[reading]\nmark_on_open = 1\n", "c.toml:2: reading.mark_on_open: must be true or"),
        ("[search]\nlimit = -4\n", "c.toml:2: search.limit: must be between 1 and 10,000, not -4"),
        ("[[sources]]\ncollection = 'x'\n", "c.toml:1: sources.1.?: needs a path|sources"),
        ("sources = 3\n", "c.toml:1: sources: must be an array of tables"),
        ("[ui\ntheme = 'x'\n", r"c.toml:1:\d+: "),
        ("[keys]\nquit = 5\n", "c.toml:2: keys.quit: must be a string"),
        ("colour = 'red'\n", "c.toml:1: colour: unknown key"),
        ("\nengine = 'lucene'\n", "c.toml:2: engine: must be one of auto, whoosh, tantivy"),
        ("engine = 2\n", "c.toml:1: engine: must be a string"),
        ("[agenda]\ndefault_minutes = 0\n", "c.toml:2: agenda.default_minutes: must be between"),
        ("[agenda]\nlength = 3\n", "c.toml:2: agenda.length: unknown key"),
        ("[agenda]\n\ntime_zone = 'Mars/Olympus'\n", "c.toml:3: agenda.time_zone: unknown time"),
        ("[agenda]\ntime_zone = '../etc/passwd'\n", "c.toml:2: agenda.time_zone: unknown time"),
        ("[agenda]\ntime_zone = 1\n", "c.toml:2: agenda.time_zone: must be a string"),
        ("[watch]\nauthors = 'Ada'\n", "c.toml:2: watch.authors: must be an array of names"),
        ("[watch]\n\nwords = ['', 'x']\n", "c.toml:3: watch.words: must be an array of names"),
    ],
)
def test_errors_name_file_line_and_key(tmp_path, text, expected):
    path = tmp_path / "c.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=expected) as caught:
        load_config(path, must_exist=True)
    assert "\n" not in str(caught.value)


def test_unknown_binding_id_is_reported_with_line(tmp_path):
    config = parse_config("[keys]\nbookmrk = 'm'\n", tmp_path / "c.toml")
    with pytest.raises(ConfigError, match=r"c.toml:2: keys.bookmrk: .*did you mean 'bookmark'"):
        check_key_ids(config, ["bookmark", "quit"])


def test_undecodable_config(tmp_path):
    path = tmp_path / "c.toml"
    path.write_bytes(b"theme = '\xff'\n")
    with pytest.raises(ConfigError, match=r"c\.toml:1: not valid UTF-8"):
        load_config(path, must_exist=True)


def test_resolution_order(tmp_path, monkeypatch):
    monkeypatch.setenv("PAPERTERM_CONFIG", str(tmp_path / "env.toml"))
    assert resolve_config_path(None) == (tmp_path / "env.toml", True)
    assert resolve_config_path(str(tmp_path / "opt.toml")) == (tmp_path / "opt.toml", True)
    monkeypatch.delenv("PAPERTERM_CONFIG")
    assert resolve_config_path(None)[1] is False

    config = parse_config(f'data_dir = "{tmp_path / "cfg"}"\n')
    monkeypatch.setenv("PAPERTERM_DATA_DIR", str(tmp_path / "env"))
    assert resolve_data_dir(str(tmp_path / "opt"), config) == tmp_path / "opt"
    assert resolve_data_dir(None, config) == tmp_path / "env"
    monkeypatch.delenv("PAPERTERM_DATA_DIR")
    assert resolve_data_dir(None, config) == tmp_path / "cfg"


def test_a_config_that_is_not_a_small_regular_file_is_one_line(tmp_path):
    """Issue 10: `--config /dev/zero` read for ever; a pipe waited for a writer."""
    huge = tmp_path / "huge.toml"
    huge.write_bytes(b"#" * (CONFIG_MAX_BYTES + 1))
    with pytest.raises(ConfigError, match=r"huge\.toml: cannot read config: .*too large"):
        load_config(huge, must_exist=True)
    with pytest.raises(ConfigError, match=r"/dev/zero: cannot read config: .*is a device"):
        load_config(Path("/dev/zero"), must_exist=True)


def test_no_config_under_an_xdg_config_home_that_is_a_file(tmp_path):
    """The default path (not one the user named) under a file is simply absent."""
    a_file = tmp_path / "config-home"
    a_file.write_text("x")
    assert load_config(a_file / "paperterm" / "config.toml", must_exist=False) == Config()


def test_the_engine_is_the_option_else_the_environment_else_the_config(monkeypatch):
    config = parse_config("engine = 'whoosh'\n")
    assert config.engine == "whoosh" and Config().engine == "auto"
    monkeypatch.delenv("PAPERTERM_ENGINE", raising=False)
    assert resolve_engine(None, config) == "whoosh"
    monkeypatch.setenv("PAPERTERM_ENGINE", "tantivy")
    assert resolve_engine(None, config) == "tantivy"
    assert resolve_engine("auto", config) == "auto"
    monkeypatch.setenv("PAPERTERM_ENGINE", "sphinx")
    with pytest.raises(ConfigError, match="PAPERTERM_ENGINE: must be one of auto, whoosh"):
        resolve_engine(None, config)


def test_agenda_and_watch_are_read(tmp_path):
    text = (
        "[agenda]\ndefault_minutes = 45\n"
        "[watch]\nauthors = ['Ada  Lovelace', 'Ada Lovelace']\nwords = ['diffusion']\n"
        "author_ids = ['~Ada_Lovelace1']\n"
    )
    config = parse_config(text, tmp_path / "c.toml")
    assert config.agenda_default_minutes == 45
    assert config.watch_authors == ("Ada Lovelace",)
    assert config.watch_words == ("diffusion",)
    assert config.watch_author_ids == ("~Ada_Lovelace1",)
    assert parse_config("").agenda_default_minutes == 60
