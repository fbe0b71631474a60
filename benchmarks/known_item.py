"""Known-item search quality: does searching a paper's exact title find it first?

The papers with real titles are those of the PMLR BibTeX files in `<repo>/../shared/corpora/`
(the script says so and stops when they are absent). They are indexed with the bundled seeds,
and again with 2,600 synthetic distractor abstracts (`corpus.py`), whose sentences come from
the same papers. For each titled paper:

  title     its exact title as the query: % ranked first (target >= 95%), failures listed.
  recalled  a "half-remembered" query: 3 to 5 words drawn (seeded) from the 10 rarest
            content words of its abstract, in random order: % first and % in the top 5.
  misremembered  3 content words of its title and one content word of the other titled
            papers' abstracts that it does not hold, in random order (seeded).

Each is run by each engine (`--engines`; tantivy when installed) on the same queries, with
the mean reciprocal rank of each kind of query (0 beyond the top 50): tantivy's must be
within 0.01 of Whoosh's. bm25s (a BM25 reference implementation, `pip install '.[bench]'`)
runs the same queries over the same papers' searched text, without paperterm's title and
name boosts: Whoosh's MRR must be at or above it.

    python benchmarks/known_item.py [--quick] [--engines whoosh tantivy bm25s]
"""

from __future__ import annotations

import argparse
import random
import re
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import corpus
from measure import machine, table
from whoosh.analysis import STOP_WORDS

from paperterm.index.config import Config
from paperterm.index.papers import Paper
from paperterm.index.search.open_index import OpenIndex
from paperterm.index.search.searcher import Searcher
from paperterm.index.search.tantivy import tantivy_installed
from paperterm.index.session import Session
from paperterm.index.sources.files import bundled_seeds

SEED = 5
LIMIT = 50
TARGET = 95.0
#: How far tantivy's mean reciprocal rank may be from Whoosh's.
MRR_TOLERANCE = 0.01
DISTRACTORS = 2600
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9-]*[A-Za-z0-9]")


def content_words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text) if len(w) >= 4 and w.lower() not in STOP_WORDS}


def recalled_query(paper: Paper, df: Counter[str], rng: random.Random) -> str:
    """3-5 of the 10 rarest content words of the abstract (ties broken alphabetically)."""
    rare = sorted(content_words(paper.text), key=lambda w: (df[w], w))[:10]
    words = rng.sample(rare, min(len(rare), rng.randint(3, 5)))
    return " ".join(words)


def misremembered_query(paper: Paper, words: list[str], rng: random.Random) -> str | None:
    """3 content words of the title and one of `words` the paper does not hold, shuffled
    (None: a title of fewer than 3 content words)."""
    title = sorted(content_words(paper.title))
    if len(title) < 3:
        return None
    held = content_words(f"{paper.title} {paper.text}")
    picked = [*rng.sample(title, 3), rng.choice([w for w in words if w not in held])]
    rng.shuffle(picked)
    return " ".join(picked)


#: query -> the ids found, best first (at most `LIMIT`).
Ranker = Callable[[str], list[str]]


def rank_of(ranked: Ranker, query: str, paper_id: str) -> int | None:
    ids = ranked(query)
    return ids.index(paper_id) + 1 if paper_id in ids else None


def ranker(engine: str, opened: OpenIndex) -> tuple[Ranker, Callable[[], None]]:
    """The engine's search (bm25s's over the papers' searched text) and how to close it."""
    if engine == "bm25s":
        from typing_quality import bm25s_search

        peer = bm25s_search(list(opened.papers), limit=LIMIT)
        if peer is None:
            raise SystemExit("bm25s or PyStemmer is not installed: pip install '.[bench]'")
        return (lambda query: peer(query)[0]), lambda: None
    searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
    return (lambda query: searcher.search(query, limit=LIMIT, snippets=False).ids), searcher.close


def describe(paper: Paper) -> str:
    """Which paper, from which file, with which title (derived for text sources)."""
    return f"{paper.id[:10]} ({Path(paper.source).name}): {paper.title[:45]}"


def evaluate(
    sources: list[Path], work: Path, label: str, engine: str
) -> tuple[list[object], list[list]]:
    config = Config()
    config.engine = "whoosh" if engine == "bm25s" else engine
    session = Session.create(work / f"data-{label}-{engine}", sources, config)
    opened, _ = session.open()
    ranked, close = ranker(engine, opened)
    by_id = {paper.id: paper for paper in opened.papers}
    titled = [p for p in opened.papers if p.source.endswith(".bib") and p.title]
    df: Counter[str] = Counter()
    for paper in opened.papers:
        df.update(content_words(f"{paper.title} {paper.text}"))
    rng = random.Random(SEED)
    wrong = random.Random(SEED)
    others = sorted({word for paper in titled for word in content_words(paper.text)})
    first = recalled_first = recalled_top5 = misremembered = 0
    title_mrr = recalled_mrr = misremembered_mrr = 0.0
    failures: list[list] = []
    for paper in titled:
        rank = rank_of(ranked, paper.title, paper.id)
        title_mrr += 1 / rank if rank else 0.0
        if rank == 1:
            first += 1
        else:
            top = ranked(paper.title)[:1]
            failures.append(
                [
                    f"{label} ({engine})",
                    paper.id,
                    paper.title[:70],
                    rank or f">{LIMIT}",
                    describe(by_id[top[0]]) if top else "",
                ]
            )
        recalled = rank_of(ranked, recalled_query(paper, df, rng), paper.id)
        recalled_mrr += 1 / recalled if recalled else 0.0
        recalled_first += recalled == 1
        recalled_top5 += recalled is not None and recalled <= 5
        query = misremembered_query(paper, others, wrong)
        if query is not None:
            rank = rank_of(ranked, query, paper.id)
            misremembered += 1
            misremembered_mrr += 1 / rank if rank else 0.0
    close()
    count = len(titled)
    row = [
        label,
        engine,
        len(opened.papers),
        count,
        100 * first / count,
        title_mrr / count,
        100 * recalled_first / count,
        100 * recalled_top5 / count,
        recalled_mrr / count,
        misremembered_mrr / max(misremembered, 1),
    ]
    return row, failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="without the distractor corpus")
    parser.add_argument(
        "--engines",
        nargs="+",
        choices=("whoosh", "tantivy", "bm25s"),
        default=["whoosh", "tantivy", "bm25s"] if tantivy_installed() else ["whoosh", "bm25s"],
    )
    args = parser.parse_args()
    bibs = corpus.titled_sources()
    if not bibs:
        return
    print(f"machine: {machine()}; corpora: {', '.join(p.name for p in bibs)}")
    seeds = [spec.path for spec in bundled_seeds()]
    rows, failures = [], []
    with tempfile.TemporaryDirectory(prefix="paperterm-bench-") as tmp:
        work = Path(tmp)
        settings = {"seeds + bib": [*seeds, *bibs]}
        if not args.quick:
            corpus.write_text(work / "synthetic", corpus.make_abstracts(DISTRACTORS))
            settings[f"+ {DISTRACTORS} synthetic"] = [*seeds, *bibs, work / "synthetic"]
        for label, sources in settings.items():
            for engine in args.engines:
                row, failed = evaluate(sources, work, label, engine)
                rows.append(row)
                failures += failed
    columns = ["index", "engine", "papers", "titled", "title first %", "title MRR"]
    columns += ["recalled first %", "recalled top-5 %", "recalled MRR", "misremembered MRR"]
    print(table(columns, rows))
    compare_engines(rows)
    if failures:
        print(f"\nExact-title searches that did not rank the paper first (limit {LIMIT})")
        print(
            table(
                ["index", "id", "title", "rank", "ranked first instead"],
                failures,
            )
        )
    worst = min(float(str(row[4])) for row in rows)
    print(
        f"\ntarget: exact title first >= {TARGET}%: {worst:.1f}% "
        f"({'met' if worst >= TARGET else 'MISSED'})"
    )


def compare_engines(rows: list[list[object]]) -> None:
    """tantivy's MRR beside Whoosh's (within the tolerance), and Whoosh's beside bm25s's
    (at or above it), index by index."""
    by = {(row[0], row[1]): row for row in rows}
    for label, engine in by:
        if engine == "whoosh" or (label, "whoosh") not in by:
            continue
        ours, theirs = by[(label, "whoosh")], by[(label, engine)]
        for name, column in (("title", 5), ("recalled", 8), ("misremembered", 9)):
            delta = float(str(theirs[column])) - float(str(ours[column]))
            if engine == "tantivy":
                verdict = "met" if abs(delta) <= MRR_TOLERANCE else "MISSED"
                target = f"within {MRR_TOLERANCE}"
            else:
                verdict = "met" if delta <= 0 else "MISSED"
                target = "whoosh at or above"
            print(
                f"{label}: {name} MRR {engine} - whoosh = {delta:+.4f} (target {target}: {verdict})"
            )


if __name__ == "__main__":
    main()
