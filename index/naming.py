"""A paper's name and headline, derived from its abstract when the source gives neither.

The seeds carry no titles, so the list needs something to show. `derive_name` finds the
method or system an abstract coins ("We present Persona In-Context Learning (PICLe), a
novel ..."), not the acronyms it merely uses (LLMs, SGD). It scores every name-shaped token
by how it is introduced: a coining verb with "we" or "this paper" shortly before it, "called"
or "dubbed", an appositive ("X, a novel framework"), "our ... (X)", "X is proposed",
emphasis, and repetition; a token followed by a generic noun ("an MoE strategy") is a
modifier. `derive_title` builds a one-line headline from the coining sentence, or, for
abstracts that coin nothing, from their first claim with its lead-in ("In this paper, we
examine") removed. Both work on the display text and never raise.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

from paperterm.index.display import display_text, one_line

TITLE_LIMIT = 100
_MIN_SCORE = 3.0

# A name-shaped token: letters, digits and inner hyphens, dots or pluses (MC-ViT, GPT-4o).
# (It must hold a capital letter: the look-ahead skips plain words cheaply.)
_TOKEN = re.compile(
    r"(?<![\w\-+./])(?=[a-z0-9\-+.]*[A-Z])[A-Za-z][A-Za-z0-9]*(?:[-+.][A-Za-z0-9]+)*(?![\w+/])"
)
_NOT_A_NAME_SUFFIX = re.compile(
    r"-(?:based|like|style|aware|guided|driven|free|specific|level|wise|only|scale|shot|"
    r"grained|agnostic|dependent|invariant|augmented|conditioned|supervised|trained|tuned)$",
    re.IGNORECASE,
)
# Capitalised phrases (Lightning Attention, Quantile Pooling) may be names too.
_PHRASE = re.compile(
    r"(?<![\w-])[A-Z][\w-]*(?:\s+(?:of\s+)?[A-Z][\w-]*){1,4}(?![\w-])"
)

_SUBJECT = (
    r"\b(?:we|this\s+(?:paper|work|study|article|letter|note|report|thesis|manuscript)|"
    r"our\s+(?:work|paper|study)|the\s+present\s+(?:paper|work|study))"
)
_COIN_VERB = (
    r"(?:propos|introduc|present|develop|design|devis|build|construct|contribut|offer|"
    r"releas|creat|provid|formulat|unveil|nam|dub|term|coin)\w*"
)
_COINING = re.compile(
    _SUBJECT
    + r"(?:\s+(?:also|further|first|then|therefore|thus|hence|here|now|newly|additionally|"
    r"finally|instead|next|subsequently|\w+ly))*\s+" + _COIN_VERB + r"(?:\s+and\s+\w+)?",
    re.IGNORECASE,
)
_CALLED = re.compile(
    r"\b(?:called|named|dubbed|termed|coined|which\s+we\s+(?:call|name|term|dub)|we\s+(?:call|name|"
    r"term|dub)\s+(?:this|it|our|the)(?:\s+[\w-]+)?)\s*(?:the\s+)?[\"“‘']?\s*$",
    re.IGNORECASE,
)
# "our X", "our proposed X", "our memory-consolidated vision transformer (X)" (the anchor is
# then the expansion) and "Our solution, X,"; "our method improves X" is not one.
_POSSESSIVE = re.compile(r"\bour\s+(?:(?:proposed|new|novel|own)\s+)?$", re.IGNORECASE)
_POSSESSIVE_APPOSITIVE = re.compile(
    r"\bour\s+(?:[\w-]+(?:\s+[\w-]+)?,|(?:(?:proposed|new|novel)\s+)?(?:method|model|framework|"
    r"approach|architecture|network|system|pipeline|algorithm|technique|tool|solution))\s+$",
    re.IGNORECASE,
)
_PASSIVE = re.compile(
    r"^\)?[^.;]{0,60}?\b(?:is|are|was|were|has\s+been|have\s+been)\s+(?:\w+ly\s+)?"
    r"(?:proposed|introduced|presented|developed|designed|devised|built|constructed|created)\b"
)
_NOVELTY = (
    r"(?:first|novel|new|simple|general|unified|efficient|lightweight|principled|scalable|"
    r"practical|flexible|versatile|robust|generic|plug-and-play|modular|fast|effective)"
)
_APPOSITIVE_NOVEL = re.compile(
    r"^\)?\s*,\s+(?:which\s+is\s+)?(?:a|an|the|one\s+of\s+the)\s+(?:[\w-]+\s+){0,2}?"
    + _NOVELTY + r"\b",
    re.IGNORECASE,
)
_APPOSITIVE = re.compile(r"^\)?\s*(?:,\s+(?:a|an)\s|,\s+or\s+[A-Z]|:\s+[Aa]n?\s)")
_IS_NOVEL = re.compile(
    r"^\)?\s+(?:is|are)\s+(?:a|an)\s+(?:[\w-]+,?\s+){0,2}?" + _NOVELTY + r"\b", re.IGNORECASE
)
_NOVEL_WORD = re.compile(r"\b" + _NOVELTY + r"\b", re.IGNORECASE)
# The token is the object of a preposition: "a new version of MCSD", "a method for LLMs".
_OBJECT_OF = re.compile(
    r"\b(?:of|for|to|with|from|on|in|than|by|via|using|like|as|over|into|towards?)\s+$",
    re.IGNORECASE,
)
_NOT_COINING_NEXT = re.compile(r"^\s*(?:to|that|how|whether|why|what)\b", re.IGNORECASE)

_GAP_BARRIERS = frozenset(
    "that which who where to by for with from on in of into via based through under between "
    "across as than while when because whose like such including".split()
)
# A verb of use between the coining verb and the token: "a method leveraging cGANs".
_USE_WORDS = frozenset(
    "using leveraging utilizing utilising employing exploiting combining integrating applying "
    "adopting incorporating uses leverages utilizes employs exploits combines integrates "
    "applies".split()
)
_GENERIC_NOUNS = frozenset(
    """method methods model models approach approaches framework frameworks module modules
    block blocks layer layers component components network networks architecture
    architectures strategy strategies loss losses benchmark benchmarks dataset datasets task
    tasks setting settings problem problems process processes score scores algorithm algorithms technique
    techniques scheme schemes pipeline pipelines system systems paradigm paradigms inference
    training kernel kernels implementation implementations data images image features
    feature embeddings embedding representations representation encoder encoders decoder
    decoders backbone backbones head heads variant variants family families agents agent
    policies policy scans scan cache library toolkit tool tools code weights parameters
    objective objectives regularization attention tokens token sequences sequence""".split()
)
_FUNCTION_WORDS = frozenset(
    """to which that for as in with by on and or where whose based built designed using via
    from is are was were be can could will may might should would has have had which who
    consisting comprising leveraging enabling allowing achieves achieve outperforms
    significantly not also first then""".split()
)


@dataclass(slots=True)
class _Occurrence:
    """One place a candidate name appears, with what the text around it says."""

    start: int
    end: int
    sentence: tuple[int, int]
    anchor: int  # where the name's phrase starts: its expansion before "(X)", else itself
    expansion: str
    score: float


@dataclass(slots=True)
class _Analysis:
    text: str
    sentences: list[int]
    best: dict[str, _Occurrence]
    name: str


def derive_name(abstract: str) -> str:
    """The method or system `abstract` coins, or "" when it coins none."""
    try:
        return _analyse(abstract).name
    except Exception:  # a heuristic over arbitrary text must never take the build down
        return ""


def derive_title(abstract: str, name: str) -> str:
    """A one-line headline of at most 100 characters: `Name: what it is`, or the first claim."""
    try:
        analysis = _analyse(abstract)
        title = _named_title(analysis, name) if name else ""
        if title:
            return title
        claim = _claim_title(analysis.text)
        if name and claim and name not in claim:
            # The name and what the abstract claims for it: "ThickV-Stain: a multi-scale model ..."
            first = claim.split(" ", 1)[0]
            if _token_kind(first) is None and not any(ch.isupper() for ch in first[1:]):
                claim = claim[0].lower() + claim[1:]
            return _fit(f"{name}: {claim}", capitalise=False)
        return claim or _fit(_first_sentence(analysis.text))
    except Exception:
        return one_line(name or abstract, TITLE_LIMIT)


# --------------------------------------------------------------------------- analysis


@lru_cache(maxsize=64)
def _analyse(abstract: str) -> _Analysis:
    text = " ".join(display_text(abstract).split())
    sentences = _sentence_starts(text)
    coinings = [(m.start(), m.end()) for m in _COINING.finditer(text)]
    emphasised = _emphasised(abstract)
    best: dict[str, _Occurrence] = {}
    counts: dict[str, int] = {}
    for match in _TOKEN.finditer(text):
        token = match.group()
        kind = _token_kind(token)
        if kind is None:
            continue
        counts[token] = counts.get(token, 0) + 1
        occurrence = _score(text, sentences, coinings, match.start(), match.end(), kind)
        if occurrence and (token not in best or occurrence.score > best[token].score):
            best[token] = occurrence
    for match in _PHRASE.finditer(text):
        occurrence = _score_phrase(text, sentences, coinings, match, emphasised)
        if occurrence and (match.group() not in best or occurrence.score > best[match.group()].score):
            best[match.group()] = occurrence
            for token in match.group().split():  # "UnCLe SAM" is named, not "SAM"
                if token in best and match.start() <= best[token].start < match.end():
                    del best[token]
    name, top = "", 0.0
    for token, occurrence in best.items():
        score = occurrence.score + (2.0 if token in emphasised else 0.0)
        count = counts.get(token) or _count(text, token)
        if score < _MIN_SCORE or (" " not in token and not _capitalised_ok(token, score, count)):
            continue
        score += 0.5 * min(count - 1, 3)
        if score > top or (score == top and name and occurrence.start < best[name].start):
            name, top = token, score
    return _Analysis(text, sentences, best, name)


def _capitalised_ok(token: str, score: float, count: int) -> bool:
    """A capitalised word (Caduceus, Re-Diffinet) is a name only on strong evidence: "called
    X", or a coining verb and a description, or a coining cue and repetition."""
    if _token_kind(token) == "namey":
        return True
    return score >= 5.0 or (count >= 2 and (score >= 4.0 or count >= 3))


def _sentence_starts(text: str) -> list[int]:
    starts = [0]
    starts += [
        m.end() for m in re.finditer(r"(?<=[.!?])\s+(?=[A-Z0-9\"“(\[])|(?<=[a-z]{2}\.)(?=[A-Z][a-z])", text)
    ]
    return starts


def _sentence_of(sentences: list[int], text: str, position: int) -> tuple[int, int]:
    index = bisect_right(sentences, position) - 1
    end = sentences[index + 1] if index + 1 < len(sentences) else len(text)
    return sentences[index], end


def _emphasised(abstract: str) -> frozenset[str]:
    """Whole words the abstract sets in emphasis: `*xT*`, `\\mathsf{DirMixE}`, `{\\tt X}`."""
    found = re.findall(r"(?<![\w*])\*{1,3}([^*\s]{2,40}|[A-Z][^*]{2,40})\*{1,3}(?![\w*])", abstract)
    found += re.findall(
        r"\\(?:mathsf|texttt|textbf|textsc|mathbf|mathrm|textit|emph|text|textsf)\s*"
        r"\{([^{}]{2,40})\}|\{\\(?:tt|bf|sc|it|em|sf)\s+([^{}]{2,40})\}",
        abstract,
    )
    words = set()
    for item in found:
        for word in item if isinstance(item, tuple) else (item,):
            if word:
                words.add(word.replace("\\_", "_").strip())
    return frozenset(words)


@lru_cache(maxsize=8192)
def _token_kind(token: str) -> str | None:
    """"namey" (PICLe, MC-ViT, CTAN, xT), "capitalised" (Caduceus), or None (a plain word)."""
    letters = [ch for ch in token if ch.isalpha()]
    if len(letters) < 2 or _NOT_A_NAME_SUFFIX.search(token):
        return None
    for part in re.split(r"[-+.]", token):
        uppers = sum(ch.isupper() for ch in part)
        if uppers >= 2 or (uppers == 1 and not part[0].isupper()):
            return "namey"
    if token[0].isupper() and all(part[1:].islower() for part in token.split("-") if part):
        return "capitalised"  # Caduceus, Re-Diffinet, Med-Tuning
    return None


def _count(text: str, token: str) -> int:
    return len(re.findall(r"(?<![\w-])" + re.escape(token) + r"(?![\w-])", text, re.IGNORECASE))


def _expansion_before(left: str, acronym: str) -> str:
    """The words before "(ACRONYM)" that it abbreviates, or ""."""
    letters = [ch.lower() for ch in acronym if ch.isalpha()]
    if len(letters) < 2:
        return ""
    words = left.rstrip().split(" ")
    for k in range(1, min(len(words), 12) + 1):
        phrase_words = words[-k:]
        if k == 1 and "-" not in phrase_words[0]:
            continue
        if not phrase_words[0][:1].lower() == letters[0]:
            continue
        if _is_subsequence(letters, "".join(phrase_words).lower()):
            return " ".join(phrase_words)
    return ""


def _is_subsequence(needle: list[str], haystack: str) -> bool:
    position = 0
    for ch in needle:
        position = haystack.find(ch, position) + 1
        if position == 0:
            return False
    return True


def _gap_score(gap: str) -> float:
    """How directly a coining verb introduces what follows after `gap` words."""
    if _NOT_COINING_NEXT.match(gap) or _OBJECT_OF.search(gap):
        return 0.0
    words = gap.split()
    if len(words) > 14:
        return 0.0
    lowered = [word.strip(",").lower() for word in words]
    barriers = sum(word in _GAP_BARRIERS for word in lowered)
    barriers += 2 * sum(word in _USE_WORDS for word in lowered)
    novelty = 1.0 if _NOVEL_WORD.search(gap) else 0.0
    return max(0.0, 4.0 - 0.25 * len(words) - barriers - 0.5 * gap.count(",") + novelty)


def _modifier_penalty(right: str, expansion: str, definite: bool) -> float:
    """A name followed by a noun ("an MoE strategy", "GPU kernels") modifies that noun.

    Not so for "(X) approach" after a capitalised expansion, nor for "we propose the X
    framework", where the noun says what the named thing is.
    """
    match = re.match(r"\)?\s*([A-Za-z][\w-]*)", right)
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
    sentences: list[int],
    coinings: list[tuple[int, int]],
    start: int,
    end: int,
    kind: str,
) -> _Occurrence | None:
    sentence = _sentence_of(sentences, text, start)
    left, right = text[sentence[0] : start], text[end : sentence[1]]
    anchor, expansion = start, ""
    in_parentheses = left.endswith("(") and right.startswith(")")
    if left.count("(") > left.count(")") and not in_parentheses:
        return None  # a word of a parenthesis: "DISCO (DynamIc SpeCulation ... Optimization)"
    if re.match(r"\)?-|\s*,?\s+(?:called|named|dubbed|termed)\b", right):
        return None  # "(MLP)-based", or the kind of thing a name is given to: "a VLM called X"
    if in_parentheses:
        expansion = _expansion_before(left[:-1], text[start:end])
        anchor = start - 1 - len(left[:-1]) + len(left[:-1].rstrip()) - len(expansion)
        if not expansion:
            anchor = start - 1
    before = text[sentence[0] : anchor]
    score, definite = 0.0, False
    for verb_start, verb_end in coinings:
        if sentence[0] <= verb_start and verb_end <= anchor:
            gap = text[verb_end:anchor]
            score = max(score, _gap_score(gap))
            definite = definite or bool(re.fullmatch(r"\s+the\s+", gap))
    called = bool(_CALLED.search(before))
    if called:
        score = max(score, 5.0)
    if _POSSESSIVE_APPOSITIVE.search(before) or (expansion and _POSSESSIVE.search(before)):
        score = max(score, 3.5)
    elif _POSSESSIVE.search(before):
        score = max(score, 2.0)
    if anchor == sentence[0] and _IS_NOVEL.match(right):
        score = max(score, 3.0)
    if _PASSIVE.match(right) and (len(before.split()) <= 6 or re.search(r"\b(?:a|an|the)\s*$", before)):
        score = max(score, 3.5)
    described = re.sub(r"^\)?\s*\([^()]*\)", "", right)  # "X (expansion), a novel ..."
    if _APPOSITIVE_NOVEL.match(described):
        score += 3.0
    elif _APPOSITIVE.match(described):
        score += 1.5
    if kind != "namey" and (
        start == sentence[0] or re.match(r"\s+[A-Z]", right) or re.search(r"[A-Z][\w-]*\s+$", left)
    ):
        return None  # a sentence's first word, or a word of a longer capitalised phrase
    if not called:
        score -= _modifier_penalty(right, expansion, definite)
    if score <= 0:
        return None
    return _Occurrence(start, end, sentence, anchor, expansion, score)


def _score_phrase(
    text: str,
    sentences: list[int],
    coinings: list[tuple[int, int]],
    match: re.Match[str],
    emphasised: frozenset[str],
) -> _Occurrence | None:
    """A capitalised phrase right after a coining verb, described or emphasised or repeated."""
    start, end, phrase = match.start(), match.end(), match.group()
    sentence = _sentence_of(sentences, text, start)
    right = text[end : sentence[1]]
    if re.match(r"[^.,;()]{0,60}\(", right):
        return None  # the acronym that follows is the name
    gap = min(
        (
            text[verb_end:start]
            for verb_start, verb_end in coinings
            if sentence[0] <= verb_start and verb_end <= start
        ),
        key=len,
        default=None,
    )
    if gap is None or not re.fullmatch(r"\s*(?:(?:a|an|the)\s+)?", gap, re.IGNORECASE):
        return None
    novel = bool(_APPOSITIVE_NOVEL.match(right))
    described = novel or bool(_APPOSITIVE.match(right))
    if not (described or phrase in emphasised or _count(text, phrase) >= 2):
        return None
    score = 4.0 + (3.0 if novel else 1.5 if described else 0.0) - 0.5
    return _Occurrence(start, end, sentence, start, "", score)


# --------------------------------------------------------------------------- titles

_ABBREVIATED = re.compile(r"((?:[\w-]+[ ]){1,8}?)\(([A-Za-z][\w-]*[A-Z][\w-]*)\)")
_HYPE = re.compile(r"\b(a|an|the)\s+(?:novel|new)\s+(?:and\s+\w+\s+)?", re.IGNORECASE)
_CLAUSE_END = re.compile(
    r"\s*(?:[;:]\s|\s[–—]\s|\.\s|\.$|,\s+(?:which|where|while|whereas|thus|and\s+(?:we|it|then|thus|"
    r"show|demonstrate)|but|leading|resulting|allowing|enabling|making|yielding|showing|"
    r"providing|achieving|as|since|so|because|although|though|we|it|i\.e\.|e\.g\.|\w+ly\b|that|"
    r"was|were|is|are|has|have)\b|\s\((?:\d|[ivx]+|[a-e])\)\s|\s+and\s+(?:show|demonstrate|prove|"
    r"find|evaluate)\b)"
)
_BREAK_WORDS = frozenset(
    """by with which that where while using via through to for in on under and from across
    without based as at over into when whose after before during within between among
    against such because""".split()
)
_DANGLING = frozenset(
    """the a an of and or to for with in on by that which its their our as from at is are
    be via into under over using both either this these those such than then due according
    compared related order prior owing thanks able aims leads""".split()
)
_FINDING_VERBS = (
    "show demonstrat prov find found argu observ reveal conclud report establish".split()
)
_STUDY_VERBS = (
    "stud examin investigat explor analy address consider revisit characteri evaluat assess "
    "compar benchmark focus tackl explain identif uncover quantif measur".split()
)
_COIN_VERBS = "propos introduc present develop defin contribut describ design formali deriv offer provid build".split()
_AIM_VERBS = "seek aim attempt try tries".split()
_WEAK_VERBS = "use train conduct employ leverag apply".split()
_LEAD_VERBS = (
    r"(?:"
    + "|".join(_FINDING_VERBS + _STUDY_VERBS + _COIN_VERBS + _AIM_VERBS + _WEAK_VERBS)
    + r")\w*"
)
_CLAIM = re.compile(
    r"(?P<subject>(?:^|[,;]\s*|\s)we|(?:^|[,;]\s*)" + _SUBJECT[2:] + r")\s+(?:(?:also|further|first|"
    r"then|now|therefore|thus|hence|here|\w+ly)\s+)*(?P<verb>" + _LEAD_VERBS + r")"
    r"(?!\s+(?:on|upon)\b)(?:\s+(?:on|and\s+\w+))?\s+(?P<rest>.+)$",
    re.IGNORECASE,
)
_PASSIVE_CLAIM = re.compile(
    r"^(?:[^,]{0,60},\s*)?(?:in\s+this\s+(?:paper|work|study),?\s+)?(?P<rest>(?:a|an)\s.{5,150}?)"
    r"\s+(?:is|are)\s+(?:proposed|presented|introduced|developed)\b",
    re.IGNORECASE,
)
_PRIORITY_CLAIM = re.compile(
    r"\b(?:this\s+(?:paper|work|study|article)|in\s+this|here|we\s+(?:\w+ly\s+)?"
    r"(?:propose|introduce|present))\b",
    re.IGNORECASE,
)
_THAT_CLAUSE = re.compile(
    r"^(?:[^,;]{0,60}?\s)?(?:to\s+)?(?:show|demonstrate|prove|find|argue|observe|reveal|"
    r"establish|identify|conclude)s?\s+that\s+(?P<rest>.+)$",
    re.IGNORECASE,
)
_PRONOUN_OBJECT = re.compile(
    r"^(?:(?:this|these|it|them|that|those)\s+(?:for|in|by|using|with|on|to|from|via|through|"
    r"under|across|and|as)\b|this\s+(?:work|paper|study|approach|method|idea)\b|the\s+following\b)",
    re.IGNORECASE,
)
_BY_DOING = re.compile(
    r"^(?:[\w-]+\s+){1,6}?by\s+(?P<verb>\w+ing)\s+(?P<rest>.+)$", re.IGNORECASE
)
_TO_VERB = re.compile(r"^(?:to\s+)(?:\w+ly\s+)?(?P<verb>[a-z][\w-]*)\s+(?P<rest>.+)$")
_USE_VERBS = re.compile(
    r"^(?:,\s*)?(?:which|that)\s+(?:\w+ly\s+)?(?:uses|utilizes|utilises|leverages|employs|"
    r"exploits|adopts|combines|relies\s+on|builds\s+on|builds\s+upon)\s+(?P<rest>.+)$"
)
_WHICH_VERB = re.compile(r"^(?:,\s*)?(?:which|that)\s+(?:\w+ly\s+)?(?P<verb>[a-z]+s)\s+(?P<rest>.+)$")


def _named_title(analysis: _Analysis, name: str) -> str:
    text = analysis.text
    occurrence = analysis.best.get(name)
    if occurrence is None:
        position = text.find(name)
        if position < 0:
            return ""
        sentence = _sentence_of(analysis.sentences, text, position)
        occurrence = _Occurrence(position, position + len(name), sentence, position, "", 0.0)
    room = TITLE_LIMIT - len(name) - 2
    description = _describe(text, occurrence, name)
    if not description:
        return ""
    return f"{name}: {_fit(_condense(description), room, capitalise=False)}".rstrip(": ")


def _describe(text: str, occurrence: _Occurrence, name: str) -> str:
    """What the coining sentence says the named thing is."""
    sentence_end = occurrence.sentence[1]
    right = text[occurrence.end : sentence_end]
    if right.startswith(")"):
        right = right[1:]
    right = re.sub(r"^\s*\([^()]*\)", "", right)  # COPAL (**CO**ntinual ...), an algorithm
    appositive = re.match(
        r"\s*(?:,|:|\s[-–—])\s+(?:or\s+|which\s+is\s+)?(?P<rest>(?:(?:a|an|the|one)\s|[A-Z]).+)$",
        right,
    )
    if appositive:
        return _clause(appositive["rest"])
    if occurrence.expansion:
        return occurrence.expansion
    before = text[occurrence.sentence[0] : occurrence.anchor]
    noun_phrase = re.search(
        _COIN_VERB + r"\s+(?P<np>(?:a|an|the)\s+[^,;]{3,80}?|(?:a|an|the)\s+[^;]{3,120}?(?=,?\s+"
        r"(?:called|named|dubbed|termed)))(?:,?\s+(?:called|named|dubbed|termed)|,)?\s*$",
        before,
        re.IGNORECASE,
    )
    clause = right.strip().removeprefix(",").strip()
    if noun_phrase:
        description = noun_phrase["np"]
        which = _WHICH_VERB.match(clause)
        if len(description) < 40 and which:
            description += f" that {which['verb']} {which['rest']}"
        elif len(description) < 40 and re.match(r"(?:to|for)\s", clause):
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
        r"(?<![\w-])" + re.escape(name) + r"\s+is\s+(?P<rest>(?:a|an|the)\s.+?)(?:\.\s|\.?$)",
        text[sentence_end:],
    )
    return _clause(later["rest"]) if later else ""


def _claim_title(text: str) -> str:
    """The abstract's first claim as a headline, its "In this paper, we ..." removed.

    Sentences that say "this paper", "here" or "we propose" come first.
    """
    spans = _sentence_spans(text)
    for priority in (True, False):
        for start, end in spans:
            sentence = text[start:end].rstrip()
            if bool(_PRIORITY_CLAIM.search(sentence)) != priority:
                continue
            claim = _claim(sentence)
            title = _fit(_condense(_clause(claim))) if claim else ""
            if len(title.split()) >= 3:
                return title
    return ""


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
    if verb.startswith(tuple(_WEAK_VERBS)):
        that = _THAT_CLAUSE.match(rest)
        return that["rest"] if that else ""
    if verb.startswith(tuple(_FINDING_VERBS)):
        return re.sub(r"^that\s+", "", rest, flags=re.IGNORECASE)
    if verb.startswith(tuple(_AIM_VERBS)) or rest.startswith("to "):
        purpose = _TO_VERB.match(rest if rest.startswith("to ") else f"to {rest}")
        if not purpose:
            return rest
        if purpose["verb"].startswith(("understand", *_STUDY_VERBS)):
            return purpose["rest"]
        return f"{_gerund(purpose['verb'])} {purpose['rest']}"
    if verb.startswith(("address", "tackl")):
        by_doing = _BY_DOING.match(rest)
        if by_doing:
            if by_doing["verb"].lower().startswith(tuple(_COIN_VERBS)):
                return by_doing["rest"]
            return f"{by_doing['verb']} {by_doing['rest']}"
    that = _THAT_CLAUSE.match(rest)
    return that["rest"] if that else rest


def _sentence_spans(text: str) -> list[tuple[int, int]]:
    starts = _sentence_starts(text)
    return list(zip(starts, [*starts[1:], len(text)], strict=True))


def _first_sentence(text: str) -> str:
    spans = _sentence_spans(text)
    return _condense(_clause(text[spans[0][0] : spans[0][1]])) if text else ""


def _clause(text: str) -> str:
    """`text` up to the end of its first clause."""
    match = _CLAUSE_END.search(text)
    return text[: match.start()] if match else text


def _condense(text: str) -> str:
    """Shorter wording: "stochastic gradient descent (SGD)" -> "SGD", "a novel" -> "a"."""
    text = _ABBREVIATED.sub(_abbreviate, text)
    text = _HYPE.sub(lambda m: m[1] + " ", text)
    text = re.sub(r"\b([Aa])n?\s+(?=([\w-]+))", _article, text)
    return " ".join(text.split())


def _abbreviate(match: re.Match[str]) -> str:
    words, acronym = match[1], match[2]
    expansion = _expansion_before(words, acronym)
    if not expansion:
        return match[0]
    return words.rstrip()[: len(words.rstrip()) - len(expansion)] + acronym


def _article(match: re.Match[str]) -> str:
    article, word = match[0].rstrip(), match[2]
    if article.lower() not in ("a", "an"):
        return match[0]
    vowel = word[0].lower() in "aeio" or (
        word[0].lower() == "u" and not word.lower().startswith(("uni", "us", "ut"))
    )
    if word.isupper() and len(word) > 1:
        vowel = word[0] in "AEFHILMNORSX"
    chosen = "an" if vowel else "a"
    return (chosen.capitalize() if article[0].isupper() else chosen) + " "


def _gerund(verb: str) -> str:
    verb = verb.lower()
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")) and len(verb) > 2:
        return verb[:-1] + "ing"
    return verb + "ing"


def _fit(text: str, limit: int = TITLE_LIMIT, *, capitalise: bool = True) -> str:
    """`text` as a headline of at most `limit` characters, cut at a phrase boundary."""
    text = one_line(text)
    text = _balance(text)
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
            following = text[position + 1 :].split(" ", 1)[0].lower()
            if following in _BREAK_WORDS:
                before_word = position
            elif text[position - 1] == ",":
                after_comma = position
        position = text.find(" ", position + 1)
    return before_word or after_comma or boundary or limit


def _balance(text: str) -> str:
    """Drop an unclosed parenthesis and what follows it, and unpaired quotes."""
    depth = 0
    for index, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                return text[:index]
    if depth > 0:
        text = text[: text.rfind("(")] if text.count("(") == 1 else text
    for quote in ('"', "“", "”"):
        if text.count('"') % 2 or text.count("“") != text.count("”"):
            text = text.replace(quote, "")
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
