"""Inline TeX math as Unicode text: `\\sum_t c(\\mathbf{x}_t) \\geq 1` -> `∑ₜ c(𝐱ₜ) ≥ 1`.

A small recursive reader of the math abstracts use: Greek letters and symbols, sub- and
superscripts in Unicode where every character has one (`x^{(i)}` becomes `x^((i))` where it
has not), fractions as `a/b`, roots, accents, and letters in the bold, double-struck, script
and fraktur alphabets. A longer group in such a font (`\\mathbf{DUPLEX}`) and the plain fonts
(`\\mathsf{DirMixE}`) stay plain text: they are names, not symbols. An unknown command shows
as its name (`\\softmax` -> `softmax`): in math that is nearly always an operator. Nesting
deeper than 40 groups shows the rest as it is, so hostile input cannot exhaust the stack.
`latex` finds the math in a paragraph and calls `render_math`.
"""

from __future__ import annotations

import re
import unicodedata

_GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ",
    "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "varpi": "ϖ", "rho": "ρ",
    "varrho": "ϱ", "sigma": "σ", "varsigma": "ς", "tau": "τ", "upsilon": "υ", "phi": "φ",
    "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ",
    "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ", "Upsilon": "Υ",
    "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω",
}  # fmt: skip

SYMBOLS = {
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


def _alphabet(upper: int, lower: int, digits: int | None, holes: dict[str, str]) -> dict[str, str]:
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
    "mbox", "hbox", "underline", "smash", "boxed", "ensuremath", "mathop", "mathbin", "mathrel",
    "mathord"
))  # fmt: skip
# Commands whose argument shows nothing: labels, cross-references, invisible boxes.
_HIDDEN = frozenset(("label", "tag", "ref", "eqref", "nocite", "phantom", "hphantom", "vphantom"))
_ACCENTS = {
    "hat": "\u0302", "widehat": "\u0302", "tilde": "\u0303", "widetilde": "\u0303",
    "bar": "\u0304", "overline": "\u0304", "vec": "\u20d7", "dot": "\u0307",
    "ddot": "\u0308", "check": "\u030c", "breve": "\u0306", "acute": "\u0301",
    "grave": "\u0300",
}  # fmt: skip
_FRACTIONS = frozenset({"frac", "dfrac", "tfrac", "cfrac"})
#: The citation commands (natbib's and biblatex's): shown as their keys in brackets.
CITATIONS = frozenset((
    "cite", "citep", "citet", "citealp", "citealt", "citeauthor", "citeyear", "citeyearpar",
    "citenum", "parencite", "textcite", "autocite", "footcite"
))  # fmt: skip

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
        self.tokens: list[str] = _MATH_TOKEN.findall(tex)
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
        symbol = SYMBOLS.get(before[1:], "")
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
        if name in _HIDDEN:
            self._argument()
            return ""
        if name in CITATIONS:
            keys = self._argument().strip()
            return f"[{keys}]" if keys else ""  # as in text: see latex.py
        return SYMBOLS.get(name, name)

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
