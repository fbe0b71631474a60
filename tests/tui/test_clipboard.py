"""Copy routes (tui/clipboard.py, no Textual): tmux's buffer inside tmux, the desktop's tool
when local, OSC 52 always (the app's); failures reported, never raised."""

from __future__ import annotations

import subprocess

from paperterm.tui.clipboard import Clipboard, CopyReport, copy_message


class Runner:
    """Records commands; answers with `status` (or raises `error`) per command name."""

    def __init__(self, status: dict[tuple[str, ...], int] | None = None, error=None) -> None:
        self.calls: list[tuple[list[str], bytes]] = []
        self.status = status or {}
        self.error = error

    def __call__(self, command, *, input, **kwargs):
        assert kwargs["timeout"] > 0 and kwargs["capture_output"]
        self.calls.append((command, input))
        if self.error is not None:
            raise self.error
        code = self.status.get(tuple(command), 0)
        return subprocess.CompletedProcess(
            command, code, b"", b"unknown flag -w\n" if code else b""
        )


def clipboard(environ, runner, which=lambda name: f"/usr/bin/{name}", platform="linux"):
    return Clipboard(environ, run=runner, which=which, platform=platform)


def test_inside_tmux_the_text_goes_to_tmuxs_buffer_with_w():
    runner = Runner()
    report = clipboard({"TMUX": "/tmp/tmux-0/default,1,0", "SSH_TTY": "/dev/pts/1"}, runner).copy(
        "https://x.org/é"
    )
    assert runner.calls == [(["tmux", "load-buffer", "-w", "-"], "https://x.org/é".encode())]
    assert report.copied == ["tmux"] and report.failed == []


def test_an_old_tmux_without_w_gets_the_plain_command():
    runner = Runner({("tmux", "load-buffer", "-w", "-"): 1})
    report = clipboard({"TMUX": "s,1,0", "SSH_CONNECTION": "x"}, runner).copy("t")
    assert [call[0] for call in runner.calls] == [
        ["tmux", "load-buffer", "-w", "-"],
        ["tmux", "load-buffer", "-"],
    ]
    assert report.copied == ["tmux"]


def test_over_plain_ssh_only_osc52():
    runner = Runner()
    copier = clipboard({"SSH_CONNECTION": "1 2 3 4", "DISPLAY": ":0"}, runner)
    assert copier.routes() == []
    assert copier.copy("t") == CopyReport()
    assert runner.calls == []


def test_a_local_desktop_uses_its_tool_when_installed():
    runner = Runner()
    wayland = clipboard({"WAYLAND_DISPLAY": "wayland-0"}, runner)
    assert [route.name for route in wayland.routes()] == ["wl-copy"]
    x11 = clipboard({"DISPLAY": ":0"}, runner, which=lambda name: "/bin/xsel" * (name == "xsel"))
    assert [route.name for route in x11.routes()] == ["xsel"]
    assert clipboard({"DISPLAY": ":0"}, runner, which=lambda name: None).routes() == []
    assert [r.name for r in clipboard({}, runner, platform="darwin").routes()] == ["pbcopy"]


def test_failures_are_reported_not_raised():
    missing = clipboard({"TMUX": "s"}, Runner(error=FileNotFoundError())).copy("t")
    assert missing.failed == [("tmux", "tmux is not installed")]
    slow = clipboard({"TMUX": "s"}, Runner(error=subprocess.TimeoutExpired("tmux", 2))).copy("t")
    assert slow.failed == [("tmux", "tmux did not answer within 2 s")]
    refused = Runner({("tmux", "load-buffer", "-w", "-"): 1, ("tmux", "load-buffer", "-"): 1})
    assert clipboard({"TMUX": "s"}, refused).copy("t").failed == [("tmux", "unknown flag -w")]


def test_the_message_says_where_the_text_went():
    tmux = copy_message("link", "https://a.org", CopyReport(copied=["tmux"]), in_tmux=True)
    assert tmux == (
        "Copied the link to tmux's paste buffer, the terminal's clipboard (OSC 52): https://a.org"
    )
    ssh = copy_message("link", "u", CopyReport(), in_tmux=False)
    assert (
        ssh == "Copied the link to the terminal's clipboard (OSC 52, if the terminal allows it): u"
    )
    failed = copy_message("BibTeX entry", "@x", CopyReport(failed=[("tmux", "no server")]), True)
    assert "[tmux failed: no server]" in failed and "set-clipboard on" in failed
