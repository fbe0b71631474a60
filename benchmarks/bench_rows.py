"""CPU the list spends drawing its lines for one frame, comfortable rows against compact
ones, at 120x40 (`python benchmarks/bench_rows.py DIR`, DIR a `bench_reader.py --keep`
size folder, such as KEEP/50000, with its `corpus` and `data`). For each density: the
frame right after new rows (as after each search: every cache empty) and after a cursor
move (titles wrapped already). The app runs under Textual's test driver, but only the
`render_line` calls are timed (process_time), not its waits."""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path

from paperterm.index.config import Config
from paperterm.index.session import Session
from paperterm.tui.app import make_app
from paperterm.tui.clipboard import Clipboard
from paperterm.tui.state import Timing

FRAMES = 60


def quantiles(values: list[float]) -> str:
    ordered = sorted(values)
    return f"{statistics.median(ordered):.2f} / {ordered[int(len(ordered) * 0.95)]:.2f}"


async def bench(folder: Path) -> None:
    config = Config()
    session = Session.create(folder / "data", [folder / "corpus"], config)
    timing = Timing(debounce=0, related=0, related_typing=0, bookmark_poll=None, quiet=0)
    app = make_app(session, config, timing=timing, environ={}, copier=Clipboard({}))
    async with app.run_test(size=(120, 40)) as pilot:
        while not app.main.paper_list.rows or not app.state.searcher:
            await pilot.pause(0.1)
        paper_list = app.main.paper_list
        rows, height = paper_list.rows, paper_list.size.height
        print(f"{len(rows)} papers, {height} list lines; ms p50 / p95 of {FRAMES} frames")
        for density in ("comfortable", "compact") * 2:
            paper_list.set_density(density)
            await pilot.pause()
            fresh, moved = [], []
            for frame in range(FRAMES):
                paper_list.set_rows(rows)
                paper_list.move_to(frame * 97 % (len(rows) - 50))
                for times in (fresh, moved):
                    started = time.process_time()
                    for y in range(height):
                        paper_list.render_line(y)
                    times.append((time.process_time() - started) * 1000)
                    paper_list.move_to(paper_list.cursor + 1)
            print(f"{density:12} new rows {quantiles(fresh)}, cursor moved {quantiles(moved)}")
        app.exit()


if __name__ == "__main__":
    asyncio.run(bench(Path(sys.argv[1])))
