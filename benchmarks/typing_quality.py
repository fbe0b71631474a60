"""Search as you type, measured: half-typed words, typos, and whether the list goes blank;
quality beside bm25s (a BM25 reference implementation) on the same queries, and the cost of
every keystroke at 2,600 abstracts.

The papers are the real ones of the PMLR BibTeX files in `<repo>/../shared/corpora/` (MIDL
2024, ENLSP 2024), indexed with their titles HIDDEN: each title (and the name taken from it)
is replaced by what paperterm derives from the abstract, as for a source without titles. The
queries come from the real titles, so a paper is found through its abstract only. For each
paper whose title has 3 words or more (words of letters, not stop words, the last of 4
letters or more), drawn at random with a fixed seed, kept in title order:

  clean   the 3 words, as a user types them ("graph neural networks")
  (a)     the last word cut to its first 3 letters ("graph neural net")
  (b)     the 3 words with one typo (a deletion, substitution or transposition, not at the
          first letter) in one word of 5 letters or more, drawn at random
  (c)     every keystroke state of each clean query ("g", "gr", ... "graph neural networ"):
          the share of states whose list is empty although the finished query has hits
  title   the whole title pasted: few abstracts hold every word of their title, so this
          measures the "most of your words" fallback (and `--sweep` its minimum)

Score: MRR@10 (1/rank of the paper when in the top 10, else 0). Targets: (a) >= 0.85 x clean,
(b) >= 0.9 x clean, (c) <= 1% blank. bm25s gets the same strings, with its own tokenizer,
English stop words and Snowball stemmer (`pip install '.[bench]'`); for (a) and (c) that is
the text as typed, which is the point of the comparison. Its "blank" is a list whose every
score is 0 (no word of the query in any paper).

The cost part builds a 2,600-abstract corpus (`corpus.py`, sentences of the same papers),
feeds every keystroke state of the clean, (a) and (b) queries to one `paperterm search
--json -` process (snippets included, limit 10) and reports its `took_ms` per query (wall
time inside the search) and the process's CPU time per query; then the same states
in-process with each query's CPU time. Targets: <= 15 ms mean, <= 100 ms max.

    python benchmarks/typing_quality.py [--seed N] [--quick] [--no-cost]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import corpus
from measure import load_average, machine, percentile, table
from whoosh.analysis import STOP_WORDS
from whoosh.index import Index

from paperterm.index.config import Config
from paperterm.index.papers import Paper
from paperterm.index.search.query import parse_query
from paperterm.index.search.searcher import Searcher
from paperterm.index.search.vocabulary import Vocabulary
from paperterm.index.search.whoosh.index import WhooshFiles, paper_document
from paperterm.index.session import Session
from paperterm.index.sources.enrich import enrich
from paperterm.index.sources.files import SourceSpec
from paperterm.index.sources.loader import load_sources

SEED = 2
LIMIT = 10
_LETTERS = re.compile(r"[A-Za-z]+")
_ALPHABET = "abcdefghijklmnopqrstuvwxyz"
TARGETS = {"a": 0.85, "b": 0.90, "c": 1.0}


@dataclass(frozen=True, slots=True)
class Query:
    paper_id: str
    clean: str
    cut: str
    typo: str | None
    #: The whole title, pasted (its words are mostly more than 3: "most of your words").
    title: str


# --- the corpus with its titles hidden ---------------------------------------------------------


def hidden_title_corpus(bibs: list[Path]) -> tuple[list[Paper], dict[str, str]]:
    """The papers of `bibs` with title and name derived from the abstract, as if the source
    had none, and the real titles by paper id."""
    loaded = load_sources([SourceSpec(path) for path in bibs])
    papers: list[Paper] = []
    titles: dict[str, str] = {}
    for paper in loaded.papers:
        if not paper.title or len(paper.text) < 200 or paper.title.lower().startswith("preface"):
            continue
        titles[paper.id] = paper.title
        paper.title = ""
        paper.name = ""
        papers.append(enrich(paper))
    return papers, titles


def distractors(
    count: int, papers: list[Paper] | None = None, seed: int = corpus.DEFAULT_SEED
) -> list[Paper]:
    """`count` synthetic abstracts (`corpus.py`: sentences of the PMLR papers and the seeds,
    or of `papers` when given, resampled with `seed`), read as a seed-format list is (no
    titles)."""
    pool = None
    if papers is not None:
        sentences = (s for p in papers for s in corpus.split_sentences(p.text))
        pool = list(dict.fromkeys(s for s in sentences if corpus.usable(s)))
    with tempfile.TemporaryDirectory(prefix="paperterm-distractors-") as tmp:
        source = Path(tmp) / "synthetic"
        corpus.write_text(source, corpus.make_abstracts(count, seed=seed, pool=pool))
        return load_sources([SourceSpec(source)]).papers


# --- queries ---------------------------------------------------------------------------------


def title_words(title: str) -> list[str]:
    """Its words of letters, two at least ("3D" gives no "d"), less the stop words."""
    words = (w.lower() for w in _LETTERS.findall(title) if len(w) >= 2)
    return [w for w in words if w not in STOP_WORDS]


def typo(word: str, rng: random.Random) -> str:
    """One deletion, substitution or transposition, never at the first letter."""
    while True:
        kind = rng.choice(("deletion", "substitution", "transposition"))
        i = rng.randrange(1, len(word) - (kind == "transposition"))
        if kind == "deletion":
            wrong = word[:i] + word[i + 1 :]
        elif kind == "substitution":
            wrong = word[:i] + rng.choice(_ALPHABET.replace(word[i], "")) + word[i + 1 :]
        else:
            wrong = word[:i] + word[i + 1] + word[i] + word[i + 2 :]
        if wrong != word:
            return wrong


def make_queries(titles: dict[str, str], seed: int) -> list[Query]:
    rng = random.Random(seed)
    queries: list[Query] = []
    for paper_id, title in sorted(titles.items()):
        words = list(dict.fromkeys(title_words(title)))
        if len(words) < 3:
            continue
        picked = sorted(rng.sample(range(len(words)), 3))
        chosen = [words[i] for i in picked]
        if len(chosen[-1]) < 4:
            continue
        long_enough = [i for i, word in enumerate(chosen) if len(word) >= 5]
        mistyped = None
        if long_enough:
            at = rng.choice(long_enough)
            mistyped = " ".join(typo(w, rng) if i == at else w for i, w in enumerate(chosen))
        clean = " ".join(chosen)
        cut = " ".join([*chosen[:-1], chosen[-1][:3]])
        queries.append(Query(paper_id, clean, cut, mistyped, title))
    return queries


def keystrokes(text: str) -> list[str]:
    return [text[:end] for end in range(1, len(text) + 1)]


# --- the two searchers -------------------------------------------------------------------------

#: text -> (ranked ids, whether the list is empty)
Search = Callable[[str], tuple[list[str], bool]]


def paperterm_search(searcher: Searcher) -> Search:
    def search(text: str) -> tuple[list[str], bool]:
        results = searcher.search(text, limit=LIMIT, snippets=False)
        return results.ids, results.total == 0

    return search


def bm25s_search(papers: list[Paper], limit: int = LIMIT) -> Search | None:
    try:
        import bm25s
        import Stemmer
    except ImportError:
        return None
    stemmer = Stemmer.Stemmer("english")
    # `all` comes in parts (name, title, text, authors, collections): Whoosh joins them by
    # newlines, and so does this.
    texts = ["\n".join(paper_document(paper)["all"]) for paper in papers]
    tokens = bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False)
    retriever = bm25s.BM25()
    retriever.index(tokens, show_progress=False)
    ids = [paper.id for paper in papers]

    def search(text: str) -> tuple[list[str], bool]:
        query = bm25s.tokenize(
            [text], stopwords="en", stemmer=stemmer, show_progress=False, return_ids=False
        )
        if not query[0]:
            return [], True
        found, scores = retriever.retrieve(query, k=min(limit, len(ids)), show_progress=False)
        ranked = [ids[int(doc)] for doc, score in zip(found[0], scores[0], strict=True) if score]
        return ranked, not ranked

    return search


def mrr(search: Search, pairs: list[tuple[str, str]]) -> float:
    total = 0.0
    for text, paper_id in pairs:
        ranked, _ = search(text)
        if paper_id in ranked:
            total += 1 / (ranked.index(paper_id) + 1)
    return total / len(pairs)


def blank_share(search: Search, texts: list[str]) -> tuple[float, int, list[str]]:
    """% of the keystroke states of `texts` (finished queries with hits) whose list is
    empty; how many states were checked; a few of the blank ones."""
    states = blanks = 0
    examples: list[str] = []
    for text in texts:
        if search(text)[1]:
            continue  # the finished query has no hits: not counted
        for state in keystrokes(text):
            if not state.strip():
                continue
            states += 1
            if search(state)[1]:
                blanks += 1
                if len(examples) < 5:
                    examples.append(state)
    return 100 * blanks / max(states, 1), states, examples


def scores(search: Search, queries: list[Query]) -> tuple[dict[str, float], list[str]]:
    """Every measure of one engine on `queries`, and a few of its blank states."""
    typos = [q for q in queries if q.typo is not None]
    found = {
        "clean": mrr(search, [(q.clean, q.paper_id) for q in queries]),
        "a": mrr(search, [(q.cut, q.paper_id) for q in queries]),
        "b clean": mrr(search, [(q.clean, q.paper_id) for q in typos]),
        "b": mrr(search, [(q.typo or "", q.paper_id) for q in typos]),
        "title": mrr(search, [(q.title, q.paper_id) for q in queries]),
    }
    found["c"], found["states"], examples = blank_share(search, [q.clean for q in queries])
    found["c typo"], _, _ = blank_share(search, [q.typo or "" for q in typos])
    return found, examples


HEADERS = [
    "engine",
    "clean MRR",
    "(a) cut MRR",
    "(a)/clean",
    "clean MRR (b set)",
    "(b) typo MRR",
    "(b)/clean",
    "(c) blank %",
    "states",
    "blank % typing (b)",
    "title MRR",
]


def row(name: str, found: dict[str, float]) -> list[object]:
    return [
        name,
        round(found["clean"], 3),
        round(found["a"], 3),
        round(found["a"] / found["clean"], 3),
        round(found["b clean"], 3),
        round(found["b"], 3),
        round(found["b"] / found["b clean"], 3),
        round(found["c"], 2),
        int(found["states"]),
        round(found["c typo"], 2),
        round(found["title"], 3),
    ]


def quality(queries: list[Query], searches: dict[str, Search]) -> None:
    rows, blanks = [], {}
    for name, search in searches.items():
        found, blanks[name] = scores(search, queries)
        rows.append(row(name, found))
    print(table(HEADERS, rows))
    ours = rows[0]
    print(
        f"targets: (a) >= {TARGETS['a']} x clean: {ours[3]}; (b) >= {TARGETS['b']} x clean: "
        f"{ours[6]}; (c) <= {TARGETS['c']}% blank: {ours[7]}%"
    )
    for name, examples in blanks.items():
        if examples:
            print(f"{name}: blank states, e.g. {examples}")


# --- the choices, measured -------------------------------------------------------------------

_MINIMUMS: dict[str, Callable[[int], int]] = {
    "1": lambda n: 1,
    "ceil(n/2)": lambda n: -(-n // 2),
    "ceil(2n/3)": lambda n: -(-2 * n // 3),
    "n-1": lambda n: max(1, n - 1),
}


def sweep(queries: list[Query], searcher: Searcher, only: list[str] | None) -> None:
    """Each choice in turn (those named in `only`), the others as shipped: the paperterm
    measures of each value."""
    from paperterm.index.search import correction as correction_module
    from paperterm.index.search import plan as plan_module

    #: (what, module, name, values): the values each choice was measured with; the first
    #: is what the code ships.
    choices = [
        ("minimum of n words", plan_module, "fallback_minimum", ["1", "ceil(n/2)", "ceil(2n/3)"]),
        ("correct a rare word at ratio", correction_module, "RARE_RATIO", [200, 10, 20, 50, 10**9]),
        ("completion weight", plan_module, "PARTIAL_WEIGHT", [0.5, 0.3, 0.8, 1.0]),
        ("typing postings per paper", plan_module, "TYPING_POSTINGS_PER_PAPER", [1.0, 0.5, 2.0]),
    ]
    search = paperterm_search(searcher)
    if not only or "RARE_RATIO" in only:
        rare_word_corrections(searcher, [10, 20, 50, 100, 200])
    for what, module, name, values in choices:
        if only and name not in only:
            continue
        shipped = getattr(module, name)
        rows = []
        try:
            for value in values:
                setattr(module, name, _MINIMUMS[value] if isinstance(value, str) else value)
                rows.append(row(f"{what} {value}", scores(search, queries)[0]))
        finally:
            setattr(module, name, shipped)
        print(table(HEADERS, rows) + "\n")


def rare_word_corrections(searcher: Searcher, ratios: list[int]) -> None:
    """What the rare-word rule would correct among the words of the index itself (each
    written right, or a typo of the corpus: `segmetnation`), at each ratio."""
    from paperterm.index.search import correction as correction_module

    planner, vocabulary = searcher.planner, searcher.vocabulary
    shipped = correction_module.RARE_RATIO
    held = [
        word
        for word in vocabulary.words
        if len(word) >= correction_module.MIN_CORRECTED
        and word.isalpha()
        and planner.df("all", planner.term("all", word) or "")
    ]
    rows = []
    try:
        for ratio in ratios:
            correction_module.RARE_RATIO = ratio
            fired = []
            for word in held:
                found = searcher.corrector.correct(parse_query(word + " "))
                if found is not None:
                    fired.append(f"{word}>{found.changes[0][1]}")
            rows.append(
                [ratio, len(fired), " ".join(fired[:12]) + (" …" if len(fired) > 12 else "")]
            )
    finally:
        correction_module.RARE_RATIO = shipped
    print(f"words of the index ({len(held)}) the rare-word rule corrects, by ratio:")
    print(table(["ratio", "corrected", "e.g."], rows) + "\n")


# --- cost at 2,600 -----------------------------------------------------------------------------


def cost(queries: list[Query], papers: int) -> None:
    states = sorted(
        {
            state
            for q in queries
            for text in (q.clean, q.cut, q.typo)
            if text
            for state in keystrokes(text)
            if state.strip()
        }
    )
    with tempfile.TemporaryDirectory(prefix="paperterm-typing-") as tmp:
        source = Path(tmp) / "corpus"
        corpus.write_text(source, corpus.make_abstracts(papers))
        data = Path(tmp) / "data"
        opened, _ = Session.create(data, [source], Config()).open()
        command = [
            sys.executable,
            "-m",
            "paperterm.tui.cli.main",
            "--data-dir",
            str(data),
            "--source",
            str(source),
            "search",
            "--json",
            "--limit",
            str(LIMIT),
            "-",
        ]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(
            command, input="\n".join(states) + "\n", capture_output=True, text=True, check=True
        )
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        answers = [json.loads(line) for line in done.stdout.splitlines()]
        took = [answer["took_ms"] for answer in answers]
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        searcher = Searcher(opened.ix, opened.papers, opened.vocabulary())
        by_length: dict[str, list[float]] = {"1 letter": [], "2 letters": [], "longer": []}
        cpu_each: list[float] = []
        for state in states:
            begun = time.process_time()
            searcher.search(state, limit=LIMIT)
            spent = (time.process_time() - begun) * 1000
            cpu_each.append(spent)
            key = {1: "1 letter", 2: "2 letters"}.get(len(state.strip()), "longer")
            by_length[key].append(spent)
        searcher.close()
    print(
        f"{len(states)} keystroke states at {len(opened.papers)} abstracts; "
        f"`paperterm search --json -`: {wall:.1f} s wall, {cpu:.1f} s CPU for the process "
        f"(start and index open included): {1000 * cpu / len(states):.1f} ms CPU per query"
    )
    rows = [
        ["CLI batch, took_ms (wall)", len(took), *_stats(took)],
        ["in-process, CPU ms", len(cpu_each), *_stats(cpu_each)],
        *[[f"  of which {k}", len(v), *_stats(v)] for k, v in by_length.items() if v],
    ]
    print(table(["per keystroke state", "queries", "mean", "p50", "p95", "max"], rows))
    print(f"targets: mean <= 15 ms, max <= 100 ms; load average {load_average()}")


def _stats(values: list[float]) -> list[float]:
    return [
        round(statistics.fmean(values), 2),
        round(percentile(values, 50), 2),
        round(percentile(values, 95), 2),
        round(max(values), 2),
    ]


def disk_index(folder: Path, papers: list[Paper]) -> Index:
    """A Whoosh index of `papers` in `folder`, one segment, as a build writes one part."""
    engine = WhooshFiles()
    writer = engine.part_writer(folder)
    for paper in papers:
        writer.add(paper)
    engine.commit(folder, [writer.finish()])
    return engine.open(folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=SEED, help="the query sample's seed")
    parser.add_argument("--quick", action="store_true", help="cost at 2,600: clean states only")
    parser.add_argument("--no-cost", action="store_true", help="quality only")
    parser.add_argument("--no-quality", action="store_true", help="cost only")
    parser.add_argument("--sweep", action="store_true", help="measure each choice's values")
    parser.add_argument("--only", nargs="*", help="with --sweep: these choices (by name)")
    parser.add_argument("--papers", type=int, default=2600, help="corpus size for the cost")
    parser.add_argument(
        "--sources",
        nargs="*",
        type=Path,
        help="measure on these titled files instead of the PMLR volumes (a tuning set)",
    )
    parser.add_argument(
        "--distractors",
        type=int,
        default=0,
        help="add this many synthetic abstracts (corpus.py) to the quality index",
    )
    parser.add_argument(
        "--distractor-seed",
        type=int,
        default=corpus.DEFAULT_SEED,
        help="the seed the distractors are drawn with (another draw: another seed)",
    )
    args = parser.parse_args()
    bibs = args.sources or corpus.titled_sources()
    if not bibs:
        return
    print(f"machine: {machine()}; corpora: {', '.join(p.name for p in bibs)}; seed {args.seed}")
    papers, titles = hidden_title_corpus(bibs)
    if args.distractors:
        pool = papers if args.sources else None
        papers += distractors(args.distractors, pool, args.distractor_seed)
    folder = tempfile.TemporaryDirectory(prefix="paperterm-typing-")
    searcher = Searcher(disk_index(Path(folder.name), papers), papers, Vocabulary.of_papers(papers))
    queries = make_queries(titles, args.seed)
    typos = sum(q.typo is not None for q in queries)
    print(
        f"{len(titles)} papers, titles hidden, {args.distractors} synthetic distractors "
        f"(seed {args.distractor_seed}); "
        f"{len(queries)} queries, {typos} with a typo\n"
    )
    if not args.no_quality:
        searches = {"paperterm": paperterm_search(searcher)}
        peer = bm25s_search(papers)
        if peer is None:
            print("(bm25s or PyStemmer is not installed: pip install '.[bench]')")
        else:
            searches["bm25s"] = peer
        quality(queries, searches)
    if args.sweep:
        print()
        sweep(queries, searcher, args.only)
    searcher.close()
    folder.cleanup()
    if not args.no_cost:
        print()
        if args.quick:
            queries = [Query(q.paper_id, q.clean, q.clean, None, q.title) for q in queries]
        cost(queries, args.papers)


if __name__ == "__main__":
    main()
