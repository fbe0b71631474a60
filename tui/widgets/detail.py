"""The detail pane: one paper in full — title as published, facts (the paper id always among
them: users and scripts copy it), the paper's own links, then the code and data its abstract
mentions, the abstract with the query's words highlighted, the bookmark's tags and note, and
a short list of related papers. Links are terminal hyperlinks (OSC 8) where the terminal
supports them; only http(s) URLs of printable ASCII are made links (`links.safe_url`).

Everything from the corpus is put on screen as `rich.text.Text` built from plain strings that
went through `safe_text`: nothing in an abstract is ever read as markup or reaches the
terminal as a control sequence.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from paperterm.index.library.bookmarks import Bookmark
from paperterm.index.links import safe_url, split_links
from paperterm.index.papers import Paper, name_label
from paperterm.index.record_view import credited_authors, schedule_line
from paperterm.index.text.display import one_line, safe_text
from paperterm.tui import keys
from paperterm.tui.view import Row
from paperterm.tui.widgets.mount_once import mount_once

if TYPE_CHECKING:
    from paperterm.index.search.hits import Hit, Matcher
    from paperterm.tui.watch_marks import WatchMarks

RELATED_WAITING = "Related papers appear once the search index is ready."
#: The detail pane shows this much of an abstract: laying out and highlighting a
#: megabyte-long "abstract" (a file read as one paragraph) froze the reader for seconds.
DETAIL_MAX_CHARS = 30_000


def highlighted(
    text: str,
    matcher: Matcher | None,
    style: Style,
    base: Style | None = None,
    watched: tuple[WatchMarks, Style] | None = None,
) -> Text:
    """`text` (made safe first) with the matcher's words in `style`, and the watched
    words in theirs."""
    shown = safe_text(text)
    out = Text(shown, style=base or "")
    if matcher:
        for start, end in matcher.spans(shown):
            out.stylize(style, start, end)
    if watched is not None:
        marks, watched_style = watched
        for start, end in marks.word_spans(shown):
            out.stylize(watched_style, start, end)
    return out


def paper_text(
    row: Row,
    mark: Bookmark | None,
    matcher: Matcher | None,
    styles: dict[str, Style],
    notes: Sequence[str] = (),
    marks: WatchMarks | None = None,
) -> Text:
    """The body of the detail pane for a row (a paper, or a bookmark whose paper is gone);
    `notes` are lines about the paper in the reader (read when, why it ranks high); `marks`
    mark the watched authors and words."""
    paper = row.paper
    match = styles["match"]
    watched = (marks, styles["watched"]) if marks is not None else None
    out = Text()
    if paper is None:
        out.append(one_line(row.missing_title), styles["title"])
        out.append("\n")
        out.append("Missing: this bookmarked paper is no longer in the corpus.", styles["warn"])
        out.append(f"\nid {one_line(row.id)}", styles["facts"])
    else:
        title = one_line(paper.title)
        out.append_text(highlighted(title, matcher, match, styles["title"], watched))
        out.append("\n")
        out.append_text(_facts(paper, styles, marks))
    for note in notes:
        out.append("\n")
        out.append(one_line(note), styles["facts"])
    if mark is not None:
        out.append("\n")
        out.append("★ bookmarked", styles["marker"])
        if mark.tags:
            out.append("  tags: ", styles["facts"])
            out.append(one_line(", ".join(mark.tags)))
        if mark.note:
            out.append("\nNote: ", styles["facts"])
            out.append(safe_text(mark.note))
    if paper is not None:
        own, other = split_links(paper)
        for link in own:
            out.append("\n")
            out.append_text(link_text(link, styles["link"]))
        if other:
            out.append("\nCode, data and pages it mentions:", styles["facts"])
        for link in other:
            out.append("\n  ")
            out.append_text(link_text(link, styles["link"]))
        out.append("\n\n")
        body = paper.text or paper.abstract
        if len(body) > DETAIL_MAX_CHARS:
            cut = body.rfind(" ", 0, DETAIL_MAX_CHARS)
            cut = cut if cut > DETAIL_MAX_CHARS // 2 else DETAIL_MAX_CHARS
            out.append_text(highlighted(body[:cut], matcher, match, watched=watched))
            out.append(
                f"\n\n[{len(body) - cut:,} more characters not shown: "
                f"`paperterm show {one_line(paper.id)}` prints them all]",
                styles["facts"],
            )
        else:
            out.append_text(highlighted(body, matcher, match, watched=watched))
    return out


def link_text(url: str, style: Style) -> Text:
    """A URL as shown whole (it wraps, never cut), a hyperlink when it is safe to be one."""
    safe = safe_url(url)
    return Text(one_line(url), style=style + Style(link=safe) if safe else style)


def _facts(paper: Paper, styles: dict[str, Style], marks: WatchMarks | None = None) -> Text:
    facts = Text(style=styles["facts"])
    parts = []
    label = name_label(paper)
    if label:
        parts.append(f"name: {label}")
    if paper.title_derived:
        parts.append("headline from the abstract")
    collections = ", ".join(paper.collections)
    parts.append(collections)
    if paper.year and str(paper.year) not in collections:
        parts.append(str(paper.year))
    parts.append(f"id {paper.id}")
    facts.append(one_line(" · ".join(parts)))
    if paper.authors:
        facts.append("\n")
        facts.append_text(_authors(paper, styles, marks))
    schedule = schedule_line(paper)
    if schedule:
        facts.append("\n")
        facts.append(one_line(schedule))
    if paper.keywords:
        facts.append("\n")
        facts.append(one_line("keywords: " + ", ".join(paper.keywords)))
    if paper.tldr:
        facts.append("\n")
        facts.append(one_line(f"TL;DR: {paper.tldr}"))
    return facts


def _authors(paper: Paper, styles: dict[str, Style], marks: WatchMarks | None) -> Text:
    """The authors with their affiliations, the watched ones' names marked."""
    watched = marks.author_positions(paper) if marks is not None else {}
    line = Text(style=styles["authors"])
    for position, credited in enumerate(credited_authors(paper)):
        if position:
            line.append(", ")
        shown = one_line(credited)
        if position in watched:
            name = len(one_line(paper.authors[position]))
            line.append(shown[:name], styles["watched"])
            line.append(shown[name:])
        else:
            line.append(shown)
    return line


def related_label(hit: Hit) -> Text:
    paper = hit.paper
    return Text(one_line(paper.title or paper.text[:120]))


class RelatedList(OptionList):
    """The related papers; focusing it highlights the first, so Enter opens one at once."""

    def on_focus(self) -> None:
        if self.highlighted is None and self.option_count:
            self.highlighted = 0


class PagingText(VerticalScroll):
    """A scrolling pane that moves by page and to either end (PgUp/PgDn, g/G)."""

    BINDINGS = keys.bindings("first", "last", "page_down", "page_up")

    def action_first(self) -> None:
        self.scroll_home(animate=False)

    def action_last(self) -> None:
        self.scroll_end(animate=False)

    def action_page_down(self) -> None:
        self.scroll_page_down(animate=False)

    def action_page_up(self) -> None:
        self.scroll_page_up(animate=False)


class ScrollingText(PagingText):
    """A scrolling pane that moves with the list's keys (j/k, g/G, PgUp/PgDn)."""

    BINDINGS = keys.bindings("cursor_down", "cursor_up")

    def action_cursor_down(self) -> None:
        self.scroll_down(animate=False)

    def action_cursor_up(self) -> None:
        self.scroll_up(animate=False)


class PaperDetail(ScrollingText):
    """Scrolls with the list keys; Enter asks to read full screen; the related papers are an
    option list (Enter or a click opens one)."""

    BINDINGS = keys.bindings("open")
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "paper-detail--title",
        "paper-detail--facts",
        "paper-detail--authors",
        "paper-detail--link",
        "paper-detail--match",
        "paper-detail--marker",
        "paper-detail--warn",
        "paper-detail--watched",
    }

    class OpenRequested(Message):
        """Enter on the detail: read this paper full screen."""

    class RelatedChosen(Message):
        def __init__(self, paper: Paper) -> None:
            super().__init__()
            self.paper = paper

    def __init__(self, *, id: str | None = None, can_open: bool = True) -> None:
        """`can_open`: whether Enter reads the paper full screen (not when it already is)."""
        super().__init__(id=id)
        self.can_open = can_open
        self.row: Row | None = None
        self.mark: Bookmark | None = None
        self.matcher: Matcher | None = None
        #: The watch list's marks, while anything is watched.
        self.watch_marks: WatchMarks | None = None
        self._related: list[Hit] = []
        self._heading = ""
        #: The list of related papers, mounted when it first has papers to show (the first
        #: frame does without it: an option list is several styled nodes).
        self._related_list: RelatedList | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text("Nothing selected."), id="detail-body")
        yield Static(Text("Related"), id="related-title")

    def show(
        self,
        row: Row | None,
        mark: Bookmark | None,
        matcher: Matcher | None,
        reset: bool = True,
        notes: Sequence[str] = (),
    ) -> None:
        """Show a row; `reset` scrolls back to the top (a new paper, not a re-draw)."""
        same = row is not None and self.row is not None and row.id == self.row.id
        self.row, self.mark, self.matcher = row, mark, matcher
        body = self.query_one("#detail-body", Static)
        if row is None:
            body.update(Text("No paper selected."))
        else:
            body.update(paper_text(row, mark, matcher, self._styles(), notes, self.watch_marks))
        if not same:
            self._related = []
            self._show_related(RELATED_WAITING if row is not None else "")
            if reset:
                self.scroll_home(animate=False, immediate=True)

    def set_related(self, paper_id: str, hits: list[Hit] | None, note: str = "") -> None:
        """Related papers for `paper_id` (ignored when another paper is shown by now);
        `hits` is None while the index is not ready."""
        if self.row is None or self.row.id != paper_id:
            return
        self._related = hits or []
        if not note and not self._related:
            note = RELATED_WAITING if hits is None else "No related papers found."
        self._show_related(note)

    def _show_related(self, note: str) -> None:
        if not self.is_attached:
            return  # removed (the app is ending): a late answer has nowhere to go
        title = self.query_one("#related-title", Static)
        options = self._related_list
        shown = [hit.paper.id for hit in self._related]
        if options is None:
            if shown:  # under the title, as the last child
                self._related_list = mount_once(self, None, self._new_related_list)
        else:
            if shown != [option.id for option in options.options]:
                options.clear_options()
                options.add_options(self._related_options())
            options.display = bool(shown)
        heading = "Related (Enter opens)" if self._related else note
        if heading != self._heading:
            self._heading = heading
            title.update(Text(heading))
        title.display = bool(heading)

    def _new_related_list(self) -> RelatedList:
        # Options added, not given: given, the first would be highlighted.
        options = RelatedList(id="related", markup=False, compact=True)
        options.add_options(self._related_options())
        return options

    def _related_options(self) -> list[Option]:
        return [Option(related_label(hit), id=hit.paper.id) for hit in self._related]

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        for hit in self._related:
            if hit.paper.id == event.option_id:
                self.post_message(self.RelatedChosen(hit.paper))
                return

    def _styles(self) -> dict[str, Style]:
        get = self.get_component_rich_style
        return {
            name: get(f"paper-detail--{name}", partial=True)
            for name in ("title", "facts", "authors", "link", "match", "marker", "warn", "watched")
        }

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Disabled, the binding leaves the footer (and Enter goes to the related list).
        return self.can_open or action != "open"

    def action_open(self) -> None:
        self.post_message(self.OpenRequested())
