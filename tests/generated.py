"""Corpora of made-up abstracts in seed-format text files, for index tests (imported by
name: tests/ is on sys.path)."""

from __future__ import annotations

import random
from pathlib import Path

SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]


def write_generated_corpus(
    folder: Path, count: int, seed: int = 7, per_file: int = 100, first_part: int = 0
) -> list[Path]:
    """`count` distinct abstracts of made-up words from a 3,000-word vocabulary, `per_file`
    to a file (`part-NNN.txt` numbered from `first_part`, each its own collection, named
    "Generated part N"); the files written."""
    rng = random.Random(seed)
    vocabulary = [
        "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 4))) for _ in range(3000)
    ]
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for start in range(0, count, per_file):
        paragraphs = []
        for _ in range(start, min(count, start + per_file)):
            words = rng.choices(vocabulary, k=rng.randint(80, 160))
            sentences = [" ".join(words[i : i + 16]) for i in range(0, len(words), 16)]
            paragraphs.append(" ".join(s.capitalize() + "." for s in sentences))
        number = first_part + start // per_file
        body = "\n\n".join([f"Generated part {number}", *paragraphs])
        path = folder / f"part-{number:03d}.txt"
        path.write_text(body + "\n", encoding="utf-8")
        written.append(path)
    return written
