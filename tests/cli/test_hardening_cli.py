"""The CLI's text boundary: JSON printed inert and lossless, arguments read as typed."""

from __future__ import annotations

import io
import json
import re
import sys

from hypothesis import given
from hypothesis import strategies as st

from paperterm.tui.cli.escape import escape_json_for_terminal, user_text
from paperterm.tui.cli.main import main

ACTIVE = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
SURROGATE = re.compile("[\ud800-\udfff]")
#: Any text, lone surrogates included (a file name that is not UTF-8 brings them).
ANY_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=60)


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


def test_json_follows_stdout_encoding(tmp_path, monkeypatch):
    """Where stdout cannot write every character, JSON escapes them instead of "?"."""
    monkeypatch.setenv("PAPERTERM_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PAPERTERM_CONFIG", str(tmp_path / "empty.toml"))
    (tmp_path / "empty.toml").write_text("")
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


def test_export_to_stdout_is_inert(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PAPERTERM_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PAPERTERM_CONFIG", str(tmp_path / "empty.toml"))
    (tmp_path / "empty.toml").write_text("")
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


def test_search_from_a_closed_stdin_is_a_usage_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PAPERTERM_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PAPERTERM_CONFIG", str(tmp_path / "empty.toml"))
    (tmp_path / "empty.toml").write_text("")
    monkeypatch.setattr(sys, "stdin", None)  # what Python sets when fd 0 is closed
    assert main(["search", "--json", "-"]) == 2
    assert "no stdin" in capsys.readouterr().err
