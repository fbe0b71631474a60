"""What a search gives back, and finding its words in a text: the parts of searching that
the reader needs before (and without) the index, so that they import no Whoosh."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from paperterm.index.papers import Paper
from paperterm.index.text.words import WORD, cjk_pieces, fold_scripts, has_cjk, stem

SNIPPET_WORDS = 28

Span = tuple[int, int]
_NON_SPACE = re.compile(r"\S+")


@dataclass(slots=True)
class Hit:
    paper: Paper
    score: float
    snippet: str = ""
    spans: list[Span] = field(default_factory=list)

    def marked_snippet(self, before: str = "**", after: str = "**") -> str:
        return mark(self.snippet, self.spans, before, after)


@dataclass(slots=True)
class Results:
    query: str
    hits: list[Hit] = field(default_factory=list)
    total: int = 0
    took_ms: float = 0.0
    notes: list[str] = field(default_factory=list)
    suggestion: str = ""
    matcher: Matcher | None = None
    #: The query as run, when words of `query` were corrected ("" when none was).
    corrected: str = ""
    #: Each corrected word and what it became.
    corrections: list[tuple[str, str]] = field(default_factory=list)

    @property
    def ids(self) -> list[str]:
        return [hit.paper.id for hit in self.hits]


class Matcher:
    """Finds the words of a query in a text (for snippets and highlighting in the reader):
    a word matches when it is one of the query's words, starts with one of its prefixes, or
    has the stem of one of its words."""

    def __init__(self, stemmed: set[str], plain: set[str], prefixes: tuple[str, ...]) -> None:
        self.stemmed = stemmed
        self.plain = plain
        self.prefixes = prefixes
        self._decided: _Decisions | None = None

    def __bool__(self) -> bool:
        return bool(self.stemmed or self.plain or self.prefixes)

    def _matches(self, word: str) -> bool:
        word = fold_scripts(word)
        return (
            word in self.plain
            or (bool(self.prefixes) and word.startswith(self.prefixes))
            or stem(word) in self.stemmed
        )

    def spans(self, text: str) -> list[Span]:
        """Character ranges of the words in `text` that the query matched."""
        if not self or not text:
            return []
        lower = fold_scripts(text.lower())  # each character stays where it was
        # Only the words that could match are looked at (`_Decisions.starts`), where the
        # lower-case text keeps every character where it was (no letter becomes two, as
        # `İ` does) and no CJK run is to be cut into pieces: nearly every abstract, ASCII or
        # not (a decoded accent or dash sent a third of them word by word, 4x slower).
        if text.isascii() or (len(lower) == len(text) and not has_cjk(text)):
            return _merge(self._decisions().found(lower))
        return self.spans_word_by_word(text)

    def spans_word_by_word(self, text: str) -> list[Span]:
        """`spans`, deciding every word of the text (CJK runs cut into pieces)."""
        found: list[Span] = []
        for match in WORD.finditer(text):
            word = match.group(0).lower()
            if word.isascii():
                if self._matches(word):
                    found.append(match.span())
                continue
            for piece, start, end in cjk_pieces(word):
                if self._matches(piece):
                    found.append((match.start() + start, match.start() + end))
        return _merge(found)

    def _decisions(self) -> _Decisions:
        """Word -> whether it matches, remembered while the query's words stay the same."""
        words = (frozenset(self.stemmed), frozenset(self.plain), self.prefixes)
        if self._decided is None or self._decided.words != words:
            self._decided = _Decisions(self._matches, words)
        return self._decided


_Words = tuple[frozenset[str], frozenset[str], tuple[str, ...]]


class _Decisions(dict[str, bool]):
    """Word -> whether the query matches it (each decided once), and `starts`: how every
    word (as `WORD` cuts words) that could match begins: the query's words, its prefixes,
    and its stems but their last two letters (a word's Porter stem differs from it in its
    last letter at most, `happi`/`happy`). `found` looks for them in lower-case text with
    `str.find`, which is C's work; deciding each of an abstract's ~170 words in Python took
    0.1 ms a snippet. (A pattern of the starts did the same, but compiling it took 0.1 to
    0.4 ms, every query's first run, and scanning with it was slower.)"""

    def __init__(self, matches: Callable[[str], bool], words: _Words) -> None:
        super().__init__()
        self.matches = matches
        self.words = words
        stemmed, plain, prefixes = words
        starts = {*plain, *prefixes, *(s[: max(1, len(s) - 2)] for s in stemmed)}
        # No word ends in a dot (a stem cut short can): a match then never runs past a dot
        # into the next word (`a..b`).
        starts = {word.rstrip(".") for word in starts}
        # A word that another starts adds nothing: the rest of a word is taken anyway, as
        # `WORD` runs; and no two starts are then found at the same place.
        self.starts: list[str] = []
        for word in sorted(filter(None, starts)):  # a word's longer forms follow it
            if not (self.starts and word.startswith(self.starts[-1])):
                self.starts.append(word)

    def found(self, lower: str) -> list[Span]:
        """The spans of the words of `lower` (lower-case, as `spans` takes it) that match:
        each start found where a word begins (`_starts_word`), taken to the word's end."""
        spans: list[Span] = []
        find = lower.find
        rest = _WORD_REST.match
        for start in self.starts:
            at = find(start)
            while at >= 0:
                if _starts_word(lower, at):
                    end = rest(lower, at + len(start)).end()  # type: ignore[union-attr]
                    if self[lower[at:end]]:
                        spans.append((at, end))
                    at = find(start, end)
                else:
                    at = find(start, at + 1)
        return spans

    def __missing__(self, word: str) -> bool:
        decided = self[word] = self.matches(word)
        return decided


#: The rest of a word (`WORD`) from a place in it: it always matches (maybe nothing).
_WORD_REST = re.compile(r"(?:\w|\.\w)*")


def _starts_word(text: str, start: int) -> bool:
    """Whether a word (as `WORD` cuts words) starts at `start`: no word character comes
    before it, nor a word character and a dot (which `WORD` would have taken in)."""
    if not start:
        return True
    before = text[start - 1]
    if before == ".":
        return start < 2 or not _is_word_char(text[start - 2])
    return not _is_word_char(before)


def _is_word_char(char: str) -> bool:
    """`\\w` of a `str` pattern."""
    return char.isalnum() or char == "_"


def _merge(spans: list[Span]) -> list[Span]:
    """Sorted, with overlapping ranges (CJK bigrams share characters) joined."""
    merged: list[Span] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def mark(text: str, spans: list[Span], before: str, after: str) -> str:
    out: list[str] = []
    last = 0
    for start, end in spans:
        if start < last:
            continue
        out.append(text[last:start])
        out.append(before + text[start:end] + after)
        last = end
    out.append(text[last:])
    return "".join(out)


def snippet(text: str, spans: list[Span], words: int = SNIPPET_WORDS) -> tuple[str, list[Span]]:
    """The window of about `words` words with the most matches, and the spans within it."""
    if not text:
        return "", []
    starts = WordStarts(text)
    count = len(starts)
    if not spans or count <= words:
        window_start, window_end = 0, count
    else:
        best, best_count, j = 0, -1, 0
        span_words = [starts.word_at(start) for start, _ in spans]
        keys = [text[start:end].lower() for start, end in spans]
        # The distinct matched words of the window of spans i..j-1, kept as it slides (a set
        # made per window was most of a snippet's time when a word matches everywhere).
        window: dict[str, int] = {}
        for i in range(len(span_words)):
            while j < len(span_words) and span_words[j] < span_words[i] + words:
                window[keys[j]] = window.get(keys[j], 0) + 1
                j += 1
            if len(window) > best_count:
                best, best_count = i, len(window)
            left = window[keys[i]] - 1
            if left:
                window[keys[i]] = left
            else:
                del window[keys[i]]
        window_start = max(0, span_words[best] - 3)
        window_end = min(count, window_start + words)
    first = starts[window_start]
    last = starts[window_end] if window_end < count else len(text)
    piece = text[first:last].rstrip()
    prefix = "…" if window_start > 0 else ""
    suffix = "…" if window_end < count else ""
    shift = len(prefix) - first
    inside = [(s + shift, e + shift) for s, e in spans if s >= first and e <= first + len(piece)]
    return prefix + piece + suffix, inside


class WordStarts:
    """Where the words (runs of non-space characters) of a text start: `starts[k]` is the
    k-th word's first character, `word_at(position)` the word a position is in (0 before
    the first). A text whose words are each one space apart (nearly every abstract) is
    answered by counting and splitting on spaces, which is C's work; listing the starts of
    ~170 words with a pattern was most of a snippet's time. Other texts list them."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._listed: list[int] | None = None
        # Printable: no whitespace but the space (a pattern for odd spaces took longer than
        # listing the starts).
        spaced = text.isprintable() and "  " not in text
        if spaced and text[:1] != " " and text[-1:] != " ":
            self._count = text.count(" ") + 1
        else:
            self._listed = list(map(re.Match.start, _NON_SPACE.finditer(text))) or [0]
            self._count = len(self._listed)

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, word: int) -> int:
        if self._listed is not None:
            return self._listed[word]
        return len(self.text) - len(self.text.split(" ", word)[-1]) if word else 0

    def word_at(self, position: int) -> int:
        if self._listed is not None:
            return max(0, bisect_right(self._listed, position) - 1)
        return self.text.count(" ", 0, position)


def correction_note(corrected: str, corrections: Iterable[tuple[str, str]], how: str) -> list[str]:
    """What a face says of a corrected query (`Results.corrected`, `.corrections`), in two
    parts: the query that ran, and the words as typed with `how` to search them (a key in
    the reader, an option in the CLI): `showing results for “diffusion models”`, `search
    “diffsion” instead: Ctrl+R`."""
    typed = ", ".join(f"“{word}”" for word, _ in corrections)
    return [f"showing results for “{corrected.strip()}”", f"search {typed} instead: {how}"]
