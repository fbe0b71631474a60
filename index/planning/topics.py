"""Topics for a corpus that has none: offline, deterministic, from the index's own terms.

`topics(papers)` groups the papers into about 20 to 40 topics (fewer for a small corpus:
about the square root of half its size), each labelled by 3 to 5 distinctive words:

1. Each paper's title (counted twice) and text are cut into the terms the search index
   holds (`FieldAnalysis`: stemmed English, CJK bigrams, stop words dropped); terms in
   fewer than two papers or in more than a quarter of them are left out, as are numbers
   and the filler words of academic prose (`FILLER`).
2. Each paper becomes a tf-idf vector (sublinear tf) of its most weighted terms, of unit
   length.
3. Spherical k-means (cosine similarity) finds the topics' centres on an evenly spaced
   sample of the papers, started by k-means++ from a fixed seed; every paper then joins
   its nearest centre. Papers sharing no term with any centre get no topic.
4. A topic's words are the terms most over-represented in it (each shown as its most
   frequent spelling in the corpus).

Papers are taken in the order of their ids and nothing depends on the order of a set,
so the same papers give the same topics, in any order and any process.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from paperterm.index.papers import Paper
from paperterm.index.text.words import words_of

SEED = 20240721
MAX_TOPICS = 40
#: Papers the centres are found on; the others only join their nearest centre.
SAMPLE = 4000
#: A paper's terms kept in its vector (the most weighted).
DOC_TERMS = 40
#: A centre's terms kept when papers are compared with it.
CENTRE_TERMS = 250
ITERATIONS = 12
MAX_DF_SHARE = 0.25
LABEL_WORDS = 5
#: Words of academic prose that say nothing of a topic (the index's stop words aside).
_FILLER_WORDS = """
    via using based towards toward like further well also new novel propose proposed
    proposes approach approaches method methods show shows shown result results can
    one two three first paper work study present presents demonstrate demonstrates
    however may within without across among often various several many much more most
    each use used uses given different while both through thus therefore existing
    recent recently significantly significant effectively
    effective efficient efficiently achieve achieves achieving improve improves improved
    outperforms sota framework task tasks problem problems performance
"""
FILLER = frozenset(_FILLER_WORDS.split())

Vector = list[tuple[int, float]]


@dataclass(frozen=True, slots=True)
class Topic:
    """A group of papers; `words` are its 3-5 distinctive words, `label` the first three."""

    label: str
    words: tuple[str, ...]
    ids: tuple[str, ...]

    @property
    def count(self) -> int:
        return len(self.ids)

    def to_json(self) -> dict[str, object]:
        return {"label": self.label, "words": list(self.words), "count": self.count,
                "ids": list(self.ids)}  # fmt: skip


def topics_json(found: Iterable[Topic]) -> list[dict[str, object]]:
    """What `paperterm topics --json` prints: `[{"label", "words", "count", "ids"}]`."""
    return [topic.to_json() for topic in found]


def topic_count(papers: int) -> int:
    """How many topics a corpus of `papers` is grouped into."""
    return max(1, min(MAX_TOPICS, round(math.sqrt(papers / 2))))


def topics(papers: Sequence[Paper], *, k: int | None = None, seed: int = SEED) -> list[Topic]:
    """The topics of `papers`, largest first (see the module docstring)."""
    order = sorted(range(len(papers)), key=lambda i: papers[i].id)
    ordered = [papers[i] for i in order]
    vectors, terms, spelling = _vectors(ordered)
    usable = [i for i, vector in enumerate(vectors) if vector]
    if not usable:
        return []
    k = min(k or topic_count(len(usable)), len(usable))
    step = max(1, len(usable) / SAMPLE)
    sample = [usable[int(j * step)] for j in range(min(len(usable), SAMPLE))]
    centres = _kmeans([vectors[i] for i in sample], k, random.Random(seed))
    members: list[list[int]] = [[] for _ in centres]
    postings = _postings(centres)
    for index in usable:
        best = _nearest(vectors[index], postings, len(centres))
        if best >= 0:
            members[best].append(index)
    labels = _labels(members, vectors, terms, spelling, len(usable))
    position = {paper_index: n for n, paper_index in enumerate(order)}  # back to input order
    found = [
        Topic(
            " · ".join(words[:3]),
            tuple(words),
            tuple(ordered[i].id for i in sorted(group, key=lambda i: position[i])),
        )
        for group, words in zip(members, labels, strict=True)
        if group and words
    ]
    return sorted(found, key=lambda topic: (-topic.count, topic.label))


def _vectors(papers: list[Paper]) -> tuple[list[Vector], list[str], dict[str, str]]:
    """Each paper's unit tf-idf vector over term numbers; the terms; each term's most
    frequent spelling."""
    from paperterm.index.search.analysis import FieldAnalysis

    analysis = FieldAnalysis()
    cut: dict[str, tuple[str, ...]] = {}
    spellings: Counter[str] = Counter()
    counted: list[dict[str, int]] = []
    df: Counter[str] = Counter()
    for paper in papers:
        title = paper.title or paper.name
        words = Counter(words_of(f"{title} {title} {paper.text or paper.abstract}".lower()))
        spellings.update(words)
        tf: dict[str, int] = {}
        for word, count in words.items():
            if word in FILLER:
                continue
            found = cut.get(word)
            if found is None:
                found = cut[word] = tuple(
                    term for term in analysis.word_terms("all", [word])
                    for term in term.split() if term[0].isalpha()
                )  # fmt: skip
            for term in found:
                tf[term] = tf.get(term, 0) + count
        counted.append(tf)
        df.update(tf.keys())
    n = len(papers)
    most = max(2, int(n * MAX_DF_SHARE)) if n >= 8 else n
    kept = sorted(term for term, seen in df.items() if 2 <= seen <= most)
    number = {term: i for i, term in enumerate(kept)}
    idf = [math.log(n / df[term]) + 1.0 for term in kept]
    vectors: list[Vector] = []
    for tf in counted:
        weighted = [
            (number[term], (1.0 + math.log(count)) * idf[number[term]])
            for term, count in tf.items()
            if term in number
        ]
        weighted.sort(key=lambda pair: (-pair[1], pair[0]))
        vectors.append(_unit(weighted[:DOC_TERMS]))
    spelling: dict[str, str] = {}
    best: dict[str, int] = {}
    for word, count in sorted(spellings.items()):
        for term in cut.get(word, ()):
            if term in number and count > best.get(term, 0):
                best[term], spelling[term] = count, word
    return vectors, kept, spelling


def _unit(vector: Vector) -> Vector:
    norm = math.sqrt(sum(weight * weight for _, weight in vector))
    return [(term, weight / norm) for term, weight in vector] if norm else []


def _dot(vector: Vector, dense: dict[int, float]) -> float:
    return sum(weight * dense.get(term, 0.0) for term, weight in vector)


def _kmeans(vectors: list[Vector], k: int, rng: random.Random) -> list[Vector]:
    """Spherical k-means over `vectors`: the centres (unit, pruned to their top terms)."""
    centres = _plus_plus(vectors, k, rng)
    assignment = [-1] * len(vectors)
    for _ in range(ITERATIONS):
        postings = _postings(centres)
        changed = 0
        for index, vector in enumerate(vectors):
            best = _nearest(vector, postings, len(centres))
            if best != assignment[index]:
                assignment[index], changed = best, changed + 1
        centres = _centres(vectors, assignment, centres)
        if _seed_orphans(vectors, assignment, centres):
            continue
        if not changed:
            break
    return centres


def _seed_orphans(vectors: list[Vector], assignment: list[int], centres: list[Vector]) -> bool:
    """When more than a few vectors share no term with any centre, give the first of them
    a centre: an empty group's, else the smaller of the two most similar centres' (which
    split one topic between them). True when a centre changed."""
    orphans = [index for index, group in enumerate(assignment) if group < 0]
    if len(orphans) < max(2, len(vectors) // 100) or len(centres) < 2:
        return False
    sizes = Counter(assignment)
    empty = [group for group in range(len(centres)) if not sizes[group]]
    if empty:
        slot = empty[0]
    else:
        dense = [dict(centre) for centre in centres]
        pairs = (
            (_dot(centres[a], dense[b]), a, b)
            for a in range(len(centres))
            for b in range(a + 1, len(centres))
        )
        _, a, b = max(pairs, key=lambda pair: (pair[0], -pair[1], -pair[2]))
        slot = b if sizes[b] <= sizes[a] else a
    centres[slot] = vectors[orphans[0]]
    return True


def _plus_plus(vectors: list[Vector], k: int, rng: random.Random) -> list[Vector]:
    """k-means++: each next centre a vector drawn with odds its squared distance from the
    nearest centre so far (cosine distance)."""
    by_term: dict[int, list[tuple[int, float]]] = {}
    for index, vector in enumerate(vectors):
        for term, weight in vector:
            by_term.setdefault(term, []).append((index, weight))
    nearest = [1.0] * len(vectors)  # 1 - best cosine so far
    centres: list[Vector] = []
    chosen = rng.randrange(len(vectors))
    while True:
        centres.append(vectors[chosen])
        if len(centres) == k:
            return centres
        similarity: dict[int, float] = {}
        for term, weight in vectors[chosen]:
            for index, other in by_term[term]:
                similarity[index] = similarity.get(index, 0.0) + weight * other
        for index, value in similarity.items():
            nearest[index] = min(nearest[index], max(0.0, 1.0 - value))
        odds = [distance * distance for distance in nearest]
        total = sum(odds)
        if total <= 0.0:
            return centres
        target, running = rng.random() * total, 0.0
        for index, value in enumerate(odds):
            running += value
            if running >= target and value > 0.0:
                chosen = index
                break
        else:  # rounding left the target past the total
            chosen = max(range(len(odds)), key=odds.__getitem__)


def _postings(centres: list[Vector]) -> dict[int, list[tuple[int, float]]]:
    """Term -> [(centre, weight)]: papers meet only the centres that share a term."""
    postings: dict[int, list[tuple[int, float]]] = {}
    for number, centre in enumerate(centres):
        for term, weight in centre:
            postings.setdefault(term, []).append((number, weight))
    return postings


def _nearest(vector: Vector, postings: dict[int, list[tuple[int, float]]], k: int) -> int:
    """The centre most similar to `vector` (the first of equals); -1 when none shares a
    term with it."""
    scores = [0.0] * k
    for term, weight in vector:
        for centre, other in postings.get(term, ()):
            scores[centre] += weight * other
    best = max(range(k), key=scores.__getitem__)
    return best if scores[best] > 0.0 else -1


def _centres(vectors: list[Vector], assignment: list[int], old: list[Vector]) -> list[Vector]:
    """Each group's mean direction, pruned to its top terms; a group left empty keeps its
    old centre."""
    sums: list[dict[int, float]] = [{} for _ in old]
    for vector, group in zip(vectors, assignment, strict=True):
        if group < 0:
            continue
        total = sums[group]
        for term, weight in vector:
            total[term] = total.get(term, 0.0) + weight
    centres = []
    for total, previous in zip(sums, old, strict=True):
        if not total:
            centres.append(previous)
            continue
        top = sorted(total.items(), key=lambda pair: (-pair[1], pair[0]))[:CENTRE_TERMS]
        centres.append(_unit(top))
    return centres


def _labels(
    members: list[list[int]],
    vectors: list[Vector],
    terms: list[str],
    spelling: dict[str, str],
    papers: int,
) -> list[list[str]]:
    """Each group's words: its terms by how far they are over-represented in it, weighted
    by how much of the group has them (in at least two of its papers, or all of a smaller
    group); a term less than half as frequent again as in the corpus only to make three."""
    df: Counter[int] = Counter()
    group_df: list[Counter[int]] = []
    for group in members:
        counts: Counter[int] = Counter()
        for index in group:
            counts.update(term for term, _ in vectors[index])
        group_df.append(counts)
        df.update(counts)
    labels = []
    for group, counts in zip(members, group_df, strict=True):
        size = len(group)
        scored = []
        for term, seen in counts.items():
            if seen < min(2, size):
                continue
            share = seen / size
            lift = share * papers / df[term]
            scored.append((lift < 1.5, -(share * math.log(lift)), terms[term], term))
        scored.sort()
        words: list[str] = []
        for weak, _, _, term in scored:
            if len(words) == LABEL_WORDS or (weak and len(words) >= 3):
                break
            word = spelling.get(terms[term], terms[term])
            if word not in words:
                words.append(word)
        labels.append(words)
    return labels
