"""Field text from BibTeX and JSON metadata, cleaned into the form the seeds use.

Sources write titles, abstracts and names with LaTeX escapes (`{B}ayesian`, `\\'{e}`, `\\&`),
LaTeX or HTML emphasis (`\\textit{..}`, `<em>..</em>`) and hard line wrapping. We turn them
into the seeds' form: Unicode text, markdown emphasis (`*..*`, `**..**`) and math left as
`$...$`, so that `display.display_text` renders every source alike.

The decoding is a small table of our own, not pylatexenc's latex2text: that one reads `%`
as a comment (dropping the rest of "75% of ..." in plain text), spaces out `&`, turns
PMLR's escaped apostrophes (`individual\\'s`) into accents and takes about 2 ms per abstract,
which is minutes for an arXiv-sized file. Text-mode LaTeX in metadata is a short list:
accents, a few special letters and symbols, font and citation commands.
"""

from __future__ import annotations

import html
import re
import unicodedata

from paperterm.index.text.display import COMBINING_ACCENTS

# Math spans, kept verbatim: $$..$$, \(..\), \[..\], and $..$ when it does not look like
# money ("$5 and $10": no space inside the dollars, no digit right after the closing one).
_MATH = re.compile(
    r"(?<!\\)\$\$.+?(?<!\\)\$\$|\\\(.+?\\\)|\\\[.+?\\\]"
    r"|(?<!\\)\$(?=[^\s$])(?:\\.|[^$\\])*?(?<=[^\s\\])\$(?!\d)",
    re.S,
)
_URL_MACRO = re.compile(r"\\url\s*\{([^{}]*)\}")
_HREF_MACRO = re.compile(r"\\href\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
# Authors escape `_`, `%`, `#`, `&` inside `\url{..}` out of habit; the URL means them bare.
_URL_ESCAPE = re.compile(r"\\([_%#&~$])")
_HELD = re.compile("\ue000(\\d+)\ue001")

_HTML_EMPHASIS = re.compile(r"<(em|i|b|strong)\b[^<>]*>(.*?)</\1\s*>", re.I | re.S)
_HTML_BREAK = re.compile(r"<br\s*/?>|</?p\b[^<>]*>", re.I)
_HTML_TAG = re.compile(r"</?[a-zA-Z][\w:-]*(?:\s[^<>]*)?/?>")
_HTML_ENTITY = re.compile(r"&(?:#\d+|#x[0-9a-fA-F]+|[a-zA-Z][a-zA-Z0-9]*);")

_LATEX_HINT = re.compile(r"[\\{}~`]|--|''")
# `\'` meant as an escaped apostrophe (PMLR: "individual\'s", "models\' weights", and
# "O\'Brien"): before a non-letter, a contraction's ending, or a capital inside a word.
_APOSTROPHE = re.compile(
    r"\\'(?=[\s,.;:!?)\]'\"]|$)|(?<=[A-Za-z])\\'(?=(?:s|t|m|d|ll|re|ve)\b|[A-Z][a-z])"
)
# `\"` meant as an escaped quote: an umlaut only goes on a vowel (or a braced/macro letter).
_QUOTE = re.compile(r"\\\"(?![aeiouyAEIOUY{\\])")
_ESCAPED = re.compile(r"\\([&%$#_{}])")
_TEXT_SPACE = re.compile(r"\\(?:\\|[ ,;:!/@])")
_COLOR = re.compile(r"\\(?:textcolor|colorbox)\s*\{[^{}]*\}")
_OLD_FONT = re.compile(r"\{\\(it|em|sl|bf|tt|sc|rm|sf|up|md|normalfont|small|large)\b\s*([^{}]*)\}")
_MACRO_WITH_ARGUMENT = re.compile(r"\\([A-Za-z]+)\*?\s*(?:\[[^\]]*\]\s*)*\{([^{}]*)\}")
# `\'e`, `\'{e}`, `{\'e}`, `\'\i`; the letter accents (`\c c`, `\v{s}`) need a brace or space.
_ACCENT = re.compile(
    r"\\(['`^\"~=.])\s*(?:\{\s*(\\[ij]|[A-Za-z])\s*\}|(\\[ij](?![A-Za-z])|[A-Za-z]))"
    r"|\\([cvuHrkdb])(?:\s*\{\s*(\\[ij]|[A-Za-z])\s*\}|\s+([A-Za-z]))"
)
_LETTERS = {
    "ss": "ß", "o": "ø", "O": "Ø", "aa": "å", "AA": "Å", "ae": "æ", "AE": "Æ", "oe": "œ",
    "OE": "Œ", "l": "ł", "L": "Ł", "i": "ı", "j": "ȷ", "dh": "ð", "DH": "Ð", "th": "þ",
    "TH": "Þ",
}  # fmt: skip
_SYMBOLS = {
    "ldots": "…", "dots": "…", "textellipsis": "…", "textendash": "–", "textemdash": "—",
    "textquoteleft": "‘", "textquoteright": "’", "textquotedblleft": "“",
    "textquotedblright": "”", "textasciitilde": "~", "textbackslash": "\\",
    "textdegree": "°", "textregistered": "®", "texttrademark": "™", "copyright": "©",
    "textbullet": "•", "S": "§", "P": "¶", "dag": "†", "ddag": "‡", "euro": "€",
    "pounds": "£", "times": "×", "pm": "±", "LaTeX": "LaTeX", "TeX": "TeX",
}  # fmt: skip
_EMPHASIS_MACROS = {"emph": "*", "textit": "*", "textsl": "*", "it": "*", "em": "*", "sl": "*",
                    "textbf": "**", "bf": "**"}  # fmt: skip
_CITATIONS = {"cite", "citep", "citet", "citealp", "citealt", "citeauthor", "citeyear"}
_DROPPED = {"label", "ref", "eqref", "vspace", "hspace"}
_CONTROL_WORD = re.compile(r"\\([A-Za-z]+)(?:\{\}|(?<=[A-Za-z])\s(?=\S))?")
_LONE_BACKSLASH = re.compile(r"\\(?![A-Za-z])")
_TIE = re.compile(r"(?<=\S)~(?=\S)")
_SINGLE_QUOTED = re.compile(r"(?<![\w`])`([^`'\n]{1,100})'(?![\w'])")
_BLANK_LINE = re.compile(r"\n[ \t\r\f\v]*\n\s*")
_WS = re.compile(r"\s+")
_MAX_PASSES = 8
_LBRACE, _RBRACE = "\ue002", "\ue003"  # escaped braces, safe from brace removal


def _emphasize(text: str, marker: str) -> str:
    """`marker`-wrap text, keeping its outer spaces outside (markdown needs `*word*`)."""
    core = text.strip()
    if not core:
        return text
    lead = text[: len(text) - len(text.lstrip())]
    trail = text[len(text.rstrip()) :]
    return f"{lead}{marker}{core}{marker}{trail}"


def _url(text: str) -> str:
    return _URL_ESCAPE.sub(r"\1", text.strip())


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


def _accent(match: re.Match[str]) -> str:
    mark = match.group(1) or match.group(4)
    base = match.group(2) or match.group(3) or match.group(5) or match.group(6)
    letter = {"\\i": "i", "\\j": "j"}.get(base, base)
    return unicodedata.normalize("NFC", letter + COMBINING_ACCENTS[mark])


def _macro(match: re.Match[str]) -> str:
    """A command with a braced argument (innermost first): fonts, citations, the rest."""
    name, argument = match.group(1), match.group(2)
    if name in _EMPHASIS_MACROS:
        return _emphasize(argument, _EMPHASIS_MACROS[name])
    if name in _CITATIONS:
        return f"[{argument.strip()}]" if argument.strip() else ""
    if name in _DROPPED:
        return ""
    if name in _LETTERS or name in _SYMBOLS:  # `\ss{}`-like use, or a symbol before a group
        return (_LETTERS.get(name) or _SYMBOLS[name]) + argument
    return argument  # \texttt, \textsc, \mbox, \footnote, unknown commands: their text


def _old_font(match: re.Match[str]) -> str:
    marker = _EMPHASIS_MACROS.get(match.group(1))
    return _emphasize(match.group(2), marker) if marker else match.group(2)


def _control_word(match: re.Match[str]) -> str:
    name = match.group(1)
    if name in _LETTERS:
        return _LETTERS[name]  # a control word swallows the space after it: Gei\ss ler
    symbol = _SYMBOLS.get(name, "")
    return symbol + (" " if match.group(0)[-1].isspace() else "")


def _decode_latex(text: str) -> str:
    if not _LATEX_HINT.search(text):
        return text
    text = _APOSTROPHE.sub("'", text)
    text = _QUOTE.sub('"', text)
    text = text.replace("\\{", _LBRACE).replace("\\}", _RBRACE)
    text = _ESCAPED.sub(r"\1", text)
    text = _TEXT_SPACE.sub(" ", text)
    text = _ACCENT.sub(_accent, text)
    text = _COLOR.sub("", text)
    for _ in range(_MAX_PASSES):  # nested groups, innermost first
        new = _MACRO_WITH_ARGUMENT.sub(_macro, _OLD_FONT.sub(_old_font, text))
        if new == text:
            break
        text = new
    text = _CONTROL_WORD.sub(_control_word, text)
    text = _LONE_BACKSLASH.sub("", text)
    text = text.replace("{", "").replace("}", "")
    text = _TIE.sub(" ", text)
    text = text.replace("``", "“").replace("''", "”")
    text = _SINGLE_QUOTED.sub(r"‘\1’", text)
    text = re.sub(r"(?<!-)---(?!-)", "—", text)
    text = re.sub(r"(?<=\s)--(?=\s)|(?<=\d)--(?=\d)", "–", text)
    return text.replace(_LBRACE, "{").replace(_RBRACE, "}")


def clean(value: str, *, paragraphs: bool = True) -> str:
    """Source markup to seed-style text; `paragraphs=False` gives one line (for titles)."""
    if not value:
        return ""
    held: list[str] = []

    def hold(text: str) -> str:
        held.append(text)
        return f"\ue000{len(held) - 1}\ue001"

    # Private-use characters are our placeholders; a source has no business using them.
    text = re.sub("[\ue000-\ue003]", "", value)
    text = _MATH.sub(lambda m: hold(m.group(0)), text)
    text = _HREF_MACRO.sub(lambda m: f"{m.group(2)} ({hold(_url(m.group(1)))})", text)
    text = _URL_MACRO.sub(lambda m: hold(_url(m.group(1))), text)
    text = _html_to_markdown(text)
    text = _decode_latex(text)
    text = _HELD.sub(lambda m: held[int(m.group(1))], text)
    if not paragraphs:
        return _WS.sub(" ", text).strip()
    parts = (_WS.sub(" ", part).strip() for part in _BLANK_LINE.split(text))
    return "\n\n".join(part for part in parts if part)
