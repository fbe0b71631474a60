"""No user input makes the CLI print a traceback or drive the terminal.

The real `paperterm` runs as subprocesses (several at a time) over every kind of bad input:
malformed and hostile corpus files, hostile file names, wild queries (all in one process, on
stdin), broken configs, bad data dirs, ids and options, non-UTF-8 locales, bookmarks with
hostile notes. Each run must exit with the documented status (2 for bad usage or input, 0
for a good run, warnings or not), print no "Traceback", keep every stderr line a one-line
`paperterm: ...` message, and write no byte a terminal would act on: no ESC, no other C0
control but newline, no DEL, no C1 control, no bidi control, on stdout or stderr.
"""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hostile.corpus import (
    MARKERS,
    OSC_TITLE,
    REPORTED,
    SPECIMENS,
    TITLE_PAYLOAD,
    write_hostile_corpus,
)
from wild_queries import WILD_QUERIES

from paperterm.index.papers import content_id

pytestmark = pytest.mark.slow  # a sweep of real processes

WORKERS = 4
TIMEOUT = 120
ESC_NAME = f"evil{OSC_TITLE}\x9b31m.txt"

#: Raw bytes a terminal acts on whatever the encoding: C0 controls but newline, and DEL.
RAW_CONTROL = re.compile(rb"[\x00-\x09\x0b-\x1f\x7f]")
#: Decoded characters a terminal acts on: C1 controls, bidi controls, line separators.
CONTROL_CHAR = re.compile("[\x80-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


@dataclass
class Case:
    args: list[str]
    code: int
    stdin: bytes | None = None
    env: dict[str, str] = field(default_factory=dict)
    #: Text stderr must contain (file names, keys, lines).
    err: tuple[str, ...] = ()
    #: "whole": stdout is one JSON document; "lines": one per line.
    json: str = ""
    #: Redirections that close standard streams before paperterm starts, e.g. "2>&-".
    closed: str = ""


@dataclass
class Run:
    case: Case
    code: int
    out: bytes
    err: bytes

    @property
    def encoding(self) -> str:
        return "latin-1" if self.case.env.get("PYTHONIOENCODING") == "latin-1" else "utf-8"

    def text(self, data: bytes) -> str:
        return data.decode(self.encoding, errors="replace")


class World:
    """The files every case runs against, and the environment that points at them."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.hostile = root / "hostile"
        write_hostile_corpus(self.hostile)
        self.odd = root / "odd"
        self.odd.mkdir()
        abstract = "Specimen {} is an abstract that loads. It talks about models and data."
        (self.odd / ESC_NAME).write_text(abstract.format("escname") + "\n")
        latin = os.fsdecode(b"caf\xe9-list.txt")
        (self.odd / latin).write_text(abstract.format("latinname") + "\n")
        (self.odd / "loop").symlink_to(self.odd)
        (self.odd / "folder.txt").mkdir()
        os.mkfifo(self.odd / "pipe.txt")
        self.good_config = self.config(
            "good.toml",
            f"[[sources]]\npath = '{self.hostile}'\n\n[[sources]]\npath = '{self.odd}'\n",
        )
        self.data = root / "data"
        self.seeds_data = root / "seeds-data"
        self.empty_config = self.config("empty.toml", "")

    def seeds_env(self) -> dict[str, str]:
        """The bundled seeds only, in their own data dir."""
        return {"PAPERTERM_DATA_DIR": str(self.seeds_data), "PAPERTERM_CONFIG": ""}

    def config(self, name: str, text: str | bytes) -> Path:
        path = self.root / name
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        return path

    def env(self, **extra: str) -> dict[str, str]:
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("PAPERTERM_", "LC_", "PYTHONIO", "PYTHONUTF8"))
        }
        env |= {
            "PAPERTERM_DATA_DIR": str(self.data),
            "PAPERTERM_CONFIG": str(self.good_config),
            "NO_COLOR": "1",
            # Crash logs (if any) and a default config stay in here.
            "XDG_STATE_HOME": str(self.root / "state"),
            "XDG_CONFIG_HOME": str(self.root / "config-home"),
        }
        return env | extra


def run(world: World, case: Case) -> Run:
    argv = [sys.executable, "-m", "paperterm.tui.cli.main", *case.args]
    if case.closed:
        argv = ["sh", "-c", f'exec "$@" {case.closed}', "sh", *argv]
    done = subprocess.run(
        argv,
        input=case.stdin,
        stdin=None if case.stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        env=world.env(**case.env),
        cwd=world.root,
        timeout=TIMEOUT,
    )
    return Run(case, done.returncode, done.stdout, done.stderr)


def run_all(world: World, cases: dict[str, Case]) -> dict[str, Run]:
    with ThreadPoolExecutor(WORKERS) as pool:
        futures = {name: pool.submit(run, world, case) for name, case in cases.items()}
        return {name: future.result() for name, future in futures.items()}


# --- the cases --------------------------------------------------------------------------


def corpus_cases(world: World) -> dict[str, Case]:
    return {
        "list": Case(["list"], 0),
        "list --json": Case(["list", "--json"], 0, json="whole"),
        "search hostile words": Case(["search", "specimen", "--limit", "40"], 0),
        "search hostile query": Case(["search", f"{OSC_TITLE} x\x1b[2J \u202e\x9b31m"], 0),
        "search --json hostile": Case(["search", "--json", "specimen screen"], 0, json="whole"),
        "index": Case(["index"], 0),
        "doctor": Case(["doctor"], 0),
    }


def wild_query_cases(world: World) -> dict[str, Case]:
    """All wild queries in one process, one per line (line breaks inside become spaces)."""
    lines = [re.sub(r"[\r\n]", " ", query) for query in WILD_QUERIES]
    stdin = "\n".join(lines).encode("utf-8", "surrogatepass") + b"\n"
    seeds = world.seeds_env()
    return {
        "wild queries --json": Case(["search", "--json", "-"], 0, stdin, seeds, json="lines"),
        "wild queries plain": Case(["search", "-", "--limit", "2"], 0, stdin, seeds),
        "query is one dash too many": Case(["search", "--", "-x -- --"], 0, env=seeds),
    }


BROKEN_CONFIGS = {
    # name: (file content, what the one line must name besides the file)
    "not toml": (b"include_seeds = \n", ":1:"),
    "unknown key": (b"colour = 'red'\n", ":1: colour: unknown key"),
    "unknown key in a table": (b"[search]\nlimt = 5\n", ":2: search.limt: unknown key"),
    "wrong type": (b"[search]\nlimit = 'ten'\n", ":2: search.limit: must be a whole number"),
    "negative": (b"[search]\nlimit = -3\n", ":2: search.limit:"),
    "float": (b"[search]\nlimit = 1e400\n", ":2: search.limit:"),
    "table expected": (b"search = 3\n", ":1: search: must be a table"),
    "sources not tables": (b"sources = 'x'\n", ":1: sources:"),
    "source without path": (b"[[sources]]\ncollection = 'x'\n", ":1: sources[1]: needs a path"),
    "key value not a string": (b"[keys]\nquit = 5\n", ":2: keys.quit:"),
    "not utf-8": (b"\xff\xfe[ui]\n", ":1: not valid UTF-8"),
    "escape in a key": (b"x\x1b]2;PWNED\x07 = 1\n", ":1:"),
    "escape in a value": (b"[ui]\ntheme = '\x1b[2J'\n", ":2:"),
    "theme not a string": (b"[ui]\ntheme = 5\n", ":2: ui.theme: must be a string"),
    "debounce too long": (
        b"[search]\ndebounce_ms = 100000\n",
        ":2: search.debounce_ms: must be between 0 and 2,000, not 100,000",
    ),
    "limit too large": (b"[search]\nlimit = 10000000\n", ":2: search.limit: must be between"),
    "huge integer": (b"[ui]\nside_by_side_min_width = 99999999999999999999\n", ":2: ui.side"),
}


def config_cases(world: World) -> dict[str, Case]:
    cases = {}
    for name, (text, needle) in BROKEN_CONFIGS.items():
        path = world.config(f"broken-{name.replace(' ', '-')}.toml", text)
        cases[f"config {name}"] = Case(["--config", str(path), "list"], 2, err=(str(path), needle))
    folder = world.root / "config-folder.toml"
    folder.mkdir()
    cases["config is a folder"] = Case(["--config", str(folder), "list"], 2, err=(str(folder),))
    missing = world.root / "no-such-config.toml"
    cases["config missing"] = Case(["--config", str(missing), "list"], 2, err=(str(missing),))
    cases["config from env missing"] = Case(
        ["list"], 2, env={"PAPERTERM_CONFIG": str(missing)}, err=(str(missing),)
    )
    return cases


def data_dir_cases(world: World) -> dict[str, Case]:
    a_file = world.root / "data-file"
    a_file.write_text("x")
    dangling = world.root / "data-dangling"
    dangling.symlink_to(world.root / "nowhere")
    loop = world.root / "data-loop"
    loop.symlink_to(loop)
    esc_file = world.root / f"data{OSC_TITLE}"
    esc_file.write_text("x")
    seeds = {"PAPERTERM_CONFIG": str(world.empty_config)}
    return {
        "data dir is a file": Case(["--data-dir", str(a_file), "list"], 2, err=(str(a_file),)),
        "data dir is /dev/null": Case(["--data-dir", "/dev/null", "list"], 2, err=("/dev/null",)),
        "data dir dangles": Case(["--data-dir", str(dangling), "list"], 2, err=(str(dangling),)),
        "data dir loops": Case(["--data-dir", str(loop), "list"], 2, err=(str(loop),)),
        "data dir name has ESC": Case(["--data-dir", str(esc_file), "list"], 2, err=("data",)),
        "data dir under a file": Case(
            ["--data-dir", str(a_file / "sub"), "search", "dna"],
            0,
            env=seeds,
            err=(str(a_file / "sub"), "in-memory"),
        ),
    }


def stream_and_file_cases(world: World) -> dict[str, Case]:
    """Closed standard streams, and config files that are not files (issue 10)."""
    seeds = world.seeds_env()
    fifo = world.root / "config-fifo.toml"
    os.mkfifo(fifo)
    a_file = world.root / "xdg-is-a-file"
    a_file.write_text("x")
    under_a_file = str(a_file / "data")
    no_config = {**seeds, "XDG_CONFIG_HOME": str(a_file), "PAPERTERM_CONFIG": ""}
    cases = {
        f"stderr closed: {' '.join(args)}": Case(args, 0, closed="2>&-")
        for args in (["list"], ["search", "specimen"], ["index"], ["bookmarks", "list"])
    }
    cases |= {
        "stdout closed: list": Case(["list"], 1, closed=">&-", err=("stdout is closed",)),
        "stdout and stderr closed": Case(["list"], 1, closed=">&- 2>&-"),
        "stdin closed: list": Case(["list"], 0, closed="<&-"),
        "stdin closed: search -": Case(
            ["search", "-"], 2, env=seeds, closed="<&-", err=("no stdin",)
        ),
        "stdin closed: reader": Case([], 2, env=seeds, closed="<&-", err=("needs a terminal",)),
        "config is /dev/zero": Case(
            ["--config", "/dev/zero", "list"], 2, err=("/dev/zero", "not a regular file")
        ),
        "config is a fifo": Case(
            ["--config", str(fifo), "list"], 2, err=(str(fifo), "is a pipe (FIFO)")
        ),
        "XDG_CONFIG_HOME is a file: list": Case(["list"], 0, env=no_config),
        "XDG_CONFIG_HOME is a file: reader": Case([], 2, env=no_config, err=("needs a terminal",)),
        "index only in memory": Case(
            ["--data-dir", under_a_file, "index"], 1, env=seeds, err=("in-memory",)
        ),
        "index --rebuild only in memory": Case(
            ["--data-dir", under_a_file, "index", "--rebuild"], 1, env=seeds, err=("in-memory",)
        ),
    }
    return cases


def usage_cases(world: World) -> dict[str, Case]:
    """Over the seeds, so that no corpus warning comes before the one line of the error."""
    seeds = world.seeds_env()
    usage = {
        "show unknown id": (["show", "nope"], 2, ("no paper with id 'nope'",)),
        "show empty id": (["show", ""], 2, ("no paper with id",)),
        "show ESC id": (["show", "\x1b[2J\x9b31m"], 2, ("no paper with id",)),
        "bookmark unknown id": (["bookmarks", "add", "nope"], 2, ("no paper with id",)),
        "limit zero": (["search", "x", "--limit", "0"], 2, ("at least 1",)),
        "limit not a number": (["search", "x", "--limit", "\x1b[2J"], 2, ("whole number",)),
        "limit huge": (["search", "x", "--limit", "9" * 40], 0, ()),
        "unknown command": (["frobnicate\x1b]2;x\x07"], 2, ("invalid choice",)),
        "unknown option": (["list", "--nope"], 2, ("unrecognized",)),
        "search without query": (["search"], 2, ("required",)),
        "bookmarks without action": (["bookmarks"], 2, ("required",)),
        "export unknown format": (["bookmarks", "export", "--format", "pdf"], 2, ("pdf",)),
        "source missing": (["--source", f"/no/such/{ESC_NAME}", "list"], 2, ("/no/such/evil",)),
        "source is a pipe": (["--source", str(world.odd / "pipe.txt"), "list"], 0, ("pipe.txt",)),
        "source is a device": (["--source", "/dev/zero", "list"], 0, ("/dev/zero",)),
        "reader without a terminal": ([], 2, ("needs a terminal",)),
    }
    return {name: Case(args, code, env=seeds, err=err) for name, (args, code, err) in usage.items()}


LOCALES = {
    "C, no UTF-8 mode": {"LC_ALL": "C", "PYTHONUTF8": "0"},
    "C": {"LC_ALL": "C"},
    "ascii": {"PYTHONIOENCODING": "ascii"},
    "latin-1": {"PYTHONIOENCODING": "latin-1"},
    "C and ascii": {"LC_ALL": "C", "PYTHONIOENCODING": "ascii", "PYTHONUTF8": "0"},
}


def locale_cases(world: World) -> dict[str, Case]:
    queries = "论文 列表\ncafé ".encode() + b"\xff\nspecimen\n"  # 0xff: not UTF-8
    cases = {}
    for name, env in LOCALES.items():
        cases[f"{name}: list"] = Case(["list"], 0, env=env)
        cases[f"{name}: list --json"] = Case(["list", "--json"], 0, env=env, json="whole")
        cases[f"{name}: search -"] = Case(["search", "--json", "-"], 0, queries, env, json="lines")
        cases[f"{name}: search 论文"] = Case(["search", "论文"], 0, env=env)
        cases[f"{name}: index"] = Case(["index"], 0, env=env)
    return cases


# --- running them -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return World(tmp_path_factory.mktemp("no-tracebacks"))


@pytest.fixture(scope="module")
def runs(world: World) -> dict[str, Run]:
    # Build both indexes first, so the parallel runs only read them.
    first = {
        "first start": Case(["list"], 0),
        "first start, seeds": Case(["index"], 0, env=world.seeds_env()),
    }
    done = run_all(world, first)
    cases: dict[str, Case] = {}
    for make in (
        corpus_cases,
        wild_query_cases,
        config_cases,
        data_dir_cases,
        stream_and_file_cases,
        usage_cases,
        locale_cases,
    ):
        cases |= make(world)
    return done | run_all(world, cases)


def check_clean(run: Run) -> None:
    """No traceback, only one-line `paperterm:` messages, nothing a terminal acts on."""
    err = run.text(run.err)
    assert "Traceback" not in err, err
    for line in err.splitlines():
        assert line.startswith("paperterm"), f"not a one-line message: {line!r}"
    for stream in (run.out, run.err):
        assert not RAW_CONTROL.search(stream), RAW_CONTROL.search(stream)
        text = run.text(stream)
        assert not CONTROL_CHAR.search(text), CONTROL_CHAR.search(text)
    if run.encoding == "latin-1":  # there, a byte 0x80-0x9f is a C1 control
        assert not re.search(rb"[\x80-\x9f]", run.out + run.err)


def check_json(run: Run) -> list:
    text = run.text(run.out)
    if run.case.json == "whole":
        return [json.loads(text)]
    return [json.loads(line) for line in text.splitlines()]


def test_every_run_exits_as_documented_and_is_clean(runs: dict[str, Run]) -> None:
    failures = []
    for name, result in runs.items():
        try:
            assert result.code == result.case.code, (
                f"exit {result.code}, expected {result.case.code}: {result.text(result.err)}"
            )
            check_clean(result)
            err = result.text(result.err)
            for needle in result.case.err:
                assert needle in err, f"{needle!r} not in {err!r}"
            if result.case.code == 2:
                assert len(err.splitlines()) == 1, err
            if result.case.json:
                check_json(result)
        except (AssertionError, ValueError) as error:
            failures.append(f"{name}: {error}")
    assert not failures, "\n".join(failures)


#: Files whose whole content is refused or suspect: one line each, naming them.
WHOLE_FILE_PROBLEMS = ("binary.txt", "broken.json", "empty.txt", "header-only.txt", "latin1.txt")


def test_each_bad_file_is_named_and_every_good_one_loads(runs: dict[str, Run]) -> None:
    err = runs["first start"].text(runs["first start"].err)
    for name in REPORTED:
        assert name in err, f"{name} not reported"
    for name in (*WHOLE_FILE_PROBLEMS, "nul-bytes.txt"):
        assert len([line for line in err.splitlines() if name in line]) == 1, name
    for good in ("attacks.txt", "bom-crlf.txt", "long-word.txt", "evil"):
        assert good not in err, f"{good} is fine but was reported"
    abstracts = " ".join(record["abstract"] for record in check_json(runs["list --json"])[0])
    for marker in (*MARKERS, "escname", "latinname"):
        assert f"Specimen {marker}" in abstracts, marker


def test_warnings_come_again_on_later_starts(runs: dict[str, Run]) -> None:
    """The index is built once; its stored problems are still reported."""
    first = runs["first start"].text(runs["first start"].err)
    later = runs["list"].text(runs["list"].err)
    assert later.splitlines() == first.splitlines()


def test_every_wild_query_is_answered_in_order(runs: dict[str, Run]) -> None:
    answers = check_json(runs["wild queries --json"])
    assert len(answers) == len(WILD_QUERIES)
    for answer in answers:
        assert {"query", "total", "hits", "notes"} <= set(answer)
        assert answer["total"] >= len(answer["hits"])
        assert not any("could not run" in note for note in answer["notes"]), answer
    assert answers[WILD_QUERIES.index("论文列表 深度学习")]["total"] > 0


@pytest.mark.parametrize("locale", [name for name in LOCALES if name != "C"])
def test_json_is_the_same_in_any_locale(runs: dict[str, Run], locale: str) -> None:
    """Where stdout cannot encode everything, JSON escapes it: nothing is lost."""
    result = runs[f"{locale}: list --json"]
    assert result.out.isascii()
    assert check_json(result) == check_json(runs["list --json"])
    queries = [answer["query"] for answer in check_json(runs[f"{locale}: search -"])]
    if locale == "latin-1":  # the user said stdin is Latin-1
        assert queries[2] == "specimen"
    else:  # undecodable bytes are read as UTF-8 where they are UTF-8
        assert queries == ["论文 列表", "café \ufffd", "specimen"]


@pytest.mark.parametrize("locale", LOCALES)
def test_the_locale_does_not_make_the_index_stale(runs: dict[str, Run], locale: str) -> None:
    """File names that are not ASCII decode differently under `LC_ALL=C`: still the same
    index, no rebuild."""
    where = runs["index"].text(runs["index"].out).split("(")[-1]
    assert runs[f"{locale}: index"].text(runs[f"{locale}: index"].out).split("(")[-1] == where
    assert "rebuilding" not in runs[f"{locale}: list"].text(runs[f"{locale}: list"].err)


def test_hostile_names_reach_stderr_defanged(runs: dict[str, Run]) -> None:
    err = runs["first start"].text(runs["first start"].err)
    assert TITLE_PAYLOAD not in err  # the OSC sequence went whole, not just its ESC
    source = runs["source missing"].text(runs["source missing"].err)
    assert "/no/such/evil" in source and TITLE_PAYLOAD not in source


# --- the reader's config checks need a terminal ---------------------------------------


@pytest.mark.parametrize(
    ("config", "needle"),
    [
        ("[keys]\nfrobnicate = 'x'\n", ":2: keys.frobnicate: no such key binding"),
        ("[keys]\nquit = 'notakey'\n", ":2: keys.quit:"),
        ("[ui]\ntheme = 'no-such-theme'\n", "ui.theme: unknown theme"),
    ],
)
def test_reader_refuses_bad_keys_and_themes_before_starting(world: World, config, needle):
    """With a terminal (a pty), the reader validates `[keys]` and `ui.theme` and exits 2
    with one line before anything is drawn. (Without one it says it needs a terminal.)"""
    path = world.config("reader.toml", config)
    controller, terminal = pty.openpty()
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "paperterm.tui.cli.main", "--config", str(path)],
            stdin=terminal,
            stdout=terminal,
            stderr=subprocess.PIPE,
            env=world.env(TERM="xterm-256color"),
        )
        os.close(terminal)
        try:
            _, err = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            pytest.fail("the reader started despite a bad config")
    finally:
        os.close(controller)
    message = err.decode()
    assert process.returncode == 2, message
    assert len(message.splitlines()) == 1 and str(path) in message and needle in message
    assert "Traceback" not in message


# --- bookmarks carry anyone's text too ------------------------------------------------


def test_hostile_bookmark_notes_and_tags_stay_inert(world: World, tmp_path: Path) -> None:
    data = {"PAPERTERM_DATA_DIR": str(tmp_path / "data")}
    paper = content_id(SPECIMENS[0].abstract)  # a one-line paragraph of attacks.txt
    hostile = f"see {OSC_TITLE} \x1b[2J \u202eflip\u202c \x9b31m \x07 done"
    changes = [
        Case(["bookmarks", "add", paper], 0, env=data),
        Case(["bookmarks", "note", paper, hostile], 0, env=data),
        Case(["bookmarks", "tag", paper, "t\x1b[2Jag", "\u202etag"], 0, env=data),
    ]
    for case in changes:
        result = run(world, case)
        assert result.code == case.code, result.text(result.err)
        check_clean(result)
    reads = {
        "note on an unknown id": Case(["bookmarks", "note", paper + "x", "n"], 2, env=data),
        "list": Case(["bookmarks", "list"], 0, env=data),
        "list --json": Case(["bookmarks", "list", "--json"], 0, env=data, json="whole"),
        "markdown": Case(["bookmarks", "export", "--format", "markdown"], 0, env=data),
        "bibtex": Case(["bookmarks", "export", "--format", "bibtex"], 0, env=data),
        "ris": Case(["bookmarks", "export", "--format", "ris"], 0, env=data),
        "csv": Case(["bookmarks", "export", "--format", "csv"], 0, env=data),
        "json": Case(["bookmarks", "export", "--format", "json"], 0, env=data, json="whole"),
    }
    results = run_all(world, reads)
    for name, result in results.items():
        assert result.code == result.case.code, f"{name}: {result.text(result.err)}"
        check_clean(result)
    marks = check_json(results["list --json"])[0]
    assert marks[0]["id"] == paper
    assert marks[0]["note"] == hostile  # kept exactly, escaped only on the way out
    assert "flip" in results["markdown"].text(results["markdown"].out)
