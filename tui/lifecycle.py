"""How the reader ends: on `q`, on SIGTERM, and when its terminal goes away (SIGHUP).

Every end saves what is owed (bookmark and reading-state changes not saved yet, where the
reader is) and then:

- normally (`q`, SIGTERM on a live terminal), Textual restores the terminal and, if some
  changes still cannot be saved, they are printed after the screen is gone, as
  `paperterm bookmarks ...` / `paperterm read ...` / `paperterm searches ...` commands that
  re-apply them, and the exit status is 1;
- on a hang-up (the driver's own thread sees it, or SIGHUP comes) there is no terminal
  to restore or print to: output is switched to /dev/null at once (so nothing can block or
  fail on the dead terminal), the next turn of the event loop saves and exits, and unsaved
  changes go to `unsaved-bookmarks.txt` in the log folder instead.

Signals are caught with `signal.signal`, not the event loop's handlers: those run only when
the loop does, and a loop blocked in Textual's shutdown (see tui/terminal.py) then ignores
SIGTERM for ever. A watchdog thread bounds every end: if the process is still there
`HANGUP_GRACE` (hang-up) or `TERMINATE_GRACE` (SIGTERM) seconds after the signal, it saves
what it can within `SAVE_SECONDS`, restores a live terminal, reports and exits. A second
SIGTERM does that at once. A hang-up therefore ends the process within
HANGUP_GRACE + SAVE_SECONDS = 1.5 s, whatever a worker thread is doing (joining them is
part of Textual's exit: a long index build or look-up would otherwise hold it).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import stat
import sys
import termios
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import TextIO

from textual.drivers.linux_driver import LinuxDriver

from paperterm.index.config import Config, default_config_path
from paperterm.index.library.op_store import LibraryError
from paperterm.index.private_files import open_private_log
from paperterm.index.session import Session
from paperterm.index.sources.files import bundled_seeds
from paperterm.index.text.display import safe_text
from paperterm.tui.app import ReaderApp, make_app
from paperterm.tui.terminal import ReaderDriver

HANGUP_GRACE = 1.0
TERMINATE_GRACE = 3.0
SAVE_SECONDS = 0.5
UNSAVED_FILENAME = "unsaved-bookmarks.txt"
#: What Textual's stop_application_mode writes (mouse, paste, line wrap, Kitty keys, the
#: alternate screen, the cursor, focus events), for when the watchdog must leave without it.
RESTORE_TERMINAL = (
    "\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?2004l\x1b[?7h\x1b[<u"
    "\x1b[?1049l\x1b[?25h\x1b[?1004l"
)


class Ending:
    """Watches one run of the reader: its signals, its terminal, its unsaved changes."""

    def __init__(
        self,
        app: ReaderApp,
        log_dir: Path | None = None,
        *,
        exit_process: Callable[[int], object] = os._exit,
    ) -> None:
        """`exit_process` ends the process without waiting for anything (tests record)."""
        self.app = app
        self.log_dir = log_dir
        self.exit_process = exit_process
        self.driver: ReaderDriver | None = None
        self.reason: str | None = None  # "hangup" or "terminate" once an end has begun
        self.finished = threading.Event()
        self.unsaved_reason = ""
        self._begin_lock = threading.Lock()
        self._tty: tuple[int, int] | None = None  # (st_dev, st_rdev) of the terminal

    # --- what the driver tells us (tui.terminal.TerminalWatcher) ------------------------

    def attach(self, driver: ReaderDriver) -> None:
        self.driver = driver
        with contextlib.suppress(OSError):
            info = os.fstat(driver.fileno)
            if stat.S_ISCHR(info.st_mode):
                self._tty = (info.st_dev, info.st_rdev)

    def terminal_lost(self) -> None:
        """The terminal is gone (a write failed, or SIGHUP on a hung-up tty)."""
        self._detach_from_terminal()
        self.begin("hangup")

    # --- signals ------------------------------------------------------------------------

    @contextlib.contextmanager
    def signals_caught(self) -> Iterator[None]:
        """SIGHUP and SIGTERM end the reader as described in the module docstring."""
        previous = {
            signum: signal.signal(signum, self._on_signal)
            for signum in (signal.SIGHUP, signal.SIGTERM)
        }
        try:
            yield
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        if self.reason is not None:
            # A second SIGTERM: asked twice, do not wait any longer. (More SIGHUPs come with
            # every hang-up, from the kernel and the terminal: the watchdog bounds that end.)
            if signum == signal.SIGTERM:
                self.last_chance()
            return
        driver = self.driver
        if driver is None and self._loop() is None:
            self.exit_process(0)  # the reader has not started: nothing is owed yet
            return
        if signum == signal.SIGHUP and driver is not None and not driver.terminal_alive():
            driver.lose_terminal()  # calls terminal_lost()
        else:
            self.begin("terminate")

    def begin(self, reason: str) -> None:
        """Start ending (from any thread): the watchdog, then, on the event loop, the app's
        own shut-down (SIGTERM) or, after a hang-up, saving and leaving at once: there is no
        terminal to restore, and input queued before the hang-up (a key storm can be
        seconds of work) is not worth doing."""
        with self._begin_lock:
            if self.reason is not None:
                return
            self.reason = reason
        threading.Thread(target=self._watch, name="paperterm-ending", daemon=True).start()
        loop = self._loop()
        if loop is not None:
            end = self._leave_now if reason == "hangup" else self.app.shut_down
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(end)

    def _leave_now(self) -> None:
        self.app.save_place()
        self.exit_process(self.finish())

    def _loop(self) -> asyncio.AbstractEventLoop | None:
        """The app's event loop: the running one in a signal handler (the main thread),
        else the one the driver started in (a writer thread that found the terminal gone)."""
        try:
            return asyncio.get_running_loop()
        except RuntimeError:
            loop = self.driver.loop if self.driver is not None else None
            return loop if loop is not None and not loop.is_closed() else None

    def _watch(self) -> None:
        grace = HANGUP_GRACE if self.reason == "hangup" else TERMINATE_GRACE
        if not self.finished.wait(grace):
            self.last_chance()

    def last_chance(self) -> None:
        """Save what can be saved within SAVE_SECONDS, restore a live terminal, report,
        and exit now (any thread; never returns)."""
        saver = threading.Thread(target=self.save, daemon=True)
        saver.start()
        saver.join(SAVE_SECONDS)
        driver = self.driver
        if driver is not None and driver.in_application_mode and driver.terminal_alive():
            with contextlib.suppress(OSError):
                _restore_terminal(driver)
        self.exit_process(self.report())

    # --- the end ------------------------------------------------------------------------

    def finish(self) -> int:
        """After the app has left the screen: retry, report, the exit status."""
        self.save()
        return self.report()

    def save(self) -> None:
        """Retry the pending bookmark, decision, reading and saved-search changes; remember
        why if they still fail."""
        state = self.app.state
        for store in (state.bookmarks, state.decisions, state.reading, state.searches):
            if store.pending:
                try:
                    store.save()
                except LibraryError as error:
                    self.unsaved_reason = self.unsaved_reason or str(error)
        if state.unsaved_watches:
            try:
                state.watching.store.save()
            except LibraryError as error:
                self.unsaved_reason = self.unsaved_reason or str(error)

    def report(self) -> int:
        """Print (or, after a hang-up, write to a file) the changes that could not be
        saved, as commands; the exit status."""
        state = self.app.state
        marks, reading = state.bookmarks.pending, state.reading.pending
        searches, decisions = state.searches.pending, state.decisions.pending
        watches = state.watching.store.pending if state.unsaved_watches else ()
        if not marks and not reading and not searches and not decisions and not watches:
            return self.app.return_code or 0
        from paperterm.index.library.pending import (
            decision_commands,
            reading_commands,
            replay_commands,
            search_commands,
            watch_commands,
        )

        options = self.global_options()
        commands = [
            *replay_commands(marks, options),
            *decision_commands(decisions, options),
            *reading_commands(reading, options),
            *search_commands(searches, options),
            *watch_commands(watches, options),
        ]
        kinds = (
            (marks, "bookmark"),
            (decisions, "decision"),
            (reading, "reading"),
            (searches, "saved search"),
            (watches, "watch"),
        )
        counts = [
            f"{len(ops)} {what} change{'s' if len(ops) != 1 else ''}" for ops, what in kinds if ops
        ]
        why = safe_text(self.unsaved_reason or "the files could not be written")
        lines = [
            f"paperterm: {' and '.join(counts)} could not be saved ({why}).",
            "paperterm: run these commands once that is fixed to apply them:",
            *commands,
        ]
        if self.reason == "hangup":
            self._write_unsaved(lines)
        else:
            _print_lines(lines)
        return 1

    def global_options(self) -> list[str]:
        """The options that point a command at this reader's data dir, config and sources."""
        session, config = self.app.session, self.app.state.config
        options = ["--data-dir", str(session.data_dir)]
        if config.path is not None and config.path != default_config_path():
            options += ["--config", str(config.path)]
        configured = (bundled_seeds() if config.include_seeds else []) + list(config.sources)
        if [spec.path for spec in session.specs] != [spec.path for spec in configured]:
            for spec in session.specs:
                options += ["--source", str(spec.path)]
        return options

    def _write_unsaved(self, lines: list[str]) -> None:
        """After a hang-up: the report goes to a file in the log folder (best effort)."""
        if self.log_dir is None:
            return
        path = self.log_dir / UNSAVED_FILENAME
        with contextlib.suppress(OSError), open_private_log(path) as file:
            file.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')} (terminal hung up)\n")
            file.write("\n".join(lines) + "\n")

    def _detach_from_terminal(self) -> None:
        """Point stdout and stderr, where they are the dead terminal, at /dev/null: what is
        still written (by Textual, a warning, a traceback) can then neither fail nor block.
        Stdin stays: a hung-up terminal reads as end-of-file, and the driver has stopped
        reading it."""
        if self._tty is None:
            return
        for fd in (1, 2):
            with contextlib.suppress(OSError):
                info = os.fstat(fd)
                if stat.S_ISCHR(info.st_mode) and (info.st_dev, info.st_rdev) == self._tty:
                    null = os.open(os.devnull, os.O_WRONLY)
                    os.dup2(null, fd)
                    os.close(null)


def _restore_terminal(driver: ReaderDriver) -> None:
    if driver.attrs_before is not None:
        termios.tcsetattr(driver.fileno, termios.TCSANOW, driver.attrs_before)
    out = driver._file.fileno() if driver._file is not None else 2
    os.write(out, RESTORE_TERMINAL.encode("ascii"))


def _print_lines(lines: list[str]) -> None:
    stream: TextIO | None = sys.stderr if sys.stderr is not None else sys.stdout
    if stream is None:
        return
    with contextlib.suppress(OSError, ValueError):
        stream.write("\n".join(lines) + "\n")
        stream.flush()


def run_reader(session: Session, config: Config, log_dir: Path | None = None) -> int:
    """Run the reader full screen until it ends; the exit status."""
    app = make_app(session, config)
    ending = Ending(app, log_dir)
    if app.driver_class is LinuxDriver:
        app.driver_class = watched_driver(ending)
    with ending.signals_caught():
        try:
            app.run()
            return ending.finish()
        finally:
            ending.finished.set()


def watched_driver(ending: Ending) -> type[ReaderDriver]:
    """`ReaderDriver` reporting to `ending` (Textual builds its driver from a class)."""
    return type("ReaderDriver", (ReaderDriver,), {"watcher": ending})
