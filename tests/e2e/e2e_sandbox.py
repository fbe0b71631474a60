"""What the end-to-end tests share: a sandboxed environment for paperterm, the command that
runs it, the ssh client's command line."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from tmux_pane import WAIT_SECONDS

SSHD = Path("/usr/sbin/sshd")


def require(*programs: str) -> None:
    """Skip the test unless every program is installed."""
    missing = [name for name in programs if which(name) is None]
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)} (.ci/run installs them)")


def which(name: str) -> str | None:
    if name == "sshd":
        found = shutil.which("sshd")
        return found or (str(SSHD) if SSHD.exists() else None)
    return shutil.which(name)


def paperterm_argv() -> list[str]:
    """The installed `paperterm` script next to this Python, else the module."""
    script = Path(sys.executable).parent / "paperterm"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "paperterm.tui.cli.main"]


@dataclass
class Sandbox:
    """Where one test's paperterm keeps its files, and the environment that points there."""

    root: Path
    data_dir: Path = field(init=False)
    config: Path = field(init=False)
    home: Path = field(init=False)

    def __post_init__(self) -> None:
        self.data_dir = self.root / "data"
        self.root.mkdir(parents=True, exist_ok=True)
        self.config = self.root / "config.toml"
        self.config.write_text("", encoding="utf-8")
        self.home = self.root / "home"
        for sub in ("config", "data", "state", "cache"):
            (self.home / sub).mkdir(parents=True)

    @property
    def paperterm_env(self) -> dict[str, str]:
        """What paperterm needs (also passed through ssh, in the remote command)."""
        return {
            "PAPERTERM_DATA_DIR": str(self.data_dir),
            "PAPERTERM_CONFIG": str(self.config),
            "XDG_CONFIG_HOME": str(self.home / "config"),
            "XDG_DATA_HOME": str(self.home / "data"),
            "XDG_STATE_HOME": str(self.home / "state"),
            "XDG_CACHE_HOME": str(self.home / "cache"),
            "LANG": "C.UTF-8",
        }

    @property
    def env(self) -> dict[str, str]:
        """A whole, minimal environment: for tmux servers and subprocesses."""
        return {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "TERM": "xterm-256color",
            **self.paperterm_env,
        }

    def crash_logs(self) -> list[Path]:
        """Logs the CLI writes for an unexpected failure (under XDG_STATE_HOME)."""
        return sorted((self.home / "state").rglob("*.log"))

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        """`paperterm ARGS` without a terminal, as a script would run it."""
        return subprocess.run(
            [*paperterm_argv(), *args],
            env=self.env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
        )


@dataclass
class SshServer:
    port: int
    client_key: Path
    user: str

    def argv(self, remote_command: str, *, tty: bool) -> list[str]:
        """`ssh` to this server running `remote_command`; `-t` or `-T` as asked."""
        return [
            "ssh",
            "-t" if tty else "-T",
            "-F", "/dev/null",
            "-p", str(self.port),
            "-i", str(self.client_key),
            "-o", "IdentitiesOnly=yes",
            "-o", "StrictHostKeyChecking=no",
            "-o", "UserKnownHostsFile=/dev/null",
            "-o", "BatchMode=yes",
            "-o", "LogLevel=ERROR",
            "-o", f"ConnectTimeout={int(WAIT_SECONDS)}",
            f"{self.user}@127.0.0.1",
            remote_command,
        ]  # fmt: skip
