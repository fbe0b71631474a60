"""Headlines: a one-line title for a paper whose source gives none.

`derive_title` builds it from the sentence that coins the paper's name ("PICLe: a persona
elicitation framework grounded in Bayesian inference"), or, when nothing is coined, from the
first claim without its lead-in ("In this paper, we examine the long-run distribution of SGD
..." -> "The long-run distribution of SGD ..."). It reads the abstract through the same
analysis as `names.derive_name`, is deterministic and never raises.

A headline must stand alone in a list of thousands: `headline_problem` rejects a fragment
(one that leans on what came before, "These potential variations", "Closing this gap"; one
cut off mid-phrase, "... that is both fast"; fewer than three words) and the headlines of
boilerplate sentences (code availability, "we answer this question affirmatively",
"extensive experiments show"), and `headline_candidates` offers the next candidate instead.
`enrich.distinct_titles` gives papers of one corpus whose headlines came out alike the next
candidate each (on the seeds, the MIDL/ENLSP abstracts read as an untitled list and a
synthetic 2,600-abstract list, BENCHMARKS.md counts what these rules change).
The form of a headline (condensing, fitting, `headline_problem`) is in `headline_form.py`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

from paperterm.index.text.display import one_line
from paperterm.index.text.headline_form import (
    CONNECTIVES,
    LEAD_IN,
    TITLE_LIMIT,
    ascii_lowered,
    condense,
    first_clause,
    fit,
    headline_problem,
    is_boilerplate,
    without_connective,
)
from paperterm.index.text.name_scoring import LEADING_PARENTHESIS, Occurrence
from paperterm.index.text.names import SUBJECT, Analysis, analyse, token_kind


def derive_title(abstract: str, name: str, text: str | None = None) -> str:
    """A one-line headline of at most `TITLE_LIMIT` characters: `Name: what it is`, or the
    first claim.

    `name` is the derived name or one the source gave; "" for none. `text` is the abstract's
    display text when the caller has it (see `names.derive_name`).
    """
    return next(headline_candidates(abstract, name, text), "")


def headline_candidates(abstract: str, name: str, text: str | None = None) -> Iterator[str]:
    """Headlines for the abstract, best first, each once: those `headline_problem` finds
    nothing wrong with, then (so that there is one) the best of the others."""
    try:
        analysis = analyse(abstract, text)
        seen: set[str] = set()
        fallback = ""
        for title in _candidates(analysis, name):
            if len(title) > TITLE_LIMIT or not title.isprintable():  # a source's odd name
                title = fit(title, capitalise=False)
            folded = title.casefold()
            if not _visible(title) or folded in seen:
                continue
            seen.add(folded)
            if headline_problem(title):
                fallback = fallback or title
            else:
                yield title
        if fallback:
            yield fallback
        elif not seen and analysis.sentences:
            # Every sentence is boilerplate: the first one still names the paper.
            start, end = analysis.sentences[0]
            first = fit(condense(first_clause(analysis.text[start:end])))
            if _visible(first):
                yield first
    except Exception:
        yield one_line(name or abstract, TITLE_LIMIT)


#: Kept by `safe_text` inside words (Persian, Indic scripts, emoji) but invisible alone: a
#: candidate made of nothing else is no headline.
_JOINERS = "\u200c\u200d"


def _visible(title: str) -> bool:
    return any(not ch.isspace() and ch not in _JOINERS for ch in title)


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
# "A framework ... is proposed": each match holds one of these words.
_PASSIVE_VERBS = ("proposed", "presented", "introduced", "developed")
_PASSIVE_CLAIM = re.compile(
    r"(?:[^,]{0,60}, ?)?(?:in this (?:paper|work|study),? )?(?P<rest>(?:a|an) .{5,150}?)"
    r" (?:is|are) (?:" + "|".join(_PASSIVE_VERBS) + r")\b",
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
_LEADING_THAT = re.compile(r"^that ", re.IGNORECASE)
_BY_DOING = re.compile(r"(?:[\w-]+ ){1,6}?by (?P<verb>\w+ing) (?P<rest>.+)$", re.IGNORECASE)


def _candidates(analysis: Analysis, name: str) -> Iterator[str]:
    """Every headline the abstract could have, best first: the name and what it is; the
    claims (with the name in front when they do not hold it); each sentence's first clause."""
    if name:
        yield _named_title(analysis, name)
    for claim in _claim_titles(analysis):
        # The name and what the abstract claims: "ThickV-Stain: a multi-scale model to ..."
        yield _named(name, claim)
    for start, end in analysis.sentences:
        sentence = without_connective(analysis.text[start:end])
        if is_boilerplate(sentence) or LEAD_IN.match(sentence):
            continue  # a claim's sentence was read as one above
        yield _named(name, fit(condense(first_clause(sentence))))


def _named(name: str, headline: str) -> str:
    """`Name: headline` when the headline does not say the name already."""
    if not name or not headline or name in headline:
        return headline
    first = headline.split(" ", 1)[0]
    if token_kind(first) is None and not any(ch.isupper() for ch in first[1:]):
        headline = headline[0].lower() + headline[1:]
    return fit(f"{name}: {headline}", capitalise=False)


_CONNECTIVE = re.compile("(?:" + "|".join(CONNECTIVES) + r"),\s+", re.IGNORECASE)


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
    return f"{name}: {fit(condense(description), room, capitalise=False)}".rstrip(": ")


_IS_DESCRIPTION = re.compile(r"(?P<rest>(?:a|an|the) .+?)(?:\. |\.?$)")


def _describe(text: str, occurrence: Occurrence, name: str) -> str:
    """What the coining sentence says the named thing is."""
    right = text[occurrence.end : occurrence.sentence[1]].removeprefix(")")
    right = LEADING_PARENTHESIS.sub("", right, count=1) if right.startswith(" (") else right
    appositive = _APPOSITIVE_DESCRIPTION.match(right)
    if appositive:
        return first_clause(appositive["rest"])
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
        return first_clause(description)
    use = _USE_VERBS.match(clause)
    if use:
        return first_clause(use["rest"])
    purpose = _TO_VERB.match(clause)
    if purpose:
        return first_clause(f"{_gerund(purpose['verb'])} {purpose['rest']}")
    which = _WHICH_VERB.match(clause)
    if which:
        return first_clause(f"{_gerund(which['verb'][:-1])} {which['rest']}")
    later = _described_later(text[occurrence.sentence[1] :], name)
    return first_clause(later["rest"]) if later else ""


def _described_later(text: str, name: str) -> re.Match[str] | None:
    r"""The first "<name> is a/an/the ..." in `text` whose name is a whole word: what
    `re.search(r"(?<![\w-])<name> is " + _IS_DESCRIPTION)` finds, without compiling a
    pattern for each name (a name is seldom seen twice, so Python's pattern cache missed
    every time)."""
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


def _claim_titles(analysis: Analysis) -> Iterator[str]:
    """The abstract's claims as headlines, their "In this paper, we ..." removed, in order;
    sentences that say "this paper", "here" or "we propose" first, boilerplate never."""
    text, lowered, sentences = analysis.text, analysis.lowered, analysis.sentences
    starts = [start for start, _ in sentences]
    hinted = _sentences_with(lowered, starts, ("we ", "this ", "our ", " is ", " are "))
    first = _sentences_with(lowered, starts, _PRIORITY_HINTS)
    for index in sorted(hinted, key=lambda index: (index not in first, index)):
        start, end = sentences[index]
        sentence = text[start:end].rstrip()
        claim = _claim(sentence)
        if not claim or is_boilerplate(sentence):  # most sentences claim nothing
            continue
        title = fit(condense(first_clause(claim)))
        if len(title.split()) >= 3:
            yield title


def _sentences_with(lowered: str, starts: list[int], hints: tuple[str, ...]) -> set[int]:
    """Indexes of the sentences that contain one of `hints` (that start in them)."""
    found = set()
    for hint in hints:
        position = lowered.find(hint)
        while position >= 0:
            index = bisect_right(starts, position) - 1
            found.add(index)
            if index + 1 == len(starts):
                break
            position = lowered.find(hint, starts[index + 1])
    return found


# Where a match of `_CLAIM` may be, in the lowered text: each starts at its subject ("we",
# "this paper", ...) or at most two characters before it ("; we", " we").
_SUBJECT_STARTS = re.compile(r"we |this |our |the present ")


def _claim_search(sentence: str, lowered: str) -> re.Match[str] | None:
    """`_CLAIM.search(sentence)`, the pattern tried only where a subject may start, not at
    each position (it is tried in most sentences: a sixth of the headlines' time): where
    `lowered`, the sentence's `ascii_lowered`, holds one."""
    tried = -1
    for subject in _SUBJECT_STARTS.finditer(lowered):
        for start in range(max(subject.start() - 2, tried + 1), subject.start() + 1):
            # Each match starts the text, or with " we", "," or ";".
            possible = (
                start == 0
                or sentence[start] in ",;"
                or (sentence[start] == " " and lowered.startswith("we", start + 1))
            )
            match = _CLAIM.match(sentence, start) if possible else None
            if match:
                return match
        tried = subject.start()
    return None


_WEAK_STEMS = tuple(_WEAK_VERBS.split())
_FINDING_STEMS = tuple(_FINDING_VERBS.split())
_AIM_STEMS = tuple(_AIM_VERBS.split())
_STUDY_STEMS = ("understand", *_STUDY_VERBS.split())
_COIN_STEMS = tuple(_CLAIM_COIN_VERBS.split())


def _claim(sentence: str) -> str:
    """What `sentence` claims, without its subject and verb, or ""."""
    lowered = ascii_lowered(sentence)
    passive = (
        _PASSIVE_CLAIM.match(sentence) if any(map(lowered.__contains__, _PASSIVE_VERBS)) else None
    )
    if passive:
        return passive["rest"]
    match = _claim_search(sentence, lowered)
    if not match:
        return ""
    verb, rest = match["verb"].lower(), match["rest"]
    if _PRONOUN_OBJECT.match(rest):
        return ""
    if verb.startswith(_WEAK_STEMS):
        that = _THAT_CLAUSE.match(rest)
        return that["rest"] if that else ""
    if verb.startswith(_FINDING_STEMS):
        return _LEADING_THAT.sub("", rest, count=1)
    if verb.startswith(_AIM_STEMS) or rest.startswith("to "):
        purpose = _TO_VERB.match(rest if rest.startswith("to ") else f"to {rest}")
        if not purpose:
            return rest
        if purpose["verb"].startswith(_STUDY_STEMS):
            return purpose["rest"]
        return f"{_gerund(purpose['verb'])} {purpose['rest']}"
    if verb.startswith(("address", "tackl")):
        by_doing = _BY_DOING.match(rest)
        if by_doing:
            if by_doing["verb"].lower().startswith(_COIN_STEMS):
                return by_doing["rest"]
            return f"{by_doing['verb']} {by_doing['rest']}"
    that = _THAT_CLAUSE.match(rest)
    return that["rest"] if that else rest


def _gerund(verb: str) -> str:
    verb = verb.lower()
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")) and len(verb) > 2:
        return verb[:-1] + "ing"
    return verb + "ing"
