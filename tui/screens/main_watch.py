"""The main screen's watch list: `W` (watch or unwatch one of the paper's authors, or the
words in the search box), and the watched papers found in a worker each time the papers or
the watch list change; then the rows and the detail mark them and the "Watched" view
counts them (tui/watching.py, tui/watch_marks.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual import work
from textual.message import Message

from paperterm.index.library.op_store import LibraryError, LibrarySaveError
from paperterm.index.text.display import one_line
from paperterm.tui.screens.main_planning import PlanningScreen

if TYPE_CHECKING:
    from paperterm.index.papers import Paper
    from paperterm.tui.watch_marks import WatchMarks
    from paperterm.tui.watching import WatchChoice

CONFIG_ONLY = "{label} is watched in the config file ([watch]): unwatch it there"


class WatchedFound(Message):
    """The marks of the watch list of `generation` over `papers`."""

    def __init__(self, generation: int, papers: Sequence[Paper], marks: WatchMarks) -> None:
        super().__init__()
        self.generation = generation
        self.papers = papers
        self.marks = marks


class WatchingScreen(PlanningScreen):
    """The list and detail, with the watch list's marks."""

    def find_watched_soon(self) -> None:
        """Find the watched papers again (after the first frame: a worker's work)."""
        self.call_after_refresh(self.find_watched)

    @work(
        thread=True,
        exclusive=True,
        exit_on_error=False,
        group="watches",
        description="find the watched papers",
    )
    def find_watched(self) -> None:
        from paperterm.tui.watch_marks import find_marks

        watching = self.state.watching
        watching.load()
        generation, papers = watching.generation, self.state.papers
        marks = find_marks(watching.watch_list(), papers)
        self.post_message(WatchedFound(generation, papers, marks))

    def on_watched_found(self, message: WatchedFound) -> None:
        watching = self.state.watching
        if message.generation != watching.generation or message.papers is not self.state.papers:
            return  # the list or the papers changed since: a newer look is on its way
        marks = message.marks
        watching.marks = marks
        if watching.problem and watching.problem not in self.state.warnings:
            self.state.warnings.append(watching.problem)  # a damaged watch.toml
        watched = bool(marks.ids) or bool(marks.words)
        self.paper_list.watched = marks.mark_row if watched else None
        self.detail.watch_marks = marks if watched else None
        if self.filters.view.kind == "watched":
            self.run_search(keep_id=self._current_id())
        self.reading_changed()  # the marks, the counts, the detail

    def poll_watches(self) -> None:
        """Retry a failed save and pick up another process's watches."""
        watching = self.state.watching
        if watching.retry():
            self.app.notify("The watch changes that were not saved are saved now")
            self.update_status()
        if watching.reload():
            self.find_watched()

    def action_watch(self) -> None:
        row = self.current_row()
        if row is None or row.paper is None:
            return
        from paperterm.tui.screens.watch_dialog import WatchScreen

        watching = self.state.watching
        watching.load()  # at once if the worker has not yet: the dialog shows what is saved
        choices = watching.choices(row.paper, self._searched_words())
        if not choices:
            text = "This paper has no author to watch (search for words to watch them)"
            self.app.notify(text, markup=False)
            return
        title = f"Watch: {one_line(row.paper.title, 70)}"
        dialog = WatchScreen(title, choices, self.state.key_text)
        self.app.push_screen(dialog, lambda index: self._watch_chosen(choices, index))

    def _searched_words(self) -> str:
        """The words the search box looks for (not those it leaves out), or ""."""
        from paperterm.tui.controllers.search import parse_box

        parsed = parse_box(self.search_input.value)
        return " ".join(clause.text for clause in parsed.positive) if parsed else ""

    def _watch_chosen(self, choices: list[WatchChoice], index: int | None) -> None:
        if index is None:
            return
        choice = choices[index]
        if choice.configured:
            said = CONFIG_ONLY.format(label=choice.label)
            self.app.notify(said, severity="warning", markup=False)
            return
        watching = self.state.watching
        try:
            done = watching.toggle(choice)
        except LibrarySaveError as error:
            done = f"Not saved: {one_line(error.reason)}. Kept and retried; see the status line"
            self.app.notify(done, severity="warning", markup=False)
        except (LibraryError, ValueError) as error:
            self.app.notify(one_line(str(error)), severity="error", markup=False)
            return
        else:
            self.app.notify(done, markup=False)
        self.find_watched()
