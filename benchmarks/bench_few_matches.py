"""What ranking the papers with any word of a three-word query costs a keystroke.

Builds (or reuses, in DIR) an index of N synthetic abstracts (`corpus.py`), then searches
every keystroke state of the clean 3-word queries of `typing_quality.py` (limit 50, with
snippets) in this process, with the any-word ranking off (`plan.BEST_MATCH_WORDS` past any
query: the fallback only when no paper has every word) and on (as shipped), twice each, and
prints the CPU ms per state (`--json`: one JSON object, `runs` holding each pass's figures).
The queries come from the real titles in `<repo>/../shared/corpora/`.

    python benchmarks/bench_few_matches.py DIR [--papers 50000] [--json]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import corpus
import typing_quality
from measure import load_average, people_output, print_json

from paperterm.index.config import Config
from paperterm.index.search import plan as plan_module
from paperterm.index.search.searcher import Searcher
from paperterm.index.session import Session


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="where the corpus and its index stay")
    parser.add_argument("--papers", type=int, default=50_000)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    bibs = corpus.titled_sources()
    if not bibs:
        print("bench_few_matches.py: the PMLR BibTeX files were not found", file=sys.stderr)
        return 1
    with people_output(args.json):
        results = measure(args.folder, args.papers)
    if args.json:
        print_json(results)
    return 0


def measure(folder: Path, papers: int) -> dict[str, object]:
    """Print each pass's figures; them, for `--json`."""
    bibs = corpus.titled_sources()
    source = folder / "corpus"
    if not source.exists():
        corpus.write_text(source, corpus.make_abstracts(papers))
    opened, _ = Session.create(folder / "data", [source], Config()).open()
    searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
    _, titles = typing_quality.hidden_title_corpus(bibs)
    queries = typing_quality.make_queries(titles, typing_quality.SEED)
    states = [state for query in queries for state in typing_quality.keystrokes(query.clean)]
    shipped = plan_module.BEST_MATCH_WORDS
    print(f"{len(opened.papers)} papers, {len(states)} keystroke states")
    runs: list[dict[str, object]] = []
    for words in (10**6, shipped, 10**6, shipped):
        plan_module.BEST_MATCH_WORDS = words
        times = []
        for state in states:
            started = time.process_time()
            searcher.search(state, limit=50, snippets=True)
            times.append(1000 * (time.process_time() - started))
        times.sort()
        runs.append(
            {
                "any_word": words == shipped,
                "mean": statistics.mean(times),
                "p50": times[len(times) // 2],
                "p95": times[int(len(times) * 0.95)],
                "max": times[-1],
            }
        )
        print(
            f"BEST_MATCH_WORDS {words}: mean {statistics.mean(times):.2f} ms, "
            f"p50 {times[len(times) // 2]:.2f}, p95 {times[int(len(times) * 0.95)]:.2f}, "
            f"max {times[-1]:.1f}"
        )
    plan_module.BEST_MATCH_WORDS = shipped
    print(f"load average {load_average()}")
    return {"papers": len(opened.papers), "states": len(states), "runs": runs}


if __name__ == "__main__":
    sys.exit(main())
