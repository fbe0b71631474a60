"""Fill in what a source did not give: display text, links, derived name and title."""

from __future__ import annotations

from paperterm.index.papers import Paper, find_links
from paperterm.index.text.display import display_text, one_line
from paperterm.index.text.headlines import TITLE_LIMIT, derive_title
from paperterm.index.text.names import derive_name


def enrich(paper: Paper) -> Paper:
    paper.text = display_text(paper.abstract)
    if not paper.links:
        paper.links = find_links(paper.abstract)
    if not paper.name:
        paper.name = derive_name(paper.abstract)
    if paper.title:
        paper.title = one_line(display_text(paper.title))
    else:
        paper.title = derive_title(paper.abstract, paper.name)
    if not paper.title:
        # Derivation found no words to build on (an abstract of symbols): show the text.
        paper.title = one_line(paper.text, limit=TITLE_LIMIT) or "(untitled)"
    return paper
