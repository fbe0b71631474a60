"""CPU the reader's UI thread spends on a sort or a saved search's view at a large corpus,
before and after the orders moved to the sort worker (`python benchmarks/bench_sort_ui.py
[PAPERS]`, default 500,000). Each line: what the UI thread runs, its CPU (process_time) and
wall time; "worker" lines are what moved off it. Synthetic rows: 2% read, 50 bookmarks,
scores for 5% of the papers; the reading store's check that a save changed nothing."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime, timezone
from functools import partial
from typing import Any

from paperterm.index.library.sorting import SortKeys
from paperterm.tui.view import PaperRows


class Rows:
    """A corpus as a `PaperList` is to `SortKeys`: ids and rows, no papers."""

    def __init__(self, count: int) -> None:
        self.ids = tuple(f"{(i * 7919) % count:012x}" for i in range(count))
        self._count = count

    def __len__(self) -> int:
        return self._count

    def row(self, index: int) -> tuple[Any, ...]:
        paper_id = self.ids[index]
        return paper_id, "", f"Title {paper_id[::-1]}", (), 1990 + index % 35, (), paper_id

    def __iter__(self) -> Iterator[Any]:
        raise TypeError("read by row")


def measure(what: str, run: Callable[[], object]) -> None:
    cpu, wall = time.process_time(), time.perf_counter()
    run()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(f"{what:<58} cpu {cpu * 1000:8.1f} ms   wall {wall * 1000:8.1f} ms")


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 500_000
    papers = Rows(count)
    read = dict.fromkeys(papers.ids[::50], 1)
    bookmarked = dict.fromkeys(papers.ids[:50], 1)
    scores = {paper_id: (i % 97) / 97 for i, paper_id in enumerate(papers.ids[::20])}
    inputs = {"read": read, "bookmarked": bookmarked, "scores": scores}
    with open("/proc/loadavg") as loadavg:
        print(f"{count} papers; load {loadavg.read().split()[:3]}")

    keys = SortKeys(papers)  # type: ignore[arg-type]
    ids = papers.ids
    measure(
        "before: unread first on the UI thread (two passes)",
        lambda: (
            [i for i, p in enumerate(ids) if p not in read]
            + [i for i, p in enumerate(ids) if p in read]
        ),
    )
    measure(
        "before: like my bookmarks on the UI thread (a sort)",
        lambda: keys.order(list(range(len(ids))), ids.__getitem__, "like", **inputs),
    )
    table = partial(dict, zip(ids, range(count), strict=True))
    measure("before: id -> place table on the UI thread", table)
    for sort in ("unread", "like"):
        ready = partial(keys.ready, sort, whole=True, **inputs)
        measure(f"after: {sort} ready? (UI thread)", ready)
        steps = partial(keys.steps_for, sort, whole=True, **inputs)
        measure(f"worker: {sort} steps", lambda steps=steps: list(steps()))
        measure(f"after: {sort} order (UI thread, computed)", partial(keys.ordered, sort, **inputs))
    fresh = SortKeys(papers)  # type: ignore[arg-type]
    measure("before: first rows of a saved title sort (worker, then shown)", fresh.prepare)
    measure(
        "after: first rows at once in corpus order (UI thread)",
        lambda: len(PaperRows(papers, None)),  # type: ignore[arg-type]
    )
    measure("worker: id -> place table (find_search_matches)", lambda: keys.position)
    measure("after: id -> place table (UI thread, made in the worker)", lambda: keys.position)
    for every in (50, 1):
        # A save that changed nothing keeps the store's dict (OpLogStore._publish): the
        # unread and like orders above stay ready. Equal entries, other objects (as parsed).
        shown, saved = _read_at(ids[::every]), _read_at(ids[::every])
        measure(
            f"saving thread: equal check of {len(shown):,} read entries",
            lambda shown=shown, saved=saved: shown == saved,
        )


def _read_at(ids: Sequence[str]) -> dict[str, datetime]:
    """Read times of `ids`, new objects at each call."""
    return {
        paper_id: datetime.fromtimestamp(1.7e9 + i, timezone.utc) for i, paper_id in enumerate(ids)
    }


if __name__ == "__main__":
    main()
