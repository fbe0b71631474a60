"""Preparing a record on its own (`prepare`: rendered, enriched as if it were the only
record of its paper, with the keys that find its duplicates) and merging the duplicates
(`merge_prepared`, `merge_duplicates`)."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable

from paperterm.index.links import Known, paper_links
from paperterm.index.papers import (
    Paper,
    content_id,
)
from paperterm.index.sources.enrich import distinct_titles, enrich
from paperterm.index.sources.identity import registry_ids
from paperterm.index.sources.joining import NOT_JOINED, absorb, plan_merge
from paperterm.index.sources.prepared import Prepared
from paperterm.index.text.person_names import family_name
from paperterm.index.text.words import spaced_past_ascii

_NOT_WORD = re.compile(r"[\W_]+")


#: ASCII's characters `_NOT_WORD` matches, to spaces: translating an ASCII abstract's bytes
#: takes a tenth of the pattern's time.
_ASCII_NOT_WORD = bytes(code if chr(code).isalnum() else 32 for code in range(256))


#: `_ASCII_NOT_WORD` for UTF-8 bytes: the bytes of characters beyond ASCII kept.
_ASCII_ONLY_NOT_WORD = bytes(
    code if code > 127 or chr(code).isalnum() else 32 for code in range(256)
)


#: A title joins records of different sources on its own (no id, DOI or abstract in
#: common) only with at least this many words: "Preface" or "Keynote" name no one paper.
TITLE_JOIN_WORDS = 3


def prepare(paper: Paper) -> Prepared:
    """`paper` (rendered) enriched on its own, with its merge keys."""
    prepared = _keyed(paper, own_links=list(paper.links))
    enrich(paper, prepared.alternatives)
    return prepared


def _keyed(paper: Paper, own_links: list[str]) -> Prepared:
    abstract = _fold(paper.text)
    title = _fold(paper.title) if paper.title and not paper.title_derived else ""
    keys = _identities(paper, abstract, title)
    return Prepared(
        paper=paper,
        own_links=own_links,
        identities=[_digest(f"{kind}\n{key}") for kind, key in keys],
        abstract=_digest(abstract) if abstract else "",
        anonymous=bool(abstract) and _is_content_id(paper.id, paper.abstract),
        titled=bool(paper.title),
        title_key=_title_key(title),
        surname=_accentless(_fold(family_name(paper.authors[0]))) if paper.authors else "",
    )


def _title_key(title: str) -> str:
    """The digest a folded title joins records by, accents folded too ("" when it is too
    short to: `TITLE_JOIN_WORDS`)."""
    if title.count(" ") < TITLE_JOIN_WORDS - 1:
        return ""
    return _digest(_accentless(title))


def _accentless(text: str) -> str:
    """`text` without its combining marks ("Étude" -> "Etude")."""
    if text.isascii():
        return text
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _is_content_id(paper_id: str, abstract: str) -> bool:
    return len(paper_id) == 12 and paper_id == content_id(abstract)


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def _fold(text: str) -> str:
    """Text compared for duplicates: case, width, white space and punctuation folded.
    (ASCII text has no width to fold, and its punctuation and white space both become the
    spaces between its words: one pass over its bytes.)"""
    if text.isascii():
        return b" ".join(text.lower().encode("ascii").translate(_ASCII_NOT_WORD).split()).decode()
    # `normalize_for_id` without its white space made single: every white space becomes a
    # space and is made single below anyway.
    folded = unicodedata.normalize("NFKC", text).casefold()
    if folded.isascii():
        return b" ".join(folded.encode("ascii").translate(_ASCII_NOT_WORD).split()).decode()
    # Mostly ASCII (an arXiv abstract's few quotes, dashes and symbols): its ASCII bytes
    # translated as above (no byte of a longer UTF-8 sequence is ASCII), then its few other
    # characters that are not word characters made spaces, all in passes of bytes (faster
    # than the pattern's `sub` over the whole text; a fifth of arXiv abstracts have one).
    spaced = folded.encode("utf-8", "surrogatepass").translate(_ASCII_ONLY_NOT_WORD)
    spaced = spaced_past_ascii(spaced, lambda char: not _NOT_WORD.match(char))
    return b" ".join(spaced.split()).decode("utf-8", "surrogatepass")


def _identities(paper: Paper, abstract: str, title: str) -> list[tuple[str, str]]:
    """What makes two records the same paper: DOI, arXiv id, an id of a registry
    (`identity.registry_ids`: OpenReview, PMLR, ACL Anthology, a conference's virtual
    site), or title and abstract, both folded (none for a record without an abstract)."""
    keys = []
    if paper.doi:
        keys.append(("doi", paper.doi.strip().lower()))
    if paper.arxiv_id:
        keys.append(("arxiv", paper.arxiv_id.strip().lower()))
    keys += registry_ids(paper)
    if abstract:
        keys.append(("text", f"{title or _fold(paper.title)}\n{abstract}"))
    return keys


def merge_prepared(records: Iterable[Prepared]) -> list[Paper]:
    """The papers of prepared records (`prepare`), duplicates merged (`merge_duplicates`):
    a record that took in others gets its links built again from all of theirs, and
    derived titles are made distinct from the headlines the records kept. (A build does
    the same from the records' keys: `search.merged`.)"""
    merged, absorbing = _merge(records)
    for record in absorbing:
        record.paper.links = paper_links(Known(urls=record.own_links, text=record.paper.text))
    kept = {id(record.paper): record.alternatives for record in merged}
    distinct_titles((record.paper for record in merged), lambda paper: kept[id(paper)])
    return [record.paper for record in merged]


def merge_duplicates(papers: list[Paper]) -> list[Paper]:
    """The same paper from several sources becomes one record, with the first one's id,
    listing every collection.

    Records are compared as rendered (`enrich.render`): on the display text of title and
    abstract, which reads the same whatever markup a source used (`{B}ayesian`, `\\'e`).
    Same paper: the same DOI, the same arXiv id, or the same folded title and abstract.
    A record known only by its abstract (a content id, like the seeds' papers, whose titles
    are derived) also matches any record with the same abstract. Two different papers that
    happen to share an id (e.g. the BibTeX key `preface` in two proceedings) are both kept,
    the later one with a suffix from its content so the ids stay unique.
    """
    return [record.paper for record in _merge(_keyed(p, p.links) for p in papers)[0]]


def _merge(records: Iterable[Prepared]) -> tuple[list[Prepared], list[Prepared]]:
    """The records that stay (in order) and those of them that took in others."""
    records = list(records)
    into, ids = plan_merge(
        [record.key() for record in records],
        lambda i: (records[i].paper.title if records[i].titled else "", records[i].paper.abstract),
        [record.paper.source for record in records],
    )
    merged: list[Prepared] = []
    absorbing: dict[int, Prepared] = {}
    for index, record in enumerate(records):
        first = into[index]
        if first == NOT_JOINED:
            continue
        if first == index:
            record.paper.id = ids.get(index, record.paper.id)
            merged.append(record)
        else:
            absorb(records[first], record)
            absorbing[first] = records[first]
    return merged, list(absorbing.values())
