"""The agenda screen without widgets: the papers it holds, its lines, and the paper the
cursor is on.

The grouping (days, sessions, clashes, the unscheduled papers) is
index/planning/agenda.py's; this module turns an `Agenda` into lines to show (a day, a
session with its times, room and clashes in words, a paper with its poster position) and
moves a cursor over the paper lines only, so `j` / `k` never stop on a heading.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping
from datetime import date
from typing import TYPE_CHECKING, Literal, NamedTuple

from paperterm.index.planning.agenda import session_times

if TYPE_CHECKING:
    from paperterm.index.papers import Paper
    from paperterm.index.planning.agenda import Agenda, AgendaPaper, AgendaSession

LineKind = Literal["day", "session", "paper", "note"]

#: The decisions the agenda holds: kept papers, and with the maybe toggle the maybe ones.
KEPT = frozenset({"keep"})
KEPT_AND_MAYBE = frozenset({"keep", "maybe"})


class AgendaLine(NamedTuple):
    """One line of the agenda screen. `clash` is a session's clashes in words ("clash with
    Poster Session 1 (Hall B)"), shown apart from the rest so that it can stand out."""

    kind: LineKind
    text: str
    paper_id: str = ""
    clash: str = ""


def chosen_papers(
    decisions: Mapping[str, str], by_id: Mapping[str, Paper], maybe: bool
) -> list[Paper]:
    """The papers the agenda holds: those kept (and, with `maybe`, the maybe ones) that are
    in the corpus."""
    wanted = KEPT_AND_MAYBE if maybe else KEPT
    return [by_id[i] for i, decision in decisions.items() if decision in wanted and i in by_id]


def day_text(day: date | None) -> str:
    """`Wednesday 3 December 2025`; the last day, of sessions without a time, says so."""
    if day is None:
        return "Sessions without a time"
    return f"{day:%A} {day.day} {day:%B %Y}"


def session_text(session: AgendaSession) -> str:
    """`10:00–11:00 UTC-08:00 · Oral Session 1 · Room 101`."""
    parts = [session_times(session)] if session.start is not None else []
    parts.append(session.name or "(session without a name)")
    if session.room:
        parts.append(session.room)
    return " · ".join(parts)


def clash_text(session: AgendaSession) -> str:
    """`clash with Poster Session 1 (Hall B)`, every session it clashes with named; "" when
    it clashes with none."""
    if not session.clashes_with:
        return ""
    return "clash with " + ", ".join(other.place for other in session.clashes_with)


def paper_text(paper: AgendaPaper, decision: str | None) -> str:
    """`#12  Graph Priors for Tabular Data`, and `(maybe)` after a maybe paper."""
    text = f"{paper.poster}  {paper.title}" if paper.poster else paper.title
    return f"{text}  (maybe)" if decision == "maybe" else text


def agenda_lines(agenda: Agenda, decisions: Mapping[str, str]) -> list[AgendaLine]:
    """The agenda's lines: each day, its sessions in time order, their papers; then the
    papers without a session."""
    lines: list[AgendaLine] = []
    for day in agenda.days:
        lines.append(AgendaLine("day", day_text(day.date)))
        for session in day.sessions:
            lines.append(AgendaLine("session", session_text(session), clash=clash_text(session)))
            lines += _paper_lines(session.papers, decisions)
    if agenda.unscheduled:
        lines.append(AgendaLine("day", "Not scheduled (no session or time in the data)"))
        lines += _paper_lines(agenda.unscheduled, decisions)
    return lines


def _paper_lines(papers: Iterable[AgendaPaper], decisions: Mapping[str, str]) -> list[AgendaLine]:
    return [AgendaLine("paper", paper_text(p, decisions.get(p.id)), p.id) for p in papers]


def empty_lines(maybe: bool, triage_key: str, keep_key: str, maybe_key: str) -> list[AgendaLine]:
    """What an agenda with no papers says: how to keep some."""
    what = "kept or maybe papers" if maybe else "kept papers"
    return [
        AgendaLine("note", f"No {what} yet."),
        AgendaLine(
            "note",
            f"Keep papers in triage: {triage_key} in the list, then {keep_key} on a paper "
            f"({maybe_key}: maybe).",
        ),
    ]


def summary(agenda: Agenda) -> str:
    """`4 papers · 3 sessions on 2 days · 2 clash · 1 not scheduled`."""
    sessions = agenda.sessions
    papers = sum(len(s.papers) for s in sessions) + len(agenda.unscheduled)
    days = sum(1 for day in agenda.days if day.date is not None)
    parts = [
        f"{papers:,} paper{'s' * (papers != 1)}",
        f"{len(sessions):,} session{'s' * (len(sessions) != 1)} on {days:,} day{'s' * (days != 1)}",
    ]
    clashing = sum(1 for s in sessions if s.clash)
    if clashing:
        parts.append(f"{clashing:,} in a clash")
    if agenda.unscheduled:
        parts.append(f"{len(agenda.unscheduled):,} not scheduled")
    return " · ".join(parts)


class AgendaControl:
    """A cursor over the paper lines of `lines`."""

    def __init__(self, lines: list[AgendaLine], start: str | None = None) -> None:
        """The cursor on `start`'s line when the agenda holds it, else on the first paper."""
        self.lines = lines
        self.papers = [index for index, line in enumerate(lines) if line.kind == "paper"]
        self.cursor = 0
        if start is not None:
            self.go_to(start)

    @property
    def line(self) -> int | None:
        """The index in `lines` of the paper the cursor is on (None without papers)."""
        return self.papers[self.cursor] if self.papers else None

    @property
    def current(self) -> str | None:
        """The id of the paper the cursor is on."""
        line = self.line
        return self.lines[line].paper_id if line is not None else None

    def step(self, step: int) -> bool:
        """`step` papers down (up when negative), stopping at either end; False when the
        cursor was there already."""
        if not self.papers:
            return False
        cursor = min(max(self.cursor + step, 0), len(self.papers) - 1)
        moved = cursor != self.cursor
        self.cursor = cursor
        return moved

    def first(self) -> None:
        self.cursor = 0

    def last(self) -> None:
        self.cursor = max(len(self.papers) - 1, 0)

    def page(self, height: int, direction: int) -> None:
        """About a screen's `height` lines down (or up): the paper nearest that line."""
        line = self.line
        if line is None:
            return
        target = line + direction * max(height - 1, 1)
        after = bisect.bisect_left(self.papers, target)
        near = [i for i in (after - 1, after) if 0 <= i < len(self.papers)]
        self.cursor = min(near, key=lambda i: abs(self.papers[i] - target))

    def go_to(self, paper_id: str) -> bool:
        """The cursor on `paper_id`; False when the agenda does not hold it."""
        for index, line in enumerate(self.papers):
            if self.lines[line].paper_id == paper_id:
                self.cursor = index
                return True
        return False

    def choose_line(self, line: int) -> bool:
        """The cursor on line `line` (a click) when it is a paper's."""
        if line in self.papers:
            self.cursor = self.papers.index(line)
            return True
        return False

    @property
    def position(self) -> str:
        """`2/4`: the paper the cursor is on, of how many ("" without papers)."""
        return f"{self.cursor + 1:,}/{len(self.papers):,}" if self.papers else ""
