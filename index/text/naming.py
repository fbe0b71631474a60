"""A paper's name and headline, derived from its abstract when the source gives neither.

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
after a preposition ("a version of MCSD") is an object: neither is coined. `derive_title`
builds a headline from the coining sentence ("PICLe: a persona elicitation framework
grounded in Bayesian inference"), or, when nothing is coined, from the first claim without
its lead-in ("In this paper, we examine the long-run distribution of SGD ..." -> "The
long-run distribution of SGD ..."). Both work on the display text, are deterministic, and
never raise. Most tests run on short slices or as `str.find` on a lowered copy of the text:
one full regex pass over an abstract costs a good part of the time budget of a call.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import lru_cache

from paperterm.index.text.display import display_text, one_line

TITLE_LIMIT = 100
_MIN_SCORE = 3.0

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
_SUBJECT = (
    r"(?:we|this (?:paper|work|study|article|letter|note|report|thesis|manuscript)|"
    r"our (?:work|paper|study)|the present (?:paper|work|study))"
)
_SUBJECT_WORDS = ("we ", "this ", "our ", "the present ")
_COINING_AT = re.compile(
    _SUBJECT + r"(?: (?:also|further|first|then|therefore|thus|hence|here|now|newly|"
    r"additionally|finally|instead|next|subsequently|[a-z]+ly))* (?P<verb>(?:"
    + "|".join(_COIN_STEMS)
    + r")[a-z]*(?: and [a-z]+)?)"
)

_CALLED_HINTS = ("call", "nam", "dub", "term", "coin")
_PASSIVE_VERBS = (
    "proposed", "introduced", "presented", "developed", "designed", "devised", "built",
    "constructed", "created",
)  # fmt: skip
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
_LEADING_PARENTHESIS = re.compile(r"\)?\s*\([^()]*\)")
_NOT_COINING_NEXT = re.compile(r" *(?:to|that|how|whether|why|what)\b", re.IGNORECASE)
# The token is the object of a preposition: "a new version of MCSD", "a method for LLMs".
_OBJECT_OF = re.compile(
    r"\b(?:of|for|to|with|from|on|in|than|by|via|using|like|as|over|into|towards?) $",
    re.IGNORECASE,
)
_BEFORE_NOUN = re.compile(r"\)? ?([A-Za-z][\w-]*)")

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
class _Occurrence:
    """One place a candidate name appears, and how strongly the text there coins it."""

    start: int
    end: int
    sentence: tuple[int, int]
    anchor: int  # where the name's phrase starts: its expansion before "(X)", else itself
    expansion: str
    score: float


@dataclass(slots=True)
class _Analysis:
    text: str
    lowered: str
    sentences: list[tuple[int, int]]
    best: dict[str, _Occurrence]
    name: str


def derive_name(abstract: str) -> str:
    """The method or system `abstract` coins, or "" when it coins none."""
    try:
        return _analyse(abstract).name
    except Exception:  # a heuristic over arbitrary text must never take an index build down
        return ""


def derive_title(abstract: str, name: str) -> str:
    """A one-line headline of at most 100 characters: `Name: what it is`, or the first claim.

    `name` is the derived name or one the source gave; "" for none.
    """
    try:
        title = _title(_analyse(abstract), name)
        if len(title) > TITLE_LIMIT or not title.isprintable():  # a source's odd name
            title = _fit(title, capitalise=False)
        return title
    except Exception:
        return one_line(name or abstract, TITLE_LIMIT)


# --------------------------------------------------------------------------- analysis


@lru_cache(maxsize=64)
def _analyse(abstract: str) -> _Analysis:
    text = display_text(abstract).replace("\n\n", " ")  # spaces are single already
    lowered = _lower(text)
    sentences = _sentences(text)
    starts = [start for start, _ in sentences]
    coinings = _coinings(lowered)
    emphasised = _emphasised(abstract)
    best: dict[str, _Occurrence] = {}
    counts: dict[str, int] = {}
    for token, start, kind in _name_tokens(text):
        counts[token] = counts.get(token, 0) + 1
        sentence = sentences[bisect_right(starts, start) - 1]
        end = start + len(token)
        if (kind != "namey" and start == sentence[0]) or not _has_cue(
            lowered, sentence, coinings, start, end
        ):
            continue
        occurrence = _score(text, sentence, coinings, start, end, kind)
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
    name, top = "", 0.0
    for token, occurrence in best.items():
        score = occurrence.score + (2.0 if token in emphasised else 0.0)
        count = counts.get(token) or _count(text, token)
        if score < _MIN_SCORE or (" " not in token and not _capitalised_ok(token, score, count)):
            continue
        score += 0.5 * min(count - 1, 3)
        if score > top or (score == top and occurrence.start < best[name].start):
            name, top = token, score
    return _Analysis(text, lowered, sentences, best, name)


def _lower(text: str) -> str:
    """`text` in lower case with every position kept ("İ".lower() is two characters)."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered
    return "".join(ch.lower() if len(ch.lower()) == 1 else ch for ch in text)


def _sentences(text: str) -> list[tuple[int, int]]:
    """Sentence spans; "dataset.In" (a lost space, common in PDF text) ends one too."""
    starts = [0]
    for match in re.finditer(r"[.!?](?: +|(?=[A-Z][a-z]))", text):
        end = match.end()
        if end >= len(text):
            break
        if end == match.start() + 1:
            before = text[max(0, end - 3) : end - 1]
            if not (len(before) == 2 and before.isalpha() and before.islower()):
                continue
        elif not (text[end].isupper() or text[end].isdigit() or text[end] in '"“(['):
            continue
        starts.append(end)
    return list(zip(starts, [*starts[1:], len(text)], strict=True))


def _coinings(lowered: str) -> list[tuple[int, int]]:
    """Spans of the verbs in "we propose", "this paper introduces", "we introduce and study"."""
    found = []
    for subject in _SUBJECT_WORDS:
        position = lowered.find(subject)
        while position >= 0:
            if position == 0 or not lowered[position - 1].isalpha():
                match = _COINING_AT.match(lowered, position)
                if match:
                    found.append((match.start("verb"), match.end()))
            position = lowered.find(subject, position + 1)
    return sorted(found)


def _coinings_between(
    coinings: list[tuple[int, int]], low: int, high: int
) -> list[tuple[int, int]]:
    """The coining verbs (sorted spans) that start in [low, high)."""
    return coinings[bisect_left(coinings, (low,)) : bisect_left(coinings, (high,))]


def _has_cue(
    lowered: str, sentence: tuple[int, int], coinings: list[tuple[int, int]], start: int, end: int
) -> bool:
    """A cheap test that some coining cue is near a token, before scoring it in full."""
    if lowered[end : end + 2] in (", ", "),", ") ", ": ", " (", " -", " –", " —"):
        return True  # appositives, "X (expansion), a ...", "(X), a ..."
    if _coinings_between(coinings, max(sentence[0], start - 250), start):
        return True
    near = lowered[max(sentence[0], start - 60) : start]
    if "our " in near or any(cue in near for cue in _CALLED_HINTS):
        return True
    after = lowered[end : min(sentence[1], end + 90)]
    return after.startswith((") is a", ") are a", " is a", " are a")) or any(
        verb in after for verb in _PASSIVE_VERBS
    )


def _name_tokens(text: str) -> list[tuple[str, int, str]]:
    """(token, start, kind) for each word that may be a name."""
    found = []
    position = 0
    # Every word with a capital letter is visited in order, so the next occurrence of one
    # after the previous is the word itself: no plain word can contain it.
    for word in [word for word in text.split(" ") if not word.islower()]:
        position = text.find(word, position)
        candidate = _word_candidate(word)
        if candidate:
            core, offset, kind = candidate
            found.append((core, position + offset, kind))
        position += len(word)
    return found


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
    kind = _token_kind(core)
    return (core, word.find(core), kind) if kind else None


@lru_cache(maxsize=8192)
def _token_kind(token: str) -> str | None:
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
    if _token_kind(token) == "namey":
        return True
    return score >= 5.0 or (count >= 2 and (score >= 4.0 or count >= 3))


_MARKDOWN_EMPHASIS = re.compile(r"(?<![\w*])\*{1,3}([^*\s]{2,40})\*{1,3}(?![\w*])")
_LATEX_EMPHASIS = re.compile(
    r"\\(?:mathsf|texttt|textbf|textsc|mathbf|mathrm|textit|emph|text|textsf)\s*"
    r"\{([^{}]{2,40})\}|\{\\(?:tt|bf|sc|it|em|sf)\s+([^{}]{2,40})\}"
)


def _emphasised(abstract: str) -> frozenset[str]:
    """Whole words the abstract sets in emphasis: `*xT*`, `\\mathsf{DirMixE}`, `{\\tt X}`."""
    found = _MARKDOWN_EMPHASIS.findall(abstract) if "*" in abstract else []
    if "\\text" in abstract or "\\math" in abstract or "{\\" in abstract or "\\emph" in abstract:
        for pair in _LATEX_EMPHASIS.findall(abstract):
            found.extend(word for word in pair if word)
    return frozenset(word.replace("\\_", "_").strip() for word in found)


def _count(text: str, token: str) -> int:
    return len(re.findall(r"(?<![\w-])" + re.escape(token) + r"(?![\w-])", text, re.IGNORECASE))


def _expansion_before(left: str, acronym: str) -> str:
    """The words just before "(ACRONYM)" that it abbreviates, or ""."""
    letters = [ch.lower() for ch in acronym if ch.isalpha()]
    if len(letters) < 2:
        return ""
    words = left.rstrip().split(" ")
    for k in range(1, min(len(words), 12) + 1):
        phrase = words[-k:]
        if (k == 1 and "-" not in phrase[0]) or phrase[0][:1].lower() != letters[0]:
            continue
        if _is_subsequence(letters, "".join(phrase).lower()):
            return " ".join(phrase)
    return ""


def _is_subsequence(needle: list[str], haystack: str) -> bool:
    position = 0
    for ch in needle:
        position = haystack.find(ch, position) + 1
        if position == 0:
            return False
    return True


def _gap_score(gap: str) -> float:
    """How directly a coining verb introduces what follows after `gap`."""
    words = gap.split()
    if len(words) > 14 or _NOT_COINING_NEXT.match(gap) or _OBJECT_OF.search(gap[-14:]):
        return 0.0
    lowered = [word.strip(",").lower() for word in words]
    barriers = sum(word in _GAP_BARRIERS for word in lowered)
    barriers += 2 * sum(word in _USE_WORDS for word in lowered)
    novelty = 1.0 if _NOVEL_WORD.search(gap) else 0.0
    return max(0.0, 4.0 - 0.25 * len(words) - barriers - 0.5 * gap.count(",") + novelty)


def _modifier_penalty(right: str, expansion: str, definite: bool) -> float:
    """A name followed by a noun ("a new MoE strategy", "GPU kernels") modifies that noun.

    Not so for "(X) approach" after a capitalised expansion, nor for "we propose the X
    framework", where the noun says what the named thing is.
    """
    match = _BEFORE_NOUN.match(right)
    if not match or right[:1] in ",;:(" or right.startswith("),"):
        return 0.0
    word = match[1]
    if word.lower() in _GENERIC_NOUNS:
        if definite or (right.startswith(")") and expansion[:1].isupper()):
            return 0.0
        return 3.0
    verb_like = word.endswith(("ly", "ed")) or (word.endswith("s") and not word.endswith("ss"))
    if word[0].islower() and word not in _FUNCTION_WORDS and not verb_like:
        return 2.0
    return 0.0


def _score(
    text: str,
    sentence: tuple[int, int],
    coinings: list[tuple[int, int]],
    start: int,
    end: int,
    kind: str,
) -> _Occurrence | None:
    left, right = (
        text[max(sentence[0], start - 300) : start],
        text[end : min(sentence[1], end + 160)],
    )
    in_parentheses = left.endswith("(") and right.startswith(")")
    if left.count("(") > left.count(")") and not in_parentheses:
        return None  # a word of a parenthesis: "DISCO (DynamIc SpeCulation ... Optimization)"
    if right.startswith(("-", ")-")) or _NAMED_NEXT.match(right):
        return None  # "(MLP)-based", or the kind of thing a name is given to: "a VLM called X"
    if kind != "namey" and (
        start == sentence[0] or _CAPITAL_NEXT.match(right) or _CAPITAL_BEFORE.search(left[-40:])
    ):
        return None  # a sentence's first word, or a word of a capitalised phrase
    anchor, expansion = start, ""
    if in_parentheses:
        expansion = _expansion_before(left[:-1], text[start:end])
        anchor = start - 1 - (len(left[:-1]) - len(left[:-1].rstrip())) - len(expansion)
    before = text[max(sentence[0], anchor - 120) : anchor]
    near = before[-60:].lower()
    score, definite = 0.0, False
    # (A verb more than 14 words back does not count: see _gap_score.)
    for _, verb_end in _coinings_between(coinings, max(sentence[0], anchor - 250), anchor):
        if verb_end <= anchor:
            gap = text[verb_end:anchor]
            score = max(score, _gap_score(gap))
            definite = definite or gap == " the "
    called = any(cue in near for cue in _CALLED_HINTS) and bool(_CALLED.search(before))
    if called:
        score = max(score, 5.0)
    if "our " in near:
        if _POSSESSIVE_APPOSITIVE.search(before) or (expansion and _POSSESSIVE.search(before)):
            score = max(score, 3.5)
        elif _POSSESSIVE.search(before):
            score = max(score, 2.0)
    if (
        any(verb in right[:90] for verb in _PASSIVE_VERBS)
        and _PASSIVE.match(right)
        and (len(before.split()) <= 6 or before.endswith((" a ", " an ", " the ")))
    ):
        score = max(score, 3.5)
    if anchor == sentence[0] and _IS_NOVEL.match(right):
        score = max(score, 3.0)
    if right[:3].lstrip(")")[:1] in (",", ":", " "):
        described = _LEADING_PARENTHESIS.sub("", right, count=1) if "(" in right[:3] else right
        if _APPOSITIVE_NOVEL.match(described):
            score += 3.0
        elif _APPOSITIVE.match(described):
            score += 1.5
    if not called:
        score -= _modifier_penalty(right, expansion, definite)
    if score <= 0:
        return None
    return _Occurrence(start, end, sentence, anchor, expansion, score)


def _phrases(
    text: str,
    sentences: list[tuple[int, int]],
    starts: list[int],
    coinings: list[tuple[int, int]],
    emphasised: frozenset[str],
):
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
            score = 3.5 + (3.0 if novel else 1.5 if described else 0.0)
            yield phrase, _Occurrence(start, end, sentence, start, "", score)


# --------------------------------------------------------------------------- titles

_ABBREVIATED = re.compile(r"((?:[\w-]+ ){1,8}?)\(([A-Za-z][\w-]*[A-Z][\w-]*)\)")
# "a novel inductive framework" -> "an inductive framework"
_HYPE = re.compile(r"\b(a|an|the) (?:novel|new) (?:and \w+ )?(?=([\w-]+))", re.IGNORECASE)
_CLAUSE_END = re.compile(
    r" ?(?:[;:] | [–—] |\. |\.$|, (?:which|where|while|whereas|thus|and (?:we|it|then|thus|"
    r"show|demonstrate)|but|leading|resulting|allowing|enabling|making|yielding|showing|"
    r"providing|achieving|as|since|so|because|although|though|we|it|i\.e\.|e\.g\.|\w+ly\b|that|"
    r"was|were|is|are|has|have)\b| \((?:\d|[ivx]+|[a-e])\) | and (?:show|demonstrate|prove|"
    r"find|evaluate)\b)"
)
_BREAK_WORDS = frozenset((
    "by", "with", "which", "that", "where", "while", "using", "via", "through", "to", "for",
    "in", "on", "under", "and", "from", "across", "without", "based", "as", "at", "over",
    "into", "when", "whose", "after", "before", "during", "within", "between", "among",
    "against", "such", "because"
))  # fmt: skip
_DANGLING = frozenset((
    "the", "a", "an", "of", "and", "or", "to", "for", "with", "in", "on", "by", "that", "which",
    "its", "their", "our", "as", "from", "at", "is", "are", "be", "via", "into", "under",
    "over", "using", "both", "either", "this", "these", "those", "such", "than", "then", "due",
    "according", "compared", "related", "order", "prior", "owing", "thanks", "able", "aims",
    "leads"
))  # fmt: skip
_APPOSITIVE_DESCRIPTION = re.compile(
    r" ?(?:,|:| [-–—]) (?:or |which is )?(?P<rest>(?:(?:a|an|the|one) |[A-Z]).+)$"
)
_NOUN_PHRASE_BEFORE = re.compile(
    r"\b(?:propos|introduc|present|develop|design|devis|build|construct|contribut|offer|releas|"
    r"creat|provid|formulat)\w* (?P<np>(?:a|an|the) [^,;]{3,80}?|(?:a|an|the) [^;]{3,120}?"
    r"(?=,? (?:called|named|dubbed|termed)))(?:,? (?:called|named|dubbed|termed)|,)? ?$",
    re.IGNORECASE,
)
_TO_VERB = re.compile(r"to (?:\w+ly )?(?P<verb>[a-z][\w-]*) (?P<rest>.+)$")
_USE_VERBS = re.compile(
    r"(?:which|that) (?:\w+ly )?(?:uses|utilizes|utilises|leverages|employs|exploits|adopts|"
    r"combines|relies on|builds on|builds upon) (?P<rest>.+)$"
)
_WHICH_VERB = re.compile(r"(?:which|that) (?:\w+ly )?(?P<verb>[a-z]+s) (?P<rest>.+)$")

_FINDING_VERBS = "show demonstrat prov find found argu observ reveal conclud report establish"
_STUDY_VERBS = (
    "stud examin investigat explor analy address consider revisit characteri evaluat assess "
    "compar benchmark focus tackl explain identif uncover quantif measur"
)
_CLAIM_COIN_VERBS = (
    "propos introduc present develop defin contribut describ design formali deriv offer provid "
    "build"
)
_AIM_VERBS = "seek aim attempt try tries"
_WEAK_VERBS = "use train conduct employ leverag apply"  # claims only with "to show that"
_CLAIM = re.compile(
    r"(?P<subject>(?:^|[,;] ?| )we|(?:^|[,;] ?)" + _SUBJECT + r") (?:(?:also|further|first|"
    r"then|now|therefore|thus|hence|here|\w+ly) )*(?P<verb>(?:"
    + "|".join(
        f"{_FINDING_VERBS} {_STUDY_VERBS} {_CLAIM_COIN_VERBS} {_AIM_VERBS} {_WEAK_VERBS}".split()
    )
    + r")\w*)(?! (?:on|upon)\b)(?: (?:on|and \w+))? (?P<rest>.+)$",
    re.IGNORECASE,
)
_PASSIVE_CLAIM = re.compile(
    r"(?:[^,]{0,60}, ?)?(?:in this (?:paper|work|study),? )?(?P<rest>(?:a|an) .{5,150}?)"
    r" (?:is|are) (?:proposed|presented|introduced|developed)\b",
    re.IGNORECASE,
)
_PRIORITY_HINTS = (
    "this paper", "this work", "this study", "this article", "in this", "here", "we propose",
    "we introduce", "we present",
)  # fmt: skip
_THAT_CLAUSE = re.compile(
    r"(?:[^,;]{0,60}? )?(?:to )?(?:show|demonstrate|prove|find|argue|observe|reveal|establish|"
    r"identify|conclude)s? that (?P<rest>.+)$",
    re.IGNORECASE,
)
_PRONOUN_OBJECT = re.compile(
    r"(?:(?:this|these|it|them|that|those) (?:for|in|by|using|with|on|to|from|via|through|"
    r"under|across|and|as)\b|this (?:work|paper|study|approach|method|idea)\b|the following\b)",
    re.IGNORECASE,
)
_BY_DOING = re.compile(r"(?:[\w-]+ ){1,6}?by (?P<verb>\w+ing) (?P<rest>.+)$", re.IGNORECASE)


def _title(analysis: _Analysis, name: str) -> str:
    if name:
        title = _named_title(analysis, name)
        if title:
            return title
    claim = _claim_title(analysis)
    if name and claim and name not in claim:
        # The name and what the abstract claims: "ThickV-Stain: a multi-scale model to ..."
        first = claim.split(" ", 1)[0]
        if _token_kind(first) is None and not any(ch.isupper() for ch in first[1:]):
            claim = claim[0].lower() + claim[1:]
        return _fit(f"{name}: {claim}", capitalise=False)
    if claim:
        return claim
    if not analysis.sentences:
        return ""
    start, end = analysis.sentences[0]
    return _fit(_condense(_clause(analysis.text[start:end])))


def _named_title(analysis: _Analysis, name: str) -> str:
    text = analysis.text
    occurrence = analysis.best.get(name)
    if occurrence is None:
        position = text.find(name)
        if position < 0:
            return ""
        starts = [start for start, _ in analysis.sentences]
        sentence = analysis.sentences[bisect_right(starts, position) - 1]
        occurrence = _Occurrence(position, position + len(name), sentence, position, "", 0.0)
    room = TITLE_LIMIT - len(name) - 2
    description = _describe(text, occurrence, name) if room >= 20 else ""
    if not description:
        return ""
    return f"{name}: {_fit(_condense(description), room, capitalise=False)}".rstrip(": ")


def _describe(text: str, occurrence: _Occurrence, name: str) -> str:
    """What the coining sentence says the named thing is."""
    right = text[occurrence.end : occurrence.sentence[1]].removeprefix(")")
    right = _LEADING_PARENTHESIS.sub("", right, count=1) if right.startswith(" (") else right
    appositive = _APPOSITIVE_DESCRIPTION.match(right)
    if appositive:
        return _clause(appositive["rest"])
    if occurrence.expansion:
        return occurrence.expansion
    clause = right.strip().removeprefix(",").strip()
    noun_phrase = _NOUN_PHRASE_BEFORE.search(text, occurrence.sentence[0], occurrence.anchor)
    if noun_phrase:
        description = noun_phrase["np"]
        which = _WHICH_VERB.match(clause)
        if len(description) < 40 and which:
            description += f" that {which['verb']} {which['rest']}"
        elif len(description) < 40 and clause.startswith(("to ", "for ")):
            description += f" {clause}"  # "a framework called X for modeling ..."
        return _clause(description)
    use = _USE_VERBS.match(clause)
    if use:
        return _clause(use["rest"])
    purpose = _TO_VERB.match(clause)
    if purpose:
        return _clause(f"{_gerund(purpose['verb'])} {purpose['rest']}")
    which = _WHICH_VERB.match(clause)
    if which:
        return _clause(f"{_gerund(which['verb'][:-1])} {which['rest']}")
    later = re.search(
        r"(?<![\w-])" + re.escape(name) + r" is (?P<rest>(?:a|an|the) .+?)(?:\. |\.?$)",
        text[occurrence.sentence[1] :],
    )
    return _clause(later["rest"]) if later else ""


def _claim_title(analysis: _Analysis) -> str:
    """The abstract's first claim as a headline, its "In this paper, we ..." removed.

    Sentences that say "this paper", "here" or "we propose" come first.
    """
    text, lowered, sentences = analysis.text, analysis.lowered, analysis.sentences
    starts = [start for start, _ in sentences]
    hinted = _sentences_with(lowered, starts, ("we ", "this ", "our ", " is ", " are "))
    first = _sentences_with(lowered, starts, _PRIORITY_HINTS)
    for index in sorted(hinted, key=lambda index: (index not in first, index)):
        start, end = sentences[index]
        claim = _claim(text[start:end].rstrip())
        title = _fit(_condense(_clause(claim))) if claim else ""
        if len(title.split()) >= 3:
            return title
    return ""


def _sentences_with(lowered: str, starts: list[int], hints: tuple[str, ...]) -> set[int]:
    """Indexes of the sentences that contain one of `hints`."""
    found = set()
    for hint in hints:
        position = lowered.find(hint)
        while position >= 0:
            found.add(bisect_right(starts, position) - 1)
            position = lowered.find(hint, position + 1)
    return found


def _claim(sentence: str) -> str:
    """What `sentence` claims, without its subject and verb, or ""."""
    passive = _PASSIVE_CLAIM.match(sentence)
    if passive:
        return passive["rest"]
    match = _CLAIM.search(sentence)
    if not match:
        return ""
    verb, rest = match["verb"].lower(), match["rest"]
    if _PRONOUN_OBJECT.match(rest):
        return ""
    if verb.startswith(tuple(_WEAK_VERBS.split())):
        that = _THAT_CLAUSE.match(rest)
        return that["rest"] if that else ""
    if verb.startswith(tuple(_FINDING_VERBS.split())):
        return re.sub(r"^that ", "", rest, flags=re.IGNORECASE)
    if verb.startswith(tuple(_AIM_VERBS.split())) or rest.startswith("to "):
        purpose = _TO_VERB.match(rest if rest.startswith("to ") else f"to {rest}")
        if not purpose:
            return rest
        if purpose["verb"].startswith(("understand", *_STUDY_VERBS.split())):
            return purpose["rest"]
        return f"{_gerund(purpose['verb'])} {purpose['rest']}"
    if verb.startswith(("address", "tackl")):
        by_doing = _BY_DOING.match(rest)
        if by_doing:
            if by_doing["verb"].lower().startswith(tuple(_CLAIM_COIN_VERBS.split())):
                return by_doing["rest"]
            return f"{by_doing['verb']} {by_doing['rest']}"
    that = _THAT_CLAUSE.match(rest)
    return that["rest"] if that else rest


def _clause(text: str) -> str:
    """`text` up to the end of its first clause."""
    match = _CLAUSE_END.search(text)
    return text[: match.start()] if match else text


def _condense(text: str) -> str:
    """Shorter wording: "stochastic gradient descent (SGD)" -> "SGD", "a novel" -> "a"."""
    if "(" in text:
        text = _ABBREVIATED.sub(_abbreviate, text)
    if "novel " in text or "new " in text or "New " in text or "Novel " in text:
        text = _HYPE.sub(_article, text)
    return text


def _abbreviate(match: re.Match[str]) -> str:
    words, acronym = match[1].rstrip(), match[2]
    expansion = _expansion_before(words, acronym)
    if not expansion:
        return match[0]
    return words[: len(words) - len(expansion)] + acronym


def _article(match: re.Match[str]) -> str:
    """The article of "a novel X" fitted to X alone."""
    article, word = match[1], match[2]
    if article.lower() == "the":
        return article + " "
    if sum(ch.isupper() for ch in word) >= 2:
        vowel = word[0] in "AEFHILMNORSX"  # read letter by letter: an LLM, an MoE, a GPU
    else:
        lowered = word.lower()
        vowel = lowered[0] in "aeio" or (
            lowered[0] == "u" and not lowered.startswith(("uni", "us", "ut"))
        )
    chosen = "an" if vowel else "a"
    return (chosen.capitalize() if article.isupper() else chosen) + " "


def _gerund(verb: str) -> str:
    verb = verb.lower()
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")) and len(verb) > 2:
        return verb[:-1] + "ing"
    return verb + "ing"


def _fit(text: str, limit: int = TITLE_LIMIT, *, capitalise: bool = True) -> str:
    """`text` as a headline of at most `limit` characters, cut at a phrase boundary."""
    text = _balance(one_line(text))
    if len(text) > limit:
        text = _balance(text[: _cut_position(text, limit)])
    text = _trim(text)
    if capitalise and text[:1].islower() and _token_kind(text.split(" ")[0]) is None:
        text = text[0].upper() + text[1:]
    return text


def _cut_position(text: str, limit: int) -> int:
    """Where to cut `text` to fit `limit`: before a preposition or relative word if one
    leaves enough, else after a comma, else at the last word boundary."""
    before_word, after_comma, boundary = 0, 0, 0
    position = text.find(" ")
    while 0 < position <= limit:
        boundary = position
        if position >= limit // 3:
            following = text[position + 1 : position + 12].split(" ", 1)[0].lower()
            if following in _BREAK_WORDS:
                before_word = position
            elif text[position - 1] == ",":
                after_comma = position
        position = text.find(" ", position + 1)
    return before_word or after_comma or boundary or limit


def _balance(text: str) -> str:
    """`text` up to its first unclosed or stray parenthesis, without unpaired quotes."""
    opened: list[int] = []
    for index, ch in enumerate(text if "(" in text or ")" in text else ""):
        if ch == "(":
            opened.append(index)
        elif ch == ")":
            if not opened:
                return text[:index]
            opened.pop()
    if opened:
        text = text[: opened[0]]
    if text.count('"') % 2:
        text = text.replace('"', "")
    if text.count("“") != text.count("”"):
        text = text.replace("“", "").replace("”", "")
    return text


def _trim(text: str) -> str:
    """No trailing punctuation or dangling little words."""
    while True:
        text = text.rstrip(" ,;:.-–—(/")
        last = text.rsplit(" ", 1)
        if len(last) == 2 and last[1].lower() in _DANGLING:
            text = last[0]
            continue
        return text
