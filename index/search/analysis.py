"""Whoosh analyzers: English words stemmed, CJK runs cut into character bigrams, super- and
subscripts written plain (`S²IP` is indexed as `s2ip`, as the query `S2IP` is cut).

Whoosh's tokenizer sees a run of Chinese or Japanese characters as one long "word", so
`论文` would never match `论文列表`. We split such runs into overlapping two-character
pieces (the approach Lucene's CJK analyzer takes), numbered like words so phrase queries
still line up, and leave every other word untouched.
"""

from __future__ import annotations

from collections.abc import Iterator

from whoosh.analysis import STOP_WORDS, Token, Tokenizer

from paperterm.index.text.words import (
    HAS_CJK,
    STEM_CACHE,
    WORD,
    WORD_PATTERN,
    cjk_pieces,
    fold_scripts,
    stem,
    words_of,
)

__all__ = [
    "STEMMED_FIELDS",
    "WORD_PATTERN",
    "FieldAnalysis",
    "WordTokenizer",
    "cjk_pieces",
    "plain_analyzer",
    "stem",
    "stemming_analyzer",
]


class WordTokenizer(Tokenizer):  # type: ignore[misc]  # Whoosh has no type hints
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
        for match in WORD.finditer(value):
            word = match.group(0)
            if word.isascii() or not HAS_CJK.search(word):
                pieces: list[tuple[str, int, int]] = [(word, 0, len(word))]
            else:
                pieces = cjk_pieces(word)
            for piece, start, end in pieces:
                raw += 1
                text = fold_scripts(piece.lower())
                if len(text) < minsize or text in STOP_WORDS:
                    if removestops:
                        continue
                    token.stopped = True
                else:
                    token.stopped = False
                    pos = raw if pos is None else pos + 1
                    if stemming:
                        text = STEM_CACHE.get(text) or stem(text)
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


class _CutTable(dict[str, str]):
    """Word as written -> its terms joined by spaces ("" for a stop word), cut on first
    sight. A word without CJK is one piece: its term is what the tokenizer makes of it,
    made here without a token stream (a corpus brings new words all along, authors' names
    and coined ones)."""

    def __init__(self, tokenizer: WordTokenizer) -> None:
        super().__init__()
        self._tokenizer = tokenizer

    def __missing__(self, word: str) -> str:
        tokenizer = self._tokenizer
        if word.isascii() or not HAS_CJK.search(word):
            text = fold_scripts(word.lower())
            if len(text) < tokenizer.minsize or text in STOP_WORDS:
                found = ""
            else:
                found = STEM_CACHE.get(text) or stem(text) if tokenizer.stem else text
        else:
            found = " ".join(token.text for token in tokenizer(word))
        self[word] = found
        return found


#: Words whose terms `FieldAnalysis.joined` keeps at most (~100 bytes each).
CUT_TABLE_WORDS = 400_000


def stemming_analyzer() -> WordTokenizer:
    """For prose (titles, abstracts): stop words dropped, English stemming, CJK bigrams."""
    return WordTokenizer(stem=True, minsize=2)


def plain_analyzer() -> WordTokenizer:
    """For names, authors, collections and the spelling/prefix field: words as written
    (stop words dropped, so that "the" alone matches nothing rather than everything)."""
    return WordTokenizer(stem=False, minsize=1)


#: The fields that hold prose, indexed stemmed; the others keep their words as written.
STEMMED_FIELDS = frozenset({"all", "title", "given_title"})


class FieldAnalysis:
    """Each field's analyzer: what the schema indexes with, and how a query's text must be
    cut to meet it. The query planner sees analysis only through this (it knows no Whoosh)."""

    def __init__(self) -> None:
        self._prose = stemming_analyzer()
        self._plain = plain_analyzer()
        self._cut = {True: _CutTable(self._prose), False: _CutTable(self._plain)}

    def analyzer(self, field: str) -> WordTokenizer:
        return self._prose if field in STEMMED_FIELDS else self._plain

    def stemmed(self, field: str) -> bool:
        return field in STEMMED_FIELDS

    def terms(self, field: str, text: str) -> list[str]:
        """The index terms of `text` in `field`, in order (stems in a stemmed field)."""
        return [token.text for token in self.analyzer(field)(text)]

    def words(self, text: str) -> list[str]:
        """The words of `text` as written (lower case, stop words dropped): what the
        vocabulary holds."""
        return [token.text for token in self._plain(text)]

    def joined(self, field: str, text: str) -> str:
        """The index terms of `text` in `field` joined by single spaces: what the tantivy
        engine indexes (its whitespace tokenizer numbers them one after the other, as the
        analyzers number their positions), so that both engines hold the same terms. Cut
        word by word through a table of the words seen, faster than the analyzer's token
        stream."""
        return self.joined_words(field, words_of(text))

    def joined_words(self, field: str, words: list[str]) -> str:
        """`joined` of a text whose words (as `WORD` finds them) are `words`. They may be
        in lower case, as the vocabulary counts them (`words.paper_words`), when lowering
        the text changes no word's bounds (`words.lowers_alike`): the terms are the same."""
        return " ".join(self.word_terms(field, words))

    def word_terms(self, field: str, words: list[str]) -> list[str]:
        """The terms `joined_words` joins (a CJK word's several in one, joined by spaces;
        an ASCII word's one)."""
        table = self._cut[field in STEMMED_FIELDS]
        if len(table) > CUT_TABLE_WORDS:  # a vocabulary that keeps growing: bounded memory
            table.clear()
        return list(filter(None, map(table.__getitem__, words)))
