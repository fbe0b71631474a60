"""Where the watch list shows: which papers it matches, which of their authors, and the
watched words' places in a text, without Textual.

`find_marks` runs once per change of the watch list or of the papers (in a worker: it
reads every paper) and gives a `WatchMarks`: the watched papers' ids, for the "Watched"
view, and what the rows and the detail pane need to mark them. The rules are
index/planning/watch.py's, so the reader marks what `paperterm list --watched` lists:

- an author is watched by id where the data has ids, else by name, folded (accents and
  case dropped: watching "Müller" marks "Muller" and "MÜLLER"; "Le Cun" and "LeCun" are
  one name) and by initials only when the corpus holds one full name they fit;
- a word (or phrase) is watched as a whole word, folded the same way, in the title and the
  abstract ("graph" marks "Graph" but not "graphs").

In a row, a watched word in the title is marked, and so is the byline's first author when
watched, or its "et al." when another author is; `mark_row` splits the row's cells
(`tui/rows.py`) and gives those pieces the role "watched".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from paperterm.index.papers import Paper
from paperterm.index.planning.watch import (
    WatchList,
    WatchMatcher,
    corpus_author_names,
    fold,
    phrase_pattern,
)
from paperterm.index.text.display import one_line
from paperterm.tui.rows import Cell

ROLE = "watched"
_ET_AL = " et al."


def folded_with_places(text: str) -> tuple[str, list[int]]:
    """`text` folded as the matcher folds it, and for each folded character the index of
    the character of `text` it comes from."""
    if text.isascii():
        return text.lower(), list(range(len(text)))
    out: list[str] = []
    places: list[int] = []
    for index, char in enumerate(text):
        folded = fold(char)
        out.append(folded)
        places.extend([index] * len(folded))
    return "".join(out), places


def words_pattern(words: Sequence[str]) -> re.Pattern[str] | None:
    """One expression for the watched words over folded text: each whole, its parts
    across any white space; the longest first, so a phrase wins over its first word."""
    alternatives = sorted(set(filter(None, map(phrase_pattern, words))), key=len, reverse=True)
    if not alternatives:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)")


def text_spans(pattern: re.Pattern[str] | None, text: str) -> list[tuple[int, int]]:
    """Where `pattern` (over folded text) matches `text`, as (start, end) in `text`."""
    if pattern is None or not text:
        return []
    folded, places = folded_with_places(text)
    spans = []
    for match in pattern.finditer(folded):
        if match.end() == match.start():
            continue
        start, end = places[match.start()], places[match.end() - 1] + 1
        while end < len(text) and not fold(text[end]):  # its accents go with it
            end += 1
        spans.append((start, end))
    return spans


@dataclass
class WatchMarks:
    """The watch list's marks over one set of papers (see the module docstring)."""

    matcher: WatchMatcher
    #: The watched papers' ids, in the papers' order.
    ids: list[str] = field(default_factory=list)
    #: Papers whose first author is watched, and those with another watched author.
    first_author: frozenset[str] = frozenset()
    other_author: frozenset[str] = frozenset()
    words: re.Pattern[str] | None = None

    def word_spans(self, text: str) -> list[tuple[int, int]]:
        return text_spans(self.words, text)

    def author_positions(self, paper: Paper) -> dict[int, str]:
        """The paper's watched authors: index in `paper.authors` -> label."""
        return self.matcher.author_positions(paper)

    def mark_row(self, paper_id: str, cells: list[Cell], paper: Paper | None = None) -> list[Cell]:
        """`cells` with the watched words of the title and the watched part of the byline
        in pieces of their own, of the role "watched". With `paper`, the byline is a
        comfortable row's ("Ada Lovelace, Charles Babbage et al."): each watched author it
        names is marked, and "et al." when a watched author is past them."""
        first = paper_id in self.first_author
        other = paper_id in self.other_author
        if self.words is None and not first and not other:
            return cells
        out: list[Cell] = []
        for text, role in cells:
            if role == "title":
                out.extend(_split(text, role, self.word_spans(text)))
            elif role == "byline" and (first or other):
                spans = (
                    self._people_spans(text, paper)
                    if paper is not None
                    else [_byline_span(text, first)]
                )
                out.extend(_split(text, role, spans))
            else:
                out.append((text, role))
        return out

    def _people_spans(self, text: str, paper: Paper) -> list[tuple[int, int]]:
        """The watched authors `rows.people` shows in `text`, and its "et al." when one
        it leaves out is watched."""
        spans = []
        for index in sorted(self.author_positions(paper)):
            if index < 2:
                name = one_line(paper.authors[index])
                at = text.find(name)
                if at >= 0:
                    spans.append((at, at + len(name)))
            elif text.endswith(_ET_AL.strip()):
                spans.append((len(text) - len(_ET_AL) + 1, len(text)))
                break
        return sorted(spans)


def _byline_span(text: str, first: bool) -> tuple[int, int]:
    """The first author's name in a byline ("LeCun et al. 2024"), or its "et al."."""
    at = text.find(_ET_AL)
    if first:
        end = at if at >= 0 else text.rfind(" ") if text[-4:].isdigit() else len(text)
        return (0, max(end, 0))
    return (at + 1, at + len(_ET_AL)) if at >= 0 else (0, 0)


def _split(text: str, role: str, spans: list[tuple[int, int]]) -> list[Cell]:
    out: list[Cell] = []
    last = 0
    for start, end in spans:
        if start >= end or start < last:
            continue
        if start > last:
            out.append((text[last:start], role))
        out.append((text[start:end], ROLE))
        last = end
    if last < len(text):
        out.append((text[last:], role))
    return out


def find_marks(watch: WatchList, papers: Sequence[Paper]) -> WatchMarks:
    """Read every paper once: which the watch list matches, and how (a worker's work)."""
    matcher = WatchMatcher(watch, corpus_author_names(papers) if watch.authors else ())
    marks = WatchMarks(matcher, words=words_pattern(watch.words))
    if not watch:
        return marks
    first: set[str] = set()
    other: set[str] = set()
    for paper in papers:
        positions = matcher.author_positions(paper)
        if positions:
            (first if 0 in positions else other).add(paper.id)
            marks.ids.append(paper.id)
        elif matcher.watched(paper):
            marks.ids.append(paper.id)
    marks.first_author, marks.other_author = frozenset(first), frozenset(other)
    return marks
