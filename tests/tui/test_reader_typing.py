"""Search as you type (issue 11): the list follows every keystroke and never goes blank while
what is typed matches; typo corrections, their note and the key that undoes them."""

from __future__ import annotations

import pytest
from reader_helpers import flat, screen_text, settle, type_text


@pytest.mark.parametrize(
    ("text", "blank"),
    [
        ("transformer", set()),
        ("reinforcement learning", set()),
        # No word of the seeds starts with "tit": nothing matches until the field does.
        ("title:transformer", {"tit", "titl", "title", "title:"}),
        ('"long context', set()),
        ("graph -vision", set()),
        ("diffusion models tag", set()),
    ],
)
async def test_the_list_is_never_empty_while_a_word_is_typed(reader, text, blank):
    """Each keystroke state, letter by letter: the list shows what the searcher finds for
    the text so far, and is empty only where that is nothing at all."""
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.main
        await pilot.press("slash")
        for end, char in enumerate(text, start=1):
            await type_text(pilot, char)
            await settle(pilot)
            typed = text[:end]
            assert screen.search_input.value == typed
            expected = app.state.searcher.search(typed, limit=None, snippets=False).total
            assert screen.view.in_view == expected, typed
            assert bool(screen.paper_list.rows) == (typed not in blank), typed


@pytest.mark.parametrize("width", [80, 40])
async def test_a_corrected_query_says_so_and_the_key_searches_the_words_as_typed(reader, width):
    app = reader()
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot)
        screen = app.main
        await pilot.press("slash")
        await type_text(pilot, "trasnformer models ")
        await settle(pilot)
        corrected = app.state.searcher.search("transformer models ", limit=None).ids
        assert [row.id for row in screen.paper_list.rows] == corrected
        key = app.state.key_text("search_as_typed")
        note = flat(screen_text(app))
        assert "showing results for “transformer" in note
        assert f"search “trasnformer” instead: {key}" in note
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert screen.search_input.value == "=trasnformer models "
        assert "showing results for" not in screen_text(app)
        as_typed = app.state.searcher.search("=trasnformer models ", limit=None).ids
        assert [row.id for row in screen.paper_list.rows] == as_typed != corrected


@pytest.mark.parametrize("text", ['"trasnformer" models ', "=trasnformer models "])
async def test_quoting_a_word_or_equals_searches_it_as_typed(reader, text):
    app = reader()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.main.search_input.value = text
        await settle(pilot)
        assert app.main.view.corrected == ""
        assert "showing results for" not in screen_text(app)
