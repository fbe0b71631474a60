"""The corpus vocabulary: typo neighbours over every word, prefix completions, did-you-mean."""

from __future__ import annotations

import json
import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperterm.index.search.vocabulary import LONG_RANGE, TOP_KEPT, Vocabulary


def made_up_words(count: int, seed: int = 1) -> dict[str, int]:
    """`count` distinct lower-case words of 3 to 9 letters with made-up counts."""
    rng = random.Random(seed)
    words: dict[str, int] = {}
    while len(words) < count:
        word = "".join(rng.choices(string.ascii_lowercase, k=rng.randint(3, 9)))
        words[word] = rng.randint(1, 50)
    return words


@pytest.fixture(scope="module")
def large() -> dict[str, int]:
    return made_up_words(60_000)


def test_a_short_word_finds_neighbours_late_in_the_alphabet(large):
    """Short words were compared with the alphabetically first 20,000 words only."""
    vocabulary = Vocabulary({**large, "vit": 7})
    assert len(vocabulary) > 50_000
    assert "vit" in vocabulary.within("vjt", 1, 40)
    vocabulary = Vocabulary({**made_up_words(50_000, seed=2), "zon": 3, "zo": 2})
    assert {"zon", "zo"} <= set(vocabulary.within("zoo", 1, 40))


def test_a_long_word_finds_neighbours_with_another_first_letter(large):
    """Longer words had to share their first letter with their neighbours."""
    vocabulary = Vocabulary({**large, "transformer": 9})
    assert vocabulary.within("bransformer", 1, 5) == ["transformer"]
    assert vocabulary.closest("ransformer") == "transformer"


def test_neighbours_come_most_frequent_first_alphabetical_among_equals():
    vocabulary = Vocabulary({"cat": 5, "bat": 9, "hat": 5, "at": 1, "cart": 2, "dog": 50})
    assert vocabulary.within("cat", 1, 10) == ["bat", "cat", "hat", "cart", "at"]
    assert vocabulary.within("cat", 1, 2) == ["bat", "cat"]
    assert vocabulary.within("cat", 2, 10)[:1] == ["bat"] and "dog" not in vocabulary.within(
        "cat", 2, 10
    )


def test_a_swap_of_neighbouring_letters_is_one_edit():
    vocabulary = Vocabulary({"transformer": 3, "graph": 2})
    assert vocabulary.within("trasnformer", 1, 5) == ["transformer"]
    assert vocabulary.within("grahp", 1, 5) == ["graph"]


def test_closest_prefers_one_edit_to_two_and_never_the_word_itself():
    vocabulary = Vocabulary({"models": 100, "model": 3, "modal": 40, "mode": 1})
    assert vocabulary.closest("model") == "models"  # one edit, more frequent than "mode"
    assert vocabulary.closest("modxl") == "modal"  # one edit (40) before "models" (two)
    assert vocabulary.closest("qqqq") == "qqqq"


def test_prefix_completions_are_every_word_most_frequent_first():
    """The most frequent completions, whichever part of the alphabet they are in: the
    search stopped after 20,000 words of the range."""
    words = {f"s{i:05d}": 1 for i in range(30_000)}
    words.update({"szz": 90, "sa": 80, "ab": 1000, "tz": 1000})
    vocabulary = Vocabulary(words)
    assert vocabulary.prefixed("s", 3) == ["szz", "sa", "s00000"]
    assert vocabulary.prefixed("s", 3) == ["szz", "sa", "s00000"]  # the kept list, again
    assert len(vocabulary.prefixed("s", 10**6)) == 30_002  # beyond the kept list
    assert vocabulary.prefixed("s0001", 2) == ["s00010", "s00011"]


def test_prefixes_with_many_completions_keep_their_top_list():
    words = {f"p{i:05d}": i % 97 for i in range(3 * LONG_RANGE)}
    vocabulary = Vocabulary(words)
    expected = sorted(words, key=lambda w: (-words[w], w))
    for limit in (1, 10, TOP_KEPT, TOP_KEPT + 1):
        assert vocabulary.prefixed("p", limit) == expected[:limit]


def test_prefix_ranges_end_where_the_prefix_does():
    vocabulary = Vocabulary({"ab": 1, "abé": 2, "ab论文": 3, "abz": 4, "ac": 9, "a": 9})
    assert vocabulary.prefixed("ab", 10) == ["abz", "ab论文", "abé", "ab"]
    assert vocabulary.prefixed("abc", 10) == []
    assert vocabulary.prefixed("", 2) == ["a", "ac"]


@settings(max_examples=200, deadline=None)
@given(
    counts=st.dictionaries(
        st.text(alphabet="abcé", min_size=1, max_size=6), st.integers(1, 4), max_size=60
    ),
    word=st.text(alphabet="abcé", min_size=1, max_size=6),
    limit=st.integers(1, 8),
)
def test_completions_and_neighbours_are_the_most_frequent_alphabetical_among_equals(
    counts, word, limit
):
    """Against the definition: words ordered by (-count, word), the first `limit`."""
    from rapidfuzz.distance import OSA

    vocabulary = Vocabulary(counts)

    def best(words: list[str]) -> list[str]:
        return sorted(words, key=lambda w: (-counts[w], w))[:limit]

    assert vocabulary.prefixed(word[:2], limit) == best(
        [w for w in counts if w.startswith(word[:2])]
    )
    near = [w for w in counts if len(w) - len(word) in (-1, 0, 1) and OSA.distance(w, word) <= 1]
    assert vocabulary.within(word, 1, limit) == best(near)
    others = [w for w in counts if w != word and OSA.distance(w, word) <= 2]
    one = best([w for w in others if OSA.distance(w, word) == 1])
    two = best(others)
    assert vocabulary.closest(word) == (one or two or [word])[0]


def test_saved_counts_are_in_the_words_order_and_load_the_same():
    """A saved vocabulary lists its words sorted (a reader's load then sorts a sorted
    list), with the counts it was made of."""
    counts = {"zeta": 3, "alpha": 1, "Émile": 2, "beta": 7, "ab": 4}
    saved = Vocabulary(counts).dumps()
    assert list(json.loads(saved)) == sorted(counts)
    assert json.loads(saved) == counts
