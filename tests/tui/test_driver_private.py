"""The private names of Textual's driver that the reader's driver relies on are there, and
one that goes missing is named."""

from __future__ import annotations

import pytest


def test_the_terminal_driver_names_a_private_name_textual_lost(monkeypatch):
    from textual.drivers.linux_driver import LinuxDriver

    from paperterm.tui import terminal

    terminal.check_textual_driver()
    monkeypatch.delattr(LinuxDriver, "_sigtstp_application")
    with pytest.raises(RuntimeError, match="_sigtstp_application"):
        terminal.check_textual_driver()
