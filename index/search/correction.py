"""Typos corrected, not flooded: words of a query that are no word of the corpus (or a rare
one beside a common neighbour) are replaced by their best neighbour, before planning.

A query with one mistyped word ("diffsion models") used to drop to the any-word fallback and
list most of the corpus. Now the word is corrected and the corrected query runs, with a note
that names both and a way back (`=word` in the query, a key in the reader, `--exact` in the
CLI). Decided from the vocabulary and document frequencies alone, like the planner: any
engine gets the same corrections.

What is corrected (a plain word, not `=word`, not quoted, 4 letters or more, with no digit
and no inner capital: `S2IP-LLM` and `ViT` are names, not typos):

- a word whose term no paper holds (stemming counts: `segmentations` is found through
  `segment` and is no typo; so do longer words: `complement` finds `complementarity`, see
  `MIN_IMPLICIT_PREFIX`), replaced by the most common word within 1 edit (optimal
  string alignment: a swap of two letters is one), else within 2 edits for words of
  `MIN_TWO_EDITS` letters or more;
- a word that some papers hold, when a word 1 edit away is held by `RARE_RATIO` times as
  many papers at least (a typo that is a rare word, or that the corpus has as a typo too:
  `nueral` beside `neural`). Measured on the 3,810 words of the MIDL/ENLSP abstracts
  (benchmarks/typing_quality.py --sweep --only RARE_RATIO): at a ratio of 50 the rule
  corrected 11 of them, 9 written right (`mode` > `model`, `user` > `used`, `words` >
  `works`) and 2 corpus typos (`segmetnation`, `introducea`); at 100, 2, both written
  right; at 200, none. A wrong correction costs more than a missed one, hence 200: the rule
  acts where a neighbour is far more common (a large corpus);
- the word being typed (the last, a prefix) only when no word of the corpus starts with it
  and it is no word itself: it is then a typo, and stays a prefix once corrected.
"""

from __future__ import annotations

from dataclasses import dataclass

from paperterm.index.search.plan import FIELD_OF, MIN_IMPLICIT_PREFIX, Planner, coined
from paperterm.index.search.query import Clause, ParsedQuery, parse_query

MIN_CORRECTED = 4
MIN_TWO_EDITS = 7
#: A word held by this many times fewer papers than a neighbour 1 edit away is a typo of
#: it (measured: see the module's docstring and BENCHMARKS.md).
RARE_RATIO = 200
#: Words looked up per query at most (each scans the vocabulary's words of a near length);
#: words that cannot be typos are not.
MAX_LOOKUPS = 3
#: A query of this many words or more is pasted text (a title): its words are searched as
#: written, since the any-word ranking needs no one of them, and a title's rare word that
#: no abstract holds ("Dwell") is no typo of a common one ("Well").
PASTED_WORDS = 6
#: The fields whose words are corrected (phrases, tags and ids never are).
CORRECTED_FIELDS = (None, "title", "abstract", "name", "authors")


@dataclass(frozen=True, slots=True)
class Correction:
    """A query with words replaced: what runs, what it reads as, and what changed."""

    parsed: ParsedQuery
    text: str
    changes: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Corrector:
    """Corrects queries over the index a planner plans for (its vocabularies, its terms)."""

    planner: Planner

    def correct(self, parsed: ParsedQuery) -> Correction | None:
        """The query with its typos corrected; None when no word needs it (or the query is
        pasted text: `PASTED_WORDS`)."""
        if len(parsed.positive) >= PASTED_WORDS:
            return None
        replaced: list[tuple[Clause, str]] = []
        lookups = 0
        for clause in parsed.clauses:
            if lookups == MAX_LOOKUPS:
                break
            word = self._candidate(parsed, clause)
            if word is None or not self._may_be_typo(clause, word):
                continue
            lookups += 1
            better = self._better(clause, word)
            if better is not None:
                replaced.append((clause, better))
        if not replaced:
            return None
        text = parsed.text
        for clause, better in sorted(replaced, key=lambda pair: -pair[0].span[0]):
            start, end = clause.span
            text = text[:start] + _same_case(clause.text, better) + text[end:]
        changes = tuple((clause.text, _same_case(clause.text, b)) for clause, b in replaced)
        return Correction(parse_query(text), text, changes)

    def _candidate(self, parsed: ParsedQuery, clause: Clause) -> str | None:
        """The clause's one word, lower case, when it is one that may be corrected."""
        if clause.kind != "word" or clause.exact or clause.field not in CORRECTED_FIELDS:
            return None
        start, end = clause.span
        if parsed.text[start:end] != clause.text or coined(clause.text):
            return None  # not a plain run of the query's text, or a coined name
        words = self.planner.analysis.words(clause.text)
        if len(words) != 1 or len(words[0]) < MIN_CORRECTED or not words[0].isalpha():
            return None
        return words[0]

    def _may_be_typo(self, clause: Clause, word: str) -> bool:
        """What can be told without scanning the vocabulary: a word that finds papers as
        typed (itself, or as a prefix), or too many for any neighbour to be `RARE_RATIO`
        times as common, is no typo."""
        fieldname = FIELD_OF.get(clause.field or "", "all")
        own = self._papers(fieldname, word)
        starts = bool(self.planner.vocabulary_of(fieldname).prefixed(word, 1))
        if clause.partial:
            return not own and not starts
        if not own:
            # A long word finds the longer words it starts ("complement").
            return not (starts and len(word) >= MIN_IMPLICIT_PREFIX)
        return own * RARE_RATIO <= self.planner.papers

    def _better(self, clause: Clause, word: str) -> str | None:
        """The word `word` stands for, when it is a typo (None when it is not)."""
        fieldname = FIELD_OF.get(clause.field or "", "all")
        vocabulary = self.planner.vocabulary_of(fieldname)
        own = self._papers(fieldname, word)
        distances = (1, 2) if not own and len(word) >= MIN_TWO_EDITS else (1,)
        near = vocabulary.neighbours(word, distances[-1])
        term = self.planner.term
        for distance in distances:
            held = [
                (self._papers(fieldname, other), other)
                for other, found in near
                if found == distance and term(fieldname, other) != term(fieldname, word)
            ]
            held = [(papers, other) for papers, other in held if papers]
            if not held:
                continue
            papers, best = max(held, key=lambda pair: (pair[0], vocabulary.count(pair[1])))
            if not own or papers >= RARE_RATIO * own:
                return best
            return None
        return None

    def _papers(self, fieldname: str, word: str) -> int:
        """How many papers hold `word` (its term) in `fieldname`."""
        term = self.planner.term(fieldname, word)
        return self.planner.df(fieldname, term) if term else 0


def _same_case(typed: str, word: str) -> str:
    """`word` written the way `typed` was: `Diffsion` -> `Diffusion`, `GNN` stays upper."""
    if typed.isupper() and len(typed) > 1:
        return word.upper()
    if typed[:1].isupper():
        return word[:1].upper() + word[1:]
    return word
