"""Copying text to where the user can paste it, and saying where it went (no Textual).

The reader always writes OSC 52 (Textual's `App.copy_to_clipboard`): the terminal puts the
text on the system clipboard, over SSH too, if it allows it (most do; some ask first, some
never do). That is not enough everywhere, so `Clipboard.copy` also takes the routes that
exist here:

- inside tmux (`$TMUX` set) `tmux load-buffer -w -`: the text lands in tmux's paste buffer
  (prefix `]` pastes it) and, `-w`, tmux passes it on to the outer terminal's clipboard as
  its `set-clipboard` option allows (the default, `external`, does). tmux swallows an
  application's own OSC 52 under that default, which is why `y` seemed to copy and nothing
  arrived. tmux before 3.2 has no `-w`: the command is retried without it;
- on a desktop session that is not over SSH, the platform's clipboard tool (`pbcopy`,
  `wl-copy`, `xclip`, `xsel`), when installed.

Each command has a 2-second limit, and a failure is reported, never raised.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

#: The longest a clipboard command may take before it counts as failed.
TIMEOUT = 2.0

Runner = Callable[..., subprocess.CompletedProcess]


@dataclass(frozen=True, slots=True)
class Route:
    """One way to the clipboard: its name for people and the command (text on stdin)."""

    name: str
    command: tuple[str, ...]
    #: The command again for older versions, when the first one fails.
    fallback: tuple[str, ...] = ()


@dataclass(slots=True)
class CopyReport:
    """Where the text went (by route name) and which routes failed, with why."""

    copied: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)


TMUX = Route("tmux", ("tmux", "load-buffer", "-w", "-"), ("tmux", "load-buffer", "-"))
_LOCAL_TOOLS = (
    ("WAYLAND_DISPLAY", Route("wl-copy", ("wl-copy",))),
    ("DISPLAY", Route("xclip", ("xclip", "-selection", "clipboard", "-in"))),
    ("DISPLAY", Route("xsel", ("xsel", "--clipboard", "--input"))),
)


def over_ssh(environ: Mapping[str, str]) -> bool:
    return any(environ.get(name) for name in ("SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY"))


class Clipboard:
    """The routes to the clipboard this process has; `environ`, `run` and `which` stand for
    `os.environ`, `subprocess.run` and `shutil.which` (tests)."""

    def __init__(
        self,
        environ: Mapping[str, str] | None = None,
        *,
        run: Runner = subprocess.run,
        which: Callable[[str], str | None] = shutil.which,
        platform: str = sys.platform,
    ) -> None:
        self.environ = os.environ if environ is None else environ
        self.run = run
        self.which = which
        self.platform = platform

    @property
    def in_tmux(self) -> bool:
        return bool(self.environ.get("TMUX"))

    def routes(self) -> list[Route]:
        """The routes besides OSC 52: tmux when inside it, a desktop's tool when local."""
        routes = [TMUX] if self.in_tmux else []
        if over_ssh(self.environ):
            return routes
        if self.platform == "darwin":
            routes.append(Route("pbcopy", ("pbcopy",)))
        else:
            local = [route for env, route in _LOCAL_TOOLS if self.environ.get(env)]
            found = next((route for route in local if self.which(route.command[0])), None)
            if found is not None:
                routes.append(found)
        return routes

    def copy(self, text: str) -> CopyReport:
        """Copy `text` by every route (OSC 52 is the caller's); never raises."""
        report = CopyReport()
        data = text.encode("utf-8")
        for route in self.routes():
            error = self._run(route.command, data)
            if error and route.fallback:
                error = self._run(route.fallback, data)
            if error:
                report.failed.append((route.name, error))
            else:
                report.copied.append(route.name)
        return report

    def _run(self, command: Sequence[str], data: bytes) -> str:
        """ "" when the command took the text, else why not (one line)."""
        try:
            done = self.run(
                list(command),
                input=data,
                capture_output=True,
                timeout=TIMEOUT,
                check=False,
            )
        except FileNotFoundError:
            return f"{command[0]} is not installed"
        except subprocess.TimeoutExpired:
            return f"{command[0]} did not answer within {TIMEOUT:g} s"
        except OSError as error:
            return f"{command[0]}: {error.strerror or error}"
        if done.returncode != 0:
            said = (done.stderr or b"").decode("utf-8", "replace").strip().splitlines()
            return said[0] if said else f"{command[0]} failed (status {done.returncode})"
        return ""


def copy_message(what: str, preview: str, report: CopyReport, in_tmux: bool) -> str:
    """What the reader says after a copy: what was copied and where it went."""
    places = []
    if "tmux" in report.copied:
        places.append("tmux's paste buffer")
    places += [f"the clipboard ({name})" for name in report.copied if name != "tmux"]
    osc52 = "the terminal's clipboard (OSC 52"
    osc52 += ", if the terminal allows it)" if not places else ")"
    said = f"Copied the {what} to {', '.join([*places, osc52])}: {preview}"
    for name, why in report.failed:
        said += f" [{name} failed: {why}]"
    if in_tmux and "tmux" not in report.copied:
        said += " [inside tmux, OSC 52 arrives only with tmux's set-clipboard on]"
    return said


def tmux_query(args: Sequence[str], run: Runner = subprocess.run) -> str | None:
    """What `tmux ARGS` prints (stripped), or None when there is no tmux or no server."""
    try:
        done = run(["tmux", *args], capture_output=True, timeout=TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    return (done.stdout or b"").decode("utf-8", "replace").strip()
