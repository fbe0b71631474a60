"""Whoosh analyzers: English words stemmed, CJK runs cut into character bigrams.

Whoosh's tokenizer sees a run of Chinese or Japanese characters as one long "word", so
`论文` would never match `论文列表`. `CJKBigramFilter` splits such runs into overlapping
two-character pieces (the approach Lucene's CJK analyzer takes), renumbering positions so
phrase queries still line up, and leaves every other token untouched.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from whoosh.analysis import (
    Filter,
    LowercaseFilter,
    RegexTokenizer,
    StemFilter,
    StopFilter,
    Token,
)
from whoosh.analysis.analyzers import CompositeAnalyzer

_CJK = (
    "\u3040-\u30ff"  # Hiragana, Katakana
    "\u3400-\u4dbf"  # CJK Extension A
    "\u4e00-\u9fff"  # CJK Unified Ideographs
    "\uac00-\ud7af"  # Hangul syllables
    "\uf900-\ufaff"  # CJK Compatibility Ideographs
)
_CJK_RUN = re.compile(f"[{_CJK}]+")
_HAS_CJK = re.compile(f"[{_CJK}]")
#: Word characters; a CJK run and an adjoining Latin word come out as one token and are
#: split by the filter below.
WORD_PATTERN = r"\w+(?:\.\w+)*"


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


class CJKBigramFilter(Filter):
    def __call__(self, tokens: Iterator[Token]) -> Iterator[Token]:
        shift = 0
        for token in tokens:
            if token.positions:
                token.pos += shift
            text = token.text
            if text.isascii() or not _HAS_CJK.search(text):
                yield token
                continue
            pos = token.pos if token.positions else 0
            startchar = token.startchar if token.chars else 0
            pieces = cjk_pieces(text)
            for i, (piece, start, end) in enumerate(pieces):
                token.text = piece
                if token.positions:
                    token.pos = pos + i
                if token.chars:
                    token.startchar = startchar + start
                    token.endchar = startchar + end
                yield token
            shift += len(pieces) - 1


def stemming_analyzer() -> CompositeAnalyzer:
    """For prose (titles, abstracts): stop words dropped, English stemming, CJK bigrams."""
    return (
        RegexTokenizer(WORD_PATTERN)
        | LowercaseFilter()
        | CJKBigramFilter()
        | StopFilter(minsize=2)
        | StemFilter(cachesize=-1)
    )


def plain_analyzer() -> CompositeAnalyzer:
    """For names, authors, collections and the spelling/prefix field: words as written
    (stop words dropped, so that "the" alone matches nothing rather than everything)."""
    return (
        RegexTokenizer(WORD_PATTERN) | LowercaseFilter() | CJKBigramFilter() | StopFilter(minsize=1)
    )
