"""How much a title's or name's boosts add in the any-word ranking (`Plan.share_boosts`):
by the share of the query's words that field holds in the paper, squared. Most of the words
in one title say the query is that title; one word of three there says little beside an
abstract holding all three (ARCHITECTURE.md, "Ranking")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import repeat

from paperterm.index.search.plan import Alternative

#: The power the share is raised to.
BOOST_SHARE_POWER = 2


def boost_share(held: int, words: int) -> float:
    """What part of its boosts a paper's field holding `held` of a query's `words` words
    adds: all of them from `words` on."""
    return min(1.0, held / words) ** BOOST_SHARE_POWER


def shared_boosts(
    boosts: Sequence[Alternative], found: list[dict[int, float]], words: int
) -> list[dict[int, float]]:
    """Each boost's scores by paper (`found`, in the order of `boosts`) times `boost_share`
    of the words its field holds in that paper: the boosts of that field the paper
    matches. New dicts."""
    held: Counter[tuple[str, int]] = Counter()
    for boost, scores in zip(boosts, found, strict=True):
        held.update(zip(repeat(boost.field), scores))
    return [
        {
            paper: score * boost_share(held[boost.field, paper], words)
            for paper, score in scores.items()
        }
        for boost, scores in zip(boosts, found, strict=True)
    ]
