"""Whoosh analyzers: English words stemmed, CJK runs cut into character bigrams.

Whoosh's tokenizer sees a run of Chinese or Japanese characters as one long "word", so
`论文` would never match `论文列表`. We split such runs into overlapping two-character
pieces (the approach Lucene's CJK analyzer takes), numbered like words so phrase queries
still line up, and leave every other word untouched.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from whoosh.analysis import STOP_WORDS, Token, Tokenizer
from whoosh.lang.porter import stem as porter_stem

_CJK = (
    "\u3040-\u30ff"  # Hiragana, Katakana
    "\u3400-\u4dbf"  # CJK Extension A
    "\u4e00-\u9fff"  # CJK Unified Ideographs
    "\uac00-\ud7af"  # Hangul syllables
    "\uf900-\ufaff"  # CJK Compatibility Ideographs
)
_STEMS: dict[str, str] = {}
_CJK_RUN = re.compile(f"[{_CJK}]+")
_HAS_CJK = re.compile(f"[{_CJK}]")
#: Word characters; a CJK run and an adjoining Latin word come out as one token and are
#: split by the filter below.
WORD_PATTERN = r"\w+(?:\.\w+)*"
_WORD = re.compile(WORD_PATTERN)


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
    found = _STEMS.get(word)
    if found is None:
        found = _STEMS[word] = porter_stem(word)
    return found


class WordTokenizer(Tokenizer):
    """Tokenizer, lower case, CJK bigrams, stop words and (optionally) stemming in one pass.

    It yields exactly what `RegexTokenizer | LowercaseFilter | CJKBigramFilter |
    StopFilter | StemFilter` yields (positions renumbered over the kept words, as
    StopFilter does), but without five chained generators per word: the index build
    spends most of its time here.
    """

    def __init__(self, stem: bool, minsize: int) -> None:
        self.stem = stem
        self.minsize = minsize

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, WordTokenizer)
            and other.stem == self.stem
            and other.minsize == self.minsize
        )

    def __hash__(self) -> int:
        return hash((WordTokenizer, self.stem, self.minsize))

    def __call__(
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        keeporiginal: bool = False,
        removestops: bool = True,
        start_pos: int = 0,
        start_char: int = 0,
        tokenize: bool = True,
        mode: str = "",
        **kwargs: object,
    ) -> Iterator[Token]:
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        stemming = self.stem
        minsize = self.minsize
        raw = start_pos - 1
        pos: int | None = None
        for match in _WORD.finditer(value):
            word = match.group(0)
            if word.isascii() or not _HAS_CJK.search(word):
                pieces: list[tuple[str, int, int]] = [(word, 0, len(word))]
            else:
                pieces = cjk_pieces(word)
            for piece, start, end in pieces:
                raw += 1
                text = piece.lower()
                if len(text) < minsize or text in STOP_WORDS:
                    if removestops:
                        continue
                    token.stopped = True
                else:
                    token.stopped = False
                    pos = raw if pos is None else pos + 1
                    if stemming:
                        text = _STEMS.get(text) or stem(text)
                token.text = text
                token.boost = 1.0
                if keeporiginal:
                    token.original = piece
                if positions:
                    token.pos = pos if pos is not None else raw
                if chars:
                    token.startchar = start_char + match.start() + start
                    token.endchar = start_char + match.start() + end
                yield token


def stemming_analyzer() -> WordTokenizer:
    """For prose (titles, abstracts): stop words dropped, English stemming, CJK bigrams."""
    return WordTokenizer(stem=True, minsize=2)


def plain_analyzer() -> WordTokenizer:
    """For names, authors, collections and the spelling/prefix field: words as written
    (stop words dropped, so that "the" alone matches nothing rather than everything)."""
    return WordTokenizer(stem=False, minsize=1)
