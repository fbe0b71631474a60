"""Keeping JSON output inert on a terminal."""

from __future__ import annotations

#: Characters that JSON may carry raw but a terminal could act on: C1 controls, bidi
#: overrides, line/paragraph separators. Escaped in every JSON line we print.
_JSON_UNSAFE = {
    c: f"\\u{c:04x}"
    for c in [
        *range(0x7F, 0xA0),
        *range(0x202A, 0x202F),
        *range(0x2066, 0x206A),
        0x200E,
        0x200F,
        0x061C,
        0x2028,
        0x2029,
    ]
}


def escape_json_for_terminal(text: str) -> str:
    """JSON text with the characters a terminal could act on written as \\u escapes (they
    can only occur inside JSON strings, where an escape means the same)."""
    return text.translate(_JSON_UNSAFE)
