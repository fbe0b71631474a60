"""Raw fields of the PMLR corpora in ../shared (for tests that skip without them)."""

from __future__ import annotations

import bibtexparser
from locations import CORPORA


def pmlr_fields(*names: str) -> list[dict[str, str]]:
    """For each entry of every BibTeX file in CORPORA that has all of `names`, those fields
    as the file spells them (LaTeX and all)."""
    rows = []
    for path in sorted(CORPORA.glob("*.bib")):
        library = bibtexparser.parse_string(path.read_text(encoding="utf-8"))
        for entry in library.entries:
            fields = entry.fields_dict
            if all(name in fields for name in names):
                rows.append({name: fields[name].value for name in names})
    return rows


def pmlr_abstracts() -> list[str]:
    return [row["abstract"] for row in pmlr_fields("abstract")]
