"""Start-up, search as you type, the search box's keys, first launch."""

from __future__ import annotations

import json

import pytest
from reader_helpers import INSTANT, drain, reader_of, screen_text, settle, type_text
from textual import events
from textual.widgets import Input

from paperterm.index.config import Config
from paperterm.index.search.searcher import Results
from paperterm.index.search.store import StoreError
from paperterm.tui.screens.main import SearchDone, ViewRequest

CADUCEUS_START = "Large-scale sequence modeling has sparked rapid advances"


async def test_warm_start_shows_every_paper_and_the_index_state(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert len(app.main.paper_list.rows) == 38
        text = screen_text(app)
        assert "38 papers · 38 unread · 1/38 · index ready" in text
        assert app.focused is app.main.paper_list


async def test_typing_dna_selects_caduceus_and_shows_its_abstract(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", "D", "N", "A")
        await settle(pilot)
        screen = app.main
        current = screen.paper_list.current
        assert current is not None and "Caduceus" in current.paper.name
        assert screen.detail.row.id == current.id
        text = screen_text(app)
        assert CADUCEUS_START in text.replace("\n", " ") or CADUCEUS_START[:30] in text
        assert "1 of 38 papers" in text
        # The query's word is highlighted in the abstract.
        assert screen.detail.matcher is not None
        assert screen.detail.matcher.spans("the DNA model")


async def test_results_update_while_typing_and_the_query_stays(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"transformer")
        await settle(pilot)
        screen = app.main
        many = screen.view.in_view
        assert 1 < many < 38
        await pilot.press("space", *"video")
        await settle(pilot)
        assert screen.view.in_view < many  # a second word narrows
        assert screen.search_input.value == "transformer video"


async def test_stale_results_are_dropped(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.main
        await pilot.press("slash")
        await type_text(pilot, "DNA")
        await settle(pilot)
        old = Results(query="old", hits=[], total=0)
        screen.post_message(SearchDone(ViewRequest(screen.generation - 1, "old", None, None), old))
        await settle(pilot)
        assert len(screen.paper_list.rows) == 1
        assert screen.view.in_view == 1


async def test_enter_moves_to_the_first_result_esc_keeps_then_clears(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.main
        await pilot.press("slash")
        await type_text(pilot, "transformer")
        await pilot.press("enter")
        await settle(pilot)
        assert app.focused is screen.paper_list
        assert screen.paper_list.cursor == 0
        await pilot.press("slash", "escape")
        assert app.focused is screen.paper_list
        assert screen.search_input.value == "transformer"
        await pilot.press("escape")
        await settle(pilot)
        assert screen.search_input.value == ""
        assert len(screen.paper_list.rows) == 38


async def test_ctrl_u_in_the_box_clears_the_query(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await type_text(pilot, "genomics")
        await pilot.press("ctrl+u")
        await settle(pilot)
        assert app.main.search_input.value == ""
        assert "38 papers" in screen_text(app)


async def test_letters_type_into_the_box_and_do_not_act(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", "q", "b", "j")
        await settle(pilot)
        assert app.is_running
        assert app.main.search_input.value == "qbj"
        assert app.state.bookmarks.bookmarks == []


async def test_zero_hits_offer_did_you_mean_and_enter_takes_it(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await type_text(pilot, "=transfomer")  # `=`: no correction
        await settle(pilot)
        screen = app.main
        assert screen.paper_list.rows == []
        assert screen.view.suggestion == "transformer"
        text = screen_text(app)
        assert "No papers match “=transfomer”." in text
        assert "Did you mean: transformer?" in text
        await pilot.press("enter")
        await settle(pilot)
        assert screen.search_input.value == "transformer"
        assert screen.paper_list.rows


async def test_a_query_note_is_shown_inline(reader):
    app = reader()
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await type_text(pilot, "tr* genomics")
        await settle(pilot)
        assert "prefixes need at least 3 letters" in screen_text(app)


async def test_the_query_note_follows_its_query_back_and_forth(reader):
    """The note is kept while its parts and width stay the same (the start asks several
    times); a change of either still shows."""
    app = reader()
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        screen = app.main
        for query in ("tr* genomics", "genomics", "tr* genomics"):
            screen.search_input.value = query
            await settle(pilot)
            assert ("prefixes need at least 3 letters" in screen_text(app)) == ("*" in query)
        await pilot.resize_terminal(40, 24)
        await settle(pilot)
        note = str(screen.query_one("#search-note").render())
        assert "\n" in note  # refitted to the narrower width: two lines


async def test_odd_queries_never_crash(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for query in ['"unclosed', "-", "title:", "a~9", "*", "((", "tag:", "\\x1b[31m"]:
            app.main.search_input.value = query
            await settle(pilot)
            assert app.is_running


class FakeClock:
    """A clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_keys_within_the_debounce_fold_into_one_search(reader):
    clock = FakeClock()
    app = reader(timing=INSTANT._replace(debounce=60, clock=clock))  # a pause never ends
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.main
        calls = record_searches(app)
        clock.now += 61  # longer than the debounce since the last search
        await pilot.press("slash", *"gen")
        await drain(pilot)
        assert calls == ["g"]  # the first key of a burst runs at once
        assert screen.pending  # the others wait for the debounce to end
        await pilot.press(*"omics")
        await drain(pilot)
        assert calls == ["g"]  # still folding keys
        await pilot.press("enter")  # Enter runs the pending search at once
        await settle(pilot)
        assert calls == ["g", "genomics"]
        assert app.focused is screen.paper_list
        assert 0 < len(screen.paper_list.rows) < 38


def test_the_debounce_comes_from_the_config(reader):
    assert reader(Config(debounce_ms=250), timing=None).state.timing.debounce == 0.25


async def test_with_no_debounce_every_key_searches(reader):
    app = reader(Config(debounce_ms=0), timing=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        calls = record_searches(app)
        await pilot.press("slash", *"dna")
        await settle(pilot)
        assert calls[-1] == "dna"
        assert "Caduceus" in app.main.paper_list.current.paper.name


async def test_first_launch_lists_papers_while_the_index_builds(gated_reader):
    app, session = gated_reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, index=False)
        screen = app.main
        assert len(screen.paper_list.rows) == 38
        assert app.state.index_state == "indexing"
        assert "indexing 17 of 38" in screen_text(app)
        assert screen.has_class("-indexing")
        # Typing before the index is ready keeps the query and runs it when ready.
        await pilot.press("slash")
        await type_text(pilot, "DNA")
        await settle(pilot, index=False)
        assert "search starts when the index is ready" in screen_text(app)
        assert len(screen.paper_list.rows) == 38
        session.gate.set()
        await settle(pilot)
        assert app.state.index_state == "ready"
        assert not screen.has_class("-indexing")
        assert len(screen.paper_list.rows) == 1
        assert "Caduceus" in screen.paper_list.current.paper.name
        assert "index ready" in screen_text(app)


async def test_quitting_cancels_the_build(gated_reader):
    app, session = gated_reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, index=False)
        await pilot.press("q")
    assert app.return_code == 0
    assert not (session.store.root / "CURRENT").exists()


async def test_a_failed_build_keeps_the_list_and_says_why(gated_reader):
    app, session = gated_reader(build_failure=StoreError("disk on fire"))
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot, index=False)
        session.gate.set()
        await settle(pilot)
        assert app.state.index_state == "failed"
        assert len(app.main.paper_list.rows) == 38
        assert "index failed" in screen_text(app)
        await pilot.press("slash")
        await type_text(pilot, "DNA")
        await settle(pilot)
        assert "search is off: disk on fire" in screen_text(app)


@pytest.mark.parametrize("key", ["q", "ctrl+q"])
async def test_quit_exits_with_status_zero(reader, key):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(key)
    assert app.return_code == 0


async def test_a_query_with_markup_is_shown_literally(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await type_text(pilot, "[bold]zzqx")
        await settle(pilot)
        assert app.main.query_one("#search-input", Input).value == "[bold]zzqx"
        assert "No papers match “[bold]zzqx”." in screen_text(app)


async def test_a_failing_worker_is_reported_and_the_reader_carries_on(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)

        def broken(*args, **kwargs):
            raise RuntimeError("boom")

        app.state.searcher.search = broken
        await pilot.press("slash")
        await type_text(pilot, "DNA")
        await settle(pilot)
        assert any("search failed: boom" in n.message for n in app._notifications)
        assert app.is_running
        await pilot.press("ctrl+u")
        await settle(pilot)
        assert "38 papers" in screen_text(app)


async def test_keys_that_arrive_with_the_slash_go_into_the_search_box(reader):
    """`/DNA` in one read (a fast typist, a paste, an SSH packet): nothing is lost and the
    letters do not act as list keys (`n` would open the note editor)."""
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for key, char in [("slash", "/"), ("d", "d"), ("n", "n"), ("a", "a")]:
            app.post_message(events.Key(key, char))
        await settle(pilot)
        assert app.screen is app.main
        assert app.main.search_input.value == "dna"
        assert "Caduceus" in app.main.paper_list.current.paper.name
        await pilot.press("x")  # the box got its focus late: it must not select and replace
        assert app.main.search_input.value == "dnax"
        await pilot.press("backspace")
        app.post_message(events.Key("escape", None))
        await settle(pilot)
        app.post_message(events.Key("j", "j"))
        await settle(pilot)
        assert app.main.search_input.value == "dna"
        assert app.focused is app.main.paper_list


async def test_clearing_the_search_keeps_the_paper_you_were_on(reader):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash", "D", "N", "A")
        await settle(pilot)
        chosen = app.main.paper_list.current
        assert chosen is not None and chosen.paper.name == "Caduceus"
        await pilot.press("escape", "escape")  # leave the box, then clear it
        await settle(pilot)
        assert len(app.main.paper_list.rows) == 38
        assert app.main.paper_list.current.id == chosen.id
        assert app.main.paper_list.cursor > 0


def record_searches(app) -> list[str]:
    """The query of every search the app runs from now on, in order."""
    calls: list[str] = []
    original = app.state.searcher.search

    def counting(text, *args, **kwargs):
        calls.append(text)
        return original(text, *args, **kwargs)

    app.state.searcher.search = counting
    return calls


async def test_the_sort_orders_wait_while_keys_come_and_keys_are_answered(reader):
    """After the index is ready its worker prepares the title and newest orders a step at a
    time, only once no key was typed into the search box for `timing.quiet`: keys typed
    meanwhile are searched at once, and the orders come when the typing stops."""
    clock = FakeClock()
    app = reader(timing=INSTANT._replace(quiet=1.0, clock=clock))
    app.state.typed_at = clock.now  # as if a key had just been typed
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, index=False)
        await pilot.press("slash", "D", "N", "A")
        await settle(pilot, index=False)
        assert "1 of 38 papers" in screen_text(app)
        assert not app.state.sort_keys._orders  # the worker waits for a pause in typing
        assert any(w.group == "index" and not w.is_finished for w in app.workers)
        clock.now += 1.0  # the pause
        await settle(pilot)
        assert set(app.state.sort_keys._orders) == {"title", "newest"}


async def test_a_name_written_with_a_superscript_is_found_by_its_plain_letters(tmp_path):
    """`S2IP-LLM` finds the paper that writes S²IP-LLM, and is no typo ("did you mean: skip
    llm" it was)."""
    corpus = tmp_path / "papers.json"
    corpus.write_text(
        json.dumps(
            [
                {"title": "Skip connections", "abstract": "We skip layers in LLM training."},
                {"title": "Semantic space prompts", "abstract": "We propose S²IP-LLM for time."},
            ]
        ),
        "utf-8",
    )
    app = reader_of([corpus], tmp_path / "data")
    async with app.run_test(size=(100, 24)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await type_text(pilot, "S2IP-LLM ")
        await settle(pilot)
        screen = app.main
        assert [row.paper.title for row in screen.paper_list.rows] == ["Semantic space prompts"]
        assert "Did you mean" not in screen_text(app)
        screen.search_input.value = ""
        await type_text(pilot, "S3IP ")  # no paper has it; `skip` is one letter away
        await settle(pilot)
        assert screen.paper_list.rows == [] and not screen.view.suggestion
        assert "Did you mean" not in screen_text(app)
