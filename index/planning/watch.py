"""Watch lists: the authors and words a reader follows, and which of them a paper matches.

A `WatchList` holds author names, words (or phrases) and OpenReview author ids
(`~Yann_LeCun1`). `WatchMatcher(watch, corpus_names).watched(paper)` gives the labels a
paper matches, `author:NAME` / `author:~ID` / `word:WORD` as the watch list writes them.

Names are compared folded: accents dropped, case folded, "Last, First" turned round,
punctuation made a space, and then spaces and hyphens removed, so "Yann LeCun",
"yann lecun", "Yann Le Cun" and "Yann Le-Cun" are one name (a family name written with
and without its space is far more often one person than two). A name whose given names are
initials only ("Y. LeCun", "Y LeCun") matches a full name only when the corpus (the names
given to the matcher, and the watch list's own) holds exactly one full name with that
family name and those initials; the same spelling always matches itself. Ids match ids: a
watched id matches the author at that position of `paper.author_ids`, whatever the name
(the reader watches the id when the data has one, so homonyms are not matched), and a
watched name matches by name wherever it appears.

Words match whole words, case- and accent-insensitively, in the title, the method's name,
the abstract and the keywords; a phrase matches its words in order across any white space.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

from paperterm.index.papers import Paper
from paperterm.index.text.person_names import split_name

#: Letters NFKD does not take apart.
_LETTERS = str.maketrans(
    {"ø": "o", "Ø": "o", "ł": "l", "Ł": "l", "đ": "d", "Đ": "d", "æ": "ae", "Æ": "ae",
     "œ": "oe", "Œ": "oe", "ı": "i", "þ": "th", "ð": "d"}
)  # fmt: skip
_NOT_WORD = re.compile(r"[^\w]+")
#: The blocks of combining marks (accents) that NFKD splits off letters.
_COMBINING = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+")


def fold(text: str) -> str:
    """`text` with accents dropped and case folded ("Ångström" -> "angstrom")."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.translate(_LETTERS))
    return _COMBINING.sub("", decomposed).casefold()


def folded_name(name: str) -> str:
    """A person's name folded, first name first, words single-spaced: "lecun, yann" ->
    "yann lecun"."""
    if name.count(",") == 1:
        last, first = name.split(",")
        name = f"{first} {last}"
    return " ".join(_NOT_WORD.sub(" ", fold(name).replace("_", " ")).split())


def name_key(name: str) -> str:
    """What two spellings of one name share: `folded_name` without spaces."""
    return folded_name(name).replace(" ", "")


@dataclass(frozen=True, slots=True)
class _Name:
    key: str  # the whole name, folded, no spaces
    family: str  # the family name, folded, no spaces
    initials: str  # the given names' first letters
    abbreviated: bool  # the given names are initials only


def _parse(name: str) -> _Name:
    given, family = split_name(folded_name(name))
    words = given.split()
    return _Name(
        key=name_key(name),
        family=family.replace(" ", ""),
        initials="".join(word[0] for word in words),
        abbreviated=bool(words) and all(len(word) == 1 for word in words),
    )


@dataclass(frozen=True, slots=True)
class WatchList:
    """What a reader watches; values as the user wrote them (the labels show them so)."""

    authors: tuple[str, ...] = ()
    words: tuple[str, ...] = ()
    author_ids: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.authors or self.words or self.author_ids)

    def merged(self, other: WatchList) -> WatchList:
        """Both lists, each value once (this list's first)."""
        return WatchList(
            tuple(dict.fromkeys((*self.authors, *other.authors))),
            tuple(dict.fromkeys((*self.words, *other.words))),
            tuple(dict.fromkeys((*self.author_ids, *other.author_ids))),
        )


@dataclass
class WatchMatcher:
    """A watch list compiled against a corpus's author names (see the module docstring).
    `ambiguous` names the watched abbreviated names that match no one for want of a single
    full name."""

    watch: WatchList
    corpus_names: Iterable[str] = ()
    ambiguous: list[str] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        self._full: dict[str, set[tuple[str, str]]] = {}  # family -> {(initials, key)}
        for written in (*self.corpus_names, *self.watch.authors):
            parsed = _parse(written)
            if parsed.key and not parsed.abbreviated:
                self._full.setdefault(parsed.family, set()).add((parsed.initials, parsed.key))
        self._by_key: dict[str, str] = {}  # spelled key or resolved key -> label
        for written in self.watch.authors:
            parsed = _parse(written)
            if not parsed.key:
                continue
            label = f"author:{written}"
            self._by_key.setdefault(parsed.key, label)
            resolved = self._resolve(parsed)
            if resolved is None:
                self.ambiguous.append(written)
            else:
                self._by_key.setdefault(resolved, label)
        self._ids = {
            author_id.strip(): f"author:{author_id}" for author_id in self.watch.author_ids
        }
        self._words = [
            (re.compile(_word_pattern(word)), f"word:{word}")
            for word in self.watch.words
            if fold(word).split()
        ]
        if self._words:  # one search rules out most papers
            self._any_word = re.compile("|".join(p.pattern for p, _ in self._words))
        self._names: dict[str, tuple[str, str | None]] = {}  # author as written -> keys

    def _resolve(self, parsed: _Name) -> str | None:
        """The one full name an abbreviated name stands for (itself when it is not
        abbreviated or when the corpus has no full name for it); None when several."""
        if not parsed.abbreviated:
            return parsed.key
        found = {
            key
            for initials, key in self._full.get(parsed.family, ())
            if initials.startswith(parsed.initials)
        }
        if len(found) > 1:
            return None
        return found.pop() if found else parsed.key

    def author_keys(self, name: str) -> tuple[str, str | None]:
        """`name`'s own key and the key of the one full name it stands for in the corpus
        (its own when not abbreviated, None when its initials are ambiguous); cached."""
        keys = self._names.get(name)
        if keys is None:
            parsed = _parse(name)
            keys = self._names[name] = (parsed.key, self._resolve(parsed))
        return keys

    def author_positions(self, paper: Paper) -> dict[int, str]:
        """The paper's watched authors: their index in `paper.authors` -> label."""
        found: dict[int, str] = {}
        if self._ids:
            for index, author_id in enumerate(paper.author_ids):
                label = self._ids.get(author_id.strip()) if author_id else None
                if label:
                    found[index] = label
        if self._by_key:
            for index, name in enumerate(paper.authors):
                if index in found:
                    continue
                key, resolved = self.author_keys(name)
                label = self._by_key.get(key) or (resolved and self._by_key.get(resolved))
                if label:
                    found[index] = label
        return found

    def watched(self, paper: Paper) -> list[str]:
        """The labels `paper` matches, authors first, each once, in the watch list's
        order within each kind."""
        labels = set(self.author_positions(paper).values())
        if self._words:
            text = fold(" ".join((paper.title, paper.name, paper.text or paper.abstract,
                                  " ".join(paper.keywords))))  # fmt: skip
            if self._any_word.search(text):
                labels.update(label for pattern, label in self._words if _whole(pattern, text))
        return [label for label in self._order() if label in labels]

    def _order(self) -> list[str]:
        order = [f"author:{name}" for name in self.watch.authors]
        order += [f"author:{author_id}" for author_id in self.watch.author_ids]
        return order + [f"word:{word}" for word in self.watch.words]


def phrase_pattern(word: str) -> str:
    """The words of `word` (folded) in order, any white space between them ("" for none):
    a watched word or phrase as the matcher and the reader's marks find it."""
    return r"\s+".join(re.escape(part) for part in fold(word).split())


def _word_pattern(word: str) -> str:
    """`phrase_pattern`, the last word whole; `_whole` checks the first one's start. (A
    look-behind first would keep the regular expression engine from scanning for the first
    letters.)"""
    return phrase_pattern(word) + r"(?!\w)"


def _whole(pattern: re.Pattern[str], text: str) -> bool:
    """Whether `pattern` matches `text` where no word character comes just before."""
    for match in pattern.finditer(text):
        start = match.start()
        if start == 0 or not (text[start - 1].isalnum() or text[start - 1] == "_"):
            return True
    return False


def corpus_author_names(papers: Iterable[Paper]) -> set[str]:
    """Every author name the papers hold, each once (what a `WatchMatcher` is given)."""
    return {name for paper in papers for name in paper.authors}
