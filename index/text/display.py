"""Text made safe and readable for a terminal.

`safe_text` is the primitive every layer uses before content reaches the screen: abstracts
come from files we do not control, and an escape sequence or a bidi override in one of them
must not be able to move the cursor, retitle the window or reorder what the reader sees.

`display_text` turns an abstract's markdown emphasis and inline LaTeX into plain Unicode
text. It uses a compact table of our own rather than pylatexenc: pylatexenc reads `%` as a
comment (dropping the rest of the line in plain-text abstracts such as "8.6% on"), treats
the dollar signs of "$5 and $10" as math, renders `\\mathsf{DirMixE}` as sans-serif math
letters instead of a plain name, has no Unicode sub- or superscripts and takes about 4 ms
per abstract, too slow for a 50,000-abstract index build. `one_line` makes list rows.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

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
    if _ESCAPE_START.search(s):
        s = _ESCAPE_SEQUENCE.sub("", s)
    s = _LINE_BREAKS.sub("\n", s).replace("\u2029", "\n\n").replace("\t", " ")
    if not keep_newlines:
        s = s.replace("\n", " ")
    if s.replace("\n", "").isprintable():
        return s
    return "".join(ch if ch.isprintable() or ch == "\n" else _replacement(ch) for ch in s)


def one_line(s: str, limit: int | None = None) -> str:
    """`s` on one line with single spaces, cut at a word boundary with `…` past `limit`."""
    text = " ".join(safe_text(s, keep_newlines=False).split())
    if limit is None or len(text) <= limit:
        return text
    if limit <= 1:
        return "…"[: max(limit, 0)]
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:.-–—(") + "…"


# --------------------------------------------------------------------------- math tables

_GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ",
    "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "varpi": "ϖ", "rho": "ρ",
    "varrho": "ϱ", "sigma": "σ", "varsigma": "ς", "tau": "τ", "upsilon": "υ", "phi": "φ",
    "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ",
    "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ", "Upsilon": "Υ",
    "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
}  # fmt: skip

_SYMBOLS = {
    **_GREEK,
    "times": "×", "cdot": "·", "div": "÷", "pm": "±", "mp": "∓", "ast": "∗", "star": "⋆",
    "circ": "∘", "bullet": "•", "oplus": "⊕", "otimes": "⊗", "odot": "⊙",
    "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "leqslant": "≤", "geqslant": "≥",
    "neq": "≠", "ne": "≠", "approx": "≈", "sim": "~", "simeq": "≃", "cong": "≅",
    "equiv": "≡", "propto": "∝", "ll": "≪", "gg": "≫", "prec": "≺", "succ": "≻",
    "in": "∈", "notin": "∉", "ni": "∋", "subset": "⊂", "subseteq": "⊆", "supset": "⊃",
    "supseteq": "⊇", "cup": "∪", "cap": "∩", "bigcup": "⋃", "bigcap": "⋂", "setminus": "∖",
    "emptyset": "∅", "varnothing": "∅", "forall": "∀", "exists": "∃", "neg": "¬", "lnot": "¬",
    "land": "∧", "wedge": "∧", "lor": "∨", "vee": "∨", "top": "⊤", "bot": "⊥", "perp": "⊥",
    "mid": "|", "parallel": "∥", "vert": "|", "Vert": "‖", "|": "‖",
    "to": "→", "rightarrow": "→", "leftarrow": "←", "gets": "←", "leftrightarrow": "↔",
    "Rightarrow": "⇒", "Leftarrow": "⇐", "Leftrightarrow": "⇔", "implies": "⇒", "iff": "⇔",
    "mapsto": "↦", "uparrow": "↑", "downarrow": "↓", "longrightarrow": "⟶",
    "infty": "∞", "partial": "∂", "nabla": "∇", "sum": "∑", "prod": "∏", "int": "∫",
    "oint": "∮", "sqrt": "√", "ell": "ℓ", "hbar": "ℏ", "imath": "ı", "jmath": "ȷ",
    "aleph": "ℵ", "Re": "ℜ", "Im": "ℑ", "wp": "℘", "prime": "′", "angle": "∠",
    "triangle": "△", "dagger": "†", "ddagger": "‡", "checkmark": "✓", "degree": "°",
    "langle": "⟨", "rangle": "⟩", "lceil": "⌈", "rceil": "⌉", "lfloor": "⌊", "rfloor": "⌋",
    "lbrace": "{", "rbrace": "}", "ldots": "…", "dots": "…", "cdots": "⋯", "vdots": "⋮",
    "ddots": "⋱", "colon": ":", "S": "§", "copyright": "©", "dag": "†",
    "quad": " ", "qquad": " ", ",": " ", ";": " ", ":": " ", " ": " ", "!": "", "\\": " ",
    "%": "%", "&": "&", "#": "#", "_": "_", "$": "$", "{": "{", "}": "}",
    "log": "log", "ln": "ln", "exp": "exp", "sin": "sin", "cos": "cos", "tan": "tan",
    "tanh": "tanh", "max": "max", "min": "min", "arg": "arg", "argmax": "argmax",
    "argmin": "argmin", "lim": "lim", "sup": "sup", "inf": "inf", "det": "det", "dim": "dim",
    "ker": "ker", "Pr": "Pr", "deg": "deg", "gcd": "gcd", "mod": "mod", "bmod": "mod",
    "LaTeX": "LaTeX", "TeX": "TeX",
    # Sizing and spacing that have nothing to show.
    "left": "", "right": "", "big": "", "Big": "", "bigg": "", "Bigg": "", "bigl": "",
    "bigr": "", "Bigl": "", "Bigr": "", "biggl": "", "biggr": "", "middle": "",
    "displaystyle": "", "textstyle": "", "scriptstyle": "", "limits": "", "nolimits": "",
    "nonumber": "", "notag": "", "relax": "",
}  # fmt: skip


def _alphabet(upper: int, lower: int, digits: int | None, holes: dict[str, str]) -> dict:
    table = {chr(65 + k): chr(upper + k) for k in range(26)}
    table |= {chr(97 + k): chr(lower + k) for k in range(26)}
    if digits is not None:
        table |= {chr(48 + k): chr(digits + k) for k in range(10)}
    return table | holes


_BOLD = _alphabet(0x1D400, 0x1D41A, 0x1D7CE, {})
_DOUBLE_STRUCK = _alphabet(
    0x1D538, 0x1D552, 0x1D7D8,
    {"C": "ℂ", "H": "ℍ", "N": "ℕ", "P": "ℙ", "Q": "ℚ", "R": "ℝ", "Z": "ℤ"},
)  # fmt: skip
_SCRIPT = _alphabet(
    0x1D49C, 0x1D4B6, None,
    {"B": "ℬ", "E": "ℰ", "F": "ℱ", "H": "ℋ", "I": "ℐ", "L": "ℒ", "M": "ℳ", "R": "ℛ",
     "e": "ℯ", "g": "ℊ", "o": "ℴ"},
)  # fmt: skip
_FRAKTUR = _alphabet(0x1D504, 0x1D51E, None, {"C": "ℭ", "H": "ℌ", "I": "ℑ", "R": "ℜ", "Z": "ℨ"})
# A letter in one of these alphabets; a longer group (`\mathbf{DUPLEX}`) stays plain text.
_LETTER_FONTS = {
    "mathbf": _BOLD, "boldsymbol": _BOLD, "bm": _BOLD, "mathbb": _DOUBLE_STRUCK,
    "mathcal": _SCRIPT, "mathscr": _SCRIPT, "mathfrak": _FRAKTUR,
}  # fmt: skip
_PLAIN_FONTS = frozenset((
    "mathrm", "mathsf", "mathit", "mathtt", "mathnormal", "text", "textrm", "textsf", "textit",
    "textbf", "texttt", "textsc", "textup", "textnormal", "textmd", "emph", "operatorname",
    "mbox", "hbox", "underline"
))  # fmt: skip
_ACCENTS = {
    "hat": "\u0302", "widehat": "\u0302", "tilde": "\u0303", "widetilde": "\u0303",
    "bar": "\u0304", "overline": "\u0304", "vec": "\u20d7", "dot": "\u0307",
    "ddot": "\u0308", "check": "\u030c", "breve": "\u0306", "acute": "\u0301",
    "grave": "\u0300",
}  # fmt: skip
_FRACTIONS = frozenset({"frac", "dfrac", "tfrac", "cfrac"})

_SUPERSCRIPT = dict(
    zip(
        "0123456789+-=()abcdefghijklmnoprstuvwxyzABDEGHIJKLMNOPRTUVWαβγδεθιφχ−′*∗⊤∘",
        "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵅᵝᵞᵟᵋᶿᶥᵠᵡ⁻′**ᵀ°",
        strict=True,
    )
)
_SUBSCRIPT = dict(
    zip(
        "0123456789+-=()aehijklmnoprstuvxβγρφχ−",
        "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪ₋",
        strict=True,
    )
)
_MATH_TOKEN = re.compile(r"\\[A-Za-z]+|\\.?|\s+|.", re.DOTALL)
_MAX_DEPTH = 40


def _script(body: str, marker: str) -> str:
    """`body` as a Unicode superscript (`^`) or subscript (`_`), or `^(...)` without one."""
    table = _SUPERSCRIPT if marker == "^" else _SUBSCRIPT
    if not body:
        return ""
    if all(ch in table for ch in body):
        return "".join(table[ch] for ch in body)
    return marker + body if len(body) == 1 else f"{marker}({body})"


def _wrap(part: str) -> str:
    """A fraction's numerator or denominator, in parentheses when it is not one term."""
    if len(part) <= 1 or re.fullmatch(r"[\w.′]+", part):
        return part
    return f"({part})"


class _MathRenderer:
    """A small recursive reader of the TeX math that abstracts use."""

    def __init__(self, tex: str) -> None:
        self.tokens = _MATH_TOKEN.findall(tex)
        self.pos = 0
        self.depth = 0

    def render(self) -> str:
        return self._sequence(closing=False)

    def _sequence(self, *, closing: bool) -> str:
        out: list[str] = []
        while self.pos < len(self.tokens):
            token = self.tokens[self.pos]
            if token == "}":
                self.pos += 1
                if closing:
                    break
                continue
            out.append(self._atom())
        return "".join(out)

    def _group(self) -> str:
        self.depth += 1
        try:
            if self.depth > _MAX_DEPTH:  # absurd nesting: show the rest as it is
                rest = "".join(self.tokens[self.pos :])
                self.pos = len(self.tokens)
                return rest
            return self._sequence(closing=True)
        finally:
            self.depth -= 1

    def _argument(self) -> str:
        """The next argument of a command: a `{...}` group or one token."""
        while self.pos < len(self.tokens) and self.tokens[self.pos].isspace():
            self.pos += 1
        if self.pos >= len(self.tokens) or self.tokens[self.pos] == "}":
            return ""
        if self.tokens[self.pos] == "{":
            self.pos += 1
            return self._group()
        return self._atom()

    def _atom(self) -> str:
        token = self.tokens[self.pos]
        self.pos += 1
        if token == "{":
            return self._group()
        if token in ("^", "_"):
            return _script(self._argument().strip(), token)
        if token == "'":
            return "′"
        if token.isspace():
            return "" if self._hugs_symbol(self.pos - 1) else " "
        if token in ("~", "&"):
            return " "
        if token.startswith("\\"):
            return self._command(token[1:])
        return token

    def _hugs_symbol(self, index: int) -> bool:
        """Whether the space at `index` only ends a symbol command written without a space
        before it (`2.1\\times\\sim 5` -> `2.1×~5`, but `c \\geq 1` -> `c ≥ 1`)."""
        before = self.tokens[index - 1] if index > 0 else ""
        if not (before[:1] == "\\" and before[1:].isalpha()):
            return False
        symbol = _SYMBOLS.get(before[1:], "")
        spaced = index > 1 and self.tokens[index - 2].isspace()
        return bool(symbol.strip()) and not symbol[0].isalnum() and not spaced

    def _command(self, name: str) -> str:
        if name in _FRACTIONS:
            numerator = self._argument().strip()
            return f"{_wrap(numerator)}/{_wrap(self._argument().strip())}"
        if name == "sqrt":
            index = self._optional()
            body = _wrap(self._argument().strip())
            root = {"3": "∛", "4": "∜"}.get(index, _script(index, "^") + "√" if index else "√")
            return root + body
        if name in _LETTER_FONTS:
            body = self._argument()
            table = _LETTER_FONTS[name]
            if len(body) == 1 or (table is _DOUBLE_STRUCK and 1 <= len(body) <= 3):
                return "".join(table.get(ch, ch) for ch in body)
            return body
        if name in _PLAIN_FONTS:
            return self._argument()
        if name in _ACCENTS:
            body = self._argument()
            return unicodedata.normalize("NFC", body + _ACCENTS[name]) if len(body) == 1 else body
        if name == "not":
            body = self._argument()
            return {"=": "≠", "∈": "∉", "⊂": "⊄", "≡": "≢"}.get(body, body + "\u0338")
        if name in ("left", "right") and self.tokens[self.pos : self.pos + 1] == ["."]:
            self.pos += 1  # `\left.`: an invisible delimiter
        if name in ("label", "tag", "cite", "citep", "citet", "ref", "eqref"):
            self._argument()
            return ""
        return _SYMBOLS.get(name, name)

    def _optional(self) -> str:
        """A `[...]` optional argument (for `\\sqrt[n]{x}`), or ""."""
        if self.pos < len(self.tokens) and self.tokens[self.pos] == "[":
            end = self.tokens.index("]", self.pos) if "]" in self.tokens[self.pos :] else -1
            if end > 0:
                inner = "".join(self.tokens[self.pos + 1 : end]).strip()
                self.pos = end + 1
                return inner
        return ""


def render_math(tex: str) -> str:
    """Inline TeX math as Unicode text: `\\sum_t c(\\mathbf{x}_t) \\geq 1` -> `∑ₜ c(𝐱ₜ) ≥ 1`."""
    return _MathRenderer(tex).render()


# --------------------------------------------------------------------------- display_text

# Sentinels: `safe_text` has removed every C0 control, so these cannot occur in the input.
_DOLLAR, _STAR, _LBRACE, _RBRACE = "\x01", "\x04", "\x05", "\x06"
_HOLD_OPEN, _HOLD_CLOSE = "\x02", "\x03"
_HELD = re.compile("\x02(\\d+)\x03")
_SENTINELS = str.maketrans(
    {_DOLLAR: "$", _STAR: "*", _LBRACE: "{", _RBRACE: "}", _HOLD_OPEN: "", _HOLD_CLOSE: ""}
)

_PARAGRAPH_BREAK = re.compile(r"\n[ ]*\n\s*")
_ESCAPED = re.compile(r"\\([\\$*%&_#{},;: !])")
_ESCAPES = {
    "\\": " ", "$": _DOLLAR, "*": _STAR, "{": _LBRACE, "}": _RBRACE,
    ",": " ", ";": " ", ":": " ", "!": "",
}  # fmt: skip
_MATH_DELIMITED = re.compile(
    r"\$\$([^$]{1,500}?)\$\$|\\\((.{1,500}?)\\\)|\\\[(.{1,500}?)\\\]", re.DOTALL
)
_MAX_INLINE_MATH = 300

# A citation goes with the tie or space before it, and after "et al." with its own period.
_CITE = (
    r"[ ~]*\\(?:cite[a-z]*|ref|eqref|autoref|cref|Cref|label|footnote)\*?"
    r"(?:\[[^\]]*\])*\{[^{}]*\}"
)
_CITATION_AFTER_PERIOD = re.compile(r"(?<=\.)" + _CITE + r"\.")
_CITATION = re.compile(_CITE)
_TEXT_FONT = re.compile(
    r"\\(?:textbf|textit|emph|texttt|textsc|textrm|textsf|text|textup|textnormal|textmd|"
    r"underline|uline|mbox|url|mathsf|mathrm|mathit|mathtt|mathbf)\s*\{([^{}]*)\}"
)
_HREF = re.compile(r"\\href\s*\{[^{}]*\}\s*\{([^{}]*)\}")
_COLOR = re.compile(r"\\(?:textcolor|colorbox)\s*\{[^{}]*\}\s*\{([^{}]*)\}")
_OLD_FONT = re.compile(r"\{\\(?:tt|bf|it|em|sc|rm|sf|sl|small|footnotesize|large)\b\s*([^{}]*)\}")
#: LaTeX accent commands and the combining characters they stand for (also used by
#: field_text for BibTeX fields).
COMBINING_ACCENTS = {
    "'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303", "=": "\u0304",
    ".": "\u0307", "c": "\u0327", "v": "\u030c", "u": "\u0306", "H": "\u030b", "r": "\u030a",
    "k": "\u0328", "d": "\u0323", "b": "\u0331",
}  # fmt: skip
# `\'e` or `\'{e}`; the letter forms (`\c c`, `\v{s}`) need a brace or a space.
_ACCENT = re.compile(
    r"(?P<before>[A-Za-z{]?)\\(?P<mark>['`^\"~=.])"
    r"(?:\{\s*(?P<braced>\\i|[A-Za-z])\s*\}|(?P<bare>\\i(?![A-Za-z])|[A-Za-z]))"
    r"|\\(?P<lmark>[cvuHrkdb])(?:\s*\{\s*(?P<lbraced>\\i|[A-Za-z])\s*\}|\s+(?P<lbare>[A-Za-z]))"
)
_SPECIAL_LETTERS = {
    "ss": "ß", "o": "ø", "O": "Ø", "aa": "å", "AA": "Å", "ae": "æ", "AE": "Æ", "oe": "œ",
    "OE": "Œ", "l": "ł", "L": "Ł", "i": "ı", "j": "ȷ",
}  # fmt: skip
_TEXT_SYMBOLS = {
    **_SYMBOLS,
    **_SPECIAL_LETTERS,
    "textendash": "–", "textemdash": "—", "textquoteleft": "‘", "textquoteright": "’",
    "textquotedblleft": "“", "textquotedblright": "”", "textbackslash": "\\",
    "textasciitilde": "~", "textdegree": "°", "textregistered": "®", "texttrademark": "™",
    "textbullet": "•", "textperiodcentered": "·", "euro": "€", "pounds": "£", "P": "¶",
    "noindent": "", "newline": " ", "par": " ", "sim": "~",
}  # fmt: skip
_TEXT_COMMAND = re.compile(r"\\([A-Za-z]+)(?:\{\})?")
_UNKNOWN_WITH_ARGUMENT = re.compile(r"\\[A-Za-z]+\s*\{([^{}]*)\}")
_PROTECTED_WORD = re.compile(r"\{([^{}\s]*[^\W\d_][^{}\s]*)\}")
_TIE = re.compile(r"(?<=[A-Za-z0-9.])~(?=[A-Za-z0-9\\])")
_SINGLE_QUOTED = re.compile(r"(?<![\w`])`([^`'\n]{1,100})'(?![\w'])")
_EMPHASIS = re.compile(r"(?<![\w*\\])(\*{1,3})(?=[^\s*])(.{1,300}?)(?<=[^\s*])\1(?!\*)", re.DOTALL)
_SPACE_BEFORE_PUNCT = re.compile(r" +(?=[,.;:!?](?:\s|$))")


def _render_inline_math(text: str, held: list[str]) -> str:
    """Replace `$...$` math with held placeholders; money such as "$5 and $10" stays as is.

    An opening `$` must not be followed by a space and the closing one must not follow a
    space (unless the content holds TeX: `\\`, `^`, `_`, `{`), nor be followed by a digit.
    The closer is always the next `$`; when the pair fails, that closer is tried as an opener.
    """
    out: list[str] = []
    start = 0
    opener = text.find("$")
    while opener != -1:
        closer = text.find("$", opener + 1)
        if closer == -1:
            break
        content = text[opener + 1 : closer]
        after = text[closer + 1 : closer + 2]
        tex_like = any(ch in content for ch in "\\^_{")
        if (
            content.strip()
            and len(content) <= _MAX_INLINE_MATH
            and not after.isdigit()
            and (tex_like or (not content[0].isspace() and not content[-1].isspace()))
        ):
            out.append(text[start:opener])
            out.append(_hold(render_math(content), held))
            start = closer + 1
            opener = text.find("$", start)
        else:
            opener = closer
    out.append(text[start:])
    return "".join(out)


def _hold(rendered: str, held: list[str]) -> str:
    held.append(rendered)
    return f"{_HOLD_OPEN}{len(held) - 1}{_HOLD_CLOSE}"


def _accent(match: re.Match[str]) -> str:
    mark = match["mark"]
    if mark:
        base = match["braced"] or match["bare"]
        before = match["before"]
        # `\'s` and `\"Train\"` in BibTeX exported from JSON are escaped quotes, not
        # accents: an unbraced quote-accent needs a vowel inside a word (Herv\'e, M\"uller).
        if mark in "'\"" and not match["braced"]:
            vowel = base in ("\\i",) or base in "aeiouyAEIOUY"
            if not (vowel and before):
                return before + mark + ("i" if base == "\\i" else base)
    else:
        before = ""
        mark = match["lmark"]
        base = match["lbraced"] or match["lbare"]
    letter = "i" if base == "\\i" else base
    return before + unicodedata.normalize("NFC", letter + COMBINING_ACCENTS[mark])


def _text_command(match: re.Match[str]) -> str:
    name = match[1]
    if name in _TEXT_SYMBOLS:
        return _TEXT_SYMBOLS[name]
    return match[0]


def _render_latex_text(text: str) -> str:
    """Text-mode LaTeX as BibTeX abstracts carry it: fonts, accents, quotes, citations."""
    text = _CITATION.sub("", _CITATION_AFTER_PERIOD.sub("", text))
    for _ in range(3):  # nested font commands, innermost first
        new = _COLOR.sub(r"\1", _HREF.sub(r"\1", _TEXT_FONT.sub(r"\1", text)))
        new = _OLD_FONT.sub(r"\1", new)
        if new == text:
            break
        text = new
    text = _ACCENT.sub(_accent, text)
    text = text.replace("\\'", "'").replace('\\"', '"').replace("\\`", "`")
    text = _TEXT_COMMAND.sub(_text_command, text)
    text = _UNKNOWN_WITH_ARGUMENT.sub(r"\1", text)
    return _PROTECTED_WORD.sub(r"\1", text)


def _render_punctuation(text: str) -> str:
    if "`" in text or "''" in text:
        text = text.replace("``", "“").replace("''", "”")
        text = _SINGLE_QUOTED.sub(r"‘\1’", text)
    if "--" in text:
        text = re.sub(r"(?<!-)---(?!-)", "—", text)
        text = re.sub(r"(?<=\s)--(?=\s)|(?<=\d)--(?=\d)", "–", text)
    if "~" in text:
        text = _TIE.sub(" ", text)
    return text


def _render_paragraph(text: str) -> str:
    held: list[str] = []
    if "\\" in text:
        text = _ESCAPED.sub(lambda m: _ESCAPES.get(m[1], m[1]), text)
        text = _MATH_DELIMITED.sub(
            lambda m: _hold(render_math(m[1] or m[2] or m[3] or ""), held), text
        )
    elif "$$" in text:
        text = _MATH_DELIMITED.sub(lambda m: _hold(render_math(m[1] or ""), held), text)
    if "$" in text:
        text = _render_inline_math(text, held)
    if "\\" in text or "{" in text:
        text = _render_latex_text(text)
    text = _render_punctuation(text)
    if "*" in text:
        for _ in range(3):  # nested emphasis, outermost first
            new = _EMPHASIS.sub(r"\2", text)
            if new == text:
                break
            text = new
    for _ in range(len(held)):
        # A piece may hold an earlier one ("$$$x$$$"), so restore until none is left.
        text, restored = _HELD.subn(lambda m: held[int(m[1])], text)
        if not restored:
            break
    text = " ".join(text.translate(_SENTINELS).split())
    return _SPACE_BEFORE_PUNCT.sub("", text)


@lru_cache(maxsize=256)
def display_text(raw: str) -> str:
    """An abstract as readable plain text: emphasis and LaTeX rendered, controls removed.

    Paragraphs are kept (separated by one blank line); inside a paragraph every run of
    white space, line breaks included, becomes one space. Cached, because the index build
    asks for the same abstract's text when it derives its name and title.
    """
    paragraphs = _PARAGRAPH_BREAK.split(safe_text(raw).strip())
    return "\n\n".join(p for p in map(_render_paragraph, paragraphs) if p)
