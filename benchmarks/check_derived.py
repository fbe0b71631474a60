"""What a build derives of each record, as one digest a record: for checking that a change
meant to be faster leaves every output as it was.

For each record of the files given, as a build's worker prepares it: the prepared record
(its paper with derived name, title and links, merge keys, alternatives), the words the
vocabulary counts of it, and the text of each field of its tantivy document. Run it with
the code before and after a change and compare the two outputs (`cmp`); the last line is
the digest of them all.

    python benchmarks/check_derived.py FILE... > digests.txt
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path
from typing import Any

from paperterm.index.search.analysis import FieldAnalysis
from paperterm.index.search.records import no_collection
from paperterm.index.search.tantivy.index import make_document
from paperterm.index.sources.loader import Reading
from paperterm.index.sources.preparing import prepare
from paperterm.index.text.words import paper_words


class _Document:
    """Stands in for tantivy's document: what its fields are given."""

    def __init__(self) -> None:
        self.fields: list[tuple[str, object]] = []

    def add_unsigned(self, name: str, value: int) -> None:
        self.fields.append((name, value))

    def add_text(self, name: str, value: str) -> None:
        self.fields.append((name, value))


class _Tantivy:
    Document = _Document


def record_digest(analysis: FieldAnalysis, record: Any, words: list[str]) -> str:
    document, distinct = make_document(_Tantivy, analysis, 0, record.paper, words)
    derived = repr((record.to_tuple(), words, document.fields, distinct))
    return hashlib.blake2b(derived.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    analysis = FieldAnalysis()
    every = hashlib.blake2b(digest_size=16)
    out = sys.stdout
    with no_collection():
        for path in args.files:
            for paper in Reading(path.resolve()).papers():
                record = prepare(paper)
                digest = record_digest(analysis, record, paper_words(paper))
                out.write(f"{path.name}:{paper.line} {digest}\n")
                every.update(digest.encode())
    out.write(f"all {every.hexdigest()}\n")


if __name__ == "__main__":
    main()
