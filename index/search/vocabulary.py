"""The corpus's real words and how often they occur: for prefixes, fuzzy terms and "did you
mean".

The index holds stems (`complementar`), which make poor suggestions and cannot be matched
by prefix reliably. Rather than index every abstract a second time unstemmed (which doubled
the build time), the build counts words with one regex pass and saves the counts beside the
index; queries expand prefixes and typos against this list, then search the stems.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable
from heapq import nlargest
from pathlib import Path

from whoosh.support.levenshtein import distance

from paperterm.index.text.words import WORD_PATTERN

_WORD = re.compile(WORD_PATTERN)
#: How many candidate words a prefix or fuzzy look-up examines at most.
MAX_SCAN = 20000


class Vocabulary:
    def __init__(self, counts: dict[str, int]) -> None:
        self.counts = counts
        self.words = sorted(counts)

    @classmethod
    def from_texts(cls, texts: Iterable[str]) -> Vocabulary:
        counts: Counter[str] = Counter()
        for text in texts:
            counts.update(_WORD.findall(text.lower()))
        return cls(dict(counts))

    @classmethod
    def load(cls, path: Path) -> Vocabulary:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        if not isinstance(data, dict):
            raise ValueError(f"{path}: not a vocabulary")
        return cls({str(word): int(count) for word, count in data.items()})

    def dumps(self) -> str:
        return json.dumps(self.counts, ensure_ascii=False, separators=(",", ":"))

    def __len__(self) -> int:
        return len(self.words)

    def count(self, word: str) -> int:
        return self.counts.get(word, 0)

    def prefixed(self, prefix: str, limit: int) -> list[str]:
        """The `limit` most frequent words that start with `prefix`."""
        start = bisect_left(self.words, prefix)
        candidates = []
        for word in self.words[start : start + MAX_SCAN]:
            if not word.startswith(prefix):
                break
            candidates.append(word)
        return nlargest(limit, candidates, key=self.counts.__getitem__)

    def within(self, word: str, max_distance: int, limit: int) -> list[str]:
        """The `limit` most frequent words within `max_distance` edits of `word`
        (sharing its first letter when the word is longer than 3 letters)."""
        if len(word) > 3:
            start = bisect_left(self.words, word[0])
            pool = self.words[start : start + MAX_SCAN]
            pool = [w for w in pool if w[:1] == word[0]]
        else:
            pool = self.words[:MAX_SCAN]
        low, high = len(word) - max_distance, len(word) + max_distance
        found = [
            w
            for w in pool
            if low <= len(w) <= high and distance(word, w, limit=max_distance) <= max_distance
        ]
        return nlargest(limit, found, key=self.counts.__getitem__)

    def closest(self, word: str) -> str:
        """The most frequent real word within 1, else 2 edits; `word` itself when none."""
        for max_distance in (1, 2):
            options = [w for w in self.within(word, max_distance, 5) if w != word]
            if options:
                return options[0]
        return word
