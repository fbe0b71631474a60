"""The user's query language, parsed by our own code into clauses (never by Whoosh's parser).

    words                all must match (falls back to any when none has all)
    "a phrase"           the words in this order
    field:value          name, title, abstract, author, collection, tag (`field:"a phrase"`)
    -word  -"phrase"     exclude
    word*                prefix (at least 3 letters; shorter stars are ignored)
    word~  word~2        fuzzy, edit distance at most 2

Anything else is a word: a pasted title such as `SpOiLer: Offline ...` is plain text, an
unknown `field:` is part of the word, stray quotes and operators are ignored. The parser
never raises; what it ignores it explains in `notes`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

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
}
MAX_CLAUSES = 24
MIN_PREFIX = 3
MAX_FUZZY = 2
MAX_TERM_CHARS = 100
#: Longer queries (a pasted page) are cut: parsing stays cheap whatever is pasted.
MAX_QUERY_CHARS = 4000

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


@dataclass(slots=True)
class ParsedQuery:
    text: str
    clauses: list[Clause] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    excluded_tags: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def positive(self) -> list[Clause]:
        return [clause for clause in self.clauses if not clause.negate]

    @property
    def negative(self) -> list[Clause]:
        return [clause for clause in self.clauses if clause.negate]

    @property
    def empty(self) -> bool:
        return not self.clauses and not self.tags and not self.excluded_tags


def _clean(text: str) -> str:
    """Control characters out, so nothing odd reaches the analyzer or the screen."""
    return "".join(ch if ch.isprintable() else " " for ch in text)


def parse_query(text: str) -> ParsedQuery:
    query = ParsedQuery(text=text)
    source = _clean(text[:MAX_QUERY_CHARS])
    if len(text) > MAX_QUERY_CHARS:
        query.notes.append(f"only the first {MAX_QUERY_CHARS} characters are used")
    i, n = 0, len(source)
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
            if end < 0:
                end = n
            body = source[i + 1 : end].strip()
            i = end + 1
            if body:
                _add(query, Clause("phrase", body, fieldname, negate))
            continue
        end = i
        while end < n and not source[end].isspace() and source[end] != '"':
            end += 1
        token = source[i:end]
        i = end
        _add_token(query, token, fieldname, negate)
    if len(query.clauses) > MAX_CLAUSES:
        query.clauses = query.clauses[:MAX_CLAUSES]
        query.notes.append(f"only the first {MAX_CLAUSES} terms are used")
    return query


def _add_token(query: ParsedQuery, token: str, fieldname: str | None, negate: bool) -> None:
    token = token.strip(_EDGE_PUNCT)
    if not token:
        return
    fuzzy = _FUZZY.match(token)
    if fuzzy and fuzzy.group(1).strip(_EDGE_PUNCT + "*~"):
        word = fuzzy.group(1).strip(_EDGE_PUNCT + "*~")
        asked = int(fuzzy.group(2)) if fuzzy.group(2) else (2 if len(word) >= 6 else 1)
        if asked > MAX_FUZZY:
            query.notes.append(f"fuzzy distance capped at {MAX_FUZZY}")
        _add(query, Clause("fuzzy", word, fieldname, negate, max(1, min(asked, MAX_FUZZY))))
        return
    if token.startswith(("*", "?")):
        stripped = token.lstrip("*?")
        if stripped:
            query.notes.append("leading wildcards are ignored")
        token = stripped
    if token.endswith("*"):
        word = token.rstrip("*")
        letters = sum(ch.isalnum() for ch in word)
        if letters >= MIN_PREFIX and "*" not in word and "?" not in word:
            _add(query, Clause("prefix", word, fieldname, negate))
            return
        if word:
            query.notes.append(f"prefixes need at least {MIN_PREFIX} letters")
        token = word.replace("*", " ")
    token = token.replace("*", " ").replace("?", " ").replace("~", " ").strip()
    if token:
        _add(query, Clause("word", token, fieldname, negate))


def _add(query: ParsedQuery, clause: Clause) -> None:
    """Add a clause, unless the query has it already: a word said twice finds the same
    papers, and repeating one (`con* con* con* ...`) would only multiply the work."""
    text = clause.text[:MAX_TERM_CHARS]
    if clause.field == "tag":
        tags = query.excluded_tags if clause.negate else query.tags
        tag = text.strip().lower()
        if tag not in tags:
            tags.append(tag)
        return
    if len(query.clauses) > MAX_CLAUSES:  # one too many already: `parse_query` stops
        return
    new = Clause(clause.kind, text, clause.field, clause.negate, clause.distance)
    folded = _folded(new)
    if not any(_folded(old) == folded for old in query.clauses):
        query.clauses.append(new)


def _folded(clause: Clause) -> Clause:
    return Clause(clause.kind, clause.text.casefold(), clause.field, clause.negate, clause.distance)
