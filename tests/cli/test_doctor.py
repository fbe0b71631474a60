"""`paperterm doctor`: one line per check, a verdict, exit status 0, and no Textual."""

from __future__ import annotations

import argparse
import io
import subprocess
import sys

from paperterm.index.config import Config
from paperterm.tui.cli.doctor import clipboard_checks, key_checks, run_doctor
from paperterm.tui.clipboard import Clipboard


class Tmux:
    """Answers `tmux show -gv NAME` and `tmux -V` from a table; None: no server."""

    def __init__(self, options: dict[str, str] | None) -> None:
        self.options = options

    def __call__(self, command, **kwargs):
        if self.options is None:
            return subprocess.CompletedProcess(command, 1, b"", b"no server running")
        if command[1:] == ["-V"]:
            return subprocess.CompletedProcess(command, 0, b"tmux 3.4\n", b"")
        value = self.options.get(command[-1], "")
        return subprocess.CompletedProcess(command, 0, value.encode() + b"\n", b"")


def doctor(tmp_path, monkeypatch, environ, options=None, config_text="") -> tuple[int, str]:
    config = tmp_path / "config.toml"
    config.write_text(config_text, encoding="utf-8")
    monkeypatch.setenv("PAPERTERM_CONFIG", str(config))
    monkeypatch.setenv("PAPERTERM_DATA_DIR", str(tmp_path / "data"))
    args = argparse.Namespace(source=None)
    out = io.StringIO()
    code = run_doctor(args, out, environ=environ, run=Tmux(options), is_tty=lambda: True)
    return code, out.getvalue()


def test_every_line_is_one_check_and_the_last_is_the_verdict(tmp_path, monkeypatch):
    environ = {"TERM": "xterm-256color", "COLORTERM": "truecolor", "TMUX": "/tmp/t,1,0"}
    options = {"set-clipboard": "external", "prefix": "C-b", "prefix2": "None"}
    code, out = doctor(tmp_path, monkeypatch, environ, options)
    assert code == 0
    lines = out.splitlines()
    assert all(line[:4] in ("ok  ", "--  ", "!!  ") for line in lines[:-1])
    assert "ok  colour: 24-bit colour (COLORTERM=truecolor)" in lines
    assert any(line.startswith("ok  clipboard: inside tmux 3.4 (set-clipboard external)")
               for line in lines)  # fmt: skip
    assert any(line.startswith("ok  data: ") for line in lines)
    assert any(line.startswith("--  index: not built yet") for line in lines)
    assert not (tmp_path / "data").exists()  # the doctor builds nothing
    assert lines[-1] == "verdict: ready"


def test_tmux_without_set_clipboard_and_a_prefix_clash_are_warnings(tmp_path, monkeypatch):
    environ = {"TERM": "screen", "TMUX": "/tmp/t,1,0", "SSH_CONNECTION": "1 2 3 4"}
    options = {"set-clipboard": "off", "prefix": "C-a", "prefix2": "None"}
    code, out = doctor(
        tmp_path, monkeypatch, environ, options, config_text='[keys]\nbookmark = "ctrl+a"\n'
    )
    assert code == 0
    assert "!!  clipboard: inside tmux 3.4 with set-clipboard off" in out
    assert "!!  keys: ctrl+a (bookmark) is tmux's prefix (C-a)" in out
    assert "OpenSSH does not pass it on" in out  # COLORTERM over SSH
    assert out.splitlines()[-1] == "verdict: usable, 2 thing(s) to fix (!! above)"


def test_a_broken_config_is_reported_and_the_doctor_goes_on(tmp_path, monkeypatch):
    code, out = doctor(tmp_path, monkeypatch, {"TERM": "dumb"}, config_text="[ui\n")
    assert code == 0
    assert "!!  terminal: TERM is dumb" in out
    assert "the reader will not start" in out
    assert out.splitlines()[-1].startswith("verdict: usable")


def test_clipboard_routes_as_the_reader_takes_them():
    ssh = clipboard_checks(Clipboard({"SSH_TTY": "/dev/pts/1"}), Tmux(None))
    assert ssh[0].text.startswith("over SSH, not in tmux: copies go by OSC 52 only")
    dead = clipboard_checks(Clipboard({"TMUX": "x"}), Tmux(None))
    assert dead[0].mark == "!!" and "does not answer" in dead[0].text
    local = Clipboard({"WAYLAND_DISPLAY": "w"}, which=lambda name: "/usr/bin/wl-copy")
    assert clipboard_checks(local, Tmux(None))[0].text == "copies go to wl-copy and by OSC 52"


def test_flow_control_and_suspend_keys():
    notes = key_checks(Config(), [])
    assert {check.text.split(" ")[0] for check in notes} == {"ctrl+q", "ctrl+s"}
    assert all(check.mark == "--" for check in notes)
    remapped = key_checks(Config(keys={"help": "ctrl+z"}), ["C-b"])
    assert any(c.mark == "!!" and c.text.startswith("ctrl+z (help)") for c in remapped)


def test_the_doctor_imports_no_textual(tmp_path):
    code = (
        "import sys\n"
        "from paperterm.tui.cli.main import main\n"
        f"main(['--data-dir', {str(tmp_path / 'data')!r}, 'doctor'])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'textual'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"
    assert "verdict:" in done.stdout
