"""The user's query language, parsed by our own code into clauses (never by Whoosh's parser).

    words                all must match (else any, those with more first); a word said
                         twice weighs twice (a pasted title's repeated word)
    "a phrase"           the words in this order
    field:value          name, title, abstract, author, collection, tag (`field:"a phrase"`),
                         and a conference's status, type, session, topic, track, aff, keyword
    -word  -"phrase"     exclude
    word*                prefix (at least 3 letters; shorter stars are ignored)
    word~  word~2        fuzzy, edit distance at most 2
    =word                this word as written: never corrected (a quoted word neither)

The last word is still being typed unless a space (or a closing quote or punctuation) follows
it: it is marked `partial`, and the planner matches it as a prefix from its first letter. So
is the last word of an unclosed phrase (`"long cont`), and a last `tag:` (`tag:to-r`) is kept
in `tag_prefixes`. One query language for the reader and `paperterm search`: the reader's
search box and a script's query string end the same way.

Anything else is a word: a pasted title such as `SpOiLer: Offline ...` is plain text, an
unknown `field:` is part of the word, stray quotes and operators are ignored. The parser
never raises; what it ignores it explains in `notes`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from dataclasses import field as dataclass_field
from typing import Literal

from paperterm.index.search.query_text import MAX_QUERY_CHARS

Kind = Literal["word", "phrase", "prefix", "fuzzy"]

FIELD_ALIASES = {
    "name": "name",
    "title": "title",
    "abstract": "abstract",
    "author": "authors",
    "authors": "authors",
    "collection": "collection",
    "tag": "tag",
    "tags": "tag",
    "status": "status",
    "type": "type",
    "session": "session",
    "topic": "topic",
    "track": "track",
    "aff": "affiliations",
    "affiliation": "affiliations",
    "affiliations": "affiliations",
    "keyword": "keywords",
    "keywords": "keywords",
}
MAX_CLAUSES = 24
MIN_PREFIX = 3
MAX_FUZZY = 2
MAX_TERM_CHARS = 100
#: A word repeated in a query weighs as many times as it is said, up to this.
MAX_REPEATS = 3

_FIELD = re.compile(r"([A-Za-z]+):")
_FUZZY = re.compile(r"^(.*?)~(\d*)$", re.DOTALL)
_EDGE_PUNCT = "()[]{}<>,;!?\"'`“”‘’"


@dataclass(frozen=True, slots=True)
class Clause:
    kind: Kind
    text: str
    field: str | None = None
    negate: bool = False
    distance: int = 0
    #: The last word with no space after it yet: a prefix from its first letter.
    partial: bool = False
    #: Never corrected (`=word`).
    exact: bool = False
    #: Where `text` is in the query string (to show the query with a word corrected).
    span: tuple[int, int] = dataclass_field(default=(0, 0), compare=False)
    #: How many times the query says it (`MAX_REPEATS` at most): its score is multiplied
    #: so, as BM25 sums a repeated query term once for each time.
    repeats: int = 1


@dataclass(slots=True)
class ParsedQuery:
    text: str
    clauses: list[Clause] = dataclass_field(default_factory=list)
    tags: list[str] = dataclass_field(default_factory=list)
    excluded_tags: list[str] = dataclass_field(default_factory=list)
    #: A last `tag:` still being typed: bookmarks with a tag that starts so.
    tag_prefixes: list[str] = dataclass_field(default_factory=list)
    notes: list[str] = dataclass_field(default_factory=list)

    @property
    def positive(self) -> list[Clause]:
        return [clause for clause in self.clauses if not clause.negate]

    @property
    def negative(self) -> list[Clause]:
        return [clause for clause in self.clauses if clause.negate]

    @property
    def empty(self) -> bool:
        return (
            not self.clauses
            and not self.tags
            and not self.excluded_tags
            and not (self.tag_prefixes)
        )

    @property
    def tagged(self) -> bool:
        """Whether `tag:` filters restrict the papers."""
        return bool(self.tags or self.excluded_tags or self.tag_prefixes)

    @property
    def typing(self) -> bool:
        """Whether the last word is still being typed."""
        return bool(self.clauses) and self.clauses[-1].partial


def _clean(text: str) -> str:
    """Control characters out, so nothing odd reaches the analyzer or the screen (one
    character for one: positions in the result are positions in `text`)."""
    return "".join(ch if ch.isprintable() else " " for ch in text)


def parse_query(text: str) -> ParsedQuery:
    query = ParsedQuery(text=text)
    source = _clean(text[:MAX_QUERY_CHARS])
    if len(text) > MAX_QUERY_CHARS:
        query.notes.append(f"only the first {MAX_QUERY_CHARS} characters are used")
    i, n = 0, len(source)
    #: The clause (or tag) that runs to the end of the text unfinished, if any.
    unfinished: Clause | None = None
    while i < n and len(query.clauses) <= MAX_CLAUSES:
        if source[i].isspace():
            i += 1
            continue
        negate = False
        if source[i] in "-+" and i + 1 < n and not source[i + 1].isspace():
            negate = source[i] == "-"
            i += 1
        fieldname: str | None = None
        match = _FIELD.match(source, i)
        if match and match.group(1).lower() in FIELD_ALIASES:
            after = match.end()
            if after < n and not source[after].isspace():
                fieldname = FIELD_ALIASES[match.group(1).lower()]
                i = after
        if i < n and source[i] == '"':
            end = source.find('"', i + 1)
            closed = end >= 0
            if not closed:
                end = n
            raw = source[i + 1 : end]
            body = raw.strip()
            start = i + 1 + (len(raw) - len(raw.lstrip()))
            i = end + 1
            if body:
                clause = Clause("phrase", body, fieldname, negate, span=(start, start + len(body)))
                added = _add(query, clause)
                open_word = not closed and not raw[-1].isspace()
                unfinished = added if open_word else None
            continue
        end = i
        while end < n and not source[end].isspace() and source[end] != '"':
            end += 1
        token = source[i:end]
        added = _add_token(query, token, i, fieldname, negate)
        i = end
        unfinished = added if end == n and token[-1:].isalnum() else None
    if len(query.clauses) > MAX_CLAUSES:
        query.clauses = query.clauses[:MAX_CLAUSES]
        query.notes.append(f"only the first {MAX_CLAUSES} terms are used")
    _mark_unfinished(query, unfinished)
    return query


def _mark_unfinished(query: ParsedQuery, last: Clause | None) -> None:
    """The clause the text ends in, unfinished, becomes a partial one (a tag, a tag prefix)."""
    if last is None or last.kind not in ("word", "phrase"):
        return
    if last.field == "tag":
        tag = last.text.strip().lower()
        if not last.negate and tag in query.tags:
            query.tags.remove(tag)
            query.tag_prefixes.append(tag)
        return
    if query.clauses and query.clauses[-1] is last:
        query.clauses[-1] = replace(last, partial=True)


def _add_token(
    query: ParsedQuery, token: str, start: int, fieldname: str | None, negate: bool
) -> Clause | None:
    stripped = token.strip(_EDGE_PUNCT)
    if not stripped:
        return None
    start += token.find(stripped)
    token = stripped
    fuzzy = _FUZZY.match(token)
    if fuzzy and fuzzy.group(1).strip(_EDGE_PUNCT + "*~"):
        word = fuzzy.group(1).strip(_EDGE_PUNCT + "*~")
        asked = int(fuzzy.group(2)) if fuzzy.group(2) else (2 if len(word) >= 6 else 1)
        if asked > MAX_FUZZY:
            query.notes.append(f"fuzzy distance capped at {MAX_FUZZY}")
        distance = max(1, min(asked, MAX_FUZZY))
        return _add(query, Clause("fuzzy", word, fieldname, negate, distance))
    if token.startswith(("*", "?")):
        stripped = token.lstrip("*?")
        if stripped:
            query.notes.append("leading wildcards are ignored")
        start += len(token) - len(stripped)
        token = stripped
    if token.endswith("*"):
        word = token.rstrip("*")
        letters = sum(ch.isalnum() for ch in word)
        if letters >= MIN_PREFIX and "*" not in word and "?" not in word:
            return _add(query, Clause("prefix", word, fieldname, negate))
        if word:
            query.notes.append(f"prefixes need at least {MIN_PREFIX} letters")
        token = word.replace("*", " ")
    exact = token.startswith("=") and len(token) > 1
    if exact:
        token = token[1:]
        start += 1
    cleaned = token.replace("*", " ").replace("?", " ").replace("~", " ")
    word = cleaned.strip()
    if not word:
        return None
    start += len(cleaned) - len(cleaned.lstrip())
    return _add(
        query, Clause("word", word, fieldname, negate, exact=exact, span=(start, start + len(word)))
    )


def _add(query: ParsedQuery, clause: Clause) -> Clause | None:
    """Add a clause, unless the query has it already: a word said twice finds the same
    papers, and repeating one (`con* con* con* ...`) would only multiply the work, so the
    clause it has counts one more repeat instead. Returns the clause added (None when it
    was not)."""
    text = clause.text[:MAX_TERM_CHARS]
    if clause.field == "tag":
        tags = query.excluded_tags if clause.negate else query.tags
        tag = text.strip().lower()
        if tag not in tags:
            tags.append(tag)
        return clause
    if len(query.clauses) > MAX_CLAUSES:  # one too many already: `parse_query` stops
        return None
    start = clause.span[0]
    new = replace(clause, text=text, span=(start, start + len(text)))
    folded = _folded(new)
    for index, old in enumerate(query.clauses):
        if _folded(old) == folded:
            query.clauses[index] = replace(old, repeats=min(old.repeats + 1, MAX_REPEATS))
            return None
    query.clauses.append(new)
    return new


def _folded(clause: Clause) -> tuple[object, ...]:
    """What two clauses that say the same have alike (a title's `Going:` says `going`)."""
    text = clause.text.casefold().strip(":.")
    return (clause.kind, text, clause.field, clause.negate, clause.distance)


def pin_words(text: str, words: Iterable[str]) -> str:
    """`text` with `=` before each plain word of it that is one of `words`: the query that
    searches those words as typed (what the reader's key does after a correction)."""
    wanted = set(words)
    starts = [
        clause.span[0]
        for clause in parse_query(text).clauses
        if clause.kind == "word" and not clause.exact and clause.text in wanted
    ]
    for start in sorted(starts, reverse=True):
        text = text[:start] + "=" + text[start:]
    return text
