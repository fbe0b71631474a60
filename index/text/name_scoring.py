"""How a candidate name of an abstract is scored (`score_occurrence`,
`phrase_occurrences`): the weights, the
cue patterns around an occurrence ("we call X", "X, a novel ..."), the gap to the
phrase a name abbreviates, and counting a token's occurrences."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Weights:
    """How much each cue says "this token is a name the abstract coins".

    A token's score is the strongest coining cue near it (cues do not add up), plus the
    bonuses, minus the penalties; the best-scoring token at or above `name` is the name.
    """

    # -- the strongest cue near the token
    coined: float = 4.0  # a coining verb right before it: "we propose X", "we introduce an X"
    gap_word: float = 0.25  # ... less per word between the verb and X: the verb may be about
    #                         something else ("we propose to ... with X")
    gap_barrier: float = 1.0  # ... less per preposition or relative word in between: X is
    #                           then an object ("we propose a method for X")
    gap_use_word: float = 2.0  # ... less per verb of use in between ("a method leveraging X")
    gap_comma: float = 0.5  # ... less per comma in between (a list, a new clause)
    gap_novelty: float = 1.0  # ... more for "novel", "first", "simple" in between
    gap_words: int = 14  # ... and no cue at all from farther away than this many words
    called: float = 5.0  # "called X", "dubbed X", "which we call X": naming said outright
    ours_named: float = 3.5  # "our <expansion> (X)", "Our solution, X,", "our proposed method X"
    ours: float = 2.0  # "our X": the authors' own, but perhaps only used ("our LLM")
    passive: float = 3.5  # "a ... (X) is proposed", "X is introduced"
    is_novel: float = 3.0  # "X is a simple/novel/general ..." opening a sentence
    phrase: float = 3.5  # a capitalised phrase right after a coining verb that is described,
    #                      emphasised or repeated ("We propose Quantile Pooling, a ...")

    # -- bonuses on top of the cue
    appositive_novel: float = 3.0  # described as new: "X, a novel framework", "X, the first"
    appositive: float = 1.5  # described: "X, a framework", "X, or <expansion>", "X: a ..."
    emphasis: float = 2.0  # set in emphasis by the authors: `*X*`, `\mathsf{X}`, `{\tt X}`
    repetition: float = 0.5  # per further mention: a coined name is used again ...
    repetitions: int = 3  # ... counted up to this many further mentions

    # -- penalties: the token modifies the next word, it is not the thing coined
    modifies_generic_noun: float = 3.0  # "a new MoE strategy", "GPU kernels"
    modifies_noun: float = 2.0  # any other lower-case noun after it: "a CNN encoder"

    # -- thresholds
    name: float = 3.0  # the least score of a name: one clear cue, or a weak one with support
    capitalised_name: float = 5.0  # a capitalised word (Caduceus) needs "called" or a cue and
    #                                a novel description: ordinary words are capitalised too
    capitalised_repeated_name: float = 4.0  # ... or this much and a second mention,
    capitalised_mentions: int = 3  # ... or a cue and this many mentions


WEIGHTS = Weights()


# A capitalised phrase right after a coining verb may be a name: "We present Lightning
# Attention, the first ...".
_PHRASE_AT = re.compile(
    r" (?:(?:a|an|the) )?(?P<phrase>[A-Z][\w-]*(?: (?:of )?[A-Z][\w-]*){1,4})(?![\w-])"
)


_CALLED_HINTS = ("call", "nam", "dub", "term", "coin")


_PASSIVE_VERBS = (
    "proposed", "introduced", "presented", "developed", "designed", "devised", "built",
    "constructed", "created",
)  # fmt: skip


def has_called_hint(text: str) -> bool:
    """Whether `text` (a short stretch) holds one of `_CALLED_HINTS`: an `in` each, which
    costs half the search of a pattern of them all (that tests each character)."""
    return "call" in text or "nam" in text or "dub" in text or "term" in text or "coin" in text


def has_passive_verb(text: str) -> bool:
    """Whether `text` (a short stretch) holds one of `_PASSIVE_VERBS`: an `in` each (each
    but "built" ends in "ed"), a third of the time of one search of a pattern of them all
    or of a `str.find` and `str.endswith` at each "ed" (their arguments cost the most)."""
    return "built" in text or (
        "ed" in text
        and (
            "proposed" in text
            or "introduced" in text
            or "presented" in text
            or "developed" in text
            or "designed" in text
            or "devised" in text
            or "constructed" in text
            or "created" in text
        )
    )


_CALLED = re.compile(
    r"\b(?:called|named|dubbed|termed|coined|which we (?:call|name|term|dub)|we (?:call|name|"
    r"term|dub) (?:this|it|our|the)(?: [\w-]+)?) ?(?:the )?[\"“‘']?$",
    re.IGNORECASE,
)


# "our X", "our proposed X" and "our memory-consolidated vision transformer (X)" (whose
# anchor is the expansion); "Our solution, X," and "our proposed method X". Not "our method
# improves X".
_POSSESSIVE = re.compile(r"\bour (?:(?:proposed|new|novel|own) )?$", re.IGNORECASE)


_POSSESSIVE_APPOSITIVE = re.compile(
    r"\bour (?:[\w-]+(?: [\w-]+)?,|(?:(?:proposed|new|novel) )?(?:method|model|framework|"
    r"approach|architecture|network|system|pipeline|algorithm|technique|tool|solution)) $",
    re.IGNORECASE,
)


_PASSIVE = re.compile(
    r"\)?[^.;]{0,60}?\b(?:is|are|was|were|has been|have been) (?:\w+ly )?"
    r"(?:proposed|introduced|presented|developed|designed|devised|built|constructed|created)\b"
)


_NOVELTY = (
    r"(?:first|novel|new|simple|general|unified|efficient|lightweight|principled|scalable|"
    r"practical|flexible|versatile|robust|generic|plug-and-play|modular|fast|effective)"
)


_NOVEL_WORD = re.compile(r"\b" + _NOVELTY + r"\b", re.IGNORECASE)


# The same in lowered ASCII text: ignoring case costs the search a lookup a character
# (three times the time); in ASCII, matching case ignored is matching the lowered text.
_NOVEL_LOWERED_WORD = re.compile(_NOVEL_WORD.pattern)


_APPOSITIVE_NOVEL = re.compile(
    r"\)?, (?:which is )?(?:a|an|the|one of the) (?:[\w-]+ ){0,2}?" + _NOVELTY + r"\b",
    re.IGNORECASE,
)


_APPOSITIVE = re.compile(r"\)?(?:, (?:a|an) |, or [A-Z]|: [Aa]n? )")


IS_NOVEL = re.compile(
    r"\)? (?:is|are) (?:a|an) (?:[\w-]+,? ){0,2}?" + _NOVELTY + r"\b", re.IGNORECASE
)


_NAMED_NEXT = re.compile(r",? (?:called|named|dubbed|termed)\b")


_CAPITAL_NEXT = re.compile(r" [A-Z]")


_CAPITAL_BEFORE = re.compile(r"[A-Z][\w-]* $")


LEADING_PARENTHESIS = re.compile(r"\)?\s*\([^()]*\)")


_NOT_COINING_NEXT = re.compile(r" *(?:to|that|how|whether|why|what)\b", re.IGNORECASE)


# The token is the object of a preposition: "a new version of MCSD", "a method for LLMs".
_OBJECT_OF = re.compile(
    r"\b(?:of|for|to|with|from|on|in|than|by|via|using|like|as|over|into|towards?) $",
    re.IGNORECASE,
)


_BEFORE_NOUN = re.compile(r"\)? ?([A-Za-z][\w-]*)")


# The most spaces a match of each pattern that ends its text ("...$") holds: a match is
# looked for only in the end of the text that holds no more (`_tail`), not from each
# position of it (each test of a position tries every word of the pattern).
_CALLED_SPACES = 5  # "we call this X " + "the "


_POSSESSIVE_SPACES = 2  # "our proposed "


_POSSESSIVE_APPOSITIVE_SPACES = 3  # "our proposed method ", "our own solution, "


_OBJECT_OF_SPACES = 1  # "towards "


def _tail(text: str, spaces: int) -> int:
    """Where the longest end of `text` that holds at most `spaces` spaces starts."""
    parts = text.rsplit(" ", spaces + 1)
    return len(parts[0]) + 1 if len(parts) == spaces + 2 else 0


_GAP_BARRIERS = frozenset((
    "that", "which", "who", "where", "to", "by", "for", "with", "from", "on", "in", "of",
    "into", "via", "based", "through", "under", "between", "across", "as", "than", "while",
    "when", "because", "whose", "like", "such", "including"
))  # fmt: skip


# A verb of use between the coining verb and the token: "a method leveraging cGANs".
_USE_WORDS = frozenset((
    "using", "leveraging", "utilizing", "utilising", "employing", "exploiting", "combining",
    "integrating", "applying", "adopting", "incorporating", "uses", "leverages", "utilizes",
    "employs", "exploits", "combines", "integrates", "applies"
))  # fmt: skip


_GENERIC_NOUNS = frozenset((
    "method", "methods", "model", "models", "approach", "approaches", "framework", "frameworks",
    "module", "modules", "block", "blocks", "layer", "layers", "component", "components",
    "network", "networks", "architecture", "architectures", "strategy", "strategies", "loss",
    "losses", "benchmark", "benchmarks", "dataset", "datasets", "task", "tasks", "setting",
    "settings", "problem", "problems", "process", "processes", "score", "scores", "algorithm",
    "algorithms", "technique", "techniques", "scheme", "schemes", "pipeline", "pipelines",
    "system", "systems", "paradigm", "paradigms", "inference", "training", "kernel", "kernels",
    "implementation", "implementations", "data", "images", "image", "features", "feature",
    "embeddings", "embedding", "representations", "representation", "encoder", "encoders",
    "decoder", "decoders", "backbone", "backbones", "head", "heads", "variant", "variants",
    "family", "families", "agents", "agent", "policies", "policy", "scans", "scan", "cache",
    "library", "toolkit", "tool", "tools", "code", "weights", "parameters", "objective",
    "objectives", "regularization", "attention", "tokens", "token", "sequences", "sequence"
))  # fmt: skip


_FUNCTION_WORDS = frozenset((
    "to", "which", "that", "for", "as", "in", "with", "by", "on", "and", "or", "where", "whose",
    "based", "built", "designed", "using", "via", "from", "is", "are", "was", "were", "be",
    "can", "could", "will", "may", "might", "should", "would", "has", "have", "had", "who",
    "consisting", "comprising", "leveraging", "enabling", "allowing", "achieves", "achieve",
    "outperforms", "significantly", "not", "also", "first", "then"
))  # fmt: skip


@dataclass(slots=True)
class Occurrence:
    """One place a candidate name appears, and how strongly the text there coins it."""

    start: int
    end: int
    sentence: tuple[int, int]
    anchor: int  # where the name's phrase starts: its expansion before "(X)", else itself
    expansion: str
    score: float


def lower_text(text: str) -> str:
    """`text` in lower case with every position kept ("İ".lower() is two characters)."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(ch.lower() if len(ch.lower()) == 1 else ch for ch in text)


def appositive_kind(right: str) -> str:
    """ "novel" when what follows a token (`right`) describes it as new ("X, a novel
    framework", "X (expansion), the first ..."), "described" when it describes it ("X, a
    framework", "X, or Y", "X: a ..."), else ""."""
    if right[:3].lstrip(")")[:1] not in (",", ":", " "):
        return ""
    described = LEADING_PARENTHESIS.sub("", right, count=1) if "(" in right[:3] else right
    if not (described[:1] in (",", ":") or described[:2] in ("),", "):")):
        return ""  # both patterns start with a comma or a colon, after a ")" perhaps
    if _APPOSITIVE_NOVEL.match(described):
        return "novel"
    return "described" if _APPOSITIVE.match(described) else ""


#: The characters that are not ASCII but match an ASCII letter when case is ignored.
_FOLDS_TO_ASCII = re.compile("[\u0130\u0131\u017f\u212a]")  # İ ı ſ K (Kelvin)


def count_token(text: str, token: str) -> int:
    r"""How often `token` is in `text` as a word (or words), case ignored: the pattern
    `(?<![\w-])TOKEN(?![\w-])`. Each token's pattern is a new one to compile;
    an ASCII token in text where only ASCII letters match it is counted by `str.find` in
    the lowered text instead, as the pattern would count it (matches do not overlap)."""
    if not token.isascii() or not (text.isascii() or _FOLDS_TO_ASCII.search(text) is None):
        return len(re.findall(r"(?<![\w-])" + re.escape(token) + r"(?![\w-])", text, re.I))
    lowered, needle = lower_text(text), token.lower()
    count, position = 0, lowered.find(needle)
    while position >= 0:
        end = position + len(needle)
        if not (_is_word_part(text, position - 1) or _is_word_part(text, end)):
            count += 1
            position = lowered.find(needle, end)
        else:
            position = lowered.find(needle, position + 1)
    return count


def _is_word_part(text: str, position: int) -> bool:
    r"""Whether `text[position]` is a character of `[\w-]` (False outside the text)."""
    if not 0 <= position < len(text):
        return False
    ch = text[position]
    return ch.isalnum() or ch in "_-"


def expansion_before(left: str, acronym: str) -> str:
    """The words just before "(ACRONYM)" that it abbreviates, or ""."""
    letters = [ch.lower() for ch in acronym if ch.isalpha()]
    if len(letters) < 2:
        return ""
    words = left.rstrip().rsplit(" ", 12)  # the last 12 words are all it reads
    first = letters[0]
    for k in range(1, min(len(words), 12) + 1):
        # Only a phrase whose first word starts with the acronym's first letter is joined.
        word = words[-k]
        if word[:1].lower() != first or (k == 1 and "-" not in word):
            continue
        phrase = words[-k:]
        if _is_subsequence(letters, "".join(phrase).lower()):
            return " ".join(phrase)
    return ""


def _is_subsequence(needle: list[str], haystack: str) -> bool:
    """Whether `needle`'s characters are in `haystack` in order: each `in` consumes the
    iterator up to the character it finds (a `str.find` from a position parses its
    arguments at a cost of its own, more than this search)."""
    rest = iter(haystack)
    return all(ch in rest for ch in needle)


def _gap_score(gap: str) -> float:
    """How directly a coining verb introduces what follows after `gap`."""
    if gap == " ":
        return WEIGHTS.coined  # "we propose X": a third of the gaps, and the strongest
    # Split no further than a word past the most a gap may hold: of a longer gap, only
    # that it is longer counts (`str.split` with `maxsplit` splits a gap of fewer words
    # as without it).
    words = gap.split(None, WEIGHTS.gap_words)
    if (
        len(words) > WEIGHTS.gap_words
        or _NOT_COINING_NEXT.match(gap)
        or _OBJECT_OF.search(gap[-14:], _tail(gap[-14:], _OBJECT_OF_SPACES))
    ):
        return 0.0
    lowered = gap.lower()
    lowered_words = [word.strip(",") for word in lowered.split()]
    barriers = WEIGHTS.gap_barrier * sum(map(_GAP_BARRIERS.__contains__, lowered_words))
    barriers += WEIGHTS.gap_use_word * sum(map(_USE_WORDS.__contains__, lowered_words))
    novel = _NOVEL_LOWERED_WORD.search(lowered) if gap.isascii() else _NOVEL_WORD.search(gap)
    novelty = WEIGHTS.gap_novelty if novel else 0.0
    return max(
        0.0,
        WEIGHTS.coined
        - WEIGHTS.gap_word * len(words)
        - barriers
        - WEIGHTS.gap_comma * gap.count(",")
        + novelty,
    )


def in_capitalised_phrase(text: str, sentence: tuple[int, int], start: int, end: int) -> bool:
    """Whether the word `text[start:end]` (not the sentence's first) is one of a phrase of
    capitalised words: a capital starts the next word, or one is in the word before (in
    its sentence, the 40 characters before). Most capitalised words that are not sentence
    openers are ("Large Language Models", "Monte Carlo"); `analyse` drops them before the
    cue test."""
    first, last = sentence
    if _CAPITAL_NEXT.match(text, end, last):
        return True
    low = start - 40
    return text[start - 1 : start] == " " and bool(
        _CAPITAL_BEFORE.search(text, low if low > first else first, start)
    )


def _modifier_penalty(right: str, expansion: str, definite: bool) -> float:
    """A name followed by a noun ("a new MoE strategy", "GPU kernels") modifies that noun.

    Not so for "(X) approach" after a capitalised expansion, nor for "we propose the X
    framework", where the noun says what the named thing is.
    """
    if right[:1] in ",;:(" or right.startswith("),"):
        return 0.0
    match = _BEFORE_NOUN.match(right)
    if not match:
        return 0.0
    word = match[1]
    if word.lower() in _GENERIC_NOUNS:
        if definite or (right.startswith(")") and expansion[:1].isupper()):
            return 0.0
        return WEIGHTS.modifies_generic_noun
    verb_like = word.endswith(("ly", "ed")) or (word.endswith("s") and not word.endswith("ss"))
    if word[0].islower() and word not in _FUNCTION_WORDS and not verb_like:
        return WEIGHTS.modifies_noun
    return 0.0


def score_occurrence(
    text: str,
    lowered: str,
    sentence: tuple[int, int],
    coinings: list[tuple[int, int]],
    start: int,
    end: int,
) -> Occurrence | None:
    """How strongly the text coins the token at `start`, if at all. A capitalised token
    that opens its sentence or is a word of a capitalised phrase is none: `analyse` drops
    those before it asks."""
    first, last = sentence
    low, high = start - 300, end + 160
    left, right = (
        text[low if low > first else first : start],
        text[end : high if high < last else last],
    )
    in_parentheses = left[-1:] == "(" and right[:1] == ")"
    if not in_parentheses and "(" in left and left.count("(") > left.count(")"):
        return None  # a word of a parenthesis: "DISCO (DynamIc SpeCulation ... Optimization)"
    if right[:1] == "-" or right[:2] == ")-" or ("ed" in right[:9] and _NAMED_NEXT.match(right)):
        return None  # "(MLP)-based", or the kind of thing a name is given to: "a VLM called X"
    anchor, expansion = start, ""
    if in_parentheses:
        expansion = expansion_before(left[:-1], text[start:end])
        anchor = start - 1 - (len(left[:-1]) - len(left[:-1].rstrip())) - len(expansion)
    low = anchor - 120
    before = text[low if low > first else first : anchor]
    # The 60 characters before: "our " and the hints of "called" are ASCII, found in
    # `lowered` as in that stretch lowered by itself.
    low = anchor - 60
    near = lowered[low if low > first else first : anchor]
    score, definite = 0.0, False
    # The coining verbs that start in the 250 characters before (a verb more than 14 words
    # back does not count: see _gap_score).
    low = anchor - 250
    index = bisect_left(coinings, (low if low > first else first,))
    while index < len(coinings) and coinings[index][0] < anchor:
        verb_end = coinings[index][1]
        index += 1
        if verb_end <= anchor:
            gap = text[verb_end:anchor]
            gap_score = _gap_score(gap)
            if gap_score > score:
                score = gap_score
            definite = definite or gap == " the "
    called = has_called_hint(near) and bool(_CALLED.search(before, _tail(before, _CALLED_SPACES)))
    if called and WEIGHTS.called > score:
        score = WEIGHTS.called
    if "our " in near:
        possessive = bool(_POSSESSIVE.search(before, _tail(before, _POSSESSIVE_SPACES)))
        if (expansion and possessive) or _POSSESSIVE_APPOSITIVE.search(
            before, _tail(before, _POSSESSIVE_APPOSITIVE_SPACES)
        ):
            score = max(score, WEIGHTS.ours_named)
        elif possessive:
            score = max(score, WEIGHTS.ours)
    if (
        has_passive_verb(right[:90])
        and _PASSIVE.match(right)
        and (len(before.split()) <= 6 or before.endswith((" a ", " an ", " the ")))
    ):
        score = max(score, WEIGHTS.passive)
    if anchor == first and IS_NOVEL.match(right):
        score = max(score, WEIGHTS.is_novel)
    appositive = appositive_kind(right)
    if appositive:
        score += WEIGHTS.appositive_novel if appositive == "novel" else WEIGHTS.appositive
    if score <= 0:
        return None  # no cue (two of three tokens scored): the penalty takes none away
    if not called:
        score -= _modifier_penalty(right, expansion, definite)
        if score <= 0:
            return None
    return Occurrence(start, end, sentence, anchor, expansion, score)


def phrase_occurrences(
    text: str,
    sentences: list[tuple[int, int]],
    starts: list[int],
    coinings: list[tuple[int, int]],
    emphasised: frozenset[str],
) -> Iterator[tuple[str, Occurrence]]:
    """Capitalised phrases right after a coining verb that are described ("Quantile Pooling,
    a novel ..."), emphasised or repeated, and not the expansion of an acronym."""
    counts: dict[str, int] = {}
    for _, verb_end in coinings:
        match = _PHRASE_AT.match(text, verb_end)
        if not match:
            continue
        phrase, start, end = match["phrase"], match.start("phrase"), match.end("phrase")
        sentence = sentences[bisect_right(starts, start) - 1]
        right = text[end : min(sentence[1], end + 160)]
        if re.match(r"[^.,;()]{0,60}\(", right):
            continue  # the acronym that follows is the name
        novel = bool(_APPOSITIVE_NOVEL.match(right))
        described = novel or bool(_APPOSITIVE.match(right))
        if phrase not in counts:
            counts[phrase] = count_token(text, phrase)
        if described or phrase in emphasised or counts[phrase] >= 2:
            score = WEIGHTS.phrase + (
                WEIGHTS.appositive_novel if novel else WEIGHTS.appositive if described else 0.0
            )
            yield phrase, Occurrence(start, end, sentence, start, "", score)
