"""Text in and out of the terminal: JSON output kept inert, arguments read as typed."""

from __future__ import annotations

import re

#: Characters that JSON may carry raw but a terminal could act on (C1 controls, bidi
#: controls, line/paragraph separators) or that no encoding can write (lone surrogates, from
#: file names that are not UTF-8). Escaped in every JSON line we print.
_JSON_UNSAFE = re.compile(
    "[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]"
)
_NON_ASCII = re.compile("[^\x00-\x7e]")  # DEL too: JSON leaves it raw


def _json_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code > 0xFFFF:  # JSON spells characters beyond the BMP as a surrogate pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def escape_json_for_terminal(text: str, ascii_only: bool = False) -> str:
    """JSON text with the characters a terminal could act on written as \\u escapes (they
    can only occur inside JSON strings, where an escape means the same). `ascii_only`
    escapes every non-ASCII character, for output that cannot encode them (`LC_ALL=C`)."""
    return (_NON_ASCII if ascii_only else _JSON_UNSAFE).sub(_json_escape, text)


def user_text(text: str) -> str:
    """An argument or stdin line as the user typed it.

    Bytes that Python could not decode in the locale's encoding arrive as lone surrogates
    (`surrogateescape`). They are usually UTF-8 read under a C locale, so they are decoded
    as UTF-8; what is not UTF-8 either becomes U+FFFD.
    """
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        pass
    try:
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate that no decoder made: not a byte of input
        raw = text.encode("utf-8", "replace")
    return raw.decode("utf-8", "replace")
