"""What a notification may show, and what the link opener refuses.

A toast shows at most `NOTICE_LIMIT` characters (cut with `…`): a source's text (a URL of
hundreds of KiB, a long title) would otherwise fill the screen. A URL over `MAX_URL_BYTES`
is not handed to a browser: no browser command line takes an argument that long (Linux's
limit for one argument is 128 KiB), so the call would fail or open nothing.
"""

from __future__ import annotations

NOTICE_LIMIT = 400
#: The part of a toast that quotes outside text (a URL, a copied text), so that the words
#: around it, which say what happened, stay within `NOTICE_LIMIT`.
PREVIEW_LIMIT = 120
MAX_URL_BYTES = 128 * 1024


def capped(text: str, limit: int = NOTICE_LIMIT) -> str:
    """`text` cut to `limit` characters, its last an ellipsis, when it is longer."""
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


def url_too_long(url: str) -> bool:
    """Whether `url` is longer than a browser can be given (`MAX_URL_BYTES` in UTF-8)."""
    return len(url) > MAX_URL_BYTES or len(url.encode("utf-8", "replace")) > MAX_URL_BYTES


def opened(result: object) -> bool:
    """Whether a browser call opened the link: `webbrowser.open` returns False when no
    browser could be started (a test's opener may return None: no answer is success)."""
    return result is not False
