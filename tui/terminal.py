"""The reader's terminal driver: Textual's Linux driver, safe when the terminal goes away
and whole again after a suspend.

Closing the terminal window or dropping the SSH link hangs up the pty: the kernel sends
SIGHUP *and SIGCONT*, every write fails with EIO, every read returns end-of-file. Textual
8.2's `LinuxDriver` then goes wrong (see benchmarks/textual_hangup_repro.py):

- its SIGCONT handler restarts application mode even though nothing suspended it; on a
  hung-up tty `os.isatty()` is false, which skips its own guard, so a second writer thread
  starts on the dead terminal and dies at its first write (EIO);
- a writer thread that died leaves a queue of 30 that nobody empties: the 31st write, or
  the `None` that `WriterThread.stop()` queues at shutdown, blocks the main thread for ever
  (`App._shutdown -> LinuxDriver.close -> WriterThread.stop -> Queue.put`). The event loop
  is stuck with it, so a SIGTERM handled by the loop no longer ends the process;
- its SIGTSTP and SIGCONT handlers write to that queue from signal context: a signal that
  interrupts the main thread inside `Queue.put` (the queue's lock held) deadlocks it (2 of
  24 `kill -TSTP` right after start; the stopped reader then outlived its terminal).

`ReaderDriver` does its suspending and resuming on the event loop, resumes only what it
suspended, writes through an output that cannot raise (a write error means the terminal is
lost: it is reported once and later writes are dropped, never queued), closes without
waiting on a lost terminal, and has a thread of its own wait for the hang-up (poll() for
POLLHUP), so noticing it depends neither on a signal reaching a busy main thread nor on
anything being drawn. It also writes to stdout when stderr is not the terminal (Textual
draws on stderr: `paperterm 2>log` would draw into the log), and repaints the whole screen
after a resume, since the alternate screen comes back blank and Textual repaints only what
it thinks changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import sys
import termios
import threading
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, ClassVar, Protocol

from textual.drivers._writer_thread import WriterThread
from textual.drivers.linux_driver import LinuxDriver

if TYPE_CHECKING:
    from textual.app import App

#: What a lost terminal is allowed to cost at shutdown: the writer thread gets this long to
#: write what is queued (at most 30 writes, each failing at once with EIO) before close()
#: returns anyway. A live terminal gets LIVE_CLOSE_SECONDS, for a slow SSH link.
LOST_CLOSE_SECONDS = 0.1
LIVE_CLOSE_SECONDS = 5.0


def check_textual_driver() -> None:
    """Raise RuntimeError naming the first private name of Textual's driver that
    `ReaderDriver` relies on and the installed Textual lacks (Textual is pinned to a minor
    version; this makes an upgrade that moves one fail at once, by name)."""
    from textual.driver import Driver

    wanted = [
        ("textual.drivers.linux_driver.LinuxDriver._sigtstp_application", LinuxDriver, None),
        ("textual.drivers.linux_driver.LinuxDriver._sigcont_application", LinuxDriver, None),
        ("LinuxDriver._writer_thread", LinuxDriver.__init__, "_writer_thread"),
        ("textual.driver.Driver._auto_restart", Driver.__init__, "_auto_restart"),
        ("LinuxDriver._file", LinuxDriver.__init__, "_file"),
        ("textual.driver.Driver._loop", Driver.__init__, "_loop"),
        ("textual.drivers._writer_thread.WriterThread._queue", WriterThread.__init__, "_queue"),
    ]
    for name, owner, attribute in wanted:
        if attribute is None:
            present = callable(getattr(owner, name.rsplit(".", 1)[1], None))
        else:
            present = attribute in owner.__code__.co_names  # type: ignore[attr-defined]
        if not present:
            raise RuntimeError(f"the installed Textual has no {name}; see pyproject.toml")


check_textual_driver()


class TerminalWatcher(Protocol):
    """Who runs the app and must hear that the terminal is gone (tui.lifecycle.Ending)."""

    def attach(self, driver: ReaderDriver) -> None: ...

    def terminal_lost(self) -> None: ...


class TerminalOutput:
    """The stream Textual's writer thread writes to, made unable to raise: the first error
    (EIO after a hang-up, EBADF, a closed file) calls `on_error` once and every later write
    is dropped."""

    def __init__(self, stream: IO[str], on_error: Callable[[BaseException], None]) -> None:
        self._stream = stream
        self._on_error = on_error
        self.failed = threading.Event()
        # A program run before us may have left the terminal non-blocking (the flag is
        # shared with the shell): a full pty would then fail a write with EAGAIN.
        with contextlib.suppress(OSError, ValueError):
            os.set_blocking(stream.fileno(), True)

    def write(self, text: str) -> None:
        if not self.failed.is_set():
            try:
                self._stream.write(text)
            except (OSError, ValueError) as error:
                self._fail(error)

    def flush(self) -> None:
        if not self.failed.is_set():
            try:
                self._stream.flush()
            except (OSError, ValueError) as error:
                self._fail(error)

    def fileno(self) -> int:
        return self._stream.fileno()

    def _fail(self, error: BaseException) -> None:
        if not self.failed.is_set():
            self.failed.set()
            self._on_error(error)


def terminal_stream() -> IO[str] | None:
    """Where to draw: stderr as Textual does, else stdout when only it is the terminal."""
    for stream in (sys.__stderr__, sys.__stdout__):
        if stream is not None and stream.isatty():
            return stream
    return sys.__stderr__ or sys.__stdout__


class ReaderDriver(LinuxDriver):
    """Textual's Linux driver with the fixes of the module docstring.

    Textual builds the driver itself, from a class: a subclass with a `watcher` (see
    tui.lifecycle.watched_driver) is told, once and from any thread, when the terminal
    turns out to be gone (a failed write, or `lose_terminal()`).
    """

    watcher: ClassVar[TerminalWatcher | None] = None

    def __init__(
        self,
        app: App,
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        self.lost = threading.Event()
        self.in_application_mode = False
        self._suspended = False
        self._hangup_watch: threading.Thread | None = None
        stream = terminal_stream()
        # Textual types `_file` as the raw text stream; any object with its methods serves.
        self._file = TerminalOutput(stream, self._output_failed) if stream else stream  # type: ignore[assignment]
        if self.watcher is not None:
            self.watcher.attach(self)

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The event loop the app runs in (the driver is built inside it)."""
        return self._loop

    # --- a terminal that goes away ------------------------------------------------------

    def lose_terminal(self) -> None:
        """Mark the terminal gone (SIGHUP): stop reading and drawing, never resume, close
        at once."""
        if not self.lost.is_set():
            self.lost.set()
            # Stop the input thread now: once the shutdown's disable_input() came, it might
            # be blocked reading, and the event loop with it.
            self.exit_event.set()
            if self.watcher is not None:
                self.watcher.terminal_lost()

    def _output_failed(self, error: BaseException) -> None:
        self.lose_terminal()

    def terminal_alive(self) -> bool:
        """Whether the terminal still answers (a hung-up tty fails every ioctl with EIO)."""
        if self.lost.is_set():
            return False
        try:
            termios.tcgetattr(self.fileno)
        except (termios.error, OSError):
            return False
        return True

    def write(self, data: str) -> None:
        if not self.lost.is_set():  # a lost terminal's queue may never drain: do not queue
            super().write(data)

    def close(self) -> None:
        writer = self._writer_thread
        if writer is None:
            return
        # WriterThread.stop() is put(None) + join(), both without a timeout.
        wait = LOST_CLOSE_SECONDS if self.lost.is_set() else LIVE_CLOSE_SECONDS
        try:
            writer._queue.put(None, timeout=wait)
        except Exception:  # queue.Full: the writer is stuck on a terminal that is gone
            return
        writer.join(wait)

    # --- start, stop, suspend, resume ---------------------------------------------------

    def start_application_mode(self) -> None:
        super().start_application_mode()
        self.in_application_mode = True
        if self._hangup_watch is None and self.input_tty:
            self._hangup_watch = threading.Thread(
                target=self._wait_for_hangup, name="paperterm-hangup", daemon=True
            )
            self._hangup_watch.start()

    def _wait_for_hangup(self) -> None:
        """Block until the terminal hangs up, then report it: from this thread, so that it
        does not depend on a signal reaching a main thread that may be busy or blocked, nor
        on something being drawn after the hang-up. Asking poll() for no event at all
        returns only on POLLHUP, POLLERR or POLLNVAL: pending input does not wake it."""
        watch = select.poll()
        watch.register(self.fileno, 0)
        while True:
            try:
                if watch.poll():
                    break
            except InterruptedError:
                continue
            except OSError:
                return
        self.lose_terminal()

    def stop_application_mode(self) -> None:
        super().stop_application_mode()
        self.in_application_mode = False

    # Textual suspends and resumes right in its signal handlers, which run wherever the main
    # thread was interrupted (inside Queue.put, say: see the module docstring). These only
    # hand the work to the event loop.

    def _sigtstp_application(self, *_: object) -> None:
        self._on_loop(self._suspend)

    def _sigcont_application(self, *_: object) -> None:
        self._on_loop(self._resume)

    def _on_loop(self, work: Callable[[], None]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed: the app has ended
            self._loop.call_soon_threadsafe(work)

    def _suspend(self) -> None:
        if not self.in_application_mode or not self.terminal_alive():
            return  # stopping a process that has no terminal would leave it stopped for ever
        self._suspended = self._auto_restart
        super()._sigtstp_application()  # leaves application mode, then stops until SIGCONT

    def _resume(self) -> None:
        # Resume only what SIGTSTP suspended, and only on a terminal that is still there:
        # the kernel sends SIGCONT with every hang-up, and `kill -STOP`/`-CONT` suspends
        # nothing. After any SIGCONT the screen may show a shell's prompt: repaint it.
        if not self.terminal_alive():
            return
        if self._suspended:
            self._suspended = False
            super()._sigcont_application()  # back to application mode; posts SignalResume
        elif self.in_application_mode:
            self._app.post_message(self.SignalResume())


def repaint_on_resume(app: App) -> None:
    """Repaint the whole screen whenever the driver resumes (after Ctrl+Z and `fg`, or a
    SIGCONT): the alternate screen comes back blank, and without this only widgets that
    change are drawn again (the search bar and status line stayed blank until a resize).
    It is what Textual's own `App.suspend()` does after its block."""
    app.app_resume_signal.subscribe(app, lambda _app: app.refresh(layout=True))
