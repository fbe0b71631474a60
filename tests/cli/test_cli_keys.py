"""`paperterm keys`, a clashing `[keys]` table at the command line, and what `--help` says
about where paperterm looks."""

from __future__ import annotations

import gc
import json

import pytest

from paperterm.tui import collector, keys


def write_config(tmp_path, body: str):
    config = tmp_path / "clash.toml"
    config.write_text(body, encoding="utf-8")
    return config


@pytest.mark.parametrize("command", [[], ["keys"]])
def test_a_clash_is_a_config_error_with_exit_status_2(run, tmp_path, command):
    config = write_config(tmp_path, '# mine\n[keys]\nbookmark = "j"\n')
    code, out, err = run("--config", str(config), *command)
    assert code == 2 and out == ""
    assert err == (
        f'paperterm: {config}:3: keys.bookmark: "j" is already cursor_down in the list '
        "(use another key, or remap cursor_down too)\n"
    )


def test_a_swap_is_accepted_and_listed(run, tmp_path):
    config = write_config(tmp_path, '[keys]\ncursor_down = "k, down"\ncursor_up = "j, up"\n')
    code, out, err = run("--config", str(config), "keys")
    assert code == 0 and err == ""
    down = next(line for line in out.splitlines() if " cursor_down " in line)
    assert down.split()[:3] == ["k,", "down", "cursor_down"] and "(remapped)" in down


def test_keys_lists_every_binding_as_the_config_writes_it(run):
    code, out, _ = run("keys")
    assert code == 0
    for spec in keys.SPECS:
        assert any(f" {spec.id} " in line and spec.description in line for line in out.splitlines())
    help_line = next(line for line in out.splitlines() if " help " in line)
    assert help_line.split()[:2] == ["?", "help"]  # as `[keys]` takes it, not question_mark
    for heading in keys.SCOPES.values():
        assert heading in out.splitlines()


def test_keys_json(run, tmp_path):
    config = write_config(tmp_path, '[keys]\nhelp = "?, f1"\n')
    code, out, _ = run("--config", str(config), "keys", "--json")
    assert code == 0
    rows = json.loads(out)
    assert [row["id"] for row in rows] == [spec.id for spec in keys.SPECS]
    help_row = next(row for row in rows if row["id"] == "help")
    assert help_row == {
        "id": "help",
        "context": "Everywhere",
        "keys": ["?", "f1"],
        "default_keys": ["?"],
        "description": "Show the keys",
    }


def test_help_text_in_effect(tmp_path, monkeypatch, capsys):
    from paperterm.tui.cli.main import main

    config = write_config(tmp_path, f'data_dir = "{tmp_path / "from-config"}"\n')
    monkeypatch.setenv("PAPERTERM_CONFIG", str(config))
    monkeypatch.delenv("PAPERTERM_DATA_DIR", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert f"config file  {config} (PAPERTERM_CONFIG)" in out
    assert f"data dir     {tmp_path / 'from-config'} (data_dir in the config file)" in out
    assert f"PAPERTERM_CONFIG   {config}" in out
    assert "PAPERTERM_DATA_DIR (not set)" in out
    assert "NO_COLOR           1" in out
    with pytest.raises(SystemExit):
        main(["--data-dir", str(tmp_path / "d"), "--help"])
    assert f"data dir     {tmp_path / 'd'} (--data-dir)" in capsys.readouterr().out


def test_help_works_with_a_broken_config(tmp_path, monkeypatch, capsys):
    from paperterm.tui.cli.main import main

    config = write_config(tmp_path, "[ui]\nthme = 'nord'\n")
    with pytest.raises(SystemExit) as done:
        main(["--config", str(config), "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert f"{config} (--config; {config}:2: ui.thme: unknown key" in out


def test_a_sub_command_turns_the_collector_back_on(run):
    """`paperterm` (`tui.cli.run`) pauses the garbage collector for the import of its
    modules; a sub-command turns it back on as it starts (only the reader keeps it off,
    until its first frame)."""
    collector.pause()
    try:
        assert not gc.isenabled()
        code, _, _ = run("keys")
        assert code == 0 and gc.isenabled()
    finally:
        collector.resume()
        gc.enable()
        gc.unfreeze()
