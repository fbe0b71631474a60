"""ACL Anthology XML: `<collection id><volume id><meta>...</meta><paper id><title/>
<author><first/><last/><affiliation/></author><abstract/><url/><doi/><award/>...</paper>
</volume></collection>`, read with defusedxml (no entities, no external references).

Inline markup in titles and abstracts is decoded: `<fixed-case>` is its text, `<tex-math>`
becomes `$...$` (the LaTeX renderer shows it), `<b>`/`<i>` markdown emphasis. A paper's
Anthology id is its volume's (`<collection id>-<volume id>`, "2024.acl-short") and its own
("1"): "2024.acl-short.1", linked as https://aclanthology.org/<id> and its PDF. The volume's
meta gives the venue (its booktitle), year, publisher and address.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperterm.index.papers import Paper
from paperterm.index.problems import Problem, sorted_out
from paperterm.index.sources.files import DEFAULT_READ, ReadAs
from paperterm.index.sources.record_fields import build_paper, with_fields

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

ANTHOLOGY = "https://aclanthology.org"
DECLARATION = re.compile(r"^\ufeff?\s*<\?xml[^>]*\?>")
PAPER_START = re.compile(r"<paper\b")
_EMPHASIS = {"b": "**", "strong": "**", "i": "*", "em": "*"}


def inline_text(element: Element | None) -> str:
    """An element's text with the Anthology's inline markup decoded."""
    if element is None:
        return ""
    parts = [element.text or ""]
    for child in element:
        inner = inline_text(child)
        if child.tag == "tex-math":
            parts.append(f"${inner}$")
        elif child.tag in _EMPHASIS and inner.strip():
            mark = _EMPHASIS[child.tag]
            parts.append(f"{mark}{inner}{mark}")
        else:
            parts.append(inner)
        parts.append(child.tail or "")
    return "".join(parts)


def parse(
    path: Path, text: str, collection: str | None = None, read_as: ReadAs = DEFAULT_READ
) -> tuple[list[Paper], list[Problem]]:
    from xml.etree.ElementTree import ParseError

    import defusedxml.ElementTree as safe_tree

    body = DECLARATION.sub(lambda match: " " * len(match.group()), text, count=1)
    try:
        root = safe_tree.fromstring(body)
    except ParseError as error:
        line = error.position[0] if error.position else 0
        return [], [Problem(str(path), line, f"not well-formed XML: {_reason(error)}")]
    except (ValueError, RecursionError) as error:  # defusedxml's refusals (entities, DTDs)
        return [], [Problem(str(path), 0, f"refused: unsafe XML ({type(error).__name__})")]
    if root.tag != "collection":
        from paperterm.index.sources.detect import choose

        return [], [Problem(str(path), 0, choose(path, text, DEFAULT_READ))]
    lines = [text.count("\n", 0, match.start()) + 1 for match in PAPER_START.finditer(text)]
    found: list[Paper | Problem] = []
    number = 0
    for volume in root.iter("volume"):
        meta = volume_meta(root.get("id", ""), volume)
        for element in volume.iter("paper"):
            line = lines[number] if number < len(lines) else 0
            number += 1
            found.append(paper_of(element, meta, path, line, collection, read_as))
    return sorted_out(path, found, [], "no papers found (no <paper> in any <volume>)")


def paper_of(
    element: Element,
    meta: dict[str, str],
    path: Path,
    line: int,
    collection: str | None,
    read_as: ReadAs,
) -> Paper | Problem:
    """The paper of a `<paper>` of a volume (`meta`: `volume_meta`) at `line`."""
    ours, extra = paper_fields(element, meta)
    ours = with_fields(ours, _plain_record(element), read_as.fields)
    paper = build_paper(ours, path, line, collection, separator=read_as.separator, extra=extra)
    return Problem(str(path), line, paper) if isinstance(paper, str) else paper


def _reason(error: Exception) -> str:
    return str(error).split(":", 1)[0]


def volume_meta(collection_id: str, volume: Element) -> dict[str, str]:
    """A volume's Anthology id and what its `<meta>` says of it."""
    meta = volume.find("meta")
    volume_id = volume.get("id", "")
    found = {
        "volume": f"{collection_id}-{volume_id}" if collection_id and volume_id else volume_id,
    }
    if meta is not None:
        for name in ("booktitle", "publisher", "address", "month", "year", "venue"):
            found[name] = " ".join(inline_text(meta.find(name)).split())
    return found


def paper_fields(paper: Element, meta: dict[str, str]) -> tuple[dict[str, Any], dict[str, str]]:
    """Our fields of a `<paper>` of a volume (`meta`: `volume_meta`), and the extra fields."""
    url = (paper.findtext("url") or "").strip()
    own = paper.get("id", "")
    anthology_id = url if url and "://" not in url else f"{meta['volume']}.{own}"
    authors, affiliations = [], []
    for author in paper.findall("author"):
        first = " ".join(inline_text(author.find("first")).split())
        last = " ".join(inline_text(author.find("last")).split())
        authors.append(f"{first} {last}".strip())
        affiliations.append(" ".join(inline_text(author.find("affiliation")).split()))
    links = [f"{ANTHOLOGY}/{anthology_id}", f"{ANTHOLOGY}/{anthology_id}.pdf"]
    if url and "://" in url:
        links.insert(0, url)
    ours: dict[str, Any] = {
        "id": anthology_id,
        "title": inline_text(paper.find("title")),
        "abstract": inline_text(paper.find("abstract")),
        "authors": authors,
        "affiliations": affiliations,
        "year": meta.get("year"),
        "venue": meta.get("booktitle"),
        "doi": (paper.findtext("doi") or "").strip(),
        "url": links,
    }
    awards = [" ".join((award.text or "").split()) for award in paper.findall("award")]
    extra = {
        "booktitle": meta.get("booktitle", ""),
        "publisher": meta.get("publisher", ""),
        "address": meta.get("address", ""),
        "month": meta.get("month", ""),
        "pages": (paper.findtext("pages") or "").strip(),
        "award": "; ".join(award for award in awards if award),
    }
    return {key: value for key, value in ours.items() if value}, extra


def _plain_record(paper: Element) -> dict[str, str]:
    """A `<paper>`'s child elements as text, for `[sources.fields]` (their key: a tag)."""
    return {child.tag: inline_text(child) for child in paper}
