"""`W` in the reader: watching one of a paper's authors or the searched words, the marks in
the rows and the detail pane, the "Watched" view and its counts, watch.toml shared with
another process, and the config's watches (shown, not unwatched here)."""

from __future__ import annotations

from pathlib import Path

from reader_helpers import INSTANT, said, screen_text, settle, status_line, type_text, until

from paperterm.index.config import Config
from paperterm.index.library.filters import WATCHED
from paperterm.index.library.watches import WatchStore
from paperterm.index.session import Session
from paperterm.tui.app import ReaderApp, make_app
from paperterm.tui.controllers.views import sidebar_entries
from paperterm.tui.screens.watch_dialog import WatchScreen

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "watch.json"


def watch_reader(data_dir: Path, config: Config | None = None) -> ReaderApp:
    config = config or Config()
    session = Session.create(data_dir, [FIXTURE], config)
    return make_app(session, config, timing=INSTANT, environ={})


def marked(app: ReaderApp) -> list[tuple[str, str]]:
    """The runs drawn bold and underlined, as ("list" or "detail", text)."""
    detail = app.main.detail.region
    runs: list[tuple[str, str]] = []
    for y, strip in enumerate(app.screen._compositor.render_strips()):
        x = 0
        for segment in strip:
            style = segment.style
            if style is not None and style.bold and style.underline and segment.text.strip():
                runs.append(("detail" if detail.contains(x, y) else "list", segment.text))
            x += segment.cell_length
    return runs


def watched_count(app: ReaderApp) -> tuple[int | None, int | None] | None:
    for entry in sidebar_entries(app.state):
        if entry.key == WATCHED:
            return entry.unread, entry.total
    return None


async def choose(pilot, label_start: str) -> None:
    """In W's dialog, choose the line that starts with `label_start`."""
    screen = pilot.app.screen
    assert isinstance(screen, WatchScreen)
    labels = [choice.label for choice in screen.choices]
    index = next(i for i, label in enumerate(labels) if label.startswith(label_start))
    for _ in range(index):
        await pilot.press("down")
    await pilot.press("enter")
    await settle(pilot)


async def test_watch_an_author_mark_count_and_unwatch(tmp_path):
    data = tmp_path / "data"
    app = watch_reader(data)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        assert watched_count(app) is None  # nothing watched: no "Watched" view
        assert marked(app) == []
        await pilot.press("W")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, WatchScreen)
        assert [c.label for c in screen.choices] == [
            "Ada Lovelace (University of London)",
            "Jürgen Müller (ETH Zürich)",
            "Grace Hopper",
        ]
        assert "Jürgen Müller (ETH Zürich)" in screen_text(app)
        await choose(pilot, "Jürgen Müller")
        assert not isinstance(app.screen, WatchScreen)
        assert "Watching Jürgen Müller (ETH Zürich)" in said(app)
        saved = WatchStore.in_dir(data)
        saved.load()
        assert [(w.kind, w.value) for w in saved.entries.values()] == [("author", "Jürgen Müller")]
        # "Jurgen Muller" of w-2 is the same name, folded.
        assert app.state.watching.ids == ["w-1", "w-2"]
        assert watched_count(app) == (2, 2)
        assert ("detail", "Jürgen Müller") in marked(app)
        assert ("list", "Jurgen Muller") in marked(app)  # w-2's first author, in its row
        await pilot.press("W")
        await settle(pilot)
        assert app.screen.choices[1].watched
        await choose(pilot, "Jürgen Müller")
        assert "No longer watching Jürgen Müller (ETH Zürich)" in said(app)
        assert app.state.watching.ids == []
        assert marked(app) == []
        saved.load()
        assert saved.entries == {}


async def test_the_searched_words_are_offered_first_and_marked(tmp_path):
    app = watch_reader(tmp_path / "data")
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await type_text(pilot, "diffusion -graph")
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("W")
        await settle(pilot)
        assert app.screen.choices[0].label == 'the words "diffusion"'
        await pilot.press("enter")
        await settle(pilot)
        assert app.state.watching.ids == ["w-1", "w-4"]
        await pilot.press("ctrl+u")  # the search box still has the focus
        await pilot.press("escape")
        await settle(pilot)
        assert ("detail", "diffusion") in marked(app)  # w-4's abstract
        app.main.paper_list.move_to(0)
        await settle(pilot)
        runs = marked(app)
        assert ("list", "Diffusion") in runs  # w-1's title
        assert ("detail", "Diffusion") in runs and ("detail", "diffusion") in runs


async def test_the_watched_view_with_unread_only(tmp_path):
    data = tmp_path / "data"
    store = WatchStore.in_dir(data)
    store.watch("author", "Ada Lovelace")
    app = watch_reader(data)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        assert watched_count(app) == (2, 2)
        app.main.set_view(WATCHED)
        await settle(pilot)
        assert [row.id for row in app.main.paper_list.rows] == ["w-1", "w-3"]
        await pilot.press("r")  # w-1 read
        await settle(pilot)
        assert watched_count(app) == (1, 2)
        await pilot.press("U")
        await settle(pilot)
        assert [row.id for row in app.main.paper_list.rows] == ["w-3"]
        assert ("list", "Ada Lovelace") in marked(app)  # w-3's second author, named in its row
        await pilot.press("U", "slash")
        await type_text(pilot, "molecules")  # a search inside the view
        await pilot.press("enter")
        await settle(pilot)
        assert [row.id for row in app.main.paper_list.rows] == ["w-1"]
        await pilot.press("slash", "ctrl+u")
        await type_text(pilot, "tabular")  # w-2's: not watched
        await settle(pilot)
        assert app.main.paper_list.rows == []


async def test_the_watched_view_says_how_to_watch_when_empty(tmp_path):
    app = watch_reader(tmp_path / "data")
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        app.main.set_view(WATCHED)
        await settle(pilot)
        assert "No paper has a watched author or word." in screen_text(app)
        assert "Press W on a paper to watch." in screen_text(app)


async def test_another_process_s_watch_is_merged(tmp_path):
    data = tmp_path / "data"
    app = watch_reader(data)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("W")
        await settle(pilot)
        await choose(pilot, "Grace Hopper")
        other = WatchStore.in_dir(data)
        other.load()
        other.watch("word", "shortest paths")
        app.poll_bookmarks()  # the poll of the files other processes change
        await settle(pilot)
        await until(pilot, lambda: app.state.watching.ids == ["w-1", "w-5"], "the merge")
        values = [w.value for w in app.state.watching.store.entries.values()]
        assert values == ["Grace Hopper", "shortest paths"]
        assert watched_count(app) == (2, 2)


async def test_the_config_s_watches_are_shown_but_not_unwatched_here(tmp_path):
    data = tmp_path / "data"
    app = watch_reader(data, Config(watch_authors=("Alan Turing",)))
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        assert app.state.watching.ids == ["w-3"]
        app.main.paper_list.move_to(2)
        await settle(pilot)
        await pilot.press("W")
        await settle(pilot)
        first = app.screen.choices[0]
        assert first.watched and first.configured
        await choose(pilot, "Alan Turing")
        assert any("watched in the config file ([watch])" in text for text in said(app))
        assert app.state.watching.ids == ["w-3"]
        assert not (data / "watch.toml").exists()


def test_snapshot_of_a_watched_author_and_word(snap_compare, tmp_path):
    """At 120x40: Müller's papers and "diffusion" marked in the rows (w-2's byline, w-1's
    title) and in w-1's detail (author, title, abstract)."""
    config = Config(watch_authors=("Jürgen Müller",), watch_words=("diffusion",))
    app = watch_reader(tmp_path / "data", config)

    async def run_before(pilot) -> None:
        await settle(pilot)
        pilot.app.main.search_input.cursor_blink = False
        await settle(pilot)

    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)


async def test_the_full_screen_reader_marks_the_watched_too(tmp_path):
    app = watch_reader(tmp_path / "data", Config(watch_authors=("Jürgen Müller",)))
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        await pilot.press("f")
        await settle(pilot)
        assert type(app.screen).__name__ == "ReadScreen"
        runs = [run for _, run in marked_anywhere(app)]
        assert "Jürgen Müller" in runs


def marked_anywhere(app: ReaderApp) -> list[tuple[int, str]]:
    """The bold and underlined runs of the screen shown, as (line, text)."""
    return [
        (y, segment.text)
        for y, strip in enumerate(app.screen._compositor.render_strips())
        for segment in strip
        if segment.style is not None
        and segment.style.bold
        and segment.style.underline
        and segment.text.strip()
    ]


async def test_a_damaged_watch_file_is_a_warning_and_is_left_alone(tmp_path):
    data = tmp_path / "data"
    data.mkdir(parents=True)
    damaged = 'version = 1\n[[watch]]\nkind = "author"\nvalue = \n'
    (data / "watch.toml").write_text(damaged, "utf-8")
    app = watch_reader(data)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        assert any(str(data / "watch.toml") + ":4" in w for w in app.state.warnings)
        assert "1 warning" in screen_text(app)
        await pilot.press("W")
        await settle(pilot)
        await choose(pilot, "Ada Lovelace")
        assert any("read-only" in text for text in said(app))
        assert (data / "watch.toml").read_text("utf-8") == damaged


async def test_a_failed_save_is_kept_counted_and_retried(tmp_path, monkeypatch):
    from paperterm.index import user_files

    real = user_files.atomic_write_bytes

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    data = tmp_path / "data"
    app = watch_reader(data)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        monkeypatch.setattr(user_files, "atomic_write_bytes", disk_full)
        await pilot.press("W")
        await settle(pilot)
        await choose(pilot, "Grace Hopper")
        assert any("Not saved: No space left" in text for text in said(app))
        assert "1 watch change not saved" in status_line(app)
        assert app.state.watching.ids == ["w-1"]  # watched meanwhile
        app.poll_bookmarks()  # what the timer does: still failing
        await settle(pilot)
        assert "1 watch change not saved" in status_line(app)
        monkeypatch.setattr(user_files, "atomic_write_bytes", real)
        app.poll_bookmarks()
        await settle(pilot)
        assert "not saved" not in status_line(app)
        assert "Grace Hopper" in (data / "watch.toml").read_text("utf-8")


async def test_a_watch_still_unsaved_at_exit_is_printed_as_a_command(tmp_path, monkeypatch, capsys):
    from paperterm.index import user_files
    from paperterm.tui.lifecycle import Ending

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    data = tmp_path / "data"
    app = watch_reader(data)
    ending = Ending(app)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        monkeypatch.setattr(user_files, "atomic_write_bytes", disk_full)
        await pilot.press("W")
        await settle(pilot)
        await choose(pilot, "Grace Hopper")
        await pilot.press("q")
        for _ in range(200):
            if app.return_code is not None:
                break
            await pilot.pause()
    assert ending.finish() == 1
    lines = capsys.readouterr().err.splitlines()
    assert "1 watch change could not be saved" in lines[0]
    options = f"--data-dir {data} --source {FIXTURE}"
    assert f"paperterm {options} watch add -- author 'Grace Hopper'" in lines
