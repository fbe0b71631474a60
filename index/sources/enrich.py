"""What every record gets from the loader, whatever its source.

`render` gives it its display text: the abstract's and the title's, decoded by the one LaTeX
decoder, so that the same abstract reads the same from every format; duplicates are then
found on what the reader would see (`loader.merge_duplicates`). `enrich` runs once a paper
is known to be unique: its links (the record's own, then the URLs its text mentions) and,
when the source gave none, a derived name and headline. `distinct_titles` then runs over
the whole corpus: no two rows of a list may read alike.
"""

from __future__ import annotations

from collections.abc import Iterable

from paperterm.index.links import Known, paper_links
from paperterm.index.papers import Paper
from paperterm.index.text.display import display_text, one_line
from paperterm.index.text.headlines import TITLE_LIMIT, derive_title, headline_candidates
from paperterm.index.text.names import derive_name


def render(paper: Paper) -> Paper:
    paper.text = display_text(paper.abstract)
    if paper.title:
        paper.title = one_line(display_text(paper.title))
    return paper


def enrich(paper: Paper) -> Paper:
    paper.links = paper_links(Known(urls=paper.links, text=paper.text))
    if not paper.name:
        paper.name = derive_name(paper.abstract, paper.text)
    if not paper.title:
        paper.title_derived = True
        paper.title = derive_title(paper.abstract, paper.name, paper.text)
    if not paper.title:
        # Derivation found no words to build on (an abstract of symbols): show the text.
        paper.title = one_line(paper.text, limit=TITLE_LIMIT) or "(untitled)"
    return paper


def distinct_titles(papers: Iterable[Paper]) -> int:
    """Give each derived headline that repeats an earlier title of the corpus (compared
    case-insensitively) the abstract's next candidate, or a number: a list must tell its rows
    apart. Returns how many changed."""
    papers = list(papers)
    used = {paper.title.casefold() for paper in papers if not paper.title_derived}
    changed = 0
    for paper in papers:
        if not paper.title_derived:
            continue
        title = paper.title
        if title.casefold() in used:
            others = headline_candidates(paper.abstract, paper.name, paper.text)
            title = next((t for t in others if t.casefold() not in used), "")
            number = 2
            while not title or title.casefold() in used:
                title = f"{paper.title} ({number})"
                number += 1
            paper.title = title
            changed += 1
        used.add(title.casefold())
    return changed
