"""Issue 3: the reader over a real SSH connection (a throwaway sshd on 127.0.0.1), with and
without a terminal."""

from __future__ import annotations

import json
import shlex
import subprocess

import pytest
from e2e_sandbox import Sandbox, SshServer, paperterm_argv
from reader_flow import search_bookmark_quit
from tmux_pane import WAIT_SECONDS, TmuxServer

pytestmark = pytest.mark.slow  # end-to-end


def remote_command(sandbox: Sandbox, *args: str) -> str:
    """The command line the remote shell runs: paperterm with the sandbox's environment
    (passed in the command, as sshd forwards no environment but TERM)."""
    assignments = [f"{key}={value}" for key, value in sandbox.paperterm_env.items()]
    return shlex.join(["env", *assignments, *paperterm_argv(), *args])


def ssh(sshd: SshServer, command: str) -> subprocess.CompletedProcess[str]:
    """`ssh -T host command` from a script: no terminal on either side."""
    return subprocess.run(
        sshd.argv(command, tty=False),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=4 * WAIT_SECONDS,
    )


def test_search_bookmark_and_quit_over_ssh(
    tmux: TmuxServer, sandbox: Sandbox, sshd: SshServer, caduceus_id: str
) -> None:
    pane = tmux.start(sshd.argv(remote_command(sandbox), tty=True))

    search_bookmark_quit(pane, sandbox.data_dir, caduceus_id)  # ssh's own exit status: 0

    assert sandbox.crash_logs() == []


def test_reader_without_a_terminal_refuses_in_one_line(sandbox: Sandbox, sshd: SshServer) -> None:
    result = ssh(sshd, remote_command(sandbox))

    assert result.returncode == 2, result
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "terminal" in lines[0] and "ssh -t" in lines[0], lines[0]
    assert "Traceback" not in result.stderr


def test_search_without_a_terminal_prints_json(
    sandbox: Sandbox, sshd: SshServer, caduceus_id: str
) -> None:
    result = ssh(sshd, remote_command(sandbox, "search", "DNA", "--json"))

    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert found["query"] == "DNA"
    assert found["total"] == 1
    assert [hit["id"] for hit in found["hits"]] == [caduceus_id]
