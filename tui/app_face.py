"""What the reader does in the terminal around its screens, apart from the user's data:
toasts, the clipboard, the browser, the help and the warnings. `ReaderApp` builds on it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from textual import events, work
from textual.app import App
from textual.notifications import SeverityLevel

from paperterm.index.links import split_links
from paperterm.index.text.display import one_line, safe_text
from paperterm.tui.notices import PREVIEW_LIMIT, capped, opened, url_too_long
from paperterm.tui.screens.base import PaperScreen
from paperterm.tui.state import ReaderState
from paperterm.tui.view import Row, can_open_browser, link_or_citation

if TYPE_CHECKING:
    from paperterm.tui.clipboard import Clipboard

UrlOpener = Callable[[str], object]
#: Below this height (or with the panes stacked) the window is small: one toast at a time.
SMALL_HEIGHT = 30
#: Seconds a toast stays in a small window (twice as long for warnings and errors).
SMALL_TIMEOUT = 3.0


class ReaderFace(App[int]):
    """Toasts, links, the clipboard, the help and the warnings of the reader."""

    state: ReaderState
    #: Opens a link instead of `webbrowser` (tests).
    url_opener: UrlOpener | None = None
    #: Stands for `os.environ` where the reader decides whether a local browser would be
    #: seen and how to reach the clipboard.
    environ: Mapping[str, str] | None = None
    #: Replaces the routes to the clipboard (tests).
    _copier: Clipboard | None = None

    def on_resize(self, event: events.Resize) -> None:
        self._small(event.size.width, event.size.height)

    def _small(self, width: int, height: int) -> None:
        """Small: the panes are stacked, or the window is short (see `say`)."""
        small = width < self.state.config.side_by_side_min_width or height < SMALL_HEIGHT
        self.set_class(small, "-small")

    def current_row(self) -> Row | None:
        """The paper the keys act on: the one under the cursor, or the one read full screen
        (none while a dialog is open)."""
        screen = self.screen
        return screen.current_row() if isinstance(screen, PaperScreen) else None

    def action_help(self) -> None:
        from paperterm.tui.screens.dialogs import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            first = getattr(self.screen, "KEY_SCOPES", ())
            self.push_screen(HelpScreen(self.state.key_text, first))

    def show_warnings(self) -> None:
        from paperterm.tui.screens.dialogs import WarningsScreen

        state = self.state
        problems = [p for p in (state.bookmarks_problem, *state.problems.values()) if p]
        self.push_screen(WarningsScreen([*problems, *state.warnings]))

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every toast (the screens' too): at most `notices.NOTICE_LIMIT` characters; in a
        small window it replaces the one shown (at most one at a time, laid over the footer:
        app.tcss) and goes sooner."""
        message = capped(message)
        if self.has_class("-small"):
            self.clear_notifications()
            if timeout is None:
                timeout = SMALL_TIMEOUT if severity == "information" else SMALL_TIMEOUT * 2
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def say(
        self, message: str, severity: SeverityLevel = "information", timeout: float | None = None
    ) -> None:
        """A notification; its text is never read as markup."""
        self.notify(
            safe_text(message, keep_newlines=False),
            severity=severity,
            markup=False,
            timeout=timeout,
        )

    # --- links ---------------------------------------------------------------------------

    def action_copy_link(self) -> None:
        row = self.current_row()
        if row is None or row.paper is None:
            return
        kind, text = link_or_citation(row.paper)
        text = one_line(text)
        self.copy_text(kind, text, text)

    def action_copy_bibtex(self) -> None:
        row = self.current_row()
        if row is None or row.paper is None:
            return
        from paperterm.index.library.bibtex_export import bibtex_entry
        from paperterm.index.library.export_items import ExportItem

        entry = bibtex_entry(ExportItem(row.id, row.paper))
        lines = entry.rstrip("\n").split("\n")
        self.copy_text("BibTeX entry", entry, f"{lines[0]} … ({len(lines)} lines)")

    @property
    def copier(self) -> Clipboard:
        """The routes to the clipboard, found on the first copy (the first frame does
        without the module)."""
        if self._copier is None:
            from paperterm.tui.clipboard import Clipboard

            self._copier = Clipboard(self.environ)
        return self._copier

    def copy_text(self, what: str, text: str, preview: str) -> None:
        """Copy by OSC 52 at once, and by tmux or the desktop's tool (a worker: they are
        processes), then say where it went."""
        from paperterm.tui.clipboard import CopyReport, copy_message

        self.copy_to_clipboard(text)
        preview = capped(preview, PREVIEW_LIMIT)
        if self.copier.routes():
            self._copy_by_routes(what, text, preview)
        else:
            self.say(copy_message(what, preview, CopyReport(), self.copier.in_tmux))

    @work(thread=True, exit_on_error=False, group="clipboard", description="copy to the clipboard")
    def _copy_by_routes(self, what: str, text: str, preview: str) -> None:
        from paperterm.tui.clipboard import copy_message

        report = self.copier.copy(text)
        message = copy_message(what, preview, report, self.copier.in_tmux)
        severity: SeverityLevel = "warning" if report.failed else "information"
        self.call_from_thread(self.say, message, severity)

    def action_open_link(self) -> None:
        row = self.current_row()
        if row is None or row.paper is None:
            return
        own, other = split_links(row.paper)
        if own:
            self.follow_link(one_line(own[0]))
        elif other:
            self.follow_link(one_line(other[0]), "No page of its own; its abstract's link")
        else:
            key = self.state.key_text("copy_link")
            self.say(f"This paper has no link ({key} copies its citation).", "warning")

    def follow_link(self, url: str, what: str = "") -> None:
        """Open `url` in a browser; where none would be seen (over SSH), copy it. A URL no
        browser can be given (`notices.url_too_long`) is refused."""
        if can_open_browser(self.environ):
            if url_too_long(url):
                key = self.state.key_text("copy_link")
                size = len(url.encode("utf-8", "replace")) // 1024
                self.say(f"Not opened: the link is too long ({size} KiB); {key} copies it", "error")
                return
            shown = capped(url, PREVIEW_LIMIT)
            self.say(f"{what}: opening {shown}" if what else f"Opening {shown}")
            self._open_in_browser(url)
        else:
            self.copy_text("link", url, f"{url} (no local browser here: SSH?)")

    def action_links(self) -> None:
        row = self.current_row()
        if row is None or row.paper is None:
            return
        own, other = split_links(row.paper)
        if not own and not other:
            key = self.state.key_text("copy_link")
            self.say(f"This paper has no link ({key} copies its citation).", "warning")
            return

        def chosen(choice: tuple[str, str] | None) -> None:
            if choice is not None:
                action, url = choice
                if action == "open":
                    self.follow_link(one_line(url))
                else:
                    self.copy_text("link", one_line(url), one_line(url))

        from paperterm.tui.screens.dialogs import LinksScreen

        self.push_screen(LinksScreen(own, other, self.state.key_text), chosen)

    @work(thread=True, exit_on_error=False, group="browser", description="open in a browser")
    def _open_in_browser(self, url: str) -> None:
        # webbrowser may start a console browser that blocks: never on the UI thread.
        if self.url_opener is not None:
            result = self.url_opener(url)
        else:
            import webbrowser  # only when a link is opened: it is slow to import

            result = webbrowser.open(url)
        if not opened(result):
            key = self.state.key_text("copy_link")
            said = (
                f"Could not open {capped(url, PREVIEW_LIMIT)}: no browser started; {key} copies it"
            )
            self.call_from_thread(self.say, said, "error")
