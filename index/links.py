"""Where a paper can be read: its links, built one way for every source and for the reader.

A record knows some of: its own URLs (a proceedings page, a PDF), an OpenReview forum, a
DOI, an arXiv id, and URLs in its abstract. `paper_links` turns what it knows into the
paper's link list, in one order for every format: the record's own URLs first (they are the
paper's home), then OpenReview, the DOI (the version of record), arXiv, and last the URLs the
abstract mentions (code, data, project pages). The first is the primary link: what the
reader opens with `o` and copies with `y` (`primary_link`).

Each kind of link is one rule in `_RULES`; a new kind (a PMLR page from volume and key, an
arXiv PDF, code links kept apart) is a field of `Known` and a rule.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from paperterm.index.papers import Paper

# Brackets end a URL: abstracts put links in [text](url) or wrap them in [..]. A LaTeX
# escape (`\_`, `\%`, `\#`, `\&`, `\~`) is part of it: authors escape URLs out of habit.
_URL = re.compile(r"""\bhttps?://(?:[^\s<>"'`{}|\\^\[\]]|\\[_%#&~])+""", re.IGNORECASE)
_URL_ESCAPE = re.compile(r"\\([_%#&~$])")
_URL_TRAIL = ".,;:!?)]}'\"»”’"


def urls_in(text: str) -> Iterator[tuple[int, int, str]]:
    """Each URL in `text` as (start, end, url): trailing punctuation left out (a closing
    parenthesis that belongs to the URL, Wikipedia style, kept) and LaTeX escapes undone."""
    for match in _URL.finditer(text):
        found = match.group(0)
        url = found.rstrip(_URL_TRAIL)
        if url.count("(") > url.count(")") and found[len(url) : len(url) + 1] == ")":
            url += ")"
        if len(url) > len("https://"):
            yield match.start(), match.start() + len(url), unescape_url(url)


def unescape_url(url: str) -> str:
    """`url` as meant: `https://x.org/a\\_b` is `https://x.org/a_b` (in `\\url{..}` too)."""
    return _URL_ESCAPE.sub(r"\1", url)


def find_links(text: str) -> list[str]:
    """The URLs in `text`, in order, each once."""
    return list(dict.fromkeys(url for _, _, url in urls_in(text)))


@dataclass(frozen=True, slots=True)
class Known:
    """What a record says about where its paper lives; every field may be empty."""

    #: The record's own URLs (page, PDF, ...) in its order, or the links built so far.
    urls: Sequence[str] = ()
    #: An OpenReview forum id or URL.
    openreview: str = ""
    doi: str = ""
    arxiv_id: str = ""
    #: The abstract's display text, whose URLs come last.
    text: str = ""


def _own(known: Known) -> Iterable[str]:
    return (url.strip() for url in known.urls)


def _openreview(known: Known) -> Iterable[str]:
    forum = known.openreview.strip()
    if forum and not forum.startswith(("http://", "https://")):
        forum = f"https://openreview.net/forum?id={forum}"
    return [forum] if forum else []


def _doi(known: Known) -> Iterable[str]:
    return [f"https://doi.org/{known.doi}"] if known.doi else []


def _arxiv(known: Known) -> Iterable[str]:
    return [f"https://arxiv.org/abs/{known.arxiv_id}"] if known.arxiv_id else []


def _in_text(known: Known) -> Iterable[str]:
    return find_links(known.text) if known.text else []


#: The kinds of link, in the order a paper lists them.
_RULES: tuple[Callable[[Known], Iterable[str]], ...] = (_own, _openreview, _doi, _arxiv, _in_text)


def paper_links(known: Known) -> list[str]:
    """The paper's links: web URLs only, each once, in the order of `_RULES`."""
    links: dict[str, None] = {}
    for rule in _RULES:
        for url in rule(known):
            if url.startswith(("http://", "https://")):
                links.setdefault(url, None)
    return list(links)


def primary_link(paper: Paper) -> str:
    """The link the reader opens and copies: the paper's first, or for a record without a
    list (built by hand, or saved before links were built here) one from its DOI or arXiv
    id; "" when there is none."""
    links = paper.links or paper_links(Known(doi=paper.doi, arxiv_id=paper.arxiv_id))
    return links[0] if links else ""
