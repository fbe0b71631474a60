"""What a controller tells the user: a text and its severity, as Textual's toasts take
them (the same three names, without importing Textual)."""

from __future__ import annotations

from typing import Literal, NamedTuple

Severity = Literal["information", "warning", "error"]


class Notice(NamedTuple):
    """A message for the user and its severity."""

    text: str
    severity: Severity = "information"
