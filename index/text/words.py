"""Words as paperterm cuts them: the word pattern, CJK bigrams, the Porter stem (cached).

Shared by the Whoosh analyzers and by the code that finds a query's words in a text, which
must agree with the index about what a word is. Imports nothing heavy (the Porter stemmer
is one small module, imported on the first stem not cached).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from paperterm.index.papers import Paper


#: The CJK characters, as (first, last) of each range.
_CJK_RANGES = (
    ("\u3040", "\u30ff"),  # Hiragana, Katakana
    ("\u3400", "\u4dbf"),  # CJK Extension A
    ("\u4e00", "\u9fff"),  # CJK Unified Ideographs
    ("\uac00", "\ud7af"),  # Hangul syllables
    ("\uf900", "\ufaff"),  # CJK Compatibility Ideographs
)
_CJK = "".join(f"{first}-{last}" for first, last in _CJK_RANGES)
STEM_CACHE: dict[str, str] = {}
_CJK_RUN = re.compile(f"[{_CJK}]+")
HAS_CJK = re.compile(f"[{_CJK}]")


def has_cjk(text: str) -> bool:
    """Whether `text` has a CJK character (`HAS_CJK.search`), without compiling a pattern:
    text with no character as high as CJK's first (nearly every abstract) is answered by
    `max`, and other text by its distinct characters (compiling `HAS_CJK` would slow a
    search's first snippet of such a text)."""
    lowest = _CJK_RANGES[0][0]
    if not text or max(text) < lowest:
        return False
    return any(
        first <= char <= last for char in set(text) if char >= lowest for first, last in _CJK_RANGES
    )


#: The blocks that hold the super- and subscript letters and digits (`S²`, `x₁`, `ᵃ`).
SCRIPT_BLOCKS = (
    (0x00AA, 0x00BA), (0x02B0, 0x02FF), (0x10FC, 0x10FC), (0x1D2C, 0x1DBF), (0x2070, 0x209F),
    (0x2C7C, 0x2C7D), (0x2D6F, 0x2D6F), (0x3192, 0x319F), (0xA69C, 0xA69D), (0xA770, 0xA770),
    (0xA7F0, 0xA7FF), (0xAB5C, 0xAB6F), (0x10780, 0x107BF), (0x1E030, 0x1E06D),
)  # fmt: skip


@lru_cache(maxsize=1)
def _script_table() -> dict[int, str]:
    """Each super- or subscript letter or digit -> its plain one in lower case (Unicode's
    decomposition; `ᴬ` has no lower case of its own, its plain letter has)."""
    import unicodedata

    table: dict[int, str] = {}
    for first, last in SCRIPT_BLOCKS:
        for code in range(first, last + 1):
            parts = unicodedata.decomposition(chr(code)).split()
            if len(parts) == 2 and parts[0] in ("<super>", "<sub>"):
                plain = chr(int(parts[1], 16))
                if chr(code).isalnum() and plain.isalnum():
                    table[code] = plain.lower()
    return table


def fold_scripts(word: str) -> str:
    """`word` with its super- and subscript letters and digits written plain (`s²ip` ->
    `s2ip`, `h₂o` -> `h2o`; a capital one in lower case, as the words folded are), so that
    math typed in plain letters finds them; an ASCII word as it is. Word bounds do not
    move: both sides are word characters."""
    return word if word.isascii() else word.translate(_script_table())


#: Word characters; a CJK run and an adjoining Latin word come out as one token and are
#: split by `cjk_pieces`.
WORD_PATTERN = r"\w+(?:\.\w+)*"
WORD = re.compile(WORD_PATTERN)


#: ASCII's characters that are neither word characters (`\\w`) nor a dot, to spaces.
_ASCII_NOT_WORD_OR_DOT = bytes(
    code if chr(code).isalnum() or chr(code) in "_." else 32 for code in range(128)
) + bytes(range(128, 256))
#: A dot that does not join two word characters (ASCII text): not part of a word.
_LONE_DOT = re.compile(r"\.(?:(?!\w)|(?<!\w\.))", re.ASCII)


def paper_words(paper: Paper) -> list[str]:
    """The words the vocabulary counts of a paper: its name's, title's and text's (lower
    case, super- and subscripts plain: `fold_scripts`)."""
    return words_of(fold_scripts(f"{paper.name} {paper.title} {paper.text}".lower()))


def words_of(text: str) -> list[str]:
    """`WORD.findall(text)`, by `ascii_words` when the text is ASCII, by `utf8_words` when
    it is not and is long enough to gain by it (a name or a title is not)."""
    if text.isascii():
        return ascii_words(text)
    return WORD.findall(text) if len(text) < _UTF8_WORDS_FROM else utf8_words(text)


def ascii_words(text: str) -> list[str]:
    """`WORD.findall` of ASCII text, in less of its time:
    what is neither a word character nor a dot is a space, and so is a dot that does not
    join two word characters; the words are what is between the spaces."""
    spaced = text.encode("ascii").translate(_ASCII_NOT_WORD_OR_DOT).decode("ascii")
    if "." in spaced:
        spaced = _LONE_DOT.sub(" ", spaced)
    return spaced.split()


#: The ASCII bytes, which `bytes.translate` deletes to leave a UTF-8 text's other characters.
_ASCII_BYTES = bytes(range(128))
#: `_LONE_DOT` over UTF-8 whose every byte past ASCII is part of a word character.
_LONE_DOT_UTF8 = re.compile(rb"\.(?:(?![\w\x80-\xff])|(?<![\w\x80-\xff]\.))")
#: Characters from which `utf8_words` is faster than `WORD.findall` (measured: ~100).
_UTF8_WORDS_FROM = 100


def chars_past_ascii(data: bytes) -> set[str]:
    """The characters of UTF-8 `data` that are not ASCII, each once: the bytes left when
    the ASCII ones are deleted (a UTF-8 sequence is found only whole: no byte of one is
    ASCII)."""
    return set(data.translate(None, _ASCII_BYTES).decode("utf-8", "surrogatepass"))


def spaced_past_ascii(data: bytes, keep: Callable[[str], object]) -> bytes:
    """UTF-8 `data` with each character past ASCII that `keep` refuses made a space, in
    the bytes (an arXiv abstract has a few such characters, not one a word)."""
    for char in chars_past_ascii(data):
        if not keep(char):
            data = data.replace(char.encode("utf-8", "surrogatepass"), b" ")
    return data


def utf8_words(text: str) -> list[str]:
    """`WORD.findall` of any text, in half its time when most of it is ASCII (an arXiv
    abstract with a few accents, quotes or symbols): as `ascii_words`, over
    the text's UTF-8, once each character past ASCII that is not a word character (`\\w`
    is `str.isalnum` or "_") is a space. Every byte left past ASCII is then part of a word
    character (UTF-8 sequences are found only whole: no byte of one is ASCII), and every
    white space is a space (no word character is white space)."""
    data = spaced_past_ascii(text.encode("utf-8", "surrogatepass"), str.isalnum)
    data = data.translate(_ASCII_NOT_WORD_OR_DOT)
    if b"." in data:
        data = _LONE_DOT_UTF8.sub(b" ", data)
    return data.decode("utf-8").split()


def lowers_alike(text: str) -> bool:
    """Whether lowering `text` as a whole lowers each of its words alone, bounds kept: the
    words of `text.lower()` are its words lowered (`paper_words` of a paper are then the
    words of its fields, lowered). So for ASCII text, and for text each of whose other
    characters lowers alone (not the capital sigma, which lowers by what is around it), to
    one character of its kind (a word character or not), lowered once and for all, and
    not CJK (whose words an analyzer cuts into several terms)."""
    if text.isascii():
        return True
    return all(map(_lowers_alike, chars_past_ascii(text.encode("utf-8", "surrogatepass"))))


@lru_cache(maxsize=4096)
def _lowers_alike(char: str) -> bool:
    lower = char.lower()
    return (
        len(lower) == 1
        and lower.lower() == lower
        and lower.isalnum() == char.isalnum()
        and char != "\u03a3"
        and not has_cjk(char)
    )


def cjk_pieces(text: str) -> list[tuple[str, int, int]]:
    """`text` cut into (piece, start, end): CJK runs as bigrams, other parts whole."""
    pieces: list[tuple[str, int, int]] = []
    last = 0
    for run in _CJK_RUN.finditer(text):
        if run.start() > last:
            pieces.append((text[last : run.start()], last, run.start()))
        chars = run.group(0)
        if len(chars) == 1:
            pieces.append((chars, run.start(), run.end()))
        else:
            for i in range(len(chars) - 1):
                start = run.start() + i
                pieces.append((chars[i : i + 2], start, start + 2))
        last = run.end()
    if last < len(text):
        pieces.append((text[last:], last, len(text)))
    return pieces


def stem(word: str) -> str:
    """The Porter stem of a lower-case word, as the index stores it (cached)."""
    found = STEM_CACHE.get(word)
    if found is None:
        from paperterm.index.text.porter import stem as porter_stem

        found = STEM_CACHE[word] = porter_stem(word)
    return found
