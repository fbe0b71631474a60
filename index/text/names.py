"""Name detection: the method or system an abstract coins, if any.

The seeds carry no titles, so the list needs something to show. `derive_name` finds the
method or system an abstract coins ("We present Persona In-Context Learning (PICLe), a
novel ..."), not the acronyms it merely uses (LLMs, SGD). It scores each name-shaped token
(a capital letter inside or several capitals: PICLe, MC-ViT, CTAN; a capitalised word such
as Caduceus only on strong evidence) by how the text introduces it:

- a coining verb after "we" or "this paper" a few plain words before it ("we propose an X",
  "we propose the Stackelberg Decision Transformer (X)"), less so across prepositions;
- "called X", "named X", "which we call X";
- an appositive: "X, a novel framework", "X, the first family of ...", "X, or <expansion>";
- "our <expansion> (X)", "Our solution, X,", "our proposed method X";
- "a ... (X) is proposed", "<Expansion> (X) is a simple ...";
- emphasis in the source (`*xT*`, `\\mathsf{DirMixE}`) and repetition.

A token followed by a generic noun ("a new MoE strategy", "GPU kernels") modifies it, and one
after a preposition ("a version of MCSD") is an object: neither is coined. How much each cue
counts is the table `WEIGHTS`: this is a hand-tuned classifier (tuned on the 38 seed
abstracts; tests/fixtures/held_out_names.toml checks it on abstracts it was not tuned on).

It works on the display text, is deterministic and never raises. Most tests run on short
slices or as `str.find` on a lowered copy of the text: one full regex pass over an abstract
costs a good part of the time budget of a call. `headlines` writes the title from the same
analysis.
"""

from __future__ import annotations

import heapq
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from paperterm.index.text.display import display_text
from paperterm.index.text.name_scoring import (
    IS_NOVEL,
    WEIGHTS,
    Occurrence,
    appositive_kind,
    count_token,
    has_called_hint,
    has_passive_verb,
    in_capitalised_phrase,
    lower_text,
    phrase_occurrences,
    score_occurrence,
)

# --------------------------------------------------------------------------- candidates

_NAME_SHAPE = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-+.][A-Za-z0-9]+)*")
_WORD_PUNCTUATION = "()[]{},.;:!?\"'“”‘’"
_NOT_A_NAME_SUFFIX = re.compile(
    r"-(?:based|like|style|aware|guided|driven|free|specific|level|wise|only|scale|shot|"
    r"grained|agnostic|dependent|invariant|augmented|conditioned|supervised|trained|tuned)$",
    re.IGNORECASE,
)

# Coining verbs, found by their stems in the lowered text; the subject must come just before.
_COIN_STEMS = (
    "propos", "introduc", "present", "develop", "design", "devis", "build", "construct",
    "contribut", "offer", "releas", "creat", "provid", "formulat", "unveil", "nam", "dub",
    "term", "coin",
)  # fmt: skip
_SUBJECT_NOUNS = {
    "this ": ("paper", "work", "study", "article", "letter", "note", "report", "thesis",
              "manuscript"),
    "our ": ("work", "paper", "study"),
    "the present ": ("paper", "work", "study"),
}  # fmt: skip
#: Each subject a coining verb follows: "we", "this (?:paper|work|...)" ...
_SUBJECTS = ("we", *(f"{words}(?:{'|'.join(nouns)})" for words, nouns in _SUBJECT_NOUNS.items()))
SUBJECT = "(?:" + "|".join(_SUBJECTS) + ")"
_AFTER_SUBJECT = (
    r"(?: (?:also|further|first|then|therefore|thus|hence|here|now|newly|"
    r"additionally|finally|instead|next|subsequently|[a-z]+ly))* (?P<verb>(?:"
    + "|".join(_COIN_STEMS)
    + r")[a-z]*(?: and [a-z]+)?)"
)
#: A coining after each subject, one pattern a subject: each starts with its subject's
#: words, which the pattern engine searches for fast, and tries the rest where it finds
#: them, with no Python between (where a `str.find` of each subject's words and a match
#: at each place found took a Python loop a word: most "we", "this" and "our" of a text
#: are no subject of a coining verb).
_COININGS = tuple(re.compile(subject + _AFTER_SUBJECT) for subject in _SUBJECTS)


@dataclass(slots=True)
class Analysis:
    """An abstract read for names: its display text (lowered alike, position for position),
    its sentence spans, each candidate's best occurrence, and the name chosen ("" for none).
    `headlines` writes the title from it."""

    text: str
    lowered: str
    sentences: list[tuple[int, int]]
    best: dict[str, Occurrence]
    name: str


def derive_name(abstract: str, text: str | None = None) -> str:
    """The method or system `abstract` coins, or "" when it coins none. `text` is its display
    text when the caller has it already (the loader does): decoding it again costs as much
    as the rest of the analysis."""
    try:
        return analyse(abstract, text).name
    except Exception:  # a heuristic over arbitrary text must never take an index build down
        return ""


# --------------------------------------------------------------------------- analysis


@lru_cache(maxsize=64)
def analyse(abstract: str, text: str | None = None) -> Analysis:
    """`abstract` read for names (`text`: its display text, if known)."""
    if text is None:
        text = display_text(abstract)
    if "\n" in text:  # a search for one character is the fastest
        text = text.replace("\n\n", " ")  # spaces are single already
    lowered = lower_text(text)
    bounds, after_period = _sentence_bounds(text)
    sentences = list(pairwise(bounds))
    starts = bounds[:-1]
    coinings = _coinings(lowered)
    emphasised = _emphasised(abstract)
    best: dict[str, Occurrence] = {}
    counts: dict[str, int] = {}
    openings = frozenset(starts)
    capitals = _capitals(text)
    hidden = _hide_openers(text, capitals, starts, after_period)
    for token, start, kind in _name_tokens(text, hidden):
        counts[token] = counts.get(token, 0) + 1
        if kind != "namey" and start in openings:
            continue  # a capitalised sentence opener (a third of the tokens): never scored
        sentence = sentences[bisect_right(starts, start) - 1]
        end = start + len(token)
        if (
            kind != "namey" and in_capitalised_phrase(text, sentence, start, end)
        ) or not _may_score(text, lowered, sentence, coinings, start, end):
            # `score_occurrence` would give none: tested before the cue test, that costs more
            continue
        occurrence = score_occurrence(text, lowered, sentence, coinings, start, end)
        if occurrence and (token not in best or occurrence.score > best[token].score):
            best[token] = occurrence
    for occurrence in [o for o in best.values() if o.expansion]:
        for token in [
            t for t, o in best.items() if occurrence.anchor <= o.start < occurrence.start
        ]:
            del best[token]  # a word of an acronym's expansion: "surface Masked AutoEncoder (sMAE)"
    for phrase, occurrence in phrase_occurrences(text, sentences, starts, coinings, emphasised):
        if phrase not in best or occurrence.score > best[phrase].score:
            best[phrase] = occurrence
            for token in phrase.split():  # "UnCLe SAM" is the name, not "SAM"
                if token in best and occurrence.start <= best[token].start < occurrence.end:
                    del best[token]
    name, top, openers = "", 0.0, None  # openers: `_openers`, once a count needs them
    for token, occurrence in best.items():
        score = occurrence.score + (WEIGHTS.emphasis if token in emphasised else 0.0)
        if score < WEIGHTS.name:
            continue
        count = counts.get(token) or count_token(text, token)
        if " " not in token and token_kind(token) != "namey":
            # A word hidden from the token search has no capital but its first: never a
            # "namey" token, that `_capitalised_ok` passes.
            if openers is None:
                openers = _openers(text, capitals, starts)
            count += _opener_count(text, openers, token)
            if not _capitalised_ok(token, score, count):
                continue
        score += WEIGHTS.repetition * min(count - 1, WEIGHTS.repetitions)
        if score > top or (score == top and occurrence.start < best[name].start):
            name, top = token, score
    return Analysis(text, lowered, sentences, best, name)


def _sentence_bounds(text: str) -> tuple[list[int], bool]:
    """Where each sentence starts, then the text's end (the sentences are the spans between;
    "dataset.In", a lost space common in PDF text, ends one too);
    and whether each sentence opened by an ASCII capital after a space follows a period
    and one space, with no "!" nor "?" in the text (for `_hide_openers`)."""
    bounds = [0]
    after_period = "!" not in text and "?" not in text  # a search for one character is fast
    for match in _sentence_ends(text):
        start, end = match.span()
        if match.lastgroup is None:
            bounds.append(end)  # spaces and an ASCII capital, digit or opening mark
            if end - start != 2:
                after_period = False
        elif _ends_sentence(text, start, end):
            bounds.append(end)  # never an ASCII capital after a space: no opener to hide
    bounds.append(len(text))
    return bounds, after_period


def _ends_sentence(text: str, start: int, end: int) -> bool:
    """Whether a mark at `start` that group "test" of `_SENTENCE_ENDS` takes to `end`
    ends a sentence: spaces and a capital that is not ASCII, a digit or a curly quote; or
    no space and a capitalised word after two lower-case letters ("dataset.In")."""
    if end >= len(text):
        return False
    if end == start + 1:
        before = text[max(0, end - 3) : end - 1]
        return len(before) == 2 and before.isalpha() and before.islower()
    return text[end].isupper() or text[end].isdigit() or text[end] in '"“(['


#: Where a sentence may end: a mark and spaces, or no space and a capitalised word
#: ("dataset.In"). Spaces and an ASCII capital, a digit, a quote, a parenthesis or a
#: bracket after the mark end one for certain (nearly every end): the others (group
#: "test") are tested in Python.
_SENTENCE_ENDS = {
    mark: re.compile(re.escape(mark) + r"(?: +(?=[A-Z0-9\"(\[])|(?P<test> +|(?=[A-Z][a-z])))")
    for mark in (".", "!", "?")
}


def _sentence_ends(text: str) -> Iterator[re.Match[str]]:
    """Where a sentence may end, in order: each mark's pattern starts with it, which the
    pattern engine searches for fast, where one for the three (`[.!?]`) tested each
    character (twice the time); the text is searched only for the marks it has."""
    found = [_SENTENCE_ENDS["."].finditer(text)]
    found += [_SENTENCE_ENDS[mark].finditer(text) for mark in "!?" if mark in text]
    return found[0] if len(found) == 1 else heapq.merge(*found, key=re.Match.start)


def _coinings(lowered: str) -> list[tuple[int, int]]:
    """Spans of the verbs in "we propose", "this paper introduces", "we introduce and study"."""
    found = []
    for pattern in _COININGS:
        match = pattern.search(lowered)
        while match:
            position = match.start()
            if position == 0 or not lowered[position - 1].isalpha():
                found.append((match.start("verb"), match.end()))
            match = pattern.search(lowered, position + 1)
    return sorted(found)


_CUE_AFTER = frozenset((", ", "),", "):", ") ", ": ", " (", " -", " –", " —"))
_IS_A_AFTER = (") is a", ") are a", " is a", " are a")


def _may_score(
    text: str,
    lowered: str,
    sentence: tuple[int, int],
    coinings: list[tuple[int, int]],
    start: int,
    end: int,
) -> bool:
    """Whether `score_occurrence` may give the token a score, tested cheaply before scoring: a
    coining cue near it (a coining verb in the 250 characters before, "our " or a hint of
    "called" in the 60 before, "is a", a passive verb or an appositive's comma after), and one
    that `score_occurrence` counts (each cue tested on the widest stretch `score_occurrence`
    reads it in: the sentence before the token, what follows it). Half of the tokens have no cue
    near; a third of the rest have none `score_occurrence` counts (the acronym after its
    expansion, "... memory (ADNI) and ...", most often).

    The tests are ordered so that each stretch is sliced and searched once: a coining verb
    before or "our " near also are cues `score_occurrence` counts, and so is a passive verb in
    the text, which is one in the lowered text too."""
    first, last = sentence
    low = start - 250
    index = bisect_left(coinings, (low if low > first else first,))
    if index < len(coinings) and coinings[index][0] < start:
        return True  # a coining verb starts in the 250 characters before
    low = start - 60
    near = lowered[low if low > first else first : start]
    if "our " in near or has_called_hint(near):
        return True
    high = end + 90
    following = lowered[end : high if high < last else last]
    if has_passive_verb(following):
        if has_passive_verb(text[end : end + len(following)]):
            return True
    elif not (lowered[end : end + 2] in _CUE_AFTER or following.startswith(_IS_A_AFTER)):
        return False  # no cue near: appositives, "X (expansion), a ...", "(X), a ..."
    # A cue near, and perhaps none that `score_occurrence` counts.
    index = bisect_left(coinings, (first,))
    if index < len(coinings) and coinings[index][0] < start:
        return True
    high = end + 160
    stop = high if high < last else last
    if IS_NOVEL.match(text, end, stop) or appositive_kind(text[end:stop]):
        return True
    # "our " or a hint of "called": `score_occurrence` finds either only in the sentence before.
    before = lowered[first:start]
    return "our " in before or has_called_hint(before)


def _hide_openers(
    text: str, capitals: bytes, starts: list[int], after_period: bool = False
) -> bytes | bytearray:
    """`capitals` (of `text`) with the capital that starts each sentence's first word made
    "a" (`after_period`: what `_sentence_bounds` tells of the text's sentences).

    A third of the name-shaped words open a sentence with a capital ("We", "The") and are
    never scored, only counted (`_opener_count` counts them when a score needs it). With
    its first capital hidden, `_name_tokens` does not see such a word at all, and finds a
    word with another capital ("LLMs", "Re-Diffinet") from that one, as the same word.

    When each sentence opened by an ASCII capital after a space follows ". " and no "!"
    nor "?" ends one, the capitals to hide are the first one and those after ". " (each
    ". " and ASCII capital ends a sentence): one `bytes.replace` hides them, for half the
    instructions of the loop over the starts."""
    if after_period:
        hidden = capitals.replace(b". A", b". a")
        return b"a" + hidden[1:] if hidden[:1] == b"A" else hidden
    found = None
    for start in _openers(text, capitals, starts):
        if found is None:
            found = bytearray(capitals)
        found[start] = 97
    return capitals if found is None else found


def _openers(text: str, capitals: bytes, starts: list[int]) -> list[int]:
    """Where the words start whose capital `_hide_openers` hides: each sentence's first
    word, if an ASCII capital starts it (`capitals`: `_capitals(text)`)."""
    return [
        start
        for start in starts
        if capitals[start : start + 1] == b"A" and (start == 0 or text[start - 1] == " ")
    ]


def _opener_count(text: str, openers: list[int], token: str) -> int:
    """How many of the words that `_hide_openers` hid from `_name_tokens` (those at
    `openers` with no other capital) are `token`, as `_name_tokens` reads a word."""
    count = 0
    for start in openers:
        if text[start : start + len(token)] != token:
            continue
        end = text.find(" ", start)
        word = text[start:] if end < 0 else text[start:end]
        if any("A" <= ch <= "Z" for ch in word[1:]):
            continue  # `_name_tokens` found it from its next capital
        candidate = _word_candidate(word)
        if candidate and candidate[0] == token:
            count += 1
    return count


def _name_tokens(
    text: str, capitals: bytes | bytearray | None = None
) -> list[tuple[str, int, str]]:
    """(token, start, kind) for each word that may be a name (`capitals`: `_capitals(text)`,
    or what `_hide_openers` made of it).

    Only a word (cut at spaces) with an ASCII capital can be one: a name is ASCII and not
    in lower case (`_word_candidate`). Such words are found from their first capital to
    their end by one search of `_capitals(text)`, which the pattern engine skips along
    from "A" to "A" fast; not by testing each word of the text (a sixth of the analysis),
    nor by a `str.find` each for the capital and the word's end (the arguments of each
    cost more than its search), nor by `[A-Z]` in the text (a test of each character)."""
    found = []
    if capitals is None:
        capitals = _capitals(text)
    for match in _CAPITAL_TO_WORD_END.finditer(capitals):
        position, end = match.span()
        start = (
            position
            if position == 0 or capitals[position - 1] == 32  # after a space
            else text.rfind(" ", 0, position) + 1
        )
        candidate = _word_candidate(text[start:end])
        if candidate:
            core, offset, kind = candidate
            found.append((core, start + offset, kind))
    return found


#: In `_capitals`: a word's first capital and the rest of the word.
_CAPITAL_TO_WORD_END = re.compile(b"A[^ ]*")
#: ASCII's capitals to "A", its space and "." kept, every other byte to "a".
_CAPITAL_MARKS = bytes(
    65 if 65 <= code <= 90 else code if code in b" ." else 97 for code in range(256)
)


def _capitals(text: str) -> bytes:
    """`text` with each ASCII capital made "A", each space and "." kept and every other
    character made "a", position for position (a character that is not ASCII is encoded
    as one "?")."""
    return text.encode("ascii", "replace").translate(_CAPITAL_MARKS)


@lru_cache(maxsize=16384)
def _word_candidate(word: str) -> tuple[str, int, str] | None:
    """The name-shaped core of a word, its offset in the word, and its kind; or None."""
    if "/" in word:
        return None  # "CNN/DM" is part of a compound
    core = word.strip(_WORD_PUNCTUATION)
    if core.endswith(("'s", "’s")):
        core = core[:-2]
    if not core or core.islower() or not _NAME_SHAPE.fullmatch(core):
        return None
    kind = token_kind(core)
    return (core, word.find(core), kind) if kind else None


@lru_cache(maxsize=8192)
def token_kind(token: str) -> str | None:
    """ "namey" (PICLe, MC-ViT, CTAN, xT), "capitalised" (Caduceus, Re-Diffinet), or None."""
    letters = sum(ch.isalpha() for ch in token)
    if letters < 2 or _NOT_A_NAME_SUFFIX.search(token):
        return None
    for part in re.split(r"[-+.]", token):
        uppers = sum(ch.isupper() for ch in part)
        if uppers >= 2 or (uppers == 1 and not part[0].isupper()):
            return "namey"
    if token[0].isupper() and all(part[1:].islower() for part in token.split("-") if part):
        return "capitalised"
    return None


def _capitalised_ok(token: str, score: float, count: int) -> bool:
    """A capitalised word (Caduceus, Re-Diffinet) is a name only on strong evidence: "called
    X", or a coining verb and a description, or a coining cue and repetition."""
    if token_kind(token) == "namey":
        return True
    return score >= WEIGHTS.capitalised_name or (
        count >= 2
        and (score >= WEIGHTS.capitalised_repeated_name or count >= WEIGHTS.capitalised_mentions)
    )


# Starting with a star (the lookbehind after it) lets the pattern skip to the next star.
_MARKDOWN_EMPHASIS = re.compile(r"\*(?<![\w*]\*)\*{0,2}([^*\s]{2,40})\*{1,3}(?![\w*])")
_LATEX_EMPHASIS = re.compile(
    r"\\(?:mathsf|texttt|textbf|textsc|mathbf|mathrm|textit|emph|text|textsf)\s*"
    r"\{([^{}]{2,40})\}|\{\\(?:tt|bf|sc|it|em|sf)\s+([^{}]{2,40})\}"
)


def _emphasised(abstract: str) -> frozenset[str]:
    """Whole words the abstract sets in emphasis: `*xT*`, `\\mathsf{DirMixE}`, `{\\tt X}`."""
    found = _MARKDOWN_EMPHASIS.findall(abstract) if "*" in abstract else []
    if "\\" in abstract and (
        "\\text" in abstract or "\\math" in abstract or "{\\" in abstract or "\\emph" in abstract
    ):
        for pair in _LATEX_EMPHASIS.findall(abstract):
            found.extend(word for word in pair if word)
    return frozenset(word.replace("\\_", "_").strip() for word in found)
