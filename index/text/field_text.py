"""Field text from BibTeX and JSON metadata: what is particular to those formats, undone.

Metadata often carries HTML (`<em>..</em>`, `<sup>2</sup>`, `&amp;`: arXiv listings, JATS
exports) and hard line wrapping. `clean` turns the HTML into the markdown the seeds use and
the wrapping into single spaces, with blank lines as paragraph breaks, and leaves LaTeX
alone: `display_text` decodes that for every source alike (`latex`), so the same abstract
reads the same from a .txt, .bib or .json file. BibTeX's protective braces (`{B}ayesian`)
are LaTeX groups to it.

`plain` is for the short fields the reader shows as they are (authors, volume and venue
names): one line of display text.
"""

from __future__ import annotations

import html
import re

from paperterm.index.text.display import display_text, one_line
from paperterm.index.text.spaces import printable_single_spaced, single_spaced

# Only HTML's own tags, with attributes that look like attributes: "<" is also math's
# ("$i<b$ and $c>0$").
_ATTRIBUTES = r"""(?:\s+[\w:-]+(?:\s*=\s*(?:"[^"<>]*"|'[^'<>]*'|[^\s"'<>]+))?)*\s*"""
_HTML_EMPHASIS = re.compile(rf"<(em|i|b|strong){_ATTRIBUTES}>(.*?)</\1\s*>", re.I | re.S)
_HTML_BREAK = re.compile(rf"<br{_ATTRIBUTES}/?>|</?p{_ATTRIBUTES}>", re.I)
_HTML_TAG = re.compile(
    r"</?(?:a|abbr|b|big|blockquote|code|div|em|font|h[1-6]|i|kbd|li|mark|ol|p|pre|q|s|samp|"
    rf"small|span|strike|strong|sub|sup|tt|u|ul|var|jats:[a-z-]+){_ATTRIBUTES}/?>",
    re.I,
)
_HTML_ENTITY = re.compile(r"&(?:#\d+|#x[0-9a-fA-F]+|[a-zA-Z][a-zA-Z0-9]*);")
_BLANK_LINE = re.compile(r"\n[ \t\r\f\v]*\n\s*")
_MAX_PASSES = 8
#: What `plain` may change besides white space: markup, LaTeX, TeX ligatures, URLs and a
#: space before punctuation. A value without any (most names) is only re-spaced.
_NOT_PLAIN = re.compile(r"[\\${}~`*<&]|''|--|://| [,.;:!?]")


def _emphasize(text: str, marker: str) -> str:
    """`marker`-wrap text, keeping its outer spaces outside (markdown needs `*word*`)."""
    core = text.strip()
    if not core:
        return text
    lead = text[: len(text) - len(text.lstrip())]
    trail = text[len(text.rstrip()) :]
    return f"{lead}{marker}{core}{marker}{trail}"


def _html_to_markdown(text: str) -> str:
    def emphasis(match: re.Match[str]) -> str:
        marker = "**" if match.group(1).lower() in ("b", "strong") else "*"
        return _emphasize(match.group(2), marker)

    for _ in range(_MAX_PASSES):  # nested emphasis, innermost first
        new = _HTML_EMPHASIS.sub(emphasis, text)
        if new == text:
            break
        text = new
    text = _HTML_BREAK.sub("\n\n", text)
    text = _HTML_TAG.sub("", text)
    return _HTML_ENTITY.sub(lambda m: html.unescape(m.group(0)), text)


def clean(value: str, *, paragraphs: bool = True) -> str:
    """Source markup to seed-style text; `paragraphs=False` gives one line (for titles)."""
    if not value:
        return ""
    text = _html_to_markdown(value) if "<" in value or "&" in value else value
    if not paragraphs or "\n" not in text:
        return single_spaced(text)
    parts = (single_spaced(part) for part in _BLANK_LINE.split(text))
    return "\n\n".join(part for part in parts if part)


def plain(value: str) -> str:
    """A short field (a name, a venue) as the reader shows it: one line of display text.

    A build calls this for every author of every record (a third of reading an arXiv row
    took the full path): a printable value with nothing to decode is only re-spaced."""
    if not value:
        return ""
    if value.isprintable() and not _NOT_PLAIN.search(value):
        return printable_single_spaced(value)
    return one_line(display_text(clean(value, paragraphs=False)))
