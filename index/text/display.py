"""Text made safe and readable for a terminal.

`safe_text` is the primitive every layer uses before content reaches the screen: abstracts
come from files we do not control, and an escape sequence or a bidi override in one of them
must not be able to move the cursor, retitle the window or reorder what the reader sees.
`one_line` makes list rows.

`display_text` is what the reader shows of an abstract (or a title, or an author's name),
whatever source it came from: safe text, paragraphs kept, LaTeX and math decoded by the one
decoder (`latex`), markdown emphasis dropped, white space made single.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from paperterm.index.text.latex import Held, decode
from paperterm.index.text.spaces import (
    is_printable_but_newlines,
    printable_single_spaced,
    single_spaced,
)

# --------------------------------------------------------------------------- safe_text

# Whole escape sequences, so that their parameters do not survive as stray text.
# CSI (ESC [ or 8-bit CSI): parameter bytes, intermediate bytes, a final byte.
# OSC, DCS, SOS, PM, APC (ESC ] P X ^ _ or their 8-bit forms): a string up to BEL or ST
# (ESC \ or 8-bit ST); the string stops at the next introducer, which keeps this linear.
# Any other ESC: intermediate bytes and a final byte (ESC ( B, ESC 7, ESC c ...).
_ESCAPE_SEQUENCE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])(?:[^\x07\x1b\x80-\x9f]*(?:\x07|\x1b\\|\x9c))?"
    r"|\x1b[ -/]*[0-~]?"
)
_ESCAPE_START = re.compile(r"[\x1b\x90\x98\x9b\x9d\x9e\x9f]")
_LINE_BREAKS = re.compile(r"\r\n?|[\x0b\x0c\x85\u2028]")
# Zero-width joiner (emoji sequences) and non-joiner (Persian, Indic scripts) are format
# characters that text needs; every other format character (bidi controls, zero-width
# spaces, tag characters, the BOM, soft hyphens) is invisible and is removed.
_KEEP_FORMAT = frozenset("\u200c\u200d")


@lru_cache(maxsize=4096)
def _replacement(char: str) -> str:
    """What a character that `str.isprintable` rejects becomes on screen."""
    category = unicodedata.category(char)
    if category == "Zs":
        return " "
    if category in ("Co", "Cn") or char in _KEEP_FORMAT:
        # Private use (icon fonts) and code points newer than this Python's Unicode data.
        return char
    return ""  # Cc, Cf, Cs


def safe_text(s: str, *, keep_newlines: bool = True) -> str:
    """`s` without anything that could drive the terminal instead of being shown.

    Removes C0 controls except the newline (a tab becomes a space; CR, CRLF, VT, FF, NEL
    and U+2028 become newlines, U+2029 a paragraph break), DEL, C1 controls, whole
    ESC/CSI/OSC/DCS/SOS/PM/APC sequences, bidi controls and every other invisible format
    character except ZWJ and ZWNJ, and lone surrogates. With `keep_newlines=False` line
    breaks become spaces too.
    """
    if is_printable_but_newlines(s):
        # Nothing to remove, nor a line break to make a newline (ESC, C1 controls, CR, tabs,
        # U+2028/9 are all unprintable): most abstracts, at a fifth of the passes' cost.
        return s if keep_newlines else s.replace("\n", " ")
    if _ESCAPE_START.search(s):
        s = _ESCAPE_SEQUENCE.sub("", s)
    s = _LINE_BREAKS.sub("\n", s).replace("\u2029", "\n\n").replace("\t", " ")
    if not keep_newlines:
        s = s.replace("\n", " ")
    if is_printable_but_newlines(s):
        return s
    return "".join(ch if ch.isprintable() or ch == "\n" else _replacement(ch) for ch in s)


def one_line(s: str, limit: int | None = None) -> str:
    """`s` on one line with single spaces, cut at a word boundary with `…` past `limit`."""
    # Printable (most headlines): `safe_text` keeps it as it is, and it has no line break.
    text = printable_single_spaced(s) if s.isprintable() else single_spaced(safe_text(s))
    if limit is None or len(text) <= limit:
        return text
    if limit <= 1:
        return "…"[: max(limit, 0)]
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.-–—(") + "…"


# --------------------------------------------------------------------------- display_text

_PARAGRAPH_BREAK = re.compile(r"\n[ ]*\n\s*")
# Stars (1 to 3) not after a word character, a star or a backslash, around text. Written
# to start with a star, which lets the pattern skip to the next one: a lookbehind first
# made it try every position of the paragraph.
_EMPHASIS = re.compile(
    r"(\*)(?<![\w*\\]\*)(\*{0,2})(?=[^\s*])(.{1,300}?)(?<=[^\s*])\1\2(?!\*)", re.DOTALL
)
_SPACE_BEFORE_PUNCT = re.compile(r" +(?=[,.;:!?](?:\s|$))")
#: A space before punctuation, which `_SPACE_BEFORE_PUNCT` needs: found in less than half
#: the time of looking for each of " ,", " .", ... in turn.
_A_SPACE_BEFORE = re.compile(" [,.;:!?]")


def _render_paragraph(text: str) -> str:
    held = Held()
    text = decode(text, held)
    if "*" in text:
        for _ in range(3):  # nested emphasis, outermost first
            new = _EMPHASIS.sub(r"\3", text)
            if new == text:
                break
            text = new
    text = single_spaced(held.restore(text))
    if _A_SPACE_BEFORE.search(text):  # a quarter of the pattern's time
        text = _SPACE_BEFORE_PUNCT.sub("", text)
    return text


@lru_cache(maxsize=256)
def display_text(raw: str) -> str:
    """An abstract as readable plain text: emphasis and LaTeX rendered, controls removed.

    Paragraphs are kept (separated by one blank line); inside a paragraph every run of
    white space, line breaks included, becomes one space. Cached, because the index build
    asks for the same abstract's text when it derives its name and title.
    """
    text = safe_text(raw).strip()
    paragraphs = _PARAGRAPH_BREAK.split(text) if "\n" in text else [text]
    return "\n\n".join(p for p in map(_render_paragraph, paragraphs) if p)
