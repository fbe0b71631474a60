"""Text-mode LaTeX to Unicode text: the one decoder for the abstracts, titles and names of
every source.

A plain-text list, a BibTeX file and a JSON record may carry the same abstract, and it must
read the same from each: so no parser decodes LaTeX itself (BibTeX and JSON cleaning only
turns HTML into markdown and undoes hard wrapping, see `field_text`), and `display_text`
runs every paragraph through `decode`. It handles what abstracts use:

- escapes (`\\%`, `\\&`, `\\_`, `\\$`, `\\{`), ties (`et al.~\\citep`) and TeX's ligatures
  for quotes and dashes (``` ``a'' ```, `---`, `1--2`);
- accents (`\\'e`, `\\'{e}`, `{\\"o}`, `\\c c`, `\\v{s}`), special letters (`\\ss`, `\\o`,
  `\\dh`, `\\TH`) and text symbols (`\\ldots`, `\\textendash`, `\\ddag`, `\\euro`); PMLR's
  escaped apostrophes (`individual\\'s`, `O\\'Brien`) and JSON exports' escaped quotes
  (`\\"Train Once\\"`) stay punctuation;
- font commands and declarations (`\\textbf{..}`, `\\emph{..}`, `{\\it ..}`, `{\\up ..}`),
  colour, boxes and `\\smash{..}`: their text, without the emphasis (the reader shows plain
  text); `\\url{..}`, `\\href{url}{text}` as "text (url)", and bare URLs, kept verbatim;
- citations as their keys in brackets: `\\citep{lu2018}` -> `[lu2018]`. Dropping them, the
  other choice, breaks sentences where the citation is a noun ("\\citet{lu2018} show that"),
  and the key is the only reference an abstract carries (usually author and year).
  Cross-references and labels (`\\ref`, `\\label`) point into a paper we do not have and
  are dropped;
- lists: `\\item` becomes "•", `\\begin{..}`/`\\end{..}` disappear; layout commands
  (`\\noindent`, `\\vspace{..}`) show nothing;
- math (`$..$` unless it reads as money, "$5 and $10"; `$$..$$`, `\\(..\\)`, `\\[..\\]`),
  rendered by `math.render_math`.

Any other command shows its argument (`\\foo{x}` -> `x`), or, without one, the math symbol
of that name (`\\alpha` -> `α`) or nothing. `%` is a percent sign, never a comment: abstracts
are not LaTeX files ("8.6% on ...").

It is hand-written rather than pylatexenc's latex2text (2.11): pylatexenc is far slower
(BENCHMARKS.md), which is minutes for an arXiv-sized file; and it reads `%` as a comment ("by 8.6%
on ImageNet and 75% of the time" -> "by 8.6"), takes "$5 and $10" for math ("5 and10"), turns PMLR's
`individual\\'s` into "individualś", sets `\\mathsf{DirMixE}` in sans-serif math letters and has no
Unicode sub- or superscripts. Groups are read without recursion, so any nesting depth is safe.
"""

from __future__ import annotations

import re
import unicodedata

from paperterm.index.links import unescape_url, urls_in
from paperterm.index.text.math import CITATIONS, SYMBOLS, render_math


class Held:
    """Finished pieces (rendered math, URLs, escaped characters) kept out of later rewriting:
    each is replaced by a placeholder until `restore`. The placeholders are C0 controls,
    which `safe_text` has removed from the input."""

    def __init__(self) -> None:
        self.pieces: list[str] = []

    def __call__(self, piece: str) -> str:
        self.pieces.append(piece)
        return f"\x02{len(self.pieces) - 1}\x03"

    def restore(self, text: str) -> str:
        for _ in range(len(self.pieces)):
            # A piece may hold an earlier one ("$$$x$$$"), so restore until none is left.
            text, restored = _HELD.subn(lambda m: self.pieces[int(m[1])], text)
            if not restored:
                break
        return text


_HELD = re.compile("\x02(\\d+)\x03")

# ----------------------------------------------------------------------------- tables

# LaTeX accent commands and the combining characters they stand for.
_COMBINING = {
    "'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303", "=": "\u0304",
    ".": "\u0307", "c": "\u0327", "v": "\u030c", "u": "\u0306", "H": "\u030b", "r": "\u030a",
    "k": "\u0328", "d": "\u0323", "b": "\u0331",
}  # fmt: skip
_SYMBOL_ACCENTS = frozenset("'`^\"~=.")
_LETTERS = {
    "ss": "ß", "o": "ø", "O": "Ø", "aa": "å", "AA": "Å", "ae": "æ", "AE": "Æ", "oe": "œ",
    "OE": "Œ", "l": "ł", "L": "Ł", "i": "ı", "j": "ȷ", "dh": "ð", "DH": "Ð", "th": "þ",
    "TH": "Þ", "ng": "ŋ", "NG": "Ŋ",
}  # fmt: skip
_TEXT_SYMBOLS = {
    "ldots": "…", "dots": "…", "textellipsis": "…", "textendash": "–", "textemdash": "—",
    "textquoteleft": "‘", "textquoteright": "’", "textquotedblleft": "“",
    "textquotedblright": "”", "textquotesingle": "'", "textasciitilde": "~",
    "textasciicircum": "^", "textbackslash": "\\", "textbar": "|", "textless": "<",
    "textgreater": ">", "textunderscore": "_", "textdegree": "°", "textregistered": "®",
    "texttrademark": "™", "copyright": "©", "textcopyright": "©", "textbullet": "•",
    "textperiodcentered": "·", "S": "§", "P": "¶", "dag": "†", "ddag": "‡", "textdagger": "†",
    "textdaggerdbl": "‡", "euro": "€", "texteuro": "€", "pounds": "£", "textsterling": "£",
    "guillemotleft": "«", "guillemotright": "»", "textmu": "µ", "LaTeX": "LaTeX", "TeX": "TeX",
    "newline": " ", "par": " ", "linebreak": " ", "quad": " ", "qquad": " ",
}  # fmt: skip
# Switches for the rest of their group: nothing to show.
_DECLARATIONS = frozenset((
    "it", "bf", "em", "tt", "sc", "rm", "sf", "sl", "up", "md", "normalfont", "itshape",
    "bfseries", "ttfamily", "scshape", "upshape", "mdseries", "rmfamily", "sffamily",
    "slshape", "tiny", "scriptsize", "footnotesize", "small", "normalsize", "large", "Large",
    "LARGE", "huge", "Huge", "noindent", "indent", "centering", "raggedright", "raggedleft",
    "smallskip", "medskip", "bigskip", "clearpage", "newpage", "pagebreak", "hfill", "vfill",
    "protect", "relax", "maketitle", "and"
))  # fmt: skip
# Commands whose (first) argument shows nothing.
_HIDDEN = frozenset((
    "label", "ref", "eqref", "autoref", "cref", "Cref", "pageref", "nameref", "nocite",
    "vspace", "hspace", "color", "begin", "end", "thanks", "includegraphics", "phantom",
    "hphantom", "vphantom", "bibliography", "bibliographystyle"
))  # fmt: skip
# Commands whose second argument is the text: `\textcolor{red}{text}`.
_SECOND_ARGUMENT = frozenset(("textcolor", "colorbox"))

# A command, a control symbol, a brace, a tie, or a run of anything else.
_TOKEN = re.compile(r"\\(?:[A-Za-z]+|.)|[{}~]|[^\\{}~]+", re.DOTALL)
_CONTRACTION = re.compile(r"(?:s|t|m|d|ll|re|ve)(?![A-Za-z])")
_VOWELS = frozenset("aeiouyAEIOUY")
_QUOTE_REACH = 20  # tokens: a quoted phrase is a few words and perhaps a command or two
_OPTION_REACH = 8  # tokens: `[p.~3]`, `[see \\S 2]`
_GROUP_REACH = 200  # tokens: citation keys, a colour, a label, an accented letter
_TIE_BEFORE = re.compile(r"[A-Za-z0-9.\x03]")
_TIE_AFTER = re.compile(r"[A-Za-z0-9\\{\x02]")

_URL_MACRO = re.compile(r"\\url\s*\{([^{}]*)\}")
_HREF_MACRO = re.compile(r"\\href\s*\{([^{}]*)\}\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
_ESCAPED = re.compile(r"\\([\\$*%&_#{},;: !])")
# What an escape shows; `$ * { }` are held so that math, emphasis and groups ignore them.
_ESCAPES = {"\\": " ", ",": " ", ";": " ", ":": " ", "!": ""}
_HELD_ESCAPES = frozenset("$*{}")
_MATH_DELIMITED = re.compile(
    r"\$\$([^$]{1,500}?)\$\$|\\\((.{1,500}?)\\\)|\\\[(.{1,500}?)\\\]", re.DOTALL
)
_MAX_INLINE_MATH = 300
_SINGLE_QUOTED = re.compile(r"(?<![\w`])`([^`'\n]{1,100})'(?![\w'])")


def decode(text: str, hold: Held) -> str:
    """One paragraph of LaTeX-laden text as Unicode; finished pieces are left to `hold`
    (the caller restores them once it has done its own rewriting, such as markdown)."""
    # (Each two-character or longer string is looked for only when a character of it is
    # there, which is found at memchr's speed.)
    if "\\" in text and ("\\url" in text or "\\href" in text):
        text = _HREF_MACRO.sub(lambda m: _href(m, hold), text)
        text = _URL_MACRO.sub(lambda m: hold(unescape_url(m[1].strip())), text)
    if ":" in text and "://" in text:
        text = _hold_urls(text, hold)
    if "\\" in text:
        text = _ESCAPED.sub(lambda m: _escape(m[1], hold), text)
        if "$$" in text or "\\(" in text or "\\[" in text:
            text = _MATH_DELIMITED.sub(
                lambda m: hold(render_math(m[1] or m[2] or m[3] or "")), text
            )
    elif "$" in text and "$$" in text:
        text = _MATH_DELIMITED.sub(lambda m: hold(render_math(m[1] or "")), text)
    if "$" in text:
        text = _inline_math(text, hold)
    if "\\" in text or "{" in text or "}" in text or "~" in text:
        text = _TextReader(text, hold).read()
    return _ligatures(text)


def _href(match: re.Match[str], hold: Held) -> str:
    url = unescape_url(match[1].strip())
    label = match[2].strip()
    return hold(url) if not label or label == url else f"{label} ({hold(url)})"


def _hold_urls(text: str, hold: Held) -> str:
    out: list[str] = []
    last = 0
    for start, end, url in urls_in(text):
        out += [text[last:start], hold(url)]
        last = end
    return "".join(out) + text[last:] if out else text


def _escape(char: str, hold: Held) -> str:
    if char in _HELD_ESCAPES:
        return hold(char)
    return _ESCAPES.get(char, char)


def _inline_math(text: str, hold: Held) -> str:
    """`$...$` math rendered and held; money such as "$5 and $10" stays as is.

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
            out.append(hold(render_math(content)))
            start = closer + 1
            opener = text.find("$", start)
        else:
            opener = closer
    out.append(text[start:])
    return "".join(out)


def _ligatures(text: str) -> str:
    """TeX's quotes and dashes: ``` ``a'' ``` -> “a”, `` `a' `` -> ‘a’, `---` -> —, and `--`
    -> – between spaces or digits (a plain-text "a -- b" means it too)."""
    if "`" in text or ("'" in text and "''" in text):
        text = text.replace("``", "“").replace("''", "”")
        text = _SINGLE_QUOTED.sub(r"‘\1’", text)
    if "--" in text:
        text = re.sub(r"(?<!-)---(?!-)", "—", text)
        text = re.sub(r"(?<=\s)--(?=\s)|(?<=\d)--(?=\d)", "–", text)
    return text


# ----------------------------------------------------------------------------- text mode


class _TextReader:
    """Reads text-mode LaTeX token by token. A group is a brace to drop; a command that
    takes an argument says what its group's closing brace shows (`\\footnote` its ")"), so
    braces are matched with a stack, not by recursion."""

    def __init__(self, text: str, hold: Held) -> None:
        self.tokens: list[str] = _TOKEN.findall(text)
        self.pos = 0
        self.hold = hold
        self.out: list[str] = []
        self.closers: list[str] = []  # what each open group shows when it closes

    def read(self) -> str:
        while self.pos < len(self.tokens):
            token = self.tokens[self.pos]
            self.pos += 1
            if token == "{":
                self.closers.append("")
            elif token == "}":
                if self.closers:  # a stray closing brace shows nothing
                    self.out.append(self.closers.pop())
            elif token == "~":
                self.out.append(" " if self._is_tie() else "~")
            elif token[0] != "\\":
                self.out.append(token)
            elif len(token) == 2 and not token[1].isalpha():
                self._control_symbol(token[1])
            else:
                self._command(token[1:])
        return "".join(self.out)

    # -- looking around

    def _last(self, *, after_spaces: bool = False) -> str:
        """The last character written (or the last but spaces)."""
        for piece in reversed(self.out):
            if after_spaces:
                piece = piece.rstrip()
            if piece:
                return piece[-1]
        return ""

    def _next(self) -> str:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else ""

    def _is_tie(self) -> bool:
        """`~` between words is a non-breaking space; "approx ~5" and "(~5%)" mean "about"."""
        return bool(_TIE_BEFORE.fullmatch(self._last()) and _TIE_AFTER.match(self._next()))

    def _rest_of_next(self, rest: str) -> None:
        """The next token, partly read, is now `rest` (or gone)."""
        if rest:
            self.tokens[self.pos] = rest
        else:
            self.pos += 1

    def _skip_spaces(self) -> None:
        """TeX ignores the spaces after a command word: `Gei\\ss ler` is "Geißler"."""
        token = self._next()
        if token[:1].isspace():
            self._rest_of_next(token.lstrip())

    def _skip_star_and_options(self) -> None:
        """`\\cite*`, `\\citep[see][p.~3]` and `\\vspace*`: a star and `[..]` options. An
        option that does not close within a few tokens is not one: it is left as text."""
        token = self._next()
        if token.startswith("*"):
            self._rest_of_next(token[1:])
        while self._next().lstrip().startswith("["):
            first = self._next().lstrip()
            close = first.find("]")
            if close >= 0:
                self._rest_of_next(first[close + 1 :])
                continue
            for end in range(self.pos + 1, min(len(self.tokens), self.pos + _OPTION_REACH)):
                token = self.tokens[end]
                if token in ("{", "}"):
                    return
                if token[0] != "\\" and "]" in token:
                    self.pos = end
                    self._rest_of_next(token[token.index("]") + 1 :])
                    break
            else:
                return

    def _raw_group(self) -> str | None:
        """The text of the `{..}` group that comes next (after spaces), undecoded; None when
        no group comes, or it does not close within `_GROUP_REACH` tokens (then it is read
        as text: scanning to the end each time would be quadratic on hostile input)."""
        self._skip_spaces()
        if self._next() != "{":
            return None
        depth = 0
        for end in range(self.pos, min(len(self.tokens), self.pos + _GROUP_REACH)):
            token = self.tokens[end]
            if token == "{":
                depth += 1
            elif token == "}":
                depth -= 1
                if depth == 0:
                    group = "".join(self.tokens[self.pos + 1 : end])
                    self.pos = end + 1
                    return group
        return None

    def _open_argument(self, closer: str = "") -> bool:
        """Start reading the `{..}` argument that comes next in place; `closer` is shown at
        its end. False when no group comes (the next token is read as usual)."""
        self._skip_spaces()
        if self._next() != "{":
            return False
        self.pos += 1
        self.closers.append(closer)
        return True

    # -- commands

    def _command(self, name: str) -> None:
        if name in _LETTERS:
            self.out.append(_LETTERS[name])
            self._skip_spaces()  # a letter inside a word: Gei\ss ler
        elif name in _COMBINING:  # \c c, \v{s}, \H{o}
            self._accent(name, letter_form=True)
        elif name in _TEXT_SYMBOLS:
            self.out.append(_TEXT_SYMBOLS[name])
        elif name == "item":
            self._item()
        elif name in _DECLARATIONS:
            self._skip_spaces()
        elif name in CITATIONS:
            self._skip_star_and_options()
            keys = self._raw_group()
            if keys and keys.strip():
                self.out.append(f"[{' '.join(keys.split())}]")
        elif name in _HIDDEN:
            self._skip_star_and_options()
            self._raw_group()
            if self._next().startswith(".") and self._last(after_spaces=True) == ".":
                self._rest_of_next(self._next()[1:])  # "Fig.~\\ref{f}." is "Fig."
        elif name in _SECOND_ARGUMENT:
            self._raw_group()
            self._open_argument()
        elif name == "footnote":
            self._skip_star_and_options()
            if self._open_argument(")"):
                self.out.append(" (")
        elif name == "ensuremath":
            tex = self._raw_group()
            if tex is not None:
                self.out.append(self.hold(render_math(tex)))
        elif name in SYMBOLS:
            self.out.append(SYMBOLS[name])  # math written as text: \alpha, \times
        else:  # fonts, boxes and any other command: its argument's text, if it has one
            self._open_argument()

    def _item(self) -> None:
        token = self._next()
        if token.lstrip().startswith("[") and "]" in token:
            label, rest = token.lstrip()[1:].split("]", 1)
            self.out.append(label.strip() + " ")
            self._rest_of_next(rest)
        else:
            self.out.append("• ")
            self._skip_spaces()

    def _control_symbol(self, char: str) -> None:
        if char in _SYMBOL_ACCENTS:
            self._accent(char, letter_form=False)
        elif char == " ":
            self.out.append(" ")
        elif char in "/@-":
            pass  # \/ (italic correction), \@ (sentence spacing), \- (hyphenation point)
        else:
            self.out.append(SYMBOLS.get(char, char))

    def _accent(self, mark: str, *, letter_form: bool) -> None:
        """`\\'e`, `\\'{e}`, `\\'\\i`, `\\c c`, `\\v{s}`. An unbraced `\\'` or `\\"` is often
        an escaped quote: see `_is_punctuation`."""
        if letter_form:
            self._skip_spaces()  # `\c c`, `\c {c}`
        token = self._next()
        base, rest = token[:1], ""
        if token == "{":
            group = (self._raw_group() or "").strip()
            base, rest = group[:1], group[1:]
            if base == "\\":  # `{\i}`: a dotless i
                base, rest = group[1:2], group[2:]
        elif token in ("\\i", "\\j"):
            self.pos += 1
            base = token[1]
            self._skip_spaces()
        elif base.isalpha() and (letter_form or not self._is_punctuation(mark, base, token[1:])):
            self._rest_of_next(token[1:])
        else:
            base = ""
        if not base.isalpha():
            if not letter_form:
                self.out.append(mark)  # `\'s`, `\"Train`, `\~{}`: the character itself
            return
        self.out.append(unicodedata.normalize("NFC", base + _COMBINING[mark]) + rest)

    def _is_punctuation(self, mark: str, letter: str, after: str) -> bool:
        """Whether an unbraced `\\'X` or `\\"X` is an escaped apostrophe or quote (PMLR and
        JSON exports escape them), not an accent.

        Inside a word `\\"` is an umlaut on a vowel (M\\"uller), and `\\'` an accent
        (Herv\\'e, Bogunovi\\'c) except before a contraction's ending or a capital that starts
        a name (individual\\'s, don\\'t, O\\'Brien). At the start of a word either opens a
        quotation when the same escape closes one soon after (\\"Train Once\\"), and is an
        accent on a vowel otherwise (Johan \\"Ofverstedt, \\'Ecole)."""
        if self._last().isalpha():
            if mark == '"':
                return letter not in _VOWELS
            word = letter + after
            return bool(_CONTRACTION.match(word)) or (letter.isupper() and after[:1].islower())
        return letter not in _VOWELS or self._closes_soon(mark)

    def _closes_soon(self, mark: str) -> bool:
        closer = "\\" + mark
        end = min(len(self.tokens), self.pos + _QUOTE_REACH)
        for index in range(self.pos, end):
            if self.tokens[index] == closer:
                # The next such escape closes a quotation, or it opens (or accents) a word.
                following = self.tokens[index + 1] if index + 1 < len(self.tokens) else ""
                return not following[:1].isalpha()
        return False
