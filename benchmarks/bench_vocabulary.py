"""Typo neighbours and prefix completions on a large vocabulary, in CPU time.

The vocabulary: the words of 5,000 `corpus.py` abstracts, filled up to `--words` (default
150,000, about what 2.5 million arXiv abstracts hold) with made-up words of the same length
and letter distribution, counts Zipf-like. For each look-up it prints the CPU time per call
(mean of `--rounds`), beside a peer: the same rapidfuzz comparison over the whole vocabulary
instead of the words of a near length (what the issue measured: ~31 ms).

    python benchmarks/bench_vocabulary.py [--words 150000] [--rounds 20]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from functools import partial

import corpus
from measure import machine, table
from rapidfuzz.distance import OSA
from rapidfuzz.process import extract

from paperterm.index.search.vocabulary import Vocabulary

TYPOS = ["vjt", "zoo", "transfomer", "segmentaton", "robusness", "difusion", "atention"]
PREFIXES = ["s", "c", "p", "se", "con", "segm"]


def make_vocabulary(size: int) -> Vocabulary:
    real = Vocabulary.from_texts(a.text for a in corpus.make_abstracts(5000))
    rng = random.Random(3)
    lengths = [len(word) for word in real.words]
    letters = "".join(real.words)
    counts = dict(real.counts)
    while len(counts) < size:
        word = "".join(rng.choice(letters) for _ in range(rng.choice(lengths)))
        counts.setdefault(word, max(1, 1000 // rng.randint(1, 1000)))
    return Vocabulary(counts)


def cpu_ms(call: Callable[[], object], rounds: int) -> float:
    started = time.process_time()
    for _ in range(rounds):
        call()
    return (time.process_time() - started) / rounds * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--words", type=int, default=150_000)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    vocabulary = make_vocabulary(args.words)
    vocabulary.within("warm", 1, 1)  # group the words by length once
    print(f"machine: {machine()}; vocabulary: {len(vocabulary):,} words")
    rows = []
    for word in TYPOS:
        for distance in (1, 2):
            ours = cpu_ms(partial(vocabulary.within, word, distance, 40), args.rounds)
            whole = partial(
                extract, word, vocabulary.words, scorer=OSA.distance, score_cutoff=distance
            )
            peer = cpu_ms(partial(whole, limit=None), max(1, args.rounds // 4))
            found = vocabulary.within(word, distance, 5)
            rows.append([f"{word}~{distance}", ours, peer, ", ".join(found)])
    print(table(["typo", "within() ms CPU", "whole-vocabulary scan ms CPU", "top 5"], rows))
    rows = []
    for prefix in PREFIXES:
        fresh = Vocabulary(vocabulary.counts)
        first = cpu_ms(partial(fresh.prefixed, prefix, 40), 1)
        again = cpu_ms(partial(fresh.prefixed, prefix, 40), args.rounds)
        count = len(fresh.prefixed(prefix, 10**9))
        rows.append([prefix, count, first, again, ", ".join(fresh.prefixed(prefix, 5))])
    print()
    print(table(["prefix", "completions", "first ms CPU", "again ms CPU", "top 5"], rows))


if __name__ == "__main__":
    main()
