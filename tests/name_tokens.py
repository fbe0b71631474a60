"""The name-shaped tokens of a text with what `names`' cue tests take beside each: the
tests of those cue tests walk a text this way."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from itertools import pairwise

from paperterm.index.text import name_scoring as scoring
from paperterm.index.text import names


def token_cues(
    text: str,
) -> Iterator[tuple[str, str, tuple[int, int], list[tuple[int, int]], int, int, str]]:
    """(token, lowered text, its sentence, the text's coinings, start, end, kind) for each
    name-shaped token of `text`, in order."""
    lowered = scoring.lower_text(text)
    sentences = list(pairwise(names._sentence_bounds(text)[0]))
    starts = [start for start, _ in sentences]
    coinings = names._coinings(lowered)
    for token, start, kind in names._name_tokens(text):
        sentence = sentences[bisect_right(starts, start) - 1]
        yield token, lowered, sentence, coinings, start, start + len(token), kind
