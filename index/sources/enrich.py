"""What every record gets from the loader, whatever its source.

`render` gives it its display text: the abstract's and the title's, decoded by the one LaTeX
decoder, so that the same abstract reads the same from every format; duplicates are then
found on what the reader would see (`preparing.merge_duplicates`). `enrich` runs once a paper
is known to be unique: its links (the record's own, then the URLs its text mentions) and,
when the source gave none, a derived name and headline. `distinct_titles` then runs over
the whole corpus: no two rows of a list may read alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import islice

from paperterm.index.links import with_text_links
from paperterm.index.papers import Paper
from paperterm.index.text.display import display_text, one_line
from paperterm.index.text.headline_form import TITLE_LIMIT
from paperterm.index.text.headlines import headline_candidates
from paperterm.index.text.names import derive_name
from paperterm.index.text.spaces import unglued_sentences


def render(paper: Paper) -> Paper:
    text = unglued_sentences(display_text(paper.abstract))
    # Most abstracts display as written: one string then, not two equal ones (a build holds
    # every paper at once, and `marshal` writes a string met twice once).
    paper.text = paper.abstract if text == paper.abstract else text
    if paper.title:
        paper.title = one_line(display_text(paper.title))
    return paper


#: The headlines a paper with a derived title keeps besides it, for when another paper of the
#: corpus has the same (`distinct_titles`; after them, a number): drawn with the first, from
#: one reading of the abstract, so that making a corpus's titles distinct reads no abstract
#: again: deriving them again for each repeat was a large share of a build whose headlines
#: mostly repeat.
ALTERNATIVES = 1


def enrich(paper: Paper, alternatives: list[str] | None = None) -> Paper:
    """Links, and a derived name and title when the source gave none; `alternatives` gets
    the next `ALTERNATIVES` headlines of a derived title."""
    paper.links = with_text_links(paper.links, paper.text)
    if not paper.name:
        paper.name = derive_name(paper.abstract, paper.text)
    if not paper.title:
        paper.title_derived = True
        headlines = headline_candidates(paper.abstract, paper.name, paper.text)
        paper.title = next(headlines, "")
        if alternatives is not None:
            alternatives.extend(islice(headlines, ALTERNATIVES))
    if not paper.title:
        # Derivation found no words to build on (an abstract of symbols): show the text.
        paper.title = one_line(paper.text, limit=TITLE_LIMIT) or "(untitled)"
    return paper


def distinct_titles(
    papers: Iterable[Paper], alternatives: Callable[[Paper], Iterable[str]] | None = None
) -> int:
    """Give each derived headline that repeats an earlier title of the corpus (compared
    case-insensitively) the abstract's next candidate, or a number: a list must tell its rows
    apart. Returns how many changed.

    `alternatives` gives a paper's next candidates (those `enrich` kept); without it they
    are derived again from the abstract, for each paper whose headline repeats one (in a
    large corpus, most do)."""
    papers = list(papers)

    def others(index: int) -> Iterable[str]:
        paper = papers[index]
        if alternatives is None:
            return headline_candidates(paper.abstract, paper.name, paper.text)
        return alternatives(paper)

    changes = title_changes([(paper.title, paper.title_derived) for paper in papers], others)
    for index, title in changes.items():
        papers[index].title = title
    return len(changes)


def title_changes(
    titles: Sequence[tuple[str, bool]], others: Callable[[int], Iterable[str]]
) -> dict[int, str]:
    """`distinct_titles` over (title, derived) pairs: the new title of each position that
    changes (`others(i)`: paper i's next candidates). A build holds titles, not papers."""
    used = {title.casefold() for title, derived in titles if not derived}
    numbered: dict[str, int] = {}  # title -> the number its next repeat may try first
    changes: dict[int, str] = {}
    for index, (first, derived) in enumerate(titles):
        if not derived:
            continue
        title = first
        if title.casefold() in used:
            title = next((t for t in others(index) if t.casefold() not in used), "")
            number = numbered.get(first, 2)
            while not title or title.casefold() in used:
                title = f"{first} ({number})"
                number += 1
            numbered[first] = number
            changes[index] = title
        used.add(title.casefold())
    return changes
