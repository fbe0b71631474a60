"""What a Whoosh build writes of some source files, file by file: for checking that a change
meant to be faster leaves the engine's files as they were.

The files given are prepared as a build's worker prepares them (`prepare`, the vocabulary's
words of each paper) and written as one segment by the Whoosh part writer; each of its
files is printed with its size and digest, named by its extension (a segment's id is random).
Run it with the code before and after a change and compare the two outputs (`cmp`).

    python benchmarks/check_whoosh_segment.py FILE... > files.txt
"""

from __future__ import annotations

import argparse
import hashlib
import os
import tempfile
from pathlib import Path

from paperterm.index.search.records import no_collection
from paperterm.index.search.whoosh.index import PartWriter
from paperterm.index.sources.loader import Reading
from paperterm.index.sources.preparing import prepare
from paperterm.index.text.words import paper_words


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, no_collection():
        writer = PartWriter(Path(tmp))
        for path in args.files:
            for paper in Reading(path.resolve()).papers():
                prepare(paper)
                writer.add(paper, paper_words(paper))
        segment = writer.finish()
        for name in sorted(os.listdir(tmp)):
            data = (Path(tmp) / name).read_bytes()
            digest = hashlib.blake2b(data, digest_size=16).hexdigest()
            print(name.replace(segment.segment_id(), "SEGMENT"), len(data), digest)


if __name__ == "__main__":
    main()
