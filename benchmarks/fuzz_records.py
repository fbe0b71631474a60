"""Fuzzed records for the checks that a faster worker prepares the same (`check_derived.py`,
`bench_worker.py --keep`): a JSON Lines file and a plain-text list made from the rows of a
real JSON Lines file, their abstracts, titles and authors with pieces inserted at random
places: controls and escape sequences, white space of every kind, characters past ASCII
(accents, the capital sigma and dotted I, ligatures, CJK, digits of other scripts,
astral letters, lone surrogates), LaTeX, markdown, HTML, URLs and dots.

    python benchmarks/fuzz_records.py SOURCE.jsonl OUT_DIR [--rows N] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

PIECES = [
    *["\t", "\r\n", "\n", "\n\n", "  ", " .", " ,", "\x1b[31m", "\x00", "\x7f", "\x85"],
    *["\u2028", "\u2029", "\u00a0", "\u2009", "\u200b", "\u200d", "\ufeff", "\ud800"],
    *["é", "É", "ß", "İ", "ﬁ", "Ω", "ø", "’", "“", "”", "—", "–", "…", "•", "Σ", "ς"],
    *["论文", "列表", "日本語", "한국어", "①", "²", "½", "٣", "𝐱", "😀", "ǅ", "ᾈ"],
    *["$x_t$", "$\\alpha$", "$$a^2$$", "\\(b\\)", "\\emph{z}", "{\\it w}", "\\'e", '\\"o'],
    *["\\cite{k}", "~", "--", "---", "``q''", "*em*", "**bold**", "\\%", "\\&", "\\"],
    *["https://github.com/a/b", "http://x.org/p.", "\\url{https://u.io/x_y}", "<em>h</em>"],
    *["&amp;", "<br>", "a.b", "e.g.", "3.14", "x..y", "_u_", "{", "}", "$", "%", "#", "@"],
    *["|", "Foo-Net", "LLaMA", "GPT-4", "  \n  ", "\x0c", "\x1c"],
]


def _mutate(rnd: random.Random, text: Any, pieces: int) -> Any:
    if not isinstance(text, str):
        return text
    for _ in range(pieces):
        at = rnd.randrange(len(text) + 1)
        text = text[:at] + rnd.choice(PIECES) + text[at:]
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rnd = random.Random(args.seed)
    with args.source.open(encoding="utf-8") as handle:
        rows = [json.loads(line) for _, line in zip(range(args.rows), handle, strict=False)]
    args.out.mkdir(parents=True, exist_ok=True)
    stem = f"fuzz-{args.seed}"
    with open(args.out / f"{stem}.jsonl", "w", encoding="utf-8", errors="surrogatepass") as out:
        for row in rows:
            row = dict(row)
            row["abstract"] = _mutate(rnd, row.get("abstract"), rnd.choice([0, 1, 3, 8, 20]))
            if rnd.random() < 0.5:
                row["title"] = _mutate(rnd, row.get("title"), rnd.choice([1, 2, 4]))
            if rnd.random() < 0.2:
                row["title"] = ""
            if rnd.random() < 0.3 and row.get("authors_parsed"):
                row["authors_parsed"] = [
                    [_mutate(rnd, part, 1) for part in author] for author in row["authors_parsed"]
                ]
            if rnd.random() < 0.1:
                row.pop("authors_parsed", None)
                row["authors"] = _mutate(rnd, row.get("authors", ""), 2)
            out.write(json.dumps(row, ensure_ascii=rnd.random() < 0.5) + "\n")
    with open(args.out / f"{stem}.txt", "w", encoding="utf-8", errors="surrogatepass") as out:
        out.write("Fuzzed list\n\n")
        for row in rows[: len(rows) // 2]:
            text = " ".join(str(row.get("abstract", "")).split())
            text = _mutate(rnd, text, rnd.choice([1, 4, 10])).replace("\n\n", " ")
            out.write(text.replace("\r", " ").replace("\x00", "") + "\n\n")


if __name__ == "__main__":
    main()
