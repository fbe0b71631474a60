"""The CLI in-process (fast) and, for the start-up path, as a real subprocess; its text
boundary: JSON printed inert and lossless, arguments read as typed."""

import gc
import io
import json
import os
import re
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperterm.tui.cli.escape import escape_json_for_terminal, user_text
from paperterm.tui.cli.main import main

ACTIVE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
SURROGATE = re.compile("[\ud800-\udfff]")
#: Any text, lone surrogates included (a file name that is not UTF-8 brings them).
ANY_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=60)


def test_list_json_has_full_records(run):
    code, out, err = run("list", "--json")
    assert code == 0, err
    records = json.loads(out)
    assert len(records) == 38
    for record in records:
        assert {"id", "name", "title", "collection", "abstract", "links"} <= set(record)
    assert any(r["links"] == ["https://github.com/deeplearning-wisc/picle"] for r in records)


def test_list_plain(run):
    code, out, _ = run("list")
    assert code == 0
    assert len(out.splitlines()) == 38
    assert "[ICML 2024 论文列表]" in out


def test_search_json_contract(run):
    code, out, _ = run("search", "reverse complement DNA", "--json", "--limit", "3")
    assert code == 0
    result = json.loads(out)
    assert result["query"] == "reverse complement DNA"
    assert result["total"] >= 1 and isinstance(result["took_ms"], float)
    hit = result["hits"][0]
    assert set(hit) >= {"id", "title", "name", "score", "collection", "snippet"}
    assert "**DNA**" in hit["snippet"]


def test_search_reads_queries_from_stdin_in_order(run, monkeypatch):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("DNA\npersona\n\nzzzzqqq\n"))
    code, out, _ = run("search", "--json", "-")
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["query"] for line in lines] == ["DNA", "persona", "", "zzzzqqq"]
    assert lines[3]["total"] == 0


def test_search_plain_output(run):
    code, out, _ = run("search", "persona elicitation")
    assert code == 0
    assert "PICLe" in out
    assert "1 of 1 matches" in out  # two words typed narrow: no paper with one follows


def test_show_by_id_and_prefix(run):
    _, out, _ = run("list", "--json")
    paper = json.loads(out)[0]
    code, shown, _ = run("show", paper["id"], "--json")
    assert code == 0 and json.loads(shown)["id"] == paper["id"]
    code, text, _ = run("show", paper["id"][:8])
    assert code == 0 and paper["title"] in text


def test_show_unknown_id_is_a_one_line_error(run):
    code, _, err = run("show", "nope")
    assert code == 2
    assert err.strip().count("\n") == 0 and "no paper with id 'nope'" in err


def test_index_prints_counts_and_reuses(run, tmp_path):
    code, out, _ = run("index")
    assert code == 0
    assert out.startswith("38 papers, 2 collections,")
    code, again, _ = run("index")
    assert again.split("(")[1] == out.split("(")[1]  # same generation folder
    code, rebuilt, _ = run("index", "--rebuild")
    assert rebuilt.split("(")[1] != out.split("(")[1]


def test_index_check_says_what_it_found(run, tmp_path):
    code, out, _ = run("index", "--check")
    assert (code, out.split(":")[0]) == (0, "built")  # nothing to check yet: built
    code, out, _ = run("index", "--check")
    assert code == 0 and out.startswith("sound: 38 papers, ")
    postings = next((tmp_path / "data" / "index").rglob("engine/*.pst"))
    with open(postings, "r+b") as handle:
        handle.seek(10)
        handle.write(b"\0" * 64)
    code, out, _ = run("index", "--check")
    assert code == 1
    assert out.splitlines() == [
        f"damaged: engine/{postings.name}: checksum differs",
        out.splitlines()[1],
    ]
    assert out.splitlines()[1].startswith("rebuilt: 38 papers (")
    assert run("index", "--check")[0] == 0


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["search"], "the following arguments are required"),
        (["search", "x", "--limit", "0"], "must be at least 1"),
        (["frobnicate"], "invalid choice"),
        (["--source", "/no/such/file.txt", "list"], "/no/such/file.txt: no such source"),
        (["--config", "/no/such/config.toml", "list"], "config file not found"),
    ],
)
def test_usage_errors_exit_2_with_one_line(run, args, needle):
    code, _, err = run(*args)
    assert code == 2
    assert needle in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_data_dir_that_is_a_file(run, tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("x")
    code, _, err = run("--data-dir", str(blocker), "list")
    assert code == 2 and "not a folder" in err


def test_reader_refuses_without_a_terminal(run):
    code, _, err = run()
    assert code == 2
    assert "needs a terminal" in err
    assert gc.isenabled()  # paused for the reader's start, and on again when it fails


def test_json_escapes_terminal_controls(run, tmp_path):
    source = tmp_path / "evil.txt"
    source.write_text(
        "Evil\n\nBad \u009b31m and \u202e reversed and \x1b]0;pwned\x07 text.\n", encoding="utf-8"
    )
    code, out, _ = run("--source", str(source), "list", "--json")
    assert code == 0
    assert "\u009b" not in out and "\u202e" not in out and "\x1b" not in out
    json.loads(out)


def test_real_process_answers_search_from_any_folder(tmp_path):
    env = {
        **os.environ,
        "PAPERTERM_DATA_DIR": str(tmp_path / "data"),
        "PAPERTERM_CONFIG": str(tmp_path / "none.toml"),
    }
    (tmp_path / "none.toml").write_text("")
    command = [sys.executable, "-m", "paperterm.tui.cli.main", "search", "Caduceus", "--json"]
    for _ in range(2):  # first use builds the index, second reuses it
        done = subprocess.run(
            command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
        assert done.stderr == ""
        assert json.loads(done.stdout)["total"] == 1
    assert len(list((tmp_path / "data" / "index" / "whoosh").glob("*/CURRENT"))) == 1


def test_a_broken_reader_config_is_reported_even_without_a_terminal(run, tmp_path):
    config = tmp_path / "bad.toml"
    config.write_text("[keys]\nbookmrk = 'm'\n", encoding="utf-8")
    code, _, err = run("--config", str(config))
    assert code == 2
    assert f"{config}:2: keys.bookmrk:" in err and "needs a terminal" not in err


# --- the text boundary ---------------------------------------------------------------------


@given(st.dictionaries(ANY_TEXT, st.lists(ANY_TEXT, max_size=3), max_size=4))
def test_json_output_is_inert_lossless_and_encodable(value):
    raw = json.dumps(value, ensure_ascii=False)
    for ascii_only in (False, True):
        text = escape_json_for_terminal(raw, ascii_only=ascii_only)
        assert json.loads(text) == value
        assert not ACTIVE.search(text) and not SURROGATE.search(text)
        text.encode("utf-8")  # writable, whatever the value held
        assert not ascii_only or (text.isascii() and "\x7f" not in text)


def test_json_escapes_spell_characters_beyond_the_bmp_as_pairs():
    text = escape_json_for_terminal(json.dumps("🦀 é", ensure_ascii=False), ascii_only=True)
    assert text == '"\\ud83e\\udd80 \\u00e9"'


def test_user_text_reads_undecoded_bytes_as_utf8():
    # What Python hands over for "论文 café" typed under LC_ALL=C with PYTHONUTF8=0.
    typed = "论文 café".encode().decode("ascii", "surrogateescape")
    assert user_text(typed) == "论文 café"
    junk = b"caf\xe9 \xff".decode("utf-8", "surrogateescape")
    assert user_text(junk) == "caf\ufffd \ufffd"
    assert user_text("plain ✓") == "plain ✓"
    assert user_text("lone \ud800") == "lone ?"


@given(st.binary(max_size=80))
def test_user_text_is_always_valid_text(data):
    text = user_text(data.decode("ascii", "surrogateescape"))
    text.encode("utf-8")
    assert text == data.decode("utf-8", "replace")


def test_json_follows_stdout_encoding(cli_env, monkeypatch):
    """Where stdout cannot write every character, JSON escapes them instead of "?"."""
    outputs = {}
    for encoding in ("utf-8", "ascii", "latin-1"):
        buffer = io.BytesIO()
        monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(buffer, encoding=encoding))
        assert main(["search", "--json", "论文列表"]) == 0
        sys.stdout.flush()
        outputs[encoding] = buffer.getvalue()
    assert b"?" not in outputs["ascii"] and outputs["ascii"].isascii()
    assert outputs["latin-1"].isascii()
    decoded = {name: json.loads(data.decode(name)) for name, data in outputs.items()}
    for result in decoded.values():
        result.pop("took_ms")
    assert decoded["ascii"] == decoded["utf-8"] == decoded["latin-1"]
    assert decoded["utf-8"]["total"] > 0


def test_export_to_stdout_is_inert(cli_env, tmp_path, capsys):
    assert main(["list", "--json"]) == 0
    paper = json.loads(capsys.readouterr().out)[0]["id"]
    note = "read \x1b]2;PWNED\x07 this \u202eflipped\u202c \x9b31m now"
    assert main(["bookmarks", "add", paper]) == 0
    assert main(["bookmarks", "note", paper, note]) == 0
    capsys.readouterr()
    for fmt in ("markdown", "bibtex"):
        assert main(["bookmarks", "export", "--format", fmt]) == 0
        out = capsys.readouterr().out
        assert "flipped" in out and "now" in out
        assert not ACTIVE.search(out) and "\x1b" not in out and "\x07" not in out
    target = tmp_path / "marks.md"
    assert main(["bookmarks", "export", "--format", "markdown", "-o", str(target)]) == 0
    assert "flipped" in target.read_text()  # a file gets the export as it is


def test_search_from_a_closed_stdin_is_a_usage_error(cli_env, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", None)  # what Python sets when fd 0 is closed
    assert main(["search", "--json", "-"]) == 2
    assert "no stdin" in capsys.readouterr().err


# --- the query language on the command line ----------------------------------------------------


def _ids(out: str) -> list[str]:
    return [hit["id"] for hit in json.loads(out)["hits"]]


def test_search_tag_filters_by_bookmark_tag_like_the_reader(run):
    code, out, err = run("search", "DNA", "--json")
    caduceus = _ids(out)[0]
    code, out, err = run("search", "transformer", "--json")
    transformer = _ids(out)[0]
    assert run("bookmarks", "add", caduceus)[0] == 0
    assert run("bookmarks", "tag", caduceus, "to-read")[0] == 0
    assert run("bookmarks", "add", transformer)[0] == 0
    code, out, err = run("search", "tag:to-read", "--json", "--limit", "50")
    assert code == 0, err
    assert _ids(out) == [caduceus] and json.loads(out)["total"] == 1
    code, out, _ = run("search", "tag:to-r", "--json")  # being typed: a prefix of the tag
    assert _ids(out) == [caduceus]
    code, out, _ = run("search", "-tag:to-read", "--json", "--limit", "50")
    assert caduceus not in _ids(out) and json.loads(out)["total"] == 37
    code, out, _ = run("search", "tag:none-such", "--json")
    assert json.loads(out)["total"] == 0


def test_search_words_may_start_with_a_dash_without_double_dash(run):
    code, out, err = run("search", "-vision", "--json", "--limit", "50")
    assert code == 0, err
    assert json.loads(out)["query"] == "-vision"
    assert 0 < json.loads(out)["total"] < 38
    code, out, err = run("search", "transformer", "-vision", "--limit", "50", "--json")
    assert code == 0, err
    assert json.loads(out)["query"] == "transformer -vision"
    code, _, err = run("search", "--lim", "3", "x")  # a misspelt option is still an error
    assert code == 2 and "--lim" in err


def test_search_corrects_typos_and_exact_searches_as_typed(run):
    _, out, _ = run("search", "trasnformer models", "--json")
    result = json.loads(out)
    assert result["corrected"] == "transformer models"
    assert result["corrections"] == [{"from": "trasnformer", "to": "transformer"}]
    assert result["total"] > 0
    _, out, _ = run("search", "trasnformer models", "--json", "--exact")
    assert json.loads(out)["corrected"] == "" and json.loads(out)["corrections"] == []
    _, out, _ = run("search", "trasnformer models")
    assert "showing results for “transformer models” · search “trasnformer” instead: --exact" in out


def test_the_export_formats_the_parser_offers_are_the_exporters():
    """`--format`'s names are written out in tui/cli/exports.py so that building the parser
    does not import the exporters; they must stay those of `EXPORTERS`."""
    from paperterm.index.library.export import EXPORTERS
    from paperterm.tui.cli.exports import FORMATS

    assert tuple(sorted(EXPORTERS)) == FORMATS


def test_a_tantivy_that_fails_to_load_is_one_line_not_a_crash(run, tmp_path, monkeypatch):
    """The engine's module loads when the index opens (after the reader's first frame), not
    as the session is made: an installed tantivy whose native module does not load is told
    there, in one line, as a usage error."""
    import importlib

    broken = tmp_path / "site" / "tantivy"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text('raise ImportError("libtantivy.so: no such file")\n')
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.delitem(sys.modules, "tantivy", raising=False)
    importlib.invalidate_caches()
    code, out, err = run("search", "--engine", "tantivy", "attention")
    assert code == 2
    assert out == ""
    assert err.splitlines() == [
        'paperterm: engine = "tantivy": the tantivy package is installed but fails to load:'
        " libtantivy.so: no such file"
    ]
