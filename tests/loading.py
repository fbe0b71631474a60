"""Parser output finished as the loader finishes it, for tests that call a parser directly."""

from __future__ import annotations

from paperterm.index.papers import Paper
from paperterm.index.problems import Problem
from paperterm.index.sources.enrich import enrich, render


def as_loaded(parsed: tuple[list[Paper], list[Problem]]) -> tuple[list[Paper], list[Problem]]:
    """A parser's (papers, problems) with each paper rendered and enriched."""
    papers, problems = parsed
    return [enrich(render(paper)) for paper in papers], problems
