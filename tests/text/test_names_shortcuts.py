"""The shortcuts name detection takes to be cheap: each must answer as the full test it
stands in for, or taking it would change names."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st
from name_tokens import token_cues

from paperterm.index.text import names

_COUNTED_PIECES = [
    "Foo", "foo", "FOO", "Foo Bar", "foo bar", "-", "_", " ", ".", "x", "é", "É", "K", "ſ",
    "ı", "İ", "1", "+",
]  # fmt: skip


@example("Foo-foo FOO foo_ foo", "Foo")
@example("foo foo foo", "foo foo")
@example("Kfoo kelvin Foo", "k")
@given(
    st.lists(st.sampled_from(_COUNTED_PIECES), max_size=14).map("".join),
    st.sampled_from(["Foo", "foo bar", "Foo Foo", "X.1", "k", "s", "i", "É", "Fooé"]),
)
def test_a_word_is_counted_as_by_its_pattern(text, token):
    """`_count` counts by `str.find` where it may: what the pattern it stands in for finds
    (case ignored, not inside a longer word, matches not overlapping)."""
    pattern = r"(?<![\w-])" + re.escape(token) + r"(?![\w-])"
    assert names._count(text, token) == len(re.findall(pattern, text, re.IGNORECASE))


_END_PIECES = [
    "we", "We", "call", "called", "which", "this", "the", "our", "Our", "proposed", "own",
    "method", "solution", "towards", "of", "X-1", "É", "ſ", ",", '"', "“", " ", "  ", "\n",
    "x",
]  # fmt: skip


@example("our proposed method ", "_POSSESSIVE_APPOSITIVE")
@example("which we call the “", "_CALLED")
@example("we call this X the \n", "_CALLED")
@given(
    st.lists(st.sampled_from(_END_PIECES), max_size=16).map("".join),
    st.sampled_from(["_CALLED", "_POSSESSIVE", "_POSSESSIVE_APPOSITIVE", "_OBJECT_OF"]),
)
def test_a_pattern_that_ends_its_text_is_looked_for_in_the_end_only(text, name):
    """A pattern anchored at the end of its text ("$") finds a match in the end that holds
    as many spaces as its longest match (`_tail`) when it finds one in the whole text."""
    pattern, spaces = getattr(names, name), getattr(names, f"{name}_SPACES")
    assert bool(pattern.search(text, names._tail(text, spaces))) == bool(pattern.search(text))


_PASSIVE_PIECES = [
    "propos", "proposed", "ed", "d", "e", "built", "buil", "t", "devised", "creat",
    "presented", " ", "x", "É",
]  # fmt: skip


@example("proposed", 0, 8)
@example("xbuilt", 1, 5)
@given(
    st.lists(st.sampled_from(_PASSIVE_PIECES), max_size=10).map("".join),
    st.integers(0, 40),
    st.integers(0, 40),
)
def test_passive_verbs_are_found_from_their_stems_as_by_one_search(text, low, high):
    """`_has_passive_verb` looks for "built" and the stems before "ed": it finds a passive
    verb in `text[low:high]` when one search for them all does."""
    search = re.compile("|".join(names._PASSIVE_VERBS)).search
    assert names._has_passive_verb(text[low:high]) == bool(search(text, low, high))


def _has_cue_as_it_was(
    lowered: str, sentence: tuple[int, int], coinings: list[tuple[int, int]], start: int, end: int
) -> bool:
    """The cheap test of a coining cue near a token, as it was before `_may_score` took it in."""
    if lowered[end : end + 2] in (", ", "),", "):", ") ", ": ", " (", " -", " –", " —"):
        return True
    if any(max(sentence[0], start - 250) <= verb < start for verb, _ in coinings):
        return True
    after = min(sentence[1], end + 90)
    if lowered.startswith((") is a", ") are a", " is a", " are a"), end, after):
        return True
    near = lowered[max(sentence[0], start - 60) : start]
    return (
        "our " in near
        or any(hint in near for hint in names._CALLED_HINTS)
        or any(verb in lowered[end:after] for verb in names._PASSIVE_VERBS)
    )


def _may_score_as_it_was(
    text: str,
    lowered: str,
    sentence: tuple[int, int],
    coinings: list[tuple[int, int]],
    start: int,
    end: int,
) -> bool:
    """Each cue `_score` counts, on the widest stretch it reads it in, as it was tested."""
    if any(sentence[0] <= verb < start for verb, _ in coinings):
        return True
    stop = min(sentence[1], end + 160)
    if names._IS_NOVEL.match(text, end, stop):
        return True
    right = text[end:stop]
    if right[:3].lstrip(")")[:1] in (",", ":", " "):
        described = names.LEADING_PARENTHESIS.sub("", right, count=1) if "(" in right[:3] else right
        if names._APPOSITIVE_NOVEL.match(described) or names._APPOSITIVE.match(described):
            return True
    before = lowered[sentence[0] : start]
    return any(word in before for word in ("our ", *names._CALLED_HINTS)) or any(
        verb in text[end : min(sentence[1], end + 90)] for verb in names._PASSIVE_VERBS
    )


_GATE_PIECES = [
    "We propose ", "we introduce a ", "called ", "named", "our ", "Our method, ", "MC-ViT",
    "PICLe", "Caduceus", "Memory ViT ", "(", ")", "(X)", ", a novel model", ", a model",
    ", or Xy", ": a ", " is proposed", " IS PROPOSED", " is a simple ", " are a ", " was built",
    "of ", "the ", ". ", "x ", "É", "İs a ", "ſ", " - ", " — ", "dataset.In ", "devised",
]  # fmt: skip


@example("We propose MC-ViT, a model. PICLe (X) is proposed")
@example("dataset.In X, a novel model")
@example("Then MC-ViT is a simple model")
@example("Then MC-ViT was built, named PICLe. Our method, PICLe (X), a model")
@example("x. MC-ViT - a model; PICLe: a model of our MC-ViT")
@example("MC-ViT): a ")
@settings(max_examples=300)
@given(st.lists(st.sampled_from(_GATE_PIECES), max_size=30).map("".join))
def test_the_gate_before_scoring_answers_as_the_two_tests_it_joins(text):
    """`_may_score` tests in one pass what the cheap cue test and the test of the cues
    `_score` counts tested one after the other: the same answer for every token."""
    for _, lowered, sentence, coinings, start, end, _ in token_cues(text):
        expected = _has_cue_as_it_was(
            lowered, sentence, coinings, start, end
        ) and _may_score_as_it_was(text, lowered, sentence, coinings, start, end)
        assert names._may_score(text, lowered, sentence, coinings, start, end) == expected


_RIGHT_PIECES = [
    ")", "(", ",", ":", " ", "a", "an", "the", "novel", "first", "or", "X", "Yes", "called",
    "named", "dubbed", "termed", "which is", "(a b)", "É", "x-y", "ed",
]  # fmt: skip


@given(st.lists(st.sampled_from(_RIGHT_PIECES), max_size=12).map(" ".join))
def test_what_follows_a_token_is_read_as_by_its_patterns(right):
    """The patterns of what follows a token are tried only after the characters each
    starts with: the answers of the patterns tried on their own."""
    if right[:3].lstrip(")")[:1] in (",", ":", " "):
        described = names.LEADING_PARENTHESIS.sub("", right, count=1) if "(" in right[:3] else right
        novel = names._APPOSITIVE_NOVEL.match(described)
        expected = "novel" if novel else "described" if names._APPOSITIVE.match(described) else ""
    else:
        expected = ""
    assert names._appositive(right) == expected
    assert bool("ed" in right[:9] and names._NAMED_NEXT.match(right)) == bool(
        names._NAMED_NEXT.match(right)
    )


_GAP_PIECES = [
    "new", "Novel", "NEW", "renew", "plug-and-play", "first-", "x", " ", "-", "_", "1", "fast", "é",
]  # fmt: skip


@given(st.lists(st.sampled_from(_GAP_PIECES), max_size=10).map("".join))
def test_novelty_words_are_found_in_lowered_ascii_as_case_ignored(gap):
    """In ASCII, the case-sensitive search of the lowered gap finds what the search that
    ignores case finds in the gap (`_gap_score` takes the first for ASCII gaps)."""
    if gap.isascii():
        assert bool(names._NOVEL_LOWERED_WORD.search(gap.lower())) == bool(
            names._NOVEL_WORD.search(gap)
        )


@given(st.text(alphabet=" ab\n", max_size=12), st.integers(0, 5))
def test_a_tail_is_where_the_spaces_counted_from_the_end_say(text, spaces):
    """`_tail` (by `str.rsplit`) starts where counting `spaces` + 1 spaces back ends."""
    position = len(text)
    for _ in range(spaces + 1):
        position = text.rfind(" ", 0, position)
        if position < 0:
            break
    assert names._tail(text, spaces) == (0 if position < 0 else position + 1)


_OPENER_PIECES = [
    "We ", "The ", "Foo ", "We-Net ", "Re-Diffinet ", "LLMs ", "MC-ViT ", "xT ", ". ", "! ",
    "(", ")", '"', "x", "é", "É", "Foo's ", ",", "İ", "dataset.In ", "Foo/Bar ", " ", "A ",
    "In ",
]  # fmt: skip


@example("We use We. We-Net is. We propose xT. We")
@example("x dataset.In x In")
@example("Foo is. Foo, Foo. Re-Diffinet works. Re-Diffinet")
@example('It is. "We said. (Foo works. Foo')
@settings(max_examples=300)
@given(st.lists(st.sampled_from(_OPENER_PIECES), max_size=24).map("".join))
def test_hidden_sentence_openers_leave_the_tokens_and_counts_as_they_were(text):
    """With the capital of each sentence's first word hidden (`_hide_openers`), the token
    search finds every token `analyse` may score as before, and the hidden words counted by
    `_opener_count` make up each token's count."""
    starts = [start for start, _ in names._sentences(text)]
    openings = set(starts)
    full = names._name_tokens(text)
    capitals = names._capitals(text)
    openers = names._openers(text, capitals, starts)
    hidden = names._name_tokens(text, names._hide_openers(text, capitals, starts))

    def scored(tokens: list[tuple[str, int, str]]) -> list[tuple[str, int, str]]:
        return [t for t in tokens if t[2] == "namey" or t[1] not in openings]

    assert scored(hidden) == scored(full)
    for token in {t for t, _, _ in full}:
        assert sum(t == token for t, _, _ in full) == sum(
            t == token for t, _, _ in hidden
        ) + names._opener_count(text, openers, token)
        if names.token_kind(token) == "namey":  # `analyse` counts no hidden word for one
            assert names._opener_count(text, openers, token) == 0


_PERIOD_PIECES = [
    ". ", ".  ", ".", " ", "A", "Foo ", "x", "é", "É", "?", "! ", "dataset.In ", "(", "1",
    "\n", "ΑΣ", ". É",
]  # fmt: skip


@example("é A. B")
@example("Ab. Cd.  Ef. Gh")
@example("A.B. C")
@given(st.lists(st.sampled_from(_PERIOD_PIECES), max_size=24).map("".join))
def test_openers_after_a_period_are_hidden_as_start_by_start(text):
    """`_hide_openers` told by `_sentence_bounds` that each sentence follows ". " (by one
    `bytes.replace`) hides the capitals that the sentence starts open with, and no other."""
    bounds, after_period = names._sentence_bounds(text)
    starts = bounds[:-1]
    capitals = names._capitals(text)
    expected = bytearray(capitals)
    for start in names._openers(text, capitals, starts):
        expected[start] = ord("a")
    assert bytes(names._hide_openers(text, capitals, starts, after_period)) == bytes(expected)
    if "!" not in text and "?" not in text and ".  " not in text:
        assert after_period


_PHRASE_PIECES = [
    "Large ", "Language ", "Models", "MC-ViT ", "Caduceus", " ", "x", "-", "_", "é", "É",
    ". ", "(", ")", "\n", "Foo Bar ", "a ", ", ",
]  # fmt: skip


@example("We use Large Language Models. Caduceus x-Foo Bar")
@example("x A" + "a" * 38 + " Foo. x A" + "a" * 39 + " Foo")
@given(st.lists(st.sampled_from(_PHRASE_PIECES), max_size=20).map("".join))
def test_a_capitalised_phrase_is_found_as_in_the_slices_scoring_reads(text):
    """`_in_capitalised_phrase` (searched in the text between bounds) answers as the two
    patterns did on the slices `_score` reads: what follows the token in its sentence,
    and the last 40 characters before it."""
    for _, _, sentence, _, start, end, _ in token_cues(text):
        first, last = sentence
        if start == first:
            continue
        left, right = text[max(first, start - 300) : start], text[end : min(end + 160, last)]
        expected = bool(
            names._CAPITAL_NEXT.match(right) or names._CAPITAL_BEFORE.search(left[-40:])
        )
        assert names._in_capitalised_phrase(text, sentence, start, end) == expected


def _gap_score_as_it_was(gap: str) -> float:
    """`_gap_score` before it took a gap of one space as a plain "we propose X"."""
    w = names.WEIGHTS
    words = gap.split()
    if (
        len(words) > w.gap_words
        or names._NOT_COINING_NEXT.match(gap)
        or names._OBJECT_OF.search(gap[-14:])
    ):
        return 0.0
    lowered_words = [word.strip(",") for word in gap.lower().split()]
    barriers = w.gap_barrier * sum(word in names._GAP_BARRIERS for word in lowered_words)
    barriers += w.gap_use_word * sum(word in names._USE_WORDS for word in lowered_words)
    novelty = w.gap_novelty if names._NOVEL_WORD.search(gap) else 0.0
    score = w.coined - w.gap_word * len(words) - barriers - w.gap_comma * gap.count(",")
    return max(0.0, score + novelty)


@example(" ")
@example("  ")
@example(" the ")
@given(
    st.lists(
        st.sampled_from([" ", "a", "novel", "for", "using", ",", "the", "to", "Novel", "é", "x"]),
        max_size=8,
    ).map("".join)
)
def test_a_gap_is_scored_as_before(gap):
    """`_gap_score`'s shortcut for a gap of one space gives what reading the gap gave."""
    assert names._gap_score(gap) == _gap_score_as_it_was(gap)


def _is_subsequence_by_find(needle: list[str], haystack: str) -> bool:
    position = 0
    for ch in needle:
        position = haystack.find(ch, position) + 1
        if position == 0:
            return False
    return True


@given(st.text(alphabet="abcé", max_size=6), st.text(alphabet="abcé -", max_size=16))
def test_a_subsequence_is_found_as_by_find(needle, haystack):
    """`_is_subsequence` by an iterator answers as the `str.find` from each position did."""
    letters = list(needle)
    assert names._is_subsequence(letters, haystack) == _is_subsequence_by_find(letters, haystack)


def _coinings_word_by_word(lowered: str) -> list[tuple[int, int]]:
    """`_coinings` as it was: each subject's words found by `str.find`, one pattern of all
    subjects matched at each."""
    pattern = re.compile(names.SUBJECT + names._AFTER_SUBJECT)
    found = []
    for subject in ("we ", "this ", "our ", "the present "):
        position = lowered.find(subject)
        while position >= 0:
            if position == 0 or not lowered[position - 1].isalpha():
                match = pattern.match(lowered, position)
                if match:
                    found.append((match.start("verb"), match.end()))
            position = lowered.find(subject, position + 1)
    return sorted(found)


_COINING_PIECES = [
    "we ", "xwe ", "éwe ", "²we ", "this paper ", "this ", "our work ", "our ", "the present ",
    "study ", "propose", "propose ", "introduce and study ", "and ", "we ", "also ", "newly ",
    "named ", "x", " ", "(", "é", ", ",
]  # fmt: skip


@example("we propose and we introduce x")
@example("xwe propose and we introduce x")
@example("this paper we propose x")
@given(st.lists(st.sampled_from(_COINING_PIECES), max_size=20).map("".join))
def test_coinings_are_those_found_subject_by_subject(lowered):
    """One pattern a subject, searched for (`_coinings`), finds the coinings that a match of
    the pattern of all subjects at each of their words found."""
    assert names._coinings(lowered) == _coinings_word_by_word(lowered)
