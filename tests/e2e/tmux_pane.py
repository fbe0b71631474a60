"""Driving a program in a real terminal: a private tmux server, one pane, polled captures.

Every wait polls `capture-pane` about every 50 ms until the screen shows what the test
expects, and fails with the last screen in the message; nothing here sleeps for a fixed time.
Each server has its own socket (`tmux -L`) and config file, and `kill` always stops it.
"""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

#: Generous: CI machines are slow, and a wait returns as soon as its text shows.
WAIT_SECONDS = 20.0
POLL_SECONDS = 0.05
WIDTH, HEIGHT = 80, 24
#: What the pane prints, with the exit status, when its program ends.
EXIT_MARK = "[paperterm-e2e] exit status"

T = TypeVar("T")

#: Written as the server's config file. The status line is off so the pane is the full
#: 80x24; clipboard and titles are on so that a leaked OSC 52 or OSC 0/2 sequence would
#: show up in the paste buffers and in `#{pane_title}`; `remain-on-exit` keeps a pane whose
#: wrapper died, so its last screen can still be read.
TMUX_CONFIG = """\
set -g default-terminal xterm-256color
set -g status off
set -g remain-on-exit on
set -g set-clipboard on
set -g set-titles on
set -g history-limit 10000
"""


class TmuxServer:
    """A private tmux server for one test; `kill()` (always called by the fixture) stops it."""

    def __init__(
        self, workdir: Path, environ: Mapping[str, str], config: str | None = TMUX_CONFIG
    ) -> None:
        """`config=None` runs tmux as it comes (`-f /dev/null`: the defaults, such as
        `set-clipboard external` and the status line)."""
        self.socket = f"paperterm-e2e-{os.getpid()}-{secrets.token_hex(4)}"
        self.workdir = workdir
        self.config = workdir / "tmux.conf" if config is not None else Path(os.devnull)
        if config is not None:
            self.config.write_text(config, encoding="utf-8")
        # The server's environment is all the panes inherit: nothing of the caller's
        # (no COLORTERM, which OpenSSH does not forward either, no user config paths).
        self.environ = dict(environ)
        self.panes: list[Pane] = []
        self.socket_path: Path | None = None

    def run(self, *args: str, check: bool = True) -> str:
        result = subprocess.run(
            ["tmux", "-L", self.socket, "-f", str(self.config), *args],
            env=self.environ,
            capture_output=True,
            text=True,
            timeout=WAIT_SECONDS,
        )
        if check and result.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)} failed: {result.stderr.strip()}")
        return result.stdout

    def start(self, argv: Sequence[str], title: str = "paperterm-e2e") -> Pane:
        """Run `argv` in a new 80x24 session; the pane's title starts as `title`.

        A small `sh` wrapper sets the title by an OSC 2 that precedes the program's own
        output (so a later change can only come from the program), prints the program's
        exit status when it ends and then keeps the pane open. Once the status line is on
        screen, tmux has read everything the program wrote. (tmux 3.3's own
        `#{pane_dead_status}` is sometimes never set for a process that ends quickly, and we
        saw the last output of such a process go missing.)
        """
        name = f"s{len(self.panes)}"
        script = (
            'printf "\\033]2;%s\\007" "$0"; "$@"; '
            f'printf "\\n{EXIT_MARK} %s\\n" "$?"; exec cat > /dev/null'
        )
        self.run(
            "new-session", "-d", "-s", name, "-x", str(WIDTH), "-y", str(HEIGHT),
            "sh", "-c", script, title, *argv,
        )  # fmt: skip
        pane = Pane(self, f"{name}:0.0", title)
        self.panes.append(pane)
        if self.socket_path is None:
            self.socket_path = Path(pane.info("#{socket_path}"))
        return pane

    def buffers(self) -> str:
        """Every paste buffer's name and contents (OSC 52 writes land here)."""
        names = self.run("list-buffers", "-F", "#{buffer_name}").split()
        return "\n".join(f"{name}: {self.run('show-buffer', '-b', name)}" for name in names)

    def kill(self) -> None:
        """Stop the server and everything in it; remove its socket (tmux leaves it)."""
        self.run("kill-server", check=False)
        if self.socket_path is not None:
            self.socket_path.unlink(missing_ok=True)


class Pane:
    def __init__(self, server: TmuxServer, target: str, title: str) -> None:
        self.server = server
        self.target = target
        self.initial_title = title

    def screen(self) -> str:
        """What the pane shows now, one line per row, trailing blanks stripped."""
        return self.server.run("capture-pane", "-p", "-t", self.target)

    def styled_rows(self) -> list[str]:
        """The rows with their SGR escape sequences (colours show focus and selection)."""
        return self.server.run("capture-pane", "-p", "-e", "-t", self.target).split("\n")

    def everything(self) -> str:
        """The scrollback and the screen: what a program printed after leaving full screen."""
        return self.server.run("capture-pane", "-p", "-S", "-", "-t", self.target)

    def info(self, fmt: str) -> str:
        return self.server.run("display-message", "-p", "-t", self.target, fmt).rstrip("\n")

    def title(self) -> str:
        return self.info("#{pane_title}")

    def keys(self, *names: str) -> None:
        """Send tmux key names (`Enter`, `Escape`, `j`, `C-q`)."""
        self.server.run("send-keys", "-t", self.target, *names)

    def type(self, text: str) -> None:
        """Send `text` literally, all in one write (as a paste or a fast typist would)."""
        self.server.run("send-keys", "-t", self.target, "-l", text)

    def exit_status(self) -> int | None:
        """The program's exit status once it has ended (the wrapper prints it), else None."""
        found = re.search(rf"^{re.escape(EXIT_MARK)} (\d+)$", self.everything(), re.MULTILINE)
        return int(found.group(1)) if found else None


def wait_until(pane: Pane, check: Callable[[], T | None], what: str, timeout: float) -> T:
    """Poll `check` until it returns something other than None (or False)."""
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found is not None and found is not False:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(
                f"timed out after {timeout:.0f} s waiting for {what}; the pane shows:\n"
                f"{pane.screen()}"
            )
        time.sleep(POLL_SECONDS)


def wait_for(pane: Pane, text: str | re.Pattern[str], timeout: float = WAIT_SECONDS) -> str:
    """The screen, once it shows `text` (a string, or a pattern searched in the screen)."""

    def check() -> str | None:
        screen = pane.screen()
        if isinstance(text, str):
            return screen if text in screen else None
        return screen if text.search(screen) else None

    shown = text if isinstance(text, str) else f"/{text.pattern}/"
    return wait_until(pane, check, repr(shown), timeout)


def wait_for_exit(pane: Pane, timeout: float = WAIT_SECONDS) -> int:
    """The exit status of the pane's program, once it has ended."""
    return wait_until(pane, pane.exit_status, "the program to exit", timeout)


def press_and_wait_for_restyle(
    pane: Pane, key: str, rows: range, timeout: float = WAIT_SECONDS
) -> None:
    """Press `key` and wait until the colours of `rows` change: the sign that a key which
    only moves the focus (and prints nothing) has been handled. Keys sent before that could
    still reach the widget that had the focus. The last columns (a scroll bar, which moves
    when the layout changes) are left out of the comparison."""

    def look() -> list[list[tuple[str, str]]]:
        return [cells(row)[: WIDTH - 2] for row in pane.styled_rows()[rows.start : rows.stop]]

    before = look()
    pane.keys(key)
    wait_until(
        pane,
        lambda: look() != before,
        f"{key} to move the focus (rows {rows.start}-{rows.stop - 1} to change colour)",
        timeout,
    )


def cells(styled_row: str) -> list[tuple[str, str]]:
    """A row captured with escapes as (character, background) pairs; the background is the
    SGR parameters that set it ("48;5;32"), or "" for the default."""
    background = ""
    out: list[tuple[str, str]] = []
    for token in re.split(r"(\x1b\[[0-9;]*m)", styled_row):
        if token.startswith("\x1b["):
            background = _apply_sgr(token[2:-1], background)
        else:
            out.extend((char, background) for char in token)
    return out


def background_at(styled_row: str, text: str) -> str | None:
    """The background of the first cell of `text` in a row captured with escapes, or None
    when the row does not hold `text`."""
    row = cells(styled_row)
    start = "".join(char for char, _ in row).find(text)
    return None if start < 0 else row[start][1]


def _apply_sgr(params: str, background: str) -> str:
    """Follow the background through one SGR sequence (`0` resets, `49` is the default)."""
    codes = params.split(";") if params else ["0"]
    i = 0
    while i < len(codes):
        code = codes[i]
        if code in ("", "0", "49"):
            background = ""
        elif code == "48" and i + 1 < len(codes):
            width = 3 if codes[i + 1] == "5" else 5
            background = ";".join(codes[i : i + width])
            i += width - 1
        elif code == "38" and i + 1 < len(codes):
            i += 2 if codes[i + 1] == "5" else 4
        elif code.isdigit() and (40 <= int(code) <= 47 or 100 <= int(code) <= 107):
            background = code
        i += 1
    return background
