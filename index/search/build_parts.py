"""How a build cuts the engine's index into parts: their sizes, the parts a build may
keep (`Candidate`) and those it writes (`Written`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from paperterm.index.search.source_records import SourceRecords

#: A part is closed at the end of the file that takes its postings past this (a worker's
#: memory follows the part it writes).
PART_POSTINGS = 1_500_000
#: The least a part holds in a build with a writer that holds its part in memory (Whoosh):
#: a smaller build's parts are smaller, so that its workers hold less.
SMALL_PART_POSTINGS = 750_000
#: A worker's first part is closed sooner, so that a first build is searchable early on.
FIRST_PART_PAPERS = 2_000
#: More parts than this, and the smallest neighbours are written again as one: each part
#: costs every query a look-up per term.
MAX_PARTS = 12
#: A part may hold this many sources whatever their number (`part_sources`).
MIN_PART_SOURCES = 64
#: Source bytes per posting, roughly (text ~10, JSON Lines ~17): a build's estimate of the
#: postings it will write, from the bytes it reads.
BYTES_PER_POSTING = 12


@dataclass(slots=True)
class Candidate:
    """A part already written, which the new index may keep."""

    part: object
    sources: list[str]
    digest: str
    base: Path | None  # the generation folder it is in (None: this build's)


@dataclass(slots=True)
class Written:
    """A part of the new index: the sources it holds (positions), the engine's part, the
    digest of its documents and how many papers it has."""

    spots: list[int]
    part: object
    digest: str
    papers: int


def postings_per_part(bounded_writer: bool, size: int) -> int:
    """How many postings a part holds before it is closed: with a writer that holds its
    part in memory, enough that the bytes to read make about `MAX_PARTS - 4` parts, from
    `SMALL_PART_POSTINGS` to `PART_POSTINGS` (each worker holds the part it writes); with an
    engine whose writer's memory is bounded, enough that the bytes to read make at most
    `MAX_PARTS` parts with room to spare (joining many small parts again is slow work for
    the build's process)."""
    if not bounded_writer:  # a share of the postings, in parts of SMALL_ to PART_POSTINGS
        share = size // BYTES_PER_POSTING // (MAX_PARTS - 4)
        return min(PART_POSTINGS, max(SMALL_PART_POSTINGS, share))
    return max(PART_POSTINGS, size // BYTES_PER_POSTING // (MAX_PARTS // 2))


def part_sources(count: int) -> int:
    """The most sources a part holds, in a build of `count` sources: a change to one source
    writes its part again, so with many small files a part holds a share of them, not all
    the papers `PART_POSTINGS` allows."""
    return max(MIN_PART_SOURCES, -(-count // (MAX_PARTS - 2)))


def cut_runs(
    spots: list[int], sources: list[SourceRecords], postings: int, most: int
) -> list[list[int]]:
    """Consecutive sources cut into parts of about `postings` postings (estimated from the
    papers' text: a posting per distinct word, ~100 per abstract), and `most` sources at
    most."""
    runs: list[list[int]] = []
    current: list[int] = []
    size = 0
    for spot in spots:
        current.append(spot)
        size += sources[spot].chars // 11
        if size >= postings or len(current) >= most:
            runs.append(current)
            current, size = [], 0
    if current:
        runs.append(current)
    return runs


def compact_runs(
    runs: list[tuple[list[int], Candidate | None]], counts: list[int]
) -> list[tuple[list[int], Candidate | None]]:
    """At most `MAX_PARTS` parts: the two neighbours with the fewest papers together are
    joined (and written again) until there are no more."""
    runs = list(runs)

    def papers(run: tuple[list[int], Candidate | None]) -> int:
        return sum(counts[spot] for spot in run[0])

    while len(runs) > MAX_PARTS:
        pair = min(range(len(runs) - 1), key=lambda i: papers(runs[i]) + papers(runs[i + 1]))
        runs[pair : pair + 2] = [(runs[pair][0] + runs[pair + 1][0], None)]
    return runs
