"""The agenda screen's lines and cursor, without Textual."""

from __future__ import annotations

from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from paperterm.index.papers import Paper
from paperterm.index.planning.agenda import build_agenda
from paperterm.tui.controllers.agenda import (
    AgendaControl,
    AgendaLine,
    agenda_lines,
    chosen_papers,
    day_text,
    empty_lines,
    summary,
)


def paper(pid: str, **fields: object) -> Paper:
    fields.setdefault("title", f"Title {pid}")
    return Paper(id=pid, collection="conf", abstract="", **fields)  # type: ignore[arg-type]


PAPERS = [
    paper(
        "o",
        session="Orals 1",
        room="Room 101",
        start="2025-12-03T10:00:00-08:00",
        end="2025-12-03T11:00:00-08:00",
    ),
    paper(
        "p",
        session="Posters 1",
        room="Hall B",
        start="2025-12-03T10:30:00-08:00",
        end="2025-12-03T12:30:00-08:00",
        poster="#12",
    ),
    paper(
        "q",
        session="Posters 1",
        room="Hall B",
        start="2025-12-03T10:30:00-08:00",
        end="2025-12-03T12:30:00-08:00",
        poster="#3",
    ),
    paper("n", session="Posters 2", room="Hall B", start="2025-12-04T15:00:00-08:00"),
    paper("u"),
]
DECISIONS = {"o": "keep", "p": "keep", "q": "maybe", "n": "keep", "u": "keep", "s": "skip"}


def lines(maybe: bool = True) -> list[AgendaLine]:
    by_id = {p.id: p for p in PAPERS}
    return agenda_lines(build_agenda(chosen_papers(DECISIONS, by_id, maybe)), DECISIONS)


def test_kept_papers_and_with_the_toggle_the_maybe_ones() -> None:
    by_id = {p.id: p for p in PAPERS}
    assert [p.id for p in chosen_papers(DECISIONS, by_id, False)] == ["o", "p", "n", "u"]
    assert [p.id for p in chosen_papers(DECISIONS, by_id, True)] == ["o", "p", "q", "n", "u"]
    assert chosen_papers({"gone": "keep"}, by_id, False) == []  # not in the corpus


def test_lines_by_day_session_and_paper_with_clashes_in_words() -> None:
    assert lines() == [
        AgendaLine("day", "Wednesday 3 December 2025"),
        AgendaLine(
            "session",
            "10:00–11:00 UTC-08:00 · Orals 1 · Room 101",
            clash="clash with Posters 1 (Hall B)",
        ),
        AgendaLine("paper", "Title o", "o"),
        AgendaLine(
            "session",
            "10:30–12:30 UTC-08:00 · Posters 1 · Hall B",
            clash="clash with Orals 1 (Room 101)",
        ),
        AgendaLine("paper", "#3  Title q  (maybe)", "q"),
        AgendaLine("paper", "#12  Title p", "p"),
        AgendaLine("day", "Thursday 4 December 2025"),
        AgendaLine("session", "15:00–16:00 (assumed) UTC-08:00 · Posters 2 · Hall B"),
        AgendaLine("paper", "Title n", "n"),
        AgendaLine("day", "Not scheduled (no session or time in the data)"),
        AgendaLine("paper", "Title u", "u"),
    ]


def test_a_day_of_sessions_without_a_time_says_so() -> None:
    assert day_text(None) == "Sessions without a time"
    assert day_text(date(2025, 12, 7)) == "Sunday 7 December 2025"


def test_the_cursor_moves_over_papers_only_and_stops_at_either_end() -> None:
    control = AgendaControl(lines())
    assert control.current == "o" and control.line == 2
    assert control.step(1) and control.current == "q"
    assert control.step(2) and control.current == "n"
    assert control.step(5) and control.current == "u"
    assert not control.step(1)
    control.first()
    assert not control.step(-1) and control.current == "o"
    control.last()
    assert control.current == "u" and control.position == "5/5"


def test_the_cursor_starts_on_a_paper_when_the_agenda_holds_it() -> None:
    assert AgendaControl(lines(), "n").current == "n"
    assert AgendaControl(lines(), "gone").current == "o"
    control = AgendaControl(lines())
    assert control.go_to("p") and control.current == "p"
    assert not control.go_to("s")


def test_a_page_moves_to_the_paper_nearest_a_screen_away() -> None:
    control = AgendaControl(lines())
    control.page(6, 1)  # from line 2 to about line 7
    assert control.current == "n"
    control.page(6, -1)
    assert control.current == "o"


def test_a_click_on_a_heading_does_not_move() -> None:
    control = AgendaControl(lines())
    assert not control.choose_line(0)
    assert control.choose_line(5) and control.current == "p"


def test_no_papers_no_cursor_and_a_line_on_how_to_keep_some() -> None:
    control = AgendaControl(empty_lines(False, "T", "1", "2"))
    assert control.current is None and control.line is None and control.position == ""
    assert not control.step(1)
    control.page(10, 1)
    assert control.lines[1].text == (
        "Keep papers in triage: T in the list, then 1 on a paper (2: maybe)."
    )
    assert empty_lines(True, "T", "1", "2")[0].text == "No kept or maybe papers yet."


def test_the_summary_counts_papers_sessions_days_clashes() -> None:
    by_id = {p.id: p for p in PAPERS}
    agenda = build_agenda(chosen_papers(DECISIONS, by_id, False))
    assert summary(agenda) == "4 papers · 3 sessions on 2 days · 2 in a clash · 1 not scheduled"
    assert summary(build_agenda([])) == "0 papers · 0 sessions on 0 days"


_TIMES = st.sampled_from(
    ["", "2025-12-03T10:00:00-08:00", "2025-12-03T10:30:00-08:00", "2025-12-04T09:00:00+01:00"]
)


@st.composite
def kept_papers(draw: st.DrawFn) -> tuple[list[Paper], dict[str, str]]:
    count = draw(st.integers(0, 12))
    papers = [
        paper(
            f"p{index}",
            session=draw(st.sampled_from(["", "Orals", "Posters"])),
            room=draw(st.sampled_from(["", "Hall A", "Hall B"])),
            start=draw(_TIMES),
            poster=draw(st.sampled_from(["", "#1", "#12"])),
        )
        for index in range(count)
    ]
    kinds = st.sampled_from(["keep", "maybe", "skip"])
    return papers, {p.id: draw(kinds) for p in papers}


@given(kept_papers(), st.booleans(), st.lists(st.integers(-5, 5), max_size=20))
def test_the_cursor_is_always_on_one_of_the_chosen_papers(
    chosen: tuple[list[Paper], dict[str, str]], maybe: bool, steps: list[int]
) -> None:
    papers, decisions = chosen
    by_id = {p.id: p for p in papers}
    wanted = chosen_papers(decisions, by_id, maybe)
    control = AgendaControl(agenda_lines(build_agenda(wanted), decisions))
    assert sorted(control.lines[i].paper_id for i in control.papers) == sorted(p.id for p in wanted)
    for step in steps:
        control.step(step)
        if step % 3 == 0:
            control.page(4, 1 if step > 0 else -1)
        if wanted:
            assert control.line is not None and control.lines[control.line].kind == "paper"
        else:
            assert control.current is None
