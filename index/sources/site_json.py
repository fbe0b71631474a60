"""A conference virtual site's exports: `<conf>-<year>-orals-posters.json` (`{count,
results: [{id, name, authors: [{fullname, institution}], abstract, topic, keywords,
decision, eventtype, session, room_name, starttime, endtime, poster_position,
virtualsite_url, paper_url}]}`), the "Downloads" JSON list of icml.cc (`type, name,
virtualsite_url, speakers/authors, abstract`), and abstracts-explorer's lists (`title,
authors[], abstract, session, room_name, starttime, poster_position, url`).

Relative URLs ("/virtual/2025/poster/119718") are made absolute on the conference's site:
the host most of the file's absolute URLs name (the OpenReview, arXiv, DOI and code hosts
aside), else the site of the conference the file or collection is named after (`SITES`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from paperterm.index.papers import Paper
from paperterm.index.problems import Problem, sorted_out
from paperterm.index.sources.files import DEFAULT_READ, ReadAs
from paperterm.index.sources.json_documents import records_of
from paperterm.index.sources.record_fields import (
    build_paper,
    openreview_forum,
    text_of,
    with_fields,
    year_of,
)

#: A conference's site, by a word its file or collection name holds.
SITES = {
    "icml": "https://icml.cc", "neurips": "https://neurips.cc", "nips": "https://neurips.cc",
    "iclr": "https://iclr.cc", "cvpr": "https://cvpr.thecvf.com",
    "iccv": "https://iccv.thecvf.com",
}  # fmt: skip
#: Hosts that are not the conference's site.
_OTHER_HOSTS = ("openreview.net", "arxiv.org", "doi.org", "github.com", "ml4physicalsciences")
_HOST = re.compile(r"^https?://([^/?#:]+)", re.I)
_VIRTUAL_YEAR = re.compile(r"/virtual/(\d{4})/")
#: What a scraped abstract may end with: the site's "Show more" button.
_SHOW_MORE = re.compile(r"\s*Show more\s*$")


def parse(
    path: Path, text: str, collection: str | None = None, read_as: ReadAs = DEFAULT_READ
) -> tuple[list[Paper], list[Problem]]:
    records, problems = records_of(path, text)
    site = infer_site((record for _, record in records), [path.stem, collection or ""])
    found: list[Paper | Problem] = []
    for line, record in records:
        if not isinstance(record, dict):
            found.append(Problem(str(path), line, "record is not a JSON object; skipped"))
            continue
        ours, extra = site_fields(record)
        ours = with_fields(ours, record, read_as.fields)
        paper = build_paper(
            ours, path, line, collection, separator=read_as.separator, site=site, extra=extra
        )
        found.append(Problem(str(path), line, paper) if isinstance(paper, str) else paper)
    return sorted_out(path, found, problems, "no papers found")


def site_fields(record: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """Our fields from a record of any of the three exports, and the extra fields kept."""
    authors = record.get("authors") or record.get("speakers/authors")
    ours: dict[str, Any] = {
        "title": record.get("name") or record.get("title"),
        "abstract": _abstract(text_of(record.get("abstract"))),
        "authors": authors,
        "topic": record.get("topic"),
        "keywords": record.get("keywords"),
        "status": record.get("decision"),
        "type": record.get("eventtype") or record.get("type"),
        "session": record.get("session"),
        "room": record.get("room_name"),
        "start": record.get("starttime"),
        "end": record.get("endtime"),
        "poster": record.get("poster_position"),
        "venue": record.get("conference"),
        "pdf": record.get("paper_pdf_url"),
        "doi": record.get("doi"),
        "arxiv": record.get("arxiv_id") or record.get("arxiv"),
    }
    if isinstance(authors, list) and any(isinstance(a, Mapping) for a in authors):
        ours["affiliations"] = [
            text_of(a.get("institution")) if isinstance(a, Mapping) else "" for a in authors
        ]
    urls = [text_of(record.get(key)) for key in ("virtualsite_url", "url", "paper_url")]
    forum = next((openreview_forum(url) for url in urls if "openreview.net" in url), "")
    ours["url"] = [url for url in urls if url and "openreview.net" not in url]
    ours["openreview"] = forum
    ours["id"] = forum or text_of(record.get("original_id")) or text_of(record.get("id"))
    ours["year"] = record.get("year") or _year(record, urls)
    extra = {"award": text_of(record.get("award"))}
    return {key: value for key, value in ours.items() if value not in (None, "", [])}, extra


def _abstract(text: str) -> str:
    return _SHOW_MORE.sub("", text) if text.endswith("more") else text


def _year(record: Mapping[str, Any], urls: list[str]) -> int | None:
    for url in urls:
        match = _VIRTUAL_YEAR.search(url)
        if match:
            return int(match.group(1))
    return year_of(record.get("starttime"))


def infer_site(records: Iterable[Any], names: list[str]) -> str:
    """The conference's site ("https://icml.cc"): the host most absolute URLs of the
    records name (other than OpenReview's, arXiv's...), else by the file's or collection's
    name; "" when neither tells."""
    hosts: Counter[str] = Counter()
    for record in records:
        if not isinstance(record, Mapping):
            continue
        values = [record.get(key) for key in ("virtualsite_url", "url", "site")]
        people = record.get("authors")
        if isinstance(people, list):
            values += [p.get("url") for p in people[:3] if isinstance(p, Mapping)]
        for value in values:
            match = _HOST.match(text_of(value))
            host = match.group(1).lower() if match else ""
            if host and not any(other in host for other in _OTHER_HOSTS):
                hosts[host] += 1
    if hosts:
        return f"https://{hosts.most_common(1)[0][0]}"
    for name in names:
        for word, site in SITES.items():
            if word in name.lower():
                return site
    return ""
