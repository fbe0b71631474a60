"""The main screen's planning keys: the agenda (`A`, tui/screens/agenda.py) and an
author's other papers (`a`) shown as a view, which Backspace or Esc leaves for the view
before it, the cursor back on its paper.

The authors' index (index/planning/authors.py) reads every paper: it is built in a worker
the first time `a` is pressed over a corpus, and kept until the papers change.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from textual import work
from textual.message import Message

from paperterm.index.library.filters import Filters, ViewKey
from paperterm.index.library.place import Place
from paperterm.tui.controllers import views as view_rules
from paperterm.tui.screens.main_facets import FacetsScreen
from paperterm.tui.state import ReaderState

if TYPE_CHECKING:
    from paperterm.index.papers import Paper
    from paperterm.index.planning.authors import Author, AuthorIndex


class AuthorsIndexed(Message):
    """The authors' index of `papers`."""

    def __init__(self, papers: Sequence[Paper], index: AuthorIndex) -> None:
        super().__init__()
        self.papers = papers
        self.index = index


class _Before(NamedTuple):
    """The view an author's view replaced: its filters, query and paper."""

    filters: Filters
    query: str
    paper: str


class PlanningScreen(FacetsScreen):
    """The list, with the agenda and the author's papers keys."""

    def __init__(self, state: ReaderState) -> None:
        super().__init__(state)
        self._agenda_at: str | None = None  # the agenda's paper when it was left
        self._authors: tuple[Sequence[Paper], AuthorIndex] | None = None
        self._author_wanted: tuple[str, Author] | None = None  # waiting for the index
        self._before_author: _Before | None = None

    # --- the agenda ----------------------------------------------------------------------

    def action_agenda(self) -> None:
        """`A`: the agenda of the kept papers, on the paper it was left on."""
        from paperterm.tui.screens.agenda import AgendaScreen

        data_dir = self.state.bookmarks.path.parent
        screen = AgendaScreen(self.state, self._agenda_at, self._agenda_left, data_dir)
        self.app.push_screen(screen)

    def _agenda_left(self, shown: str | None, at: str | None) -> None:
        """The agenda closed on `at`; `shown` is the paper to show in the list (all papers
        when the view does not hold it; `ctrl+o` returns)."""
        self._agenda_at = at
        if shown is None:
            return
        index = self.paper_list.index_of(shown)
        if index is not None:
            self.paper_list.move_to(index)
        else:
            self.push_jump()
            self.go_to(Place(sort=self.sort, paper=shown))
        self.set_focus(self.paper_list)

    # --- an author's papers --------------------------------------------------------------

    def action_author_papers(self) -> None:
        """`a`: the other papers of one of the paper's authors (chosen in a dialog when it
        has several)."""
        from paperterm.index.planning.authors import paper_authors
        from paperterm.tui.screens.choose import ChoiceScreen

        row = self.current_row()
        if row is None or row.paper is None:
            return
        authors = paper_authors(row.paper)
        if not authors:
            self.app.notify("This paper names no author", markup=False)
            return
        if len(authors) == 1:
            self._show_author(row.id, authors[0])
            return

        def chosen(index: int | None) -> None:
            if index is not None:
                self._show_author(row.id, authors[index])

        labels = [author.label for author in authors]
        heading = "The other papers of which author?"
        self.app.push_screen(ChoiceScreen(heading, labels, self.state.key_text), chosen)

    def _show_author(self, paper_id: str, author: Author) -> None:
        papers = self.state.papers
        if self._authors is None or self._authors[0] is not papers:
            self._author_wanted = (paper_id, author)
            self._index_authors(papers)
            return
        ids = [i for i in self._authors[1].papers_of(author) if i != paper_id]
        if not ids:
            self.app.notify(f"No other papers by {author.label}", markup=False)
            return
        if self.filters.view.kind != "author":
            self._before_author = _Before(self.filters, self.search_input.value, paper_id)
        self.push_jump()
        self.search_ctl.author_ids = frozenset(ids)
        self.filters = Filters(view=ViewKey("author", author.label))
        if self.search_input.value:
            self.search_input.value = ""  # the Changed message runs the search
        else:
            self.run_search(keep_id=ids[0])
        self.set_focus(self.paper_list)

    @work(
        thread=True,
        exclusive=True,
        exit_on_error=False,
        group="authors",
        description="index the authors",
    )
    def _index_authors(self, papers: Sequence[Paper]) -> None:
        from paperterm.index.planning.authors import AuthorIndex

        self.post_message(AuthorsIndexed(papers, AuthorIndex(papers)))

    def on_authors_indexed(self, message: AuthorsIndexed) -> None:
        if message.papers is not self.state.papers:
            return  # the papers changed meanwhile
        self._authors = (message.papers, message.index)
        wanted, self._author_wanted = self._author_wanted, None
        if wanted is not None:
            self._show_author(*wanted)

    def leave_author_view(self) -> bool:
        """Back to the view an author's view replaced, on its paper; False when the view is
        not an author's."""
        if self.filters.view.kind != "author":
            return False
        before = self._before_author or _Before(Filters(), "", "")
        self._before_author = None
        self.filters = before.filters
        self.search_ctl.restore_id = before.paper or None
        box = self.search_input
        if box.value != before.query:
            box.value = before.query  # the Changed message runs the search
            box.cursor_position = len(before.query)
        else:
            self.run_search(keep_id=before.paper or None)
        return True

    def place(self) -> Place:
        """In an author's view, the view before it (an author's view is not kept across
        starts or in the jump list), on the paper the cursor is on."""
        before = self._before_author
        if self.filters.view.kind != "author" or before is None:
            return super().place()
        paper = self._current_id() or before.paper
        return view_rules.place_of(before.filters, before.query, self.sort, paper)

    def action_previous_view(self) -> None:
        """Backspace: leave an author's view."""
        self.leave_author_view()
