"""Fixtures for the end-to-end tests: the real `paperterm` in tmux, locally and over sshd.

Every test gets a sandbox (a fresh data dir, an empty config file and a private HOME and XDG
dirs, so nothing of the user's is read or written) and a private tmux server that is killed
in teardown whatever happens. The sshd fixture runs a throwaway OpenSSH server on
127.0.0.1 with its own host and client keys. Tests skip when tmux, sshd or ssh is missing.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from getpass import getuser
from pathlib import Path

import pytest
from e2e_sandbox import Sandbox, SshServer, require, which
from tmux_pane import POLL_SECONDS, WAIT_SECONDS, TmuxServer


@pytest.fixture
def sandbox(tmp_path: Path) -> Sandbox:
    return Sandbox(tmp_path / "sandbox")


@pytest.fixture
def tmux(tmp_path: Path, sandbox: Sandbox) -> Iterator[TmuxServer]:
    """A private tmux server whose panes get the sandbox's environment; killed in teardown."""
    require("tmux")
    workdir = tmp_path / "tmux"
    workdir.mkdir()
    server = TmuxServer(workdir, sandbox.env)
    try:
        yield server
    finally:
        server.kill()


@pytest.fixture(scope="session")
def seed_papers(tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    """`paperterm list --json` over the seeds, from a data dir of its own (so each test's
    data dir is still fresh: its reader is a first launch)."""
    result = Sandbox(tmp_path_factory.mktemp("seed-list")).cli("list", "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture(scope="session")
def caduceus_id(seed_papers: list[dict]) -> str:
    (found,) = [paper["id"] for paper in seed_papers if "Caduceus" in paper["abstract"]]
    return found


# --- a throwaway sshd ---------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _sshd_config(folder: Path, port: int) -> Path:
    config = folder / "sshd_config"
    config.write_text(
        f"Port {port}\n"
        "ListenAddress 127.0.0.1\n"
        f"HostKey {folder / 'host_key'}\n"
        f"AuthorizedKeysFile {folder / 'authorized_keys'}\n"
        "PubkeyAuthentication yes\n"
        "PasswordAuthentication no\n"
        "KbdInteractiveAuthentication no\n"
        "UsePAM no\n"
        f"PidFile {folder / 'sshd.pid'}\n"
        "StrictModes no\n"
        "PermitRootLogin prohibit-password\n"
        "PrintMotd no\n"
        "PrintLastLog no\n"
        "X11Forwarding no\n",
        encoding="utf-8",
    )
    return config


def _keygen(path: Path) -> None:
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "paperterm-e2e", "-f", str(path)],
        check=True,
        capture_output=True,
        timeout=30,
    )


def _wait_for_port(port: int, process: subprocess.Popen, log: Path) -> bool:
    """True once the port accepts connections; False if sshd exited first."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return True
        except OSError:
            time.sleep(POLL_SECONDS)
    raise AssertionError(f"sshd did not listen on port {port}: {log.read_text()}")


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _start_sshd(program: str, folder: Path) -> tuple[subprocess.Popen, int]:
    """sshd on a free port of 127.0.0.1, once it accepts connections."""
    log = folder / "sshd.log"
    for _attempt in range(3):  # another process may take the free port before sshd does
        port = _free_port()
        config = _sshd_config(folder, port)
        checked = subprocess.run(
            [program, "-t", "-f", str(config)], capture_output=True, text=True, timeout=30
        )
        assert checked.returncode == 0, f"sshd rejects its config: {checked.stderr}"
        with open(log, "wb") as log_file:
            process = subprocess.Popen(
                [program, "-D", "-e", "-f", str(config)],
                stdin=subprocess.DEVNULL,
                stdout=log_file,
                stderr=subprocess.STDOUT,
            )
        try:
            if _wait_for_port(port, process, log):
                return process, port
        except BaseException:
            _stop(process)
            raise
    raise AssertionError(f"sshd did not start: {log.read_text()}")


@pytest.fixture(scope="module")
def sshd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SshServer]:
    """A throwaway sshd on 127.0.0.1 that lets this user in with a throwaway key."""
    require("sshd", "ssh", "ssh-keygen")
    privsep = Path("/run/sshd")
    if not privsep.exists():
        try:
            privsep.mkdir(mode=0o755, parents=True)
        except OSError as error:
            pytest.skip(f"sshd needs {privsep}, which cannot be made: {error.strerror}")
    folder = tmp_path_factory.mktemp("sshd")
    _keygen(folder / "host_key")
    _keygen(folder / "client_key")
    shutil.copy(folder / "client_key.pub", folder / "authorized_keys")
    program = which("sshd")
    assert program is not None
    process, port = _start_sshd(program, folder)
    try:
        yield SshServer(port, folder / "client_key", getuser())
    finally:
        _stop(process)
