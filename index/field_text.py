"""Field text from BibTeX and JSON metadata, cleaned into the form the seeds use.

Sources write titles and abstracts with LaTeX escapes (`{B}ayesian`, `\\'{e}`, `\\&`), LaTeX
or HTML emphasis (`\\textit{..}`, `<em>..</em>`) and hard line wrapping. We turn them into
the seeds' form: Unicode text, markdown emphasis (`*..*`, `**..**`) and math left as
`$...$`, so that `display.display_text` renders all sources alike. Decoding is done by
pylatexenc (a dependency of bibtexparser) with a few macros redefined; math, URLs and
literal tildes are set aside first so that it never touches them.
"""

from __future__ import annotations

import html
import re

from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

# Math spans, kept verbatim: $$..$$, $..$, \(..\), \[..\] (an escaped \$ opens nothing).
_MATH = re.compile(
    r"(?<!\\)\$\$.+?(?<!\\)\$\$|(?<!\\)\$(?:\\.|[^$\\])+?\$|\\\(.+?\\\)|\\\[.+?\\\]", re.S
)
_URL_MACRO = re.compile(r"\\url\s*\{([^{}]*)\}")
_HREF_MACRO = re.compile(r"\\href\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
# A `~` after white space is a literal tilde ("~5 GPUs"); between words it is a LaTeX tie.
# Authors escape `_`, `%`, `#`, `&` inside `\url{..}` out of habit; the URL means them bare.
_URL_ESCAPE = re.compile(r"\\([_%#&~$])")
_LITERAL_TILDE = re.compile(r"(?:(?<=\s)|^)~")
_KEEP = re.compile("\ue000(\\d+)\ue001")

_HTML_EMPHASIS = re.compile(r"<(em|i|b|strong)\b[^<>]*>(.*?)</\1\s*>", re.I | re.S)
_HTML_BREAK = re.compile(r"<br\s*/?>|</?p\b[^<>]*>", re.I)
_HTML_TAG = re.compile(r"</?[a-zA-Z][\w:-]*(?:\s[^<>]*)?/?>")
_HTML_ENTITY = re.compile(r"&(?:#\d+|#x[0-9a-fA-F]+|[a-zA-Z][a-zA-Z0-9]*);")

# Characters LaTeX treats specially that plain-text authors use literally.
_BARE_PERCENT_AMP = re.compile(r"(?<!\\)([%&])")
# `\'` meant as an escaped apostrophe (PMLR: "individual\'s", "models\' weights").
_APOSTROPHE = re.compile(r"\\'(?=[\s,.;:!?)\]'\"]|$)|(?<=[A-Za-z])\\'(?=(?:s|t|m|d|ll|re|ve)\b)")
# `\"` meant as an escaped quote: an umlaut only goes on a vowel (or a braced/macro letter).
_QUOTE = re.compile(r"\\\"(?![aeiouyAEIOUY{\\])")
_LATEX_HINT = re.compile(r"[\\{}~`]|--|''")
_MACRO_NAME = re.compile(r"\\[a-zA-Z]+\*?|\\.")
_BLANK_LINE = re.compile(r"\n[ \t\r\f\v]*\n\s*")
_WS = re.compile(r"\s+")


def _emphasize(text: str, marker: str) -> str:
    """`marker`-wrap text, keeping its outer spaces outside (markdown needs `*word*`)."""
    core = text.strip()
    if not core:
        return text
    lead = text[: len(text) - len(text.lstrip())]
    trail = text[len(text.rstrip()) :]
    return f"{lead}{marker}{core}{marker}{trail}"


def _last_arg_text(node, l2tobj) -> str:
    args = [arg for arg in (node.nodeargd.argnlist if node.nodeargd else []) if arg is not None]
    return l2tobj.nodelist_to_text([args[-1]]) if args else ""


def _emphasis_spec(name: str, marker: str) -> MacroTextSpec:
    return MacroTextSpec(
        name, simplify_repl=lambda n, l2tobj: _emphasize(_last_arg_text(n, l2tobj), marker)
    )


def _citation(node, l2tobj) -> str:
    keys = _last_arg_text(node, l2tobj).strip()
    return f"[{keys}]" if keys else ""


def _context():
    db = get_default_latex_context_db()
    macros = [
        *(_emphasis_spec(name, "*") for name in ("emph", "textit", "textsl", "mathit")),
        _emphasis_spec("textbf", "**"),
        *(
            MacroTextSpec(name, simplify_repl=_citation)
            for name in ("cite", "citep", "citet", "citealp", "citealt", "citeauthor")
        ),
    ]
    db.add_context_category("paperterm-fields", macros=macros, prepend=True)
    return db


_DECODER = LatexNodes2Text(latex_context=_context(), math_mode="verbatim", strict_latex_spaces=True)


def _url(text: str) -> str:
    return _URL_ESCAPE.sub(r"\1", text.strip())


def _html_to_markdown(text: str) -> str:
    def emphasis(match: re.Match[str]) -> str:
        marker = "**" if match.group(1).lower() in ("b", "strong") else "*"
        return _emphasize(match.group(2), marker)

    previous = None
    while previous != text:  # nested emphasis: innermost first
        previous, text = text, _HTML_EMPHASIS.sub(emphasis, text)
    text = _HTML_BREAK.sub("\n\n", text)
    text = _HTML_TAG.sub("", text)
    return _HTML_ENTITY.sub(lambda m: html.unescape(m.group(0)), text)


def _decode_latex(text: str) -> str:
    if not _LATEX_HINT.search(text):
        return text
    text = _BARE_PERCENT_AMP.sub(r"\\\1", text)
    text = _APOSTROPHE.sub("'", text)
    text = _QUOTE.sub('"', text)
    try:
        decoded = _DECODER.latex_to_text(text, tolerant_parsing=True)
    except Exception:  # pylatexenc raises on some malformed macros; strip them instead
        decoded = _MACRO_NAME.sub("", text).replace("{", "").replace("}", "")
    return decoded.replace("\xa0", " ")


def clean(value: str, *, paragraphs: bool = True) -> str:
    """Source markup to seed-style text; `paragraphs=False` gives one line (for titles)."""
    if not value:
        return ""
    kept: list[str] = []
    value = value.replace("\ue000", "").replace("\ue001", "")

    def keep(text: str) -> str:
        kept.append(text)
        return f"\ue000{len(kept) - 1}\ue001"

    text = _MATH.sub(lambda m: keep(m.group(0)), value)
    text = _HREF_MACRO.sub(lambda m: f"{m.group(2)} ({keep(_url(m.group(1)))})", text)
    text = _URL_MACRO.sub(lambda m: keep(_url(m.group(1))), text)
    text = _LITERAL_TILDE.sub(lambda m: keep("~"), text)
    text = _html_to_markdown(text)
    text = _decode_latex(text)
    text = _KEEP.sub(lambda m: kept[int(m.group(1))], text)
    if not paragraphs:
        return _WS.sub(" ", text).strip()
    parts = (_WS.sub(" ", part).strip() for part in _BLANK_LINE.split(text))
    return "\n\n".join(part for part in parts if part)
