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
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

from paperterm.index.text.display import one_line
from paperterm.index.text.name_scoring import LEADING_PARENTHESIS, Occurrence, expansion_before
from paperterm.index.text.names import SUBJECT, Analysis, analyse, token_kind

#: The longest headline, in characters: what a list row or a window title has room for.
TITLE_LIMIT = 100


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
                title = _fit(title, capitalise=False)
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
            first = _fit(_condense(_clause(analysis.text[start:end])))
            if _visible(first):
                yield first
    except Exception:
        yield one_line(name or abstract, TITLE_LIMIT)


#: Kept by `safe_text` inside words (Persian, Indic scripts, emoji) but invisible alone: a
#: candidate made of nothing else is no headline.
_JOINERS = "\u200c\u200d"


def _visible(title: str) -> bool:
    return any(not ch.isspace() and ch not in _JOINERS for ch in title)


_ABBREVIATED = re.compile(r"((?:[\w-]+ ){1,8}?)\(([A-Za-z][\w-]*[A-Z][\w-]*)\)")
# "a novel inductive framework" -> "an inductive framework"
_HYPE = re.compile(r"\b(a|an|the) (?:novel|new) (?:and \w+ )?(?=([\w-]+))", re.IGNORECASE)
# Where a clause ends: one of these marks, with or without a space before it. Each starts
# with a character (no class), so that the pattern made of them (`_CLAUSE_END`) starts with
# a branch of characters, which lets `re` skip to the next " ", ";", ":", ".", "," before
# trying it; written ` ?(?:[;:] |...)`, it was tried at each position (7 us a clause, 3
# now: ~10 us of an untitled abstract's headlines).
_CLAUSE_MARKS = (
    "; ", ": ", " [–—] ", r"\. ", r"\.$",
    r", (?:which|where|while|whereas|thus|and (?:we|it|then|thus|show|demonstrate)|but|leading|"
    r"resulting|allowing|enabling|making|yielding|showing|providing|achieving|as|since|so|"
    r"because|although|though|we|it|i\.e\.|e\.g\.|\w+ly\b|that|was|were|is|are|has|have)\b",
    r" \((?:\d|[ivx]+|[a-e])\) ", r" and (?:show|demonstrate|prove|find|evaluate)\b",
)  # fmt: skip
_CLAUSE_END = re.compile("(?: (?:{marks})|{marks})".format(marks="|".join(_CLAUSE_MARKS)))
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
        sentence = _without_connective(analysis.text[start:end])
        if _boilerplate(sentence) or _LEAD_IN.match(sentence):
            continue  # a claim's sentence was read as one above
        yield _named(name, _fit(_condense(_clause(sentence))))


def _named(name: str, headline: str) -> str:
    """`Name: headline` when the headline does not say the name already."""
    if not name or not headline or name in headline:
        return headline
    first = headline.split(" ", 1)[0]
    if token_kind(first) is None and not any(ch.isupper() for ch in first[1:]):
        headline = headline[0].lower() + headline[1:]
    return _fit(f"{name}: {headline}", capitalise=False)


# The sentences no headline comes from: what any abstract could say. The alternatives of
# one pattern (`_boilerplate`), each with words in lower case one of which each of its
# matches holds.
_BOILERPLATE_PARTS = (
    (("://",), r"https?://"),
    (("github",), r"\bgithub\b"),
    (
        ("available", "released", "accessible", "open-sourced", "open sourced"),
        r"\b(?:code|codes|implementation|data|dataset|datasets|models?|weights|checkpoints?|"
        r"software|toolkit|benchmark)\b[^.]{0,40}\b(?:is|are|will be|has been|have been|be) "
        r"(?:made )?(?:publicly |freely |openly )?(?:available|released|accessible|"
        r"open[- ]sourced)",
    ),
    (("available ",), r"\bavailable (?:at|online|on|from|here)\b"),
    (("can be ",), r"\bcan be (?:found|accessed|downloaded) (?:at|on)\b"),
    (
        ("release",),
        r"\brelease[sd]? (?:its|our|the|all|their) (?:code|data|models?|implementation|weights)",
    ),
    (
        ("answer ",),
        r"\banswer (?:this|these|the|that) questions? (?:affirmatively|positively|negatively|"
        r"in the)",
    ),
    (("to the best of our knowledge",), r"\bto the best of our knowledge\b"),
    (
        ("experiment",),
        r"\b(?:extensive |comprehensive |our )?experiments? (?:on|show|shows|demonstrate|"
        r"demonstrates|confirm|indicate|reveal)\b",
    ),
    (("experimental results ",), r"\bexperimental results "),
    (("results ",), r"\bresults (?:show|demonstrate|indicate|suggest|confirm) that\b"),
    (("this paper is organi",), r"\bthis paper is organi[sz]ed"),
)
_PART_WORDS = {word for words, _ in _BOILERPLATE_PARTS for word in words}
# Those of them that hold no other ("released" holds "release"): a text holds one of these
# if it holds any.
_BOILERPLATE_WORDS = tuple(
    sorted(word for word in _PART_WORDS if not any(o != word and o in word for o in _PART_WORDS))
)
_BOILERPLATE_SEARCHES = tuple(
    (words, re.compile(part, re.IGNORECASE).search) for words, part in _BOILERPLATE_PARTS
)
# The characters besides ASCII's that `re.IGNORECASE` takes for an ASCII letter, as the
# letter: "İ".lower() is two characters, "ı" and "ſ" stay themselves.
_IGNORECASE_ASCII = str.maketrans("\u0130\u0131\u017f\u212a", "iisk")


def _ascii_lowered(text: str) -> str:
    """`text` lowered, character for character: where a pattern of lower-case ASCII that
    ignores case matches `text`, this holds the pattern's text at the same position. Besides
    ASCII's letters only the four of `_IGNORECASE_ASCII` match an ASCII letter, and "İ",
    the one character that lowers to two, is made one first."""
    return (text if text.isascii() else text.translate(_IGNORECASE_ASCII)).lower()


def _boilerplate(text: str) -> bool:
    """Whether the pattern of `_BOILERPLATE_PARTS`' alternatives finds something in `text`.
    That pattern tries each alternative at each position (50 µs a sentence: half the
    headlines' time); here only those whose words the text holds are searched, and a text
    without any of the words not at all."""
    lowered = _ascii_lowered(text)
    if not any(map(lowered.__contains__, _BOILERPLATE_WORDS)):
        return False
    return any(
        any(map(lowered.__contains__, words)) and search(text) is not None
        for words, search in _BOILERPLATE_SEARCHES
    )


# Words that make a headline lean on what came before it ("Closing this gap", "These
# variations", "How our model ...") among its first words, and words it cannot open with.
_BACK_REFERENCE = frozenset((
    "this", "these", "those", "such", "it", "its", "they", "them", "their", "our", "both",
    "proposed", "aforementioned", "above", "former", "latter",
))  # fmt: skip
_OPENERS = frozenset((
    "and", "but", "or", "also", "however", "moreover", "furthermore", "additionally",
    "therefore", "thus", "hence", "then",
))  # fmt: skip
# "This paper", "this work": the document itself, not something said before.
_DOCUMENT = frozenset((
    "paper", "work", "study", "article", "volume", "thesis", "report", "chapter", "survey",
    "review", "tutorial", "workshop", "proceedings",
))  # fmt: skip
# Words a phrase cannot end on (besides `_DANGLING`): it was cut in its middle.
_UNFINISHED = frozenset((
    "even", "so", "not", "only", "more", "most", "less", "very", "each", "every", "all", "any",
    "some", "other", "new", "novel", "like", "including", "namely", "aiming", "allowing",
    "enabling", "making", "motivated", "whether", "if", "while", "whereas", "where", "when",
    "how", "what", "who", "whose", "well", "can", "could", "may", "might", "will", "would",
    "should", "must", "was", "were", "has", "have", "had", "do", "does", "did", "being", "not",
    "between", "among", "than", "per", "versus", "vs", "based", "due", "compared", "relative",
))  # fmt: skip
_WORDS = re.compile(r"[\w'’-]+")
# The bytes of the ASCII characters that `_WORDS` does not take made spaces: an ASCII text's
# words are then what `str.split` gives. Translated as bytes (`str.translate` took as long as
# `findall`, whose class tests each character's Unicode category): 1.8 us a headline, not 7.
_ASCII_NOT_WORD = bytes(code if _WORDS.fullmatch(chr(code)) else 32 for code in range(256))


def _words(text: str) -> list[str]:
    """The words of `text` (`_WORDS`), lowered."""
    if text.isascii():
        return text.lower().encode().translate(_ASCII_NOT_WORD).decode().split()
    return [word.lower() for word in _WORDS.findall(text)]


# Words that promise a second part: a headline with the first and not the second was cut.
_PAIRED = (("both", "and"), ("either", "or"), ("neither", "nor"), ("between", "and"))
_LEAD_IN = re.compile(r"(?:we|in this (?:paper|work|study)|here),? ", re.IGNORECASE)
# How a sentence joins the one before: "However, ...", "To this end, ...".
_CONNECTIVES = (
    "however", "moreover", "furthermore", "additionally", "notably", "overall", "finally",
    "first", "firstly", "second", "secondly", "third", "thirdly", "then", "thus", "hence",
    "therefore", "specifically", "importantly", "in addition", "in particular", "in contrast",
    "in practice", "in summary", "in short", "to this end", "consequently", "as a result",
    "on the other hand", "nevertheless", "nonetheless", "instead", "besides", "in this fashion",
    "in this way", "surprisingly", "interestingly", "crucially", "empirically", "theoretically",
)  # fmt: skip
_CONNECTIVE = re.compile("(?:" + "|".join(_CONNECTIVES) + r"),\s+", re.IGNORECASE)


def _without_connective(sentence: str) -> str:
    """`sentence` without its first connective and the comma after it:
    `_CONNECTIVE.sub("", sentence, count=1)`. The pattern is tried at every position of the
    sentence (50 µs a sentence, a sixth of the headlines); a match ends on a comma and
    whitespace, and no connective holds a comma, so the first comma that ends one ends the
    first match, and its longest connective is where that match starts; `re.IGNORECASE`
    matches a connective where `_ascii_lowered` holds it (the pattern took 150 µs a
    sentence beyond ASCII, a thirtieth of the 50,000 corpus's: 5% of its headlines)."""
    lowered = _ascii_lowered(sentence)
    comma = lowered.find(",")
    while comma >= 0:
        if sentence[comma + 1 : comma + 2].isspace() and lowered.endswith(_CONNECTIVES, 0, comma):
            longest = max(len(word) for word in _CONNECTIVES if lowered.endswith(word, 0, comma))
            rest = sentence[comma + 1 :].lstrip()
            return sentence[: comma - longest] + rest
        comma = lowered.find(",", comma + 1)
    return sentence


def headline_problem(title: str) -> str:
    """Why `title` makes a poor headline ("" when it does not): "fragment" when it leans on
    what came before it, ends mid-phrase, has fewer than three words or unbalanced
    brackets; "boilerplate" when it comes from what any abstract could say."""
    if _boilerplate(title):
        return "boilerplate"
    name, colon, description = title.partition(": ")
    named = bool(colon) and " " not in name.strip()
    if not named:
        description = title
    words = _words(description)
    # The title's words are the name's and the description's: ": " holds none.
    if len(words) + (len(_words(name)) if named else 0) < 3 or not words:
        return "fragment"
    if words[0] in _OPENERS or words[-1] in _UNFINISHED or _leans_back(words):
        return "fragment"
    if words[-1] in _DANGLING or _balance(title) != title:
        return "fragment"
    for opener, closer in _PAIRED:
        if opener in words and closer not in words[words.index(opener) + 1 :]:
            return "fragment"  # "both fast" cut before "and accurate"
    last_item = description.rsplit(", ", 1)
    if len(last_item) == 2 and len(last_item[1].split()) == 1 and last_item[1][:1].isdigit():
        return "fragment"  # a list cut after its first items: "on 1%, 10%"
    if _LEAD_IN.match(description):
        return "fragment"  # a sentence, not a headline: "We introduce X, a ..."
    return ""


def _leans_back(words: list[str]) -> bool:
    """Whether one of the first four words refers to what came before ("this paper" does
    not)."""
    for index, word in enumerate(words[:4]):
        if word in _BACK_REFERENCE and not (
            word == "this" and index + 1 < len(words) and words[index + 1] in _DOCUMENT
        ):
            return True
    return False


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
        if not claim or _boilerplate(sentence):  # most sentences claim nothing
            continue
        title = _fit(_condense(_clause(claim)))
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
    `lowered`, the sentence's `_ascii_lowered`, holds one."""
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
    lowered = _ascii_lowered(sentence)
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


def _clause(text: str) -> str:
    """`text` up to the end of its first clause."""
    match = _CLAUSE_END.search(text)
    return text[: match.start()] if match else text


def _condense(text: str) -> str:
    """Shorter wording: "stochastic gradient descent (SGD)" -> "SGD", "a novel" -> "a"."""
    if "(" in text:
        text = _abbreviated(text)
    if "novel " in text or "new " in text or "New " in text or "Novel " in text:
        text = _HYPE.sub(_article, text)
    return text


def _abbreviated(text: str) -> str:
    """`_ABBREVIATED.sub(_abbreviate, text)`, the pattern tried only before each "(...)": a
    match is at most eight words, each with the one space after it, before the "(" (and it
    cannot hold a parenthesis), so it starts after the ninth space before it. Tried at each
    position, the pattern reads up to eight words from each (a tenth of the headlines)."""
    pieces: list[str] = []
    done = 0  # where the text after the last match starts
    paren = text.find("(")
    while paren >= 0:
        close = text.find(")", paren)
        if close < 0:
            break
        start = paren
        for _ in range(9):
            start = text.rfind(" ", done, start)
            if start < 0:
                break
        match = _ABBREVIATED.search(text, start + 1 if start >= 0 else done, close + 1)
        if match:
            pieces += (text[done : match.start()], _abbreviate(match))
            done = match.end()
        paren = text.find("(", max(paren + 1, done))
    return "".join(pieces) + text[done:] if pieces else text


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
    if capitalise and text[:1].islower() and token_kind(text.partition(" ")[0]) is None:
        text = text[0].upper() + text[1:]
    return text


def _cut_position(text: str, limit: int) -> int:
    """Where to cut `text` to fit `limit`: before a preposition or relative word if one
    leaves enough, else after a comma, else at the last word boundary (the last of each
    among the spaces up to `limit`, none when the text starts with one)."""
    if text.startswith(" "):
        return limit
    boundary = max(text.rfind(" ", 0, limit + 1), 0)
    after_comma = 0
    position = boundary
    while position >= limit // 3 and position > 0:
        following = text[position + 1 : position + 12].split(" ", 1)[0].lower()
        if following in _BREAK_WORDS:
            return position
        if not after_comma and text[position - 1] == ",":
            after_comma = position
        position = text.rfind(" ", 0, position)
    return after_comma or boundary or limit


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
    if not text.isascii() and text.count("“") != text.count("”"):
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
