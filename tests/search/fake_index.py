"""A made-up index for the planner's and the corrector's tests: a table of document
frequencies and a small hand-made vocabulary (imported by name: tests/search is on
sys.path)."""

from __future__ import annotations

from collections import Counter

from paperterm.index.search.analysis import FieldAnalysis
from paperterm.index.search.plan import Planner
from paperterm.index.search.vocabulary import Vocabulary

ANALYSIS = FieldAnalysis()
#: Words of a made-up corpus and how many papers hold each (one occurrence per paper).
WORDS = {
    "context": 50,
    "contexts": 20,  # the same stem as "context"
    "contrastive": 30,
    "control": 25,
    "contextual": 10,
    "convex": 5,
    "complement": 8,
    "complements": 2,  # the stem of "complement": not a longer word
    "complementarity": 3,
    "complementary": 4,
    "transformer": 40,
    "graph": 12,
    "graphs": 6,
    "diffusion": 9,
    "genomics": 1,
    "long": 33,
    "fine": 7,
    "tuning": 11,
    "lovelace": 1,
}
#: Papers in the made-up index.
PAPERS = 100
TITLE_WORDS = {"graph": 3, "context": 4}
AUTHOR_WORDS = {"lovelace": 1}


def term(field: str, word: str) -> str:
    (found,) = ANALYSIS.terms(field, word)
    return found


class FakeIndex:
    """Document frequencies of the made-up corpus, and the look-ups the planner made."""

    def __init__(self, words: dict[str, int] = WORDS) -> None:
        self.table: Counter[tuple[str, str]] = Counter()
        for field, counts in (("all", words), ("title", TITLE_WORDS), ("authors", AUTHOR_WORDS)):
            for word, papers in counts.items():
                for indexed in ANALYSIS.terms(field, word):  # none for a stop word
                    self.table[field, indexed] += papers
        self.calls: list[tuple[str, str]] = []

    def df(self, field: str, text: str) -> int:
        self.calls.append((field, text))
        return self.table[field, text]


def planner(budget: int = 10_000, words: dict[str, int] = WORDS) -> Planner:
    return Planner(Vocabulary(words), FakeIndex(words).df, ANALYSIS, budget, PAPERS)
