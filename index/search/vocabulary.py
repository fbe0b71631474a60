"""The corpus's real words and how often they occur: for prefixes, fuzzy terms and "did you
mean".

The index holds stems (`complementar`), which make poor suggestions and cannot be matched
by prefix reliably. Rather than index every abstract a second time unstemmed (which doubled
the build time), the build counts words with one regex pass and saves the counts beside the
index; queries expand prefixes and typos against this list, then search the stems.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Sequence
from heapq import nlargest
from pathlib import Path

from rapidfuzz.distance import OSA
from rapidfuzz.process import extract_iter

from paperterm.index.papers import Paper
from paperterm.index.text.words import paper_words, words_of

#: Past every character a word can hold: `prefix + _LAST` sorts after all its completions.
_LAST = "\U0010ffff"
#: A prefix with more completions than this keeps its most frequent ones, `TOP_KEPT` of them,
#: from the first time it is asked for: a one-letter prefix of a 150,000-word vocabulary has
#: thousands of completions, and finding the most frequent among them each time is slow.
#: Such prefixes are few (at most 1 in this many words at each length), so the lists are too.
LONG_RANGE = 2_000
TOP_KEPT = 64


class Vocabulary:
    def __init__(self, counts: dict[str, int]) -> None:
        self.counts = counts
        #: A tuple: see `PaperList.ids` (the garbage collector walks a list of every word).
        self.words = tuple(sorted(counts))
        self._top: dict[str, list[str]] = {}
        #: The words by length (alphabetical within one): made on the first typo looked up
        #: (a tuple: see `words`).
        self._by_length: tuple[str, ...] | None = None

    @classmethod
    def from_texts(cls, texts: Iterable[str]) -> Vocabulary:
        counts: Counter[str] = Counter()
        for text in texts:
            counts.update(words_of(text.lower()))
        return cls(dict(counts))

    @classmethod
    def of_papers(cls, papers: Iterable[Paper]) -> Vocabulary:
        """The words of the papers' names, titles and texts."""
        return cls(dict(cls.count_papers(papers)))

    @staticmethod
    def count_papers(papers: Iterable[Paper]) -> Counter[str]:
        counts: Counter[str] = Counter()
        for paper in papers:
            counts.update(paper_words(paper))
        return counts

    @classmethod
    def load(cls, path: Path) -> Vocabulary:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        if not isinstance(data, dict):
            raise ValueError(f"{path}: not a vocabulary")
        return cls({str(word): int(count) for word, count in data.items()})

    def dumps(self) -> str:
        """The counts as JSON, in the words' order: loading them again (a reader's first
        query that needs them) sorts words already sorted, a pass over them, where sorting
        the words in the build's order was slower."""
        counts = self.counts
        ordered = {word: counts[word] for word in self.words}
        return json.dumps(ordered, ensure_ascii=False, separators=(",", ":"))

    def __len__(self) -> int:
        return len(self.words)

    def count(self, word: str) -> int:
        return self.counts.get(word, 0)

    def prefixed(self, prefix: str, limit: int) -> list[str]:
        """The `limit` most frequent words that start with `prefix` (alphabetical among
        equals)."""
        start = bisect_left(self.words, prefix)
        end = bisect_left(self.words, prefix + _LAST, start)
        if end - start <= LONG_RANGE or limit > TOP_KEPT:
            return self._most_frequent(self.words[start:end], limit)
        top = self._top.get(prefix)
        if top is None:
            top = self._top[prefix] = self._most_frequent(self.words[start:end], TOP_KEPT)
        return top[:limit]

    def within(self, word: str, max_distance: int, limit: int) -> list[str]:
        """The `limit` most frequent words within `max_distance` edits of `word` (itself
        included when it is a word of the corpus)."""
        found = sorted(w for w, _ in self.neighbours(word, max_distance))
        return self._most_frequent(found, limit)

    def closest(self, word: str) -> str:
        """The most frequent other word within 1, else 2 edits; `word` itself when none."""
        near = [(distance, w) for w, distance in self.neighbours(word, 2) if w != word]
        for max_distance in (1, 2):
            options = sorted(w for distance, w in near if distance <= max_distance)
            if options:
                return self._most_frequent(options, 1)[0]
        return word

    def _most_frequent(self, words: Sequence[str], limit: int) -> list[str]:
        """The `limit` most frequent of `words` (in alphabetical order): the earlier first
        among equals, as `nlargest` keeps them. Its key is a built-in method, not a key made
        in Python per word."""
        return nlargest(limit, words, key=self.counts.__getitem__)

    def neighbours(self, word: str, max_distance: int) -> list[tuple[str, int]]:
        """Every word within `max_distance` edits (optimal string alignment: a swap of two
        neighbouring letters is one edit, as in `transfomer` / `trasnformer`), with its
        distance. Only words whose length is within `max_distance` of the word's can be, so
        only those are compared; rapidfuzz compares them in C (benchmarks/bench_vocabulary.py)."""
        if self._by_length is None:
            # A stable sort by length, in C, faster than a loop putting each word in its
            # length's list; a length's words are found by bisecting on their lengths.
            self._by_length = tuple(sorted(self.words, key=len))
        words = self._by_length
        found: list[tuple[str, int]] = []
        low = max(1, len(word) - max_distance)
        for length in range(low, len(word) + max_distance + 1):
            start = bisect_left(words, length, key=len)
            bucket = words[start : bisect_left(words, length + 1, start, key=len)]
            found += [
                (w, int(distance))
                for w, distance, _ in extract_iter(
                    word, bucket, scorer=OSA.distance, score_cutoff=max_distance
                )
            ]
        return found
