"""A problem found in a source file, reported as one `path:line: message` line."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong with a source (line 0: the problem has no line)."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"


def sorted_out(
    path: object, found: Iterable[T | Problem], problems: list[Problem], nothing: str
) -> tuple[list[T], list[Problem]]:
    """A whole-file parse's result: the papers among `found`, and its problems (`problems`
    and those among `found`) by line; when there is neither, the one problem `nothing`."""
    papers: list[T] = []
    for item in found:
        if isinstance(item, Problem):
            problems.append(item)
        else:
            papers.append(item)
    if not papers and not problems:
        problems.append(Problem(str(path), 0, nothing))
    return papers, sorted(problems, key=lambda problem: problem.line)
