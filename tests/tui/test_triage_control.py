"""Triage without a terminal (tui/controllers/triage.py): where a decision moves on to,
`j` / `k`, resuming, the progress line; and the library's decision changes (one undo step
for a decision and its read mark, saved decision first)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from test_controllers import Face, make_state

from paperterm.index.library.decisions import DecisionStore
from paperterm.index.library.reading import ReadingStore
from paperterm.tui.controllers.library import LibraryControl
from paperterm.tui.controllers.triage import Progress, TriageControl, first_undecided, progress

IDS = ["a", "b", "c", "d", "e"]


def control(decisions: dict[str, str], ids: list[str] = IDS) -> TriageControl:
    return TriageControl(ids, lambda: decisions)


def test_resume_starts_at_the_first_undecided_paper():
    triage = control({"a": "keep", "b": "skip"})
    assert triage.resume("e") and triage.current == "c"


def test_resume_with_every_paper_decided_starts_at_the_fallback():
    every = dict.fromkeys(IDS, "maybe")
    triage = control(every)
    assert not triage.resume("d") and triage.current == "d"
    assert not triage.resume("gone") and triage.current == "a"
    assert not control({}, []).resume() and control({}, []).current is None


def test_a_decision_moves_to_the_next_undecided_and_wraps_to_the_top():
    decisions: dict[str, str] = {"c": "keep"}
    triage = control(decisions)
    triage.resume()
    decisions["a"] = "keep"
    assert triage.next_undecided() and triage.current == "b"
    decisions["b"] = "skip"
    assert triage.next_undecided() and triage.current == "d"  # c was decided already
    triage.step(1)
    decisions["e"] = "maybe"
    decisions["d"] = "maybe"
    assert not triage.next_undecided() and triage.current == "e"  # all decided: stays
    del decisions["b"]
    assert triage.next_undecided() and triage.current == "b"  # from the top


def test_j_and_k_move_one_paper_decided_or_not_and_stop_at_the_ends():
    triage = control({"b": "keep"})
    triage.resume()
    assert triage.step(1) and triage.current == "b"
    assert not triage.step(-2) and triage.current == "b"
    assert triage.step(3) and triage.current == "e"
    assert not triage.step(1) and triage.current == "e"


def test_go_to_finds_a_paper_of_the_view_only():
    triage = control({})
    assert triage.go_to("d") and triage.current == "d"
    assert not triage.go_to("zz") and triage.current == "d"


def test_progress_counts_the_view_only_and_reads_as_the_status_line_says():
    decisions = {"a": "keep", "b": "maybe", "c": "maybe", "zz": "keep"}
    triage = control(decisions)
    assert triage.progress == Progress(3, 5, {"keep": 1, "maybe": 2, "skip": 0})
    decisions["d"] = "skip"
    assert triage.progress.decided == 3  # kept until told
    triage.decisions_changed()
    assert triage.progress.decided == 4
    big = Progress(412, 2610, {"keep": 38, "maybe": 71, "skip": 303})
    assert big.text() == "412 of 2,610 triaged · 38 keep · 71 maybe"


@given(
    st.lists(st.sampled_from(["keep", "maybe", "skip", None]), max_size=12),
    st.integers(min_value=0, max_value=30),
)
def test_first_undecided_is_the_nearest_undecided_from_start_wrapping(marks, start):
    ids = [f"p{n}" for n in range(len(marks))]
    decisions = {i: m for i, m in zip(ids, marks, strict=True) if m is not None}
    found = first_undecided(ids, decisions, start)
    if found is None:
        assert len(decisions) == len(ids)
        return
    assert ids[found] not in decisions
    order = [(start + offset) % len(ids) for offset in range(len(ids))]
    assert all(ids[index] in decisions for index in order[: order.index(found)])
    assert progress(ids, decisions).decided == len(decisions)


# --- the library's decision changes ---------------------------------------------------------


def test_a_decision_marks_read_and_one_undo_takes_both_back(tmp_path):
    state = make_state(tmp_path)
    state.load_library()
    face = Face()
    library = LibraryControl(state, tmp_path, face)
    assert library.decide(["p1"], "keep", "keep Zebra")
    assert state.decisions.decision("p1") == "keep" and state.reading.is_read("p1")
    assert state.read_here == ["p1"]
    assert face.reading == 1 and face.saves == 1
    assert library.save_reading() == (None, False)
    decisions, reading = DecisionStore.in_dir(tmp_path), ReadingStore.in_dir(tmp_path)
    decisions.load()
    reading.load()
    assert decisions.entries == {"p1": "keep"} and reading.is_read("p1")

    assert library.decide(["p1"], "skip", "skip Zebra")
    assert library.undo() == ["p1"]
    assert state.decisions.decision("p1") == "keep" and state.reading.is_read("p1")
    assert library.undo() == ["p1"]
    assert face.said[-1] == ("Undone: keep Zebra", "information")
    assert state.decisions.decision("p1") is None and not state.reading.is_read("p1")
    library.save_reading()
    decisions.load()
    reading.load()
    assert decisions.entries == {} and not reading.is_read("p1")
    assert library.undo() == []


def test_a_decision_in_a_damaged_file_is_refused_and_said(tmp_path):
    (tmp_path / "reading.toml").write_text("version = 2\n[decision]\np1 = 'nope'\n")
    state = make_state(tmp_path)
    state.load_library()
    face = Face()
    library = LibraryControl(state, tmp_path, face)
    assert not library.decide(["p2"], "keep", "keep Apple")
    assert face.said[-1][1] == "error" and "reading.toml" in face.said[-1][0]
    assert state.decisions.decision("p2") is None and not state.reading.is_read("p2")
    assert state.undo.pop() is None
