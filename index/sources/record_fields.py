"""Our fields (`files.OUR_FIELDS`) to a `Paper`: what every conference parser ends with.

A parser maps its own names onto ours (`title`, `authors`, `status`, `pdf`, ...), lets the
source's `[sources.fields]` table override them (`with_fields`), and `build_paper` makes
the record: text cleaned, names split, status normalised (`status_word`), links gathered.
Nothing is derived here: a missing title stays missing (the loader derives a headline,
marked as derived, only for an untitled abstract).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from paperterm.index.links import Known, arxiv_id, paper_links
from paperterm.index.papers import Paper, content_id
from paperterm.index.text.field_text import clean, plain

_STATUS_WORDS = (("oral", "Oral"), ("spotlight", "Spotlight"), ("poster", "Poster"))
_STATUS_PATTERNS = tuple((re.compile(rf"\b{word}\b", re.I), name) for word, name in _STATUS_WORDS)
_DOI = re.compile(r"(10\.\d{4,9}/\S+)")
_YEAR = re.compile(r"\b(1[5-9]\d\d|2\d\d\d)\b")
_OPENREVIEW_ID = re.compile(r"^[A-Za-z0-9_-]{6,20}$")
#: Our fields whose value is a list of names or words.
LIST_FIELDS = ("authors", "affiliations", "author_ids", "keywords")


def status_word(value: str) -> str:
    """The status as a person says it: "ICML 2024 Oral", "Accept (oral)" and "oral" are
    "Oral"; likewise Spotlight and Poster. Other values are kept as given."""
    value = " ".join(value.split())
    for pattern, name in _STATUS_PATTERNS:
        if pattern.search(value):
            return name
    return value


def text_of(value: Any) -> str:
    """A scalar as text ("" for anything else); lone surrogates replaced."""
    if isinstance(value, str):
        if value.isascii():
            return value
        return value.encode("utf-8", "replace").decode("utf-8") if _surrogates(value) else value
    if isinstance(value, bool):
        return ""
    if isinstance(value, (int, float)):
        return str(value)
    return ""


def _surrogates(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def lookup(record: Any, path: str) -> Any:
    """`record`'s value at a key or dotted path ("content.title.value"); None when absent.
    A key that itself holds dots ("speakers/authors" or "a.b") is tried whole first."""
    if not isinstance(record, Mapping):
        return None
    if path in record:
        return record[path]
    value: Any = record
    for part in path.split("."):
        if isinstance(value, Mapping) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return None
    return value


def with_fields(
    ours: dict[str, Any], record: Any, fields: Iterable[tuple[str, str]]
) -> dict[str, Any]:
    """`ours` with the source's `[sources.fields]` mapping applied: each of our fields named
    there takes the record's value at their key (absent there: the field is left out)."""
    for name, path in fields:
        value = lookup(record, path)
        if value is None:
            ours.pop(name, None)
        else:
            ours[name] = value
    return ours


def split_names(value: Any, separator: str = "") -> list[str]:
    """Names from a list (of strings, or of objects with a name) or one string: cut at
    `separator`, else at ";" when it has one, else at " and " and ","."""
    names: list[str] = []
    if isinstance(value, list):
        names = [_name_of(item) for item in value]
    elif isinstance(value, str):
        names = _split(text_of(value), separator)
    found = (plain(name) for name in names)
    return [name for name in found if name]


def split_words(value: Any, separator: str = "") -> list[str]:
    """Keywords from a list or one string cut at `separator`, ";" or ","."""
    if isinstance(value, list):
        words = [text_of(item) for item in value]
    else:
        text = text_of(value)
        cut = separator or (";" if ";" in text else ",")
        words = text.split(cut)
    found = (plain(word) for word in words)
    return [word for word in found if word]


def parallel(value: Any, separator: str = "") -> list[str]:
    """Values parallel to the authors (affiliations, author ids): one a name, kept empty
    where a name has none."""
    if isinstance(value, list):
        return [plain(text_of(item)) for item in value]
    text = text_of(value)
    if not text.strip():
        return []
    return [plain(part) for part in text.split(separator or ";")]


def _name_of(item: Any) -> str:
    if isinstance(item, Mapping):
        for key in ("fullname", "name", "literal", "full_name"):
            name = text_of(item.get(key))
            if name:
                return name
        first = text_of(item.get("first") or item.get("given") or item.get("firstName"))
        last = text_of(item.get("last") or item.get("family") or item.get("lastName"))
        return f"{first} {last}"
    return text_of(item)


def _split(text: str, separator: str) -> list[str]:
    if separator:
        return text.split(separator)
    if ";" in text:
        return text.split(";")
    return [name for part in re.split(r"\s+and\s+|\n", text) for name in part.split(",")]


def zotero_authors(text: str) -> list[str]:
    """Zotero's "Last, First; Last, First" as "First Last" names."""
    names = []
    for person in text.split(";"):
        last, comma, first = person.partition(",")
        name = f"{first.strip()} {last.strip()}" if comma else person
        names.append(plain(name))
    return [name for name in names if name]


def year_of(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and 1000 <= value <= 2999:
        return value
    match = _YEAR.search(text_of(value))
    return int(match.group(1)) if match else None


def doi_of(value: Any) -> str:
    match = _DOI.search(text_of(value).strip())
    return match.group(1).rstrip(".,;") if match else ""


def absolute(url: str, site: str) -> str:
    """`url` made absolute on `site` ("https://icml.cc") when it is a path ("/virtual/...");
    an absolute one with its host in lower case and its path's doubled slashes made one."""
    url = url.strip()
    if url.startswith("/") and not url.startswith("//") and site:
        return site.rstrip("/") + url
    match = re.match(r"(https?://)([^/?#]+)(/[^?#]*)?(.*)", url, re.I | re.S)
    if not match:
        return url
    scheme, host, path, rest = match.groups()
    path = re.sub(r"/{2,}", "/", path or "")
    return f"{scheme.lower()}{host.lower()}{path}{rest}"


def openreview_forum(value: str) -> str:
    """An OpenReview forum id (from an id or a forum/pdf URL), else ""."""
    value = value.strip()
    match = re.search(r"openreview\.net/(?:forum|pdf)\?id=([A-Za-z0-9_-]+)", value)
    if match:
        return match.group(1)
    return value if _OPENREVIEW_ID.match(value) else ""


def build_paper(
    ours: Mapping[str, Any],
    path: Path,
    line: int,
    collection: str | None,
    *,
    separator: str = "",
    site: str = "",
    extra: Mapping[str, str] | None = None,
) -> Paper | str:
    """The paper our fields describe (`site`: the base of relative URLs), or why there is
    none. A title or an abstract is needed; a talk with a title and no abstract is a
    paper."""
    title = clean(text_of(ours.get("title")), paragraphs=False)
    abstract = clean(text_of(ours.get("abstract")))
    if not title and not abstract:
        return "record has neither title nor abstract; skipped"
    arxiv = arxiv_id(text_of(ours.get("arxiv")))
    doi = doi_of(ours.get("doi"))
    forum = openreview_forum(text_of(ours.get("openreview")))
    urls = [absolute(url, site) for url in _urls(ours.get("url"))]
    pdfs = [absolute(url, site) for url in _urls(ours.get("pdf"))]
    if forum:
        urls.append(f"https://openreview.net/forum?id={forum}")
        pdfs = pdfs or [f"https://openreview.net/pdf?id={forum}"]
    urls += pdfs + [absolute(url, site) for url in _urls(ours.get("code"))]
    explicit = plain(text_of(ours.get("id")))
    paper_id = arxiv or doi or explicit or forum or content_id(abstract or title)
    authors = split_names(ours.get("authors"), separator)
    paper = Paper(
        id=paper_id,
        collection=collection or plain(text_of(ours.get("venue"))) or path.stem,
        abstract=abstract,
        title=title,
        authors=authors,
        year=year_of(ours.get("year")),
        doi=doi,
        arxiv_id=arxiv,
        links=paper_links(Known(urls=urls, doi=doi, arxiv_id=arxiv)),
        source=str(path),
        line=line,
        fields={key: value for key, value in (extra or {}).items() if value},
        affiliations=_parallel_to(authors, ours.get("affiliations"), separator),
        author_ids=_parallel_to(authors, ours.get("author_ids"), separator),
        venue=plain(text_of(ours.get("venue"))),
        status=status_word(plain(text_of(ours.get("status")))),
        type=plain(text_of(ours.get("type"))),
        track=plain(text_of(ours.get("track"))),
        topic=_one_or_joined(ours.get("topic")),
        keywords=split_words(ours.get("keywords"), separator),
        tldr=clean(text_of(ours.get("tldr"))),
        session=plain(text_of(ours.get("session"))),
        room=plain(text_of(ours.get("room"))),
        start=plain(text_of(ours.get("start"))),
        end=plain(text_of(ours.get("end"))),
        poster=plain(text_of(ours.get("poster"))),
    )
    return paper


def _parallel_to(authors: list[str], value: Any, separator: str) -> list[str]:
    values = parallel(value, separator)
    return values if any(values) else []


def _one_or_joined(value: Any) -> str:
    if isinstance(value, list):
        return "; ".join(word for word in (plain(text_of(item)) for item in value) if word)
    return plain(text_of(value))


def _urls(value: Any) -> list[str]:
    items = value if isinstance(value, list) else [value]
    found = []
    for item in items:
        url = text_of(item.get("href") or item.get("url") if isinstance(item, Mapping) else item)
        if url.strip():
            found.append(url.strip())
    return found
