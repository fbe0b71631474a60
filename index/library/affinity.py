"""The "like my bookmarks" order: papers ranked by how much their words resemble those of
the bookmarked ones (arxiv-sanity's idea, offline and without a server).

Each paper is a TF-IDF vector over the stems of its title and text (sublinear term counts,
smoothed idf, unit length); the bookmarks' centroid is their mean; a paper's score is its
dot product with the centroid, which ranks as the cosine does (the centroid's length is the
same for every paper). Why a paper ranks high is the few terms that give most of its score,
shown as words of its own text.

Building the vectors reads every word once; they are built once per corpus and kept, so a
ranking only walks the vectors (benchmarks/bench_reader.py, part `like`, times both). The
loops that touch every term run in C (`Counter`, `map`, set intersections), which is cheaper
than Python-level loops over the terms.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from itertools import chain
from operator import mul

from paperterm.index.papers import Paper
from paperterm.index.text.words import stem, words_of

#: Words shorter than this, numbers and these words carry no topic.
MIN_WORD = 3
_STOP_TEXT = """
    about above after again against all also among and any are because been before being
    below between both but can could did does doing down during each few for from further had
    has have having her here hers him his how however into its itself just more most much
    must not now off once only other our ours out over own same she should some such than
    that the their theirs them then there these they this those through thus too under until
    upon very was way were what when where which while who whom why will with within without
    would yet you your yours
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())


@dataclass(frozen=True, slots=True)
class Ranking:
    """Scores of the papers that share a term with the centroid (others score 0)."""

    scores: dict[str, float]
    centroid: dict[str, float]


class TermVectors:
    """Every paper's unit TF-IDF vector, and postings from term to (paper, weight)."""

    def __init__(self, papers: Sequence[Paper]) -> None:
        self.papers = list(papers)
        self.position = {paper.id: index for index, paper in enumerate(self.papers)}
        term_of = PieceTerms()
        counts: list[Counter[str]] = []
        df: Counter[str] = Counter()
        for paper in self.papers:
            terms = paper_terms(paper, term_of)
            counts.append(terms)
            df.update(terms.keys())
        total = len(self.papers)
        self.idf = {term: math.log((1 + total) / (1 + n)) + 1 for term, n in df.items()}
        self.counts = counts
        # A term counted n times weighs 1 + ln n (sublinear: the tenth use adds little); a
        # table up to the largest count, so that the sums below run in C (map, not loops).
        most = max((max(terms.values(), default=0) for terms in counts), default=0)
        self.tf = [0.0, *(1 + math.log(n) for n in range(1, most + 1))]
        idf2 = {term: weight * weight for term, weight in self.idf.items()}
        tf2 = [weight * weight for weight in self.tf]
        self.norms = [
            math.sqrt(
                sum(map(mul, map(idf2.__getitem__, terms), map(tf2.__getitem__, terms.values())))
            )
            or 1.0
            for terms in counts
        ]

    def weight(self, position: int, term: str) -> float:
        """`term`'s weight in the unit vector of the paper at `position` (0 if absent)."""
        n = self.counts[position].get(term, 0)
        return self.tf[n] * self.idf[term] / self.norms[position]

    def centroid(self, seed_ids: Iterable[str]) -> dict[str, float]:
        """The mean vector of the seed papers (those in the corpus)."""
        positions = [self.position[i] for i in seed_ids if i in self.position]
        if not positions:
            return {}
        summed: defaultdict[str, float] = defaultdict(float)
        for position in positions:
            for term in self.counts[position]:
                summed[term] += self.weight(position, term)
        return {term: weight / len(positions) for term, weight in summed.items()}

    def rank(self, seed_ids: Iterable[str], candidates: Collection[str] | None = None) -> Ranking:
        """Scores of the `candidates` (None: every paper) against the seeds' centroid; a
        paper that shares no term with it is left out (its score is 0)."""
        centroid = self.centroid(seed_ids)
        idf, tf = self.idf, self.tf
        query = {term: weight * idf[term] for term, weight in centroid.items()}
        terms = query.keys()
        scores: dict[str, float] = {}
        for paper, counts, norm in zip(self.papers, self.counts, self.norms, strict=True):
            if candidates is not None and paper.id not in candidates:
                continue
            shared = terms & counts.keys()  # a C set operation
            if shared:
                total = sum(query[term] * tf[counts[term]] for term in shared)
                scores[paper.id] = total / norm
        return Ranking(scores, centroid)

    def reasons(self, paper_id: str, centroid: dict[str, float], limit: int = 5) -> list[str]:
        """The words that give `paper_id` most of its score, as its text spells them."""
        position = self.position.get(paper_id)
        if position is None or not centroid:
            return []
        shared = sorted(
            centroid.keys() & self.counts[position].keys(),
            key=lambda term: -(centroid[term] * self.weight(position, term)),
        )[:limit]
        spelled: dict[str, str] = {}
        paper = self.papers[position]
        for word in words_of(f"{paper.title} {paper.text}".lower()):
            spelled.setdefault(stem(word), word)
        return [spelled.get(term, term) for term in shared]


class PieceTerms(dict[str, tuple[str, ...]]):
    """White-space piece of text -> the terms of the words in it ("model," -> ("model",),
    "state-of-the-art" -> ("state", "art")), worked out the first time a piece is asked for:
    a corpus of 2,600 abstracts has 430,000 pieces but only 12,000 distinct ones."""

    def __missing__(self, piece: str) -> tuple[str, ...]:
        terms = self[piece] = tuple(
            stem(word)
            for word in words_of(piece)
            if len(word) >= MIN_WORD and word not in STOP_WORDS and not word.isdigit()
        )
        return terms


def paper_terms(paper: Paper, term_of: PieceTerms) -> Counter[str]:
    """The terms (stems) of a paper's title and text, counted. The text is cut at white
    space (faster than the word pattern over the whole text) and each piece looked up in
    `term_of`, so the counting runs in C."""
    pieces = f"{paper.title} {paper.text}".lower().split()
    return Counter(chain.from_iterable(map(term_of.__getitem__, pieces)))
