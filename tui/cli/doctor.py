"""`paperterm doctor`: what this terminal, clipboard, data dir, index and config mean for
paperterm, one line each, then a verdict (exit status 0 whatever it finds).

Each check is a function of what it looks at (the environment, a runner for `tmux`, the
config), so tests give it any situation. Textual is not imported: the key table is read
from `tui/keys.py` without it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from paperterm.index.config import (
    Config,
    ConfigError,
    load_config,
    resolve_config_path,
    resolve_data_dir,
    resolve_engine,
)
from paperterm.index.session import LARGE_CORPUS, Session, SessionError, SourceRefused
from paperterm.index.text.display import safe_text
from paperterm.tui import keys
from paperterm.tui.cli.context import Arguments
from paperterm.tui.clipboard import Clipboard, Runner, over_ssh, tmux_query

#: Marks: fine; worth knowing; will get in the way.
OK, NOTE, WARN = "ok", "--", "!!"
#: Keys the terminal itself may take: software flow control (Ctrl+S stops output, Ctrl+Q
#: resumes it) where the terminal or a serial line does it before paperterm sees them.
_FLOW_CONTROL = {"ctrl+s": "stops output (XOFF)", "ctrl+q": "resumes output (XON)"}


@dataclass(frozen=True, slots=True)
class Check:
    mark: str
    topic: str
    text: str

    def line(self) -> str:
        return f"{self.mark}  {self.topic}: {self.text}"


# --- terminal --------------------------------------------------------------------------------


def terminal_checks(environ: Mapping[str, str], is_tty: bool) -> list[Check]:
    term = environ.get("TERM", "")
    checks = []
    if not is_tty:
        checks.append(Check(NOTE, "terminal", "stdout is not a terminal (checks below still hold)"))
    if not term or term == "dumb":
        checks.append(
            Check(
                WARN,
                "terminal",
                f"TERM is {term or 'not set'}: the reader needs a "
                "real terminal type (e.g. xterm-256color)",
            )
        )
    else:
        checks.append(Check(OK, "terminal", f"TERM={term}"))
    checks.append(_colour_check(environ, term))
    return checks


def _colour_check(environ: Mapping[str, str], term: str) -> Check:
    if "NO_COLOR" in environ:
        return Check(OK, "colour", "NO_COLOR is set: no colours, marks stay readable")
    colorterm = environ.get("COLORTERM", "").lower()
    if colorterm in ("truecolor", "24bit"):
        return Check(OK, "colour", f"24-bit colour (COLORTERM={colorterm})")
    depth = "256 colours" if "256" in term else "16 colours"
    if over_ssh(environ):
        return Check(
            NOTE,
            "colour",
            f"{depth} from TERM; COLORTERM is not set, and OpenSSH does "
            "not pass it on: if your terminal has 24-bit colour, `export "
            "COLORTERM=truecolor` on this side",
        )
    return Check(OK, "colour", f"{depth} (TERM={term or '?'}; COLORTERM not set)")


# --- clipboard -------------------------------------------------------------------------------


def clipboard_checks(copier: Clipboard, run: Runner) -> list[Check]:
    environ = copier.environ
    routes = [route.name for route in copier.routes()]
    if copier.in_tmux:
        setting = tmux_query(["show", "-gv", "set-clipboard"], run)
        version = tmux_query(["-V"], run) or "tmux"
        if setting is None:
            return [
                Check(
                    WARN,
                    "clipboard",
                    "$TMUX is set but its server does not answer: "
                    "only OSC 52 is left, which tmux may not pass on",
                )
            ]
        if setting in ("on", "external"):
            return [
                Check(
                    OK,
                    "clipboard",
                    f"inside {version} (set-clipboard {setting}): copies go to "
                    "tmux's buffer, and tmux passes them to your terminal's clipboard",
                )
            ]
        return [
            Check(
                WARN,
                "clipboard",
                f"inside {version} with set-clipboard {setting}: copies "
                "reach tmux's buffer (prefix ] pastes) but not your clipboard; "
                "`set -g set-clipboard on` in ~/.tmux.conf fixes it",
            )
        ]
    if routes:
        return [Check(OK, "clipboard", f"copies go to {routes[0]} and by OSC 52")]
    if over_ssh(environ):
        where = "over SSH, not in tmux"
    elif environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"):
        where = "no clipboard tool (wl-copy, xclip, xsel) installed"
    else:
        where = "no desktop session (no DISPLAY)"
    only = "copies go by OSC 52 only, which your terminal must allow (most do; some ask)"
    return [Check(NOTE, "clipboard", f"{where}: {only}")]


# --- keys ------------------------------------------------------------------------------------


def key_checks(config: Config, tmux_prefixes: Iterable[str]) -> list[Check]:
    """Bindings the terminal or tmux takes before paperterm sees them."""
    effective = {
        spec.id: [key.lower() for key in keys.raw_keys(config.keys.get(spec.id, spec.keys))]
        for spec in keys.SPECS
    }
    checks = []
    prefixes = {_tmux_key(prefix): prefix for prefix in tmux_prefixes if prefix}
    for binding_id, bound in effective.items():
        for key in bound:
            if key in prefixes:
                checks.append(
                    Check(
                        WARN,
                        "keys",
                        f"{key} ({binding_id}) is tmux's prefix "
                        f"({prefixes[key]}): tmux takes it; remap it in [keys]",
                    )
                )
            elif key in _FLOW_CONTROL:
                checks.append(
                    Check(
                        NOTE,
                        "keys",
                        f"{key} ({binding_id}) {_FLOW_CONTROL[key]} "
                        "where the terminal does flow control itself; paperterm turns "
                        "it off while it runs",
                    )
                )
            elif key == "ctrl+z" and binding_id != "suspend":
                checks.append(
                    Check(WARN, "keys", f"ctrl+z ({binding_id}) is the shell's suspend key")
                )
    if not checks:
        checks.append(Check(OK, "keys", "no binding clashes with the terminal or tmux"))
    return checks


def _tmux_key(prefix: str) -> str:
    """tmux's `C-b` / `M-a` as paperterm's `ctrl+b` / `alt+a`."""
    for tmux, ours in (("C-", "ctrl+"), ("M-", "alt+")):
        if prefix.startswith(tmux):
            return ours + prefix[len(tmux) :].lower()
    return prefix.lower()


# --- data, config, index, sources ------------------------------------------------------------


def data_checks(config_path: Path, data_dir: Path) -> list[Check]:
    where = "" if config_path.exists() else " (not there: the defaults apply)"
    checks = [Check(OK, "config", f"{config_path}{where}")]
    if data_dir.exists() and not os.access(data_dir, os.W_OK | os.X_OK):
        checks.append(
            Check(
                WARN,
                "data",
                f"{data_dir} cannot be written: the index stays in "
                "memory and bookmarks are read-only",
            )
        )
    else:
        made = "" if data_dir.exists() else " (made on first use)"
        checks.append(Check(OK, "data", f"{data_dir}{made}"))
    return checks


def engine_check(engine: str) -> Check:
    """Which search engine the index is built with, and whether tantivy is there."""
    from importlib.metadata import PackageNotFoundError, version

    from paperterm.index.search.tantivy import INSTALL_HINT, tantivy_installed

    installed = tantivy_installed()
    if engine == "tantivy":
        if not installed:
            return Check(WARN, "engine", f"tantivy is not installed: {INSTALL_HINT}")
        try:
            release = version("tantivy")
        except PackageNotFoundError:
            release = "(version unknown)"
        return Check(OK, "engine", f"tantivy {release}")
    if engine == "whoosh":
        return Check(OK, "engine", "Whoosh")
    extra = (
        'tantivy is installed: engine = "tantivy" uses it'
        if installed
        else f"above {LARGE_CORPUS:,} papers, tantivy is faster: {INSTALL_HINT}"
    )
    return Check(OK, "engine", f"Whoosh (auto; {extra})")


def index_checks(session: Session) -> list[Check]:
    """The index's state and size, the sources' problems, and what each source gave the
    index when it is built (`source_report`), without building anything."""
    from paperterm.index.search.source_report import source_reports

    opened = session.open_existing()
    index_dir = session.data_dir / "index"
    size = (
        sum(p.stat().st_size for p in index_dir.rglob("*") if p.is_file())
        if (index_dir.is_dir())
        else 0
    )
    files = session.files()
    if opened is not None:
        collections = {name for paper in opened.papers for name in paper.collections}
        state = Check(
            OK,
            "index",
            f"ready: {len(opened.papers)} papers, {len(collections)} "
            f"collections, {size / 1e6:.1f} MB in {index_dir}",
        )
        problems = [str(problem) for problem in opened.meta.problems]
        reported = [Check(OK, "source", report.line()) for report in source_reports(opened.meta)]
    else:
        built = "out of date" if size else "not built yet"
        state = Check(NOTE, "index", f"{built}: the next start builds it ({len(files)} files)")
        problems = [str(problem) for problem in session.load_corpus().problems]
        reported = []
    checks = [state]
    if problems:
        checks.append(
            Check(
                WARN,
                "sources",
                f"{len(problems)} problem(s) in {len(files)} "
                f"file(s) (`paperterm index` lists all): {problems[0]}",
            )
        )
    else:
        checks.append(
            Check(
                OK,
                "sources",
                f"{len(files)} file(s) from {len(session.specs)} source(s), no problems",
            )
        )
    return checks + reported


# --- the command -----------------------------------------------------------------------------


def run_doctor(
    args: Arguments,
    out: TextIO,
    environ: Mapping[str, str] | None = None,
    run: Runner | None = None,
    is_tty: Callable[[], bool] | None = None,
) -> int:
    """Every check, one line each, then the verdict; exit status 0, or 2 when a source file
    named directly is refused (its shape is none paperterm reads)."""
    import subprocess

    environ = os.environ if environ is None else environ
    run = run or subprocess.run
    checks = terminal_checks(environ, (is_tty or sys.stdout.isatty)())
    copier = Clipboard(environ, run=run)
    checks += clipboard_checks(copier, run)
    config_path, must_exist = resolve_config_path(getattr(args, "config", None))
    try:
        config = load_config(config_path, must_exist)
    except ConfigError as error:
        checks.append(Check(WARN, "config", f"{error} (the reader will not start)"))
        config = Config()
    prefixes = []
    if copier.in_tmux:
        prefixes = [tmux_query(["show", "-gv", name], run) or "" for name in ("prefix", "prefix2")]
    checks += key_checks(config, [p for p in prefixes if p and p != "None"])
    data_dir = resolve_data_dir(getattr(args, "data_dir", None), config)
    try:
        config.engine = resolve_engine(getattr(args, "engine", None), config)
    except ConfigError as error:
        checks.append(Check(WARN, "engine", str(error)))
    engine = engine_check(config.engine)
    checks.append(engine)
    sources = [Path(p).expanduser() for p in getattr(args, "source", None) or []]
    refused = False
    try:
        session = Session.create(data_dir, sources, config) if engine.mark != WARN else None
    except SourceRefused as error:
        checks.append(Check(WARN, "sources", str(error)))
        refused = True
    except SessionError as error:
        checks.append(Check(WARN, "data", str(error)))
    else:
        checks += data_checks(config_path, data_dir)
        if session is not None:  # else the engine's problem is said above
            checks += index_checks(session)
    for check in checks:
        out.write(safe_text(check.line(), keep_newlines=False) + "\n")
    warnings = sum(check.mark == WARN for check in checks)
    verdict = "ready" if not warnings else f"usable, {warnings} thing(s) to fix (!! above)"
    if refused:
        verdict = "not ready: a source is refused (!! above)"
    out.write(f"verdict: {verdict}\n")
    return 2 if refused else 0
