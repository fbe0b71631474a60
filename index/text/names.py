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

# --------------------------------------------------------------------------- candidates

_NAME_SHAPE = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-+.][A-Za-z0-9]+)*")
_WORD_PUNCTUATION = "()[]{},.;:!?\"'“”‘’"
_NOT_A_NAME_SUFFIX = re.compile(
    r"-(?:based|like|style|aware|guided|driven|free|specific|level|wise|only|scale|shot|"
    r"grained|agnostic|dependent|invariant|augmented|conditioned|supervised|trained|tuned)$",
    re.IGNORECASE,
)
# A capitalised phrase right after a coining verb may be a name: "We present Lightning
# Attention, the first ...".
_PHRASE_AT = re.compile(
    r" (?:(?:a|an|the) )?(?P<phrase>[A-Z][\w-]*(?: (?:of )?[A-Z][\w-]*){1,4})(?![\w-])"
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

_CALLED_HINTS = ("call", "nam", "dub", "term", "coin")
_PASSIVE_VERBS = (
    "proposed", "introduced", "presented", "developed", "designed", "devised", "built",
    "constructed", "created",
)  # fmt: skip


def _has_called_hint(text: str) -> bool:
    """Whether `text` (a short stretch) holds one of `_CALLED_HINTS`: an `in` each, which
    costs half the search of a pattern of them all (that tests each character)."""
    return "call" in text or "nam" in text or "dub" in text or "term" in text or "coin" in text


def _has_passive_verb(text: str) -> bool:
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
_IS_NOVEL = re.compile(
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
    lowered = _lower(text)
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
            kind != "namey" and _in_capitalised_phrase(text, sentence, start, end)
        ) or not _may_score(text, lowered, sentence, coinings, start, end):
            continue  # `_score` would give none: tested before the cue test, that costs more
        occurrence = _score(text, lowered, sentence, coinings, start, end)
        if occurrence and (token not in best or occurrence.score > best[token].score):
            best[token] = occurrence
    for occurrence in [o for o in best.values() if o.expansion]:
        for token in [
            t for t, o in best.items() if occurrence.anchor <= o.start < occurrence.start
        ]:
            del best[token]  # a word of an acronym's expansion: "surface Masked AutoEncoder (sMAE)"
    for phrase, occurrence in _phrases(text, sentences, starts, coinings, emphasised):
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
        count = counts.get(token) or _count(text, token)
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


def _lower(text: str) -> str:
    """`text` in lower case with every position kept ("İ".lower() is two characters)."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(ch.lower() if len(ch.lower()) == 1 else ch for ch in text)


def _sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans; "dataset.In" (a lost space, common in PDF text) ends one too."""
    return list(pairwise(_sentence_bounds(text)[0]))


def _sentence_bounds(text: str) -> tuple[list[int], bool]:
    """Where each sentence starts, then the text's end (`_sentences` are the spans between);
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
    """Whether `_score` may give the token a score, tested cheaply before scoring it: a
    coining cue near it (a coining verb in the 250 characters before, "our " or a hint of
    "called" in the 60 before, "is a", a passive verb or an appositive's comma after), and
    one that `_score` counts (each cue tested on the widest stretch `_score` reads it in:
    the sentence before the token, what follows it). Half of the tokens have no cue near;
    a third of the rest have none `_score` counts (the acronym after its expansion, "...
    memory (ADNI) and ...", most often).

    The tests are ordered so that each stretch is sliced and searched once: a coining
    verb before or "our " near also are cues `_score` counts, and so is a passive verb in
    the text, which is one in the lowered text too."""
    first, last = sentence
    low = start - 250
    index = bisect_left(coinings, (low if low > first else first,))
    if index < len(coinings) and coinings[index][0] < start:
        return True  # a coining verb starts in the 250 characters before
    low = start - 60
    near = lowered[low if low > first else first : start]
    if "our " in near or _has_called_hint(near):
        return True
    high = end + 90
    following = lowered[end : high if high < last else last]
    if _has_passive_verb(following):
        if _has_passive_verb(text[end : end + len(following)]):
            return True
    elif not (lowered[end : end + 2] in _CUE_AFTER or following.startswith(_IS_A_AFTER)):
        return False  # no cue near: appositives, "X (expansion), a ...", "(X), a ..."
    # A cue near, and perhaps none that `_score` counts.
    index = bisect_left(coinings, (first,))
    if index < len(coinings) and coinings[index][0] < start:
        return True
    high = end + 160
    stop = high if high < last else last
    if _IS_NOVEL.match(text, end, stop) or _appositive(text[end:stop]):
        return True
    # "our " or a hint of "called": `_score` finds either only in the sentence before.
    before = lowered[first:start]
    return "our " in before or _has_called_hint(before)


def _appositive(right: str) -> str:
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


#: The characters that are not ASCII but match an ASCII letter when case is ignored.
_FOLDS_TO_ASCII = re.compile("[\u0130\u0131\u017f\u212a]")  # İ ı ſ K (Kelvin)


def _count(text: str, token: str) -> int:
    r"""How often `token` is in `text` as a word (or words), case ignored: the pattern
    `(?<![\w-])TOKEN(?![\w-])`. Each token's pattern is a new one to compile (~0.3 ms);
    an ASCII token in text where only ASCII letters match it is counted by `str.find` in
    the lowered text instead, as the pattern would count it (matches do not overlap)."""
    if not token.isascii() or not (text.isascii() or _FOLDS_TO_ASCII.search(text) is None):
        return len(re.findall(r"(?<![\w-])" + re.escape(token) + r"(?![\w-])", text, re.I))
    lowered, needle = _lower(text), token.lower()
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


def _in_capitalised_phrase(text: str, sentence: tuple[int, int], start: int, end: int) -> bool:
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


def _score(
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
    called = _has_called_hint(near) and bool(_CALLED.search(before, _tail(before, _CALLED_SPACES)))
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
        _has_passive_verb(right[:90])
        and _PASSIVE.match(right)
        and (len(before.split()) <= 6 or before.endswith((" a ", " an ", " the ")))
    ):
        score = max(score, WEIGHTS.passive)
    if anchor == first and _IS_NOVEL.match(right):
        score = max(score, WEIGHTS.is_novel)
    appositive = _appositive(right)
    if appositive:
        score += WEIGHTS.appositive_novel if appositive == "novel" else WEIGHTS.appositive
    if score <= 0:
        return None  # no cue (two of three tokens scored): the penalty takes none away
    if not called:
        score -= _modifier_penalty(right, expansion, definite)
        if score <= 0:
            return None
    return Occurrence(start, end, sentence, anchor, expansion, score)


def _phrases(
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
            counts[phrase] = _count(text, phrase)
        if described or phrase in emphasised or counts[phrase] >= 2:
            score = WEIGHTS.phrase + (
                WEIGHTS.appositive_novel if novel else WEIGHTS.appositive if described else 0.0
            )
            yield phrase, Occurrence(start, end, sentence, start, "", score)
