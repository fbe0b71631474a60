"""Headlines: a one-line title for a paper whose source gives none.

`derive_title` builds it from the sentence that coins the paper's name ("PICLe: a persona
elicitation framework grounded in Bayesian inference"), or, when nothing is coined, from the
first claim without its lead-in ("In this paper, we examine the long-run distribution of SGD
..." -> "The long-run distribution of SGD ..."). It reads the abstract through the same
analysis as `names.derive_name`, is deterministic and never raises.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from paperterm.index.text.display import one_line
from paperterm.index.text.names import (
    LEADING_PARENTHESIS,
    SUBJECT,
    Analysis,
    Occurrence,
    analyse,
    expansion_before,
    token_kind,
)

#: The longest headline, in characters: what a list row or a window title has room for.
TITLE_LIMIT = 100


def derive_title(abstract: str, name: str, text: str | None = None) -> str:
    """A one-line headline of at most `TITLE_LIMIT` characters: `Name: what it is`, or the
    first claim.

    `name` is the derived name or one the source gave; "" for none. `text` is the abstract's
    display text when the caller has it (see `names.derive_name`).
    """
    try:
        title = _title(analyse(abstract, text), name)
        if len(title) > TITLE_LIMIT or not title.isprintable():  # a source's odd name
            title = _fit(title, capitalise=False)
        return title
    except Exception:
        return one_line(name or abstract, TITLE_LIMIT)


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
    r"(?P<subject>(?:^|[,;] ?| )we|(?:^|[,;] ?)" + SUBJECT + r") (?:(?:also|further|first|"
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


def _title(analysis: Analysis, name: str) -> str:
    if name:
        title = _named_title(analysis, name)
        if title:
            return title
    claim = _claim_title(analysis)
    if name and claim and name not in claim:
        # The name and what the abstract claims: "ThickV-Stain: a multi-scale model to ..."
        first = claim.split(" ", 1)[0]
        if token_kind(first) is None and not any(ch.isupper() for ch in first[1:]):
            claim = claim[0].lower() + claim[1:]
        return _fit(f"{name}: {claim}", capitalise=False)
    if claim:
        return claim
    if not analysis.sentences:
        return ""
    start, end = analysis.sentences[0]
    return _fit(_condense(_clause(analysis.text[start:end])))


def _named_title(analysis: Analysis, name: str) -> str:
    text = analysis.text
    occurrence = analysis.best.get(name)
    if occurrence is None:
        position = text.find(name)
        if position < 0:
            return ""
        starts = [start for start, _ in analysis.sentences]
        sentence = analysis.sentences[bisect_right(starts, position) - 1]
        occurrence = Occurrence(position, position + len(name), sentence, position, "", 0.0)
    room = TITLE_LIMIT - len(name) - 2
    description = _describe(text, occurrence, name) if room >= 20 else ""
    if not description:
        return ""
    return f"{name}: {_fit(_condense(description), room, capitalise=False)}".rstrip(": ")


_IS_DESCRIPTION = re.compile(r"(?P<rest>(?:a|an|the) .+?)(?:\. |\.?$)")


def _describe(text: str, occurrence: Occurrence, name: str) -> str:
    """What the coining sentence says the named thing is."""
    right = text[occurrence.end : occurrence.sentence[1]].removeprefix(")")
    right = LEADING_PARENTHESIS.sub("", right, count=1) if right.startswith(" (") else right
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
    later = _described_later(text[occurrence.sentence[1] :], name)
    return _clause(later["rest"]) if later else ""


def _described_later(text: str, name: str) -> re.Match[str] | None:
    r"""The first "<name> is a/an/the ..." in `text` whose name is a whole word: what
    `re.search(r"(?<![\w-])<name> is " + _IS_DESCRIPTION)` finds, without compiling a
    pattern for each name (a name is seldom seen twice, so Python's pattern cache missed
    every time: 4% of an index build)."""
    needle = f"{name} is "
    start = text.find(needle)
    while start >= 0:
        before = text[start - 1] if start else ""
        if not (before.isalnum() or before in ("_", "-")):
            found = _IS_DESCRIPTION.match(text, start + len(needle))
            if found:
                return found
        start = text.find(needle, start + 1)
    return None


def _claim_title(analysis: Analysis) -> str:
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
    expansion = expansion_before(words, acronym)
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
    if capitalise and text[:1].islower() and token_kind(text.split(" ")[0]) is None:
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
