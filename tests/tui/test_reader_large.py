"""50,000 papers: the list draws only what is visible (no widget per row) and stays usable."""

from __future__ import annotations

from reader_helpers import screen_text, settle

from paperterm.index.papers import Paper
from paperterm.index.sources.loader import Corpus
from paperterm.tui.rows import ROW_LINES

COUNT = 50_000


def synthetic_corpus(count: int = COUNT) -> Corpus:
    papers = [
        Paper(
            id=f"{index:012x}",
            collection=f"Synthetic {index % 7}",
            abstract=f"Abstract number {index} about topic {index % 97}.",
            text=f"Abstract number {index} about topic {index % 97}.",
            title=f"Paper {index:05d} on topic {index % 97}",
            name=f"P{index}" if index % 3 == 0 else "",
        )
        for index in range(count)
    ]
    return Corpus(papers=papers)


async def test_fifty_thousand_rows_without_a_widget_per_row(gated_reader):
    app, _session = gated_reader(corpus=synthetic_corpus())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, index=False)
        screen = app.main
        paper_list = screen.paper_list
        assert len(paper_list.rows) == COUNT
        assert f"{COUNT} papers · {COUNT} unread · 1/{COUNT} · indexing 22,500 of 50,000" in (
            screen_text(app)
        )
        assert len(list(screen.walk_children())) < 60
        assert paper_list.lines_per_row == ROW_LINES  # comfortable rows: one height each
        assert paper_list.virtual_size.height == COUNT * ROW_LINES

        await pilot.press("G")
        await pilot.pause()
        assert paper_list.cursor == COUNT - 1
        assert "Paper 49999 on topic" in screen_text(app)
        assert screen.detail.row.id == f"{COUNT - 1:012x}"

        await pilot.press("pageup", "pageup", "k")
        await pilot.pause()
        page = paper_list.scrollable_content_region.height // ROW_LINES - 1
        assert paper_list.cursor == COUNT - 2 - 2 * page
        assert f"Paper {paper_list.cursor:05d}" in screen_text(app)

        await pilot.press("g")
        await pilot.pause()
        assert paper_list.cursor == 0 and paper_list.scroll_y == 0

        await pilot.press("b", "B")
        await settle(pilot, index=False)
        assert [row.id for row in paper_list.rows] == [f"{0:012x}"]
        assert f"1 of {COUNT} papers" in screen_text(app)
        await pilot.press("B")
        await settle(pilot, index=False)
        assert len(paper_list.rows) == COUNT
