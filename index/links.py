"""Where a paper can be read: its links, built one way for every source and for the reader.

A record knows some of: its own URLs (a proceedings page, a PDF), a PMLR volume and entry key,
an OpenReview forum, a DOI, an arXiv id, and URLs in its abstract. `paper_links` turns what
it knows into the paper's link list, in one order for every format: the record's own URLs
first (they are the paper's home), then the PMLR page and PDF, OpenReview, the DOI (the
version of record), arXiv (abstract page and PDF), and last the URLs the abstract mentions
(code, data, project pages).

The paper's own links and the ones its abstract mentions are told apart again by
`split_links`: a mentioned URL counts as the paper's own only on a host that publishes papers
(arxiv.org, doi.org, openreview.net, ...), and a code or data host (github.com, zenodo.org,
huggingface.co, ...) is never the paper's page. `primary_link` is what the reader opens with
`o` and copies with `y`: the paper's own first link, else the first one it mentions.

Each kind of link is one rule in `_RULES`; a new kind is a field of `Known` and a rule.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import NamedTuple
from urllib.parse import quote, urlsplit

from paperterm.index.papers import Paper

# Brackets end a URL: abstracts put links in [text](url) or wrap them in [..]. A LaTeX
# escape (`\_`, `\%`, `\#`, `\&`, `\~`) is part of it: authors escape URLs out of habit.
_URL = re.compile(r"""\bhttps?://(?:[^\s<>"'`{}|\\^\[\]]|\\[_%#&~])+""", re.IGNORECASE)
_URL_ESCAPE = re.compile(r"\\([_%#&~$])")
_URL_TRAIL = ".,;:!?)]}'\"»”’"
# New-style (2401.01234, 0704.0001) and old-style (hep-ph/0703001, math.GT/0309136) ids, with
# or without a version (v2), bare or as `arXiv:ID` or an abs/pdf URL.
_ARXIV_ID = re.compile(
    r"(?:arxiv\.org/(?:abs|pdf)/|arxiv:\s*|^)"
    r"(\d{4}\.\d{4,5}|[a-z][a-z.-]*(?:\.[A-Z]{2})?/\d{7})(v\d+)?(?:\.pdf)?/?$",
    re.I,
)
# Anything but printable ASCII ends a link: a control character in a URL could end an OSC 8
# hyperlink early or smuggle a terminal sequence; non-ASCII would be percent-encoded anyway.
_UNSAFE_IN_URL = re.compile(r"[^\x21-\x7e]")


def urls_in(text: str) -> Iterator[tuple[int, int, str]]:
    """Each URL in `text` as (start, end, url): trailing punctuation left out (a closing
    parenthesis that belongs to the URL, Wikipedia style, kept) and LaTeX escapes undone.
    (Most abstracts mention none, and those that do near their end: the pattern runs from
    just before the first "://", and not at all without one.)"""
    for match in _url_matches(text):
        found = match.group(0)
        url = found.rstrip(_URL_TRAIL)
        if url.count("(") > url.count(")") and found[len(url) : len(url) + 1] == ")":
            url += ")"
        if len(url) > len("https://"):
            yield match.start(), match.start() + len(url), unescape_url(url)


def _url_matches(text: str) -> Iterator[re.Match[str]]:
    """`_URL.finditer(text)`, tried only where a match can start: 4 or 5 characters before
    each "://" ("http", "https"). The pattern, which cannot start with a fixed string (it
    ignores case), was tried at every position after the first URL to the end."""
    end = 0
    colon = text.find("://")
    while colon >= 0:
        for start in (colon - len("https"), colon - len("http")):
            match = _URL.match(text, start) if start >= end else None
            if match:
                end = match.end()
                yield match
                break
        colon = text.find("://", max(colon + 1, end))


def unescape_url(url: str) -> str:
    """`url` as meant: `https://x.org/a\\_b` is `https://x.org/a_b` (in `\\url{..}` too)."""
    return _URL_ESCAPE.sub(r"\1", url) if "\\" in url else url


def find_links(text: str) -> list[str]:
    """The URLs in `text`, in order, each once."""
    return list(dict.fromkeys(url for _, _, url in urls_in(text)))


def arxiv_id(value: str) -> str:
    """The arXiv id `value` names (bare, `arXiv:ID` or an abs/pdf URL), without its version
    (the id a paper keeps whichever version a source lists); "" when it names none."""
    match = _ARXIV_ID.search(value.strip())
    return match.group(1) if match else ""


def safe_url(url: str) -> str:
    """`url` when it may be opened, copied or put in a terminal hyperlink: http(s) only,
    printable ASCII only (no control characters, no spaces); else ""."""
    url = url.strip()
    if not url.lower().startswith(("http://", "https://")) or _UNSAFE_IN_URL.search(url):
        return ""
    return url if len(url) > len("https://") else ""


class Known(NamedTuple):
    """What a record says about where its paper lives; every field may be empty. A named
    tuple, not a frozen dataclass: less to define as the reader starts, which imports this
    module for the detail pane's links and makes none."""

    #: The record's own URLs (page, PDF, ...) in its order, or the links built so far.
    urls: Sequence[str] = ()
    #: A PMLR volume number and the entry's key: the page and PDF follow from them.
    pmlr_volume: str = ""
    key: str = ""
    #: An OpenReview forum id or URL.
    openreview: str = ""
    doi: str = ""
    arxiv_id: str = ""
    #: The abstract's display text, whose URLs come last.
    text: str = ""


def _own(known: Known) -> Iterable[str]:
    # BibTeX `url = {https://x.org/a\_b}`: the escape is LaTeX's, not the URL's.
    return (unescape_url(url.strip()) for url in known.urls)


def pmlr_links(volume: str, key: str) -> list[str]:
    """PMLR's page and PDF of an entry: `v{volume}/{key}.html`, `v{volume}/{key}/{key}.pdf`
    (the shape of the `url` and `pdf` fields of PMLR's own BibTeX); [] without both."""
    volume, key = volume.strip(), key.strip()
    if not (volume.isdigit() and key):
        return []
    key = quote(key, safe="-_.~")
    base = f"https://proceedings.mlr.press/v{int(volume)}"
    return [f"{base}/{key}.html", f"{base}/{key}/{key}.pdf"]


def _pmlr(known: Known) -> Iterable[str]:
    return pmlr_links(known.pmlr_volume, known.key) if known.pmlr_volume else ()


def _openreview(known: Known) -> Iterable[str]:
    if not known.openreview:
        return ()
    forum = known.openreview.strip()
    if not forum:
        return []
    if forum.startswith(("http://", "https://")):
        return [forum]
    forum = quote(forum, safe="-_.~")
    return [f"https://openreview.net/forum?id={forum}", f"https://openreview.net/pdf?id={forum}"]


def _doi(known: Known) -> Iterable[str]:
    if not known.doi:
        return ()
    doi = known.doi.strip()
    return [f"https://doi.org/{quote(doi, safe='/:;()._-~')}"] if doi else []


def _arxiv(known: Known) -> Iterable[str]:
    match = _ARXIV_ID.search(known.arxiv_id.strip()) if known.arxiv_id else None
    if not match:
        return []
    identifier = match.group(1) + (match.group(2) or "")
    return [f"https://arxiv.org/abs/{identifier}", f"https://arxiv.org/pdf/{identifier}"]


def _in_text(known: Known) -> Iterable[str]:
    # (Most abstracts mention no URL: `find_links` would find none after one pass too.)
    return find_links(known.text) if known.text and "://" in known.text else ()


#: The kinds of link, in the order a paper lists them.
_RULES: tuple[Callable[[Known], Iterable[str]], ...] = (
    _own, _pmlr, _openreview, _doi, _arxiv, _in_text
)  # fmt: skip


def paper_links(known: Known) -> list[str]:
    """The paper's links: web URLs only, each once, in the order of `_RULES`."""
    return _web_once(url for rule in _RULES for url in rule(known))


def with_text_links(links: Sequence[str], text: str) -> list[str]:
    """`paper_links(Known(urls=links, text=text))`: a paper's links, then those its display
    text mentions. Most texts mention none: then only the links are gone over, not every
    kind of link."""
    known = Known(urls=links, text=text)
    return paper_links(known) if "://" in text else _web_once(_own(known))


def _web_once(urls: Iterable[str]) -> list[str]:
    """The web URLs of `urls`, each once, in order."""
    return list(dict.fromkeys(url for url in urls if url.startswith(("http://", "https://"))))


#: Hosts whose pages are papers (or their versions of record): a URL an abstract mentions on
#: one of them is a link to a paper, not to code or data.
PAPER_HOSTS = (
    "arxiv.org", "doi.org", "dx.doi.org", "openreview.net", "proceedings.mlr.press",
    "aclanthology.org", "papers.nips.cc", "proceedings.neurips.cc", "dl.acm.org",
    "ieeexplore.ieee.org", "link.springer.com", "openaccess.thecvf.com", "ojs.aaai.org",
    "jmlr.org", "biorxiv.org", "medrxiv.org", "semanticscholar.org", "pubmed.ncbi.nlm.nih.gov",
)  # fmt: skip
#: Hosts of code, data, models and notebooks: never the paper's own page.
CODE_HOSTS = (
    "github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "sourceforge.net",
    "huggingface.co", "hf.co", "zenodo.org", "figshare.com", "kaggle.com", "osf.io",
    "paperswithcode.com", "colab.research.google.com", "codeocean.com", "drive.google.com",
    "dropbox.com", "physionet.org", "synapse.org", "dataverse.harvard.edu", "gitee.com",
)  # fmt: skip
#: DOI prefixes of data repositories (Zenodo, Figshare, Dryad): such a DOI is data.
_DATA_DOI = re.compile(r"^https?://(?:dx\.)?doi\.org/10\.(?:5281|6084|5061)/", re.I)


def _host(url: str) -> str:
    try:
        return (urlsplit(url).hostname or "").lower()
    except ValueError:
        return ""


def _on(host: str, hosts: tuple[str, ...]) -> bool:
    return any(host == name or host.endswith("." + name) for name in hosts)


def is_code_link(url: str) -> bool:
    """A link to code, data, models or notebooks (a repository, a dataset, a data DOI)."""
    host = _host(url)
    return _on(host, CODE_HOSTS) or host.startswith("gitlab.") or bool(_DATA_DOI.match(url))


def split_links(paper: Paper) -> tuple[list[str], list[str]]:
    """(the paper's own links, the others): its pages, PDF, DOI, arXiv and OpenReview links;
    then the code, data and project pages its abstract mentions."""
    mentioned = set(find_links(paper.text)) if paper.text else set()
    own: list[str] = []
    other: list[str] = []
    for url in paper.links or paper_links(Known(doi=paper.doi, arxiv_id=paper.arxiv_id)):
        if is_code_link(url) or (url in mentioned and not _on(_host(url), PAPER_HOSTS)):
            other.append(url)
        else:
            own.append(url)
    return own, other


def primary_link(paper: Paper) -> str:
    """The link the reader opens and copies: the paper's own first link (its page), else
    the first link its abstract mentions (code, a project page); "" when there is none.
    A record without a link list (built by hand, or saved before links were built here)
    gets one from its DOI or arXiv id."""
    own, other = split_links(paper)
    return (own or other or [""])[0]
