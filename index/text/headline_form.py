"""What makes a headline well formed: condensed (hype words dropped, long phrases
abbreviated), cut at a clause and fitted to `TITLE_LIMIT`, and the problems that rule one
out (`headline_problem`: boilerplate, a dangling end, a back reference)."""

from __future__ import annotations

import re

from paperterm.index.text.display import one_line
from paperterm.index.text.name_scoring import expansion_before
from paperterm.index.text.names import token_kind

#: The longest headline, in characters: what a list row or a window title has room for.
TITLE_LIMIT = 100


_ABBREVIATED = re.compile(r"((?:[\w-]+ ){1,8}?)\(([A-Za-z][\w-]*[A-Z][\w-]*)\)")


# "a novel inductive framework" -> "an inductive framework"
_HYPE = re.compile(r"\b(a|an|the) (?:novel|new) (?:and \w+ )?(?=([\w-]+))", re.IGNORECASE)


# Where a clause ends: one of these marks, with or without a space before it. Each starts
# with a character (no class), so that the pattern made of them (`_CLAUSE_END`) starts with
# a branch of characters, which lets `re` skip to the next " ", ";", ":", ".", "," before
# trying it; written ` ?(?:[;:] |...)`, it was tried at each position.
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


# The sentences no headline comes from: what any abstract could say. The alternatives of
# one pattern (`is_boilerplate`), each with words in lower case one of which each of its
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


def ascii_lowered(text: str) -> str:
    """`text` lowered, character for character: where a pattern of lower-case ASCII that
    ignores case matches `text`, this holds the pattern's text at the same position. Besides
    ASCII's letters only the four of `_IGNORECASE_ASCII` match an ASCII letter, and "İ",
    the one character that lowers to two, is made one first."""
    return (text if text.isascii() else text.translate(_IGNORECASE_ASCII)).lower()


def is_boilerplate(text: str) -> bool:
    """Whether the pattern of `_BOILERPLATE_PARTS`' alternatives finds something in `text`.
    That pattern tries each alternative at each position (a large part of the headlines'
    time); here only those whose words the text holds are searched, and a text
    without any of the words not at all."""
    lowered = ascii_lowered(text)
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
# `findall`, whose class tests each character's Unicode category).
_ASCII_NOT_WORD = bytes(code if _WORDS.fullmatch(chr(code)) else 32 for code in range(256))


def _words(text: str) -> list[str]:
    """The words of `text` (`_WORDS`), lowered."""
    if text.isascii():
        return text.lower().encode().translate(_ASCII_NOT_WORD).decode().split()
    return [word.lower() for word in _WORDS.findall(text)]


# Words that promise a second part: a headline with the first and not the second was cut.
_PAIRED = (("both", "and"), ("either", "or"), ("neither", "nor"), ("between", "and"))


LEAD_IN = re.compile(r"(?:we|in this (?:paper|work|study)|here),? ", re.IGNORECASE)


# How a sentence joins the one before: "However, ...", "To this end, ...".
CONNECTIVES = (
    "however", "moreover", "furthermore", "additionally", "notably", "overall", "finally",
    "first", "firstly", "second", "secondly", "third", "thirdly", "then", "thus", "hence",
    "therefore", "specifically", "importantly", "in addition", "in particular", "in contrast",
    "in practice", "in summary", "in short", "to this end", "consequently", "as a result",
    "on the other hand", "nevertheless", "nonetheless", "instead", "besides", "in this fashion",
    "in this way", "surprisingly", "interestingly", "crucially", "empirically", "theoretically",
)  # fmt: skip


def without_connective(sentence: str) -> str:
    """`sentence` without its first connective and the comma after it:
    `_CONNECTIVE.sub("", sentence, count=1)`. The pattern is tried at every position of the
    sentence; a match ends on a comma and
    whitespace, and no connective holds a comma, so the first comma that ends one ends the
    first match, and its longest connective is where that match starts; `re.IGNORECASE`
    matches a connective where `ascii_lowered` holds it (the pattern is slower still on a
    sentence beyond ASCII)."""
    lowered = ascii_lowered(sentence)
    comma = lowered.find(",")
    while comma >= 0:
        if sentence[comma + 1 : comma + 2].isspace() and lowered.endswith(CONNECTIVES, 0, comma):
            longest = max(len(word) for word in CONNECTIVES if lowered.endswith(word, 0, comma))
            rest = sentence[comma + 1 :].lstrip()
            return sentence[: comma - longest] + rest
        comma = lowered.find(",", comma + 1)
    return sentence


def headline_problem(title: str) -> str:
    """Why `title` makes a poor headline ("" when it does not): "fragment" when it leans on
    what came before it, ends mid-phrase, has fewer than three words or unbalanced
    brackets; "boilerplate" when it comes from what any abstract could say."""
    if is_boilerplate(title):
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
    if LEAD_IN.match(description):
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


def first_clause(text: str) -> str:
    """`text` up to the end of its first clause."""
    match = _CLAUSE_END.search(text)
    return text[: match.start()] if match else text


def condense(text: str) -> str:
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


def fit(text: str, limit: int = TITLE_LIMIT, *, capitalise: bool = True) -> str:
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
