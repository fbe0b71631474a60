"""The command line read the short way for the reader (its shared options only) and the full
way for everything else: the same namespace, the same errors and help (issue 14)."""

from __future__ import annotations

import argparse

import pytest

from paperterm.tui.cli import main as cli
from paperterm.tui.cli.context import UsageError


def full(argv: list[str]) -> argparse.Namespace:
    return cli.build_parser(argv).parse_args(argv)


def _parsers_built(monkeypatch) -> list[list[str]]:
    """The argument lists the full parser is built for from now on."""
    built: list[list[str]] = []
    real = cli.build_parser

    def counted(given: list[str]) -> argparse.ArgumentParser:
        built.append(given)
        return real(given)

    monkeypatch.setattr(cli, "build_parser", counted)
    return built


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--data-dir", "/tmp/d"],
        ["--data-dir", "/tmp/d", "--source", "a.txt", "--source", "b.bib"],
        ["--config", "c.toml", "--engine", "tantivy"],
        ["--data-dir", "list"],  # a command's name as an option's value
        ["--source=a.txt"],
        ["--engine=auto", "--source", "a", "--source=b", "--data-dir=", "--config", ""],
        ["--data-dir", "a", "--data-dir", "b"],  # the last one
    ],
)
def test_the_reader_s_arguments_read_as_the_full_parser_reads_them(argv, monkeypatch):
    expected = full(argv)
    built = _parsers_built(monkeypatch)
    assert vars(cli.parse_arguments(argv)) == vars(expected)
    assert built == []  # no parser was made (nor argparse imported: test_reader_startup.py)


@pytest.mark.parametrize(
    "argv",
    [
        ["--data", "/tmp/d", "--eng", "whoosh"],  # abbreviations, as argparse allows them
        ["--source", "-"],  # a value that starts with `-`
        ["--data-dir", "-5"],
    ],
)
def test_what_the_short_reading_leaves_goes_to_the_full_parser(argv, monkeypatch):
    expected = full(argv)
    built = _parsers_built(monkeypatch)
    assert cli.parse_arguments(argv) == expected
    assert built == [argv]


def test_version_is_the_full_parser_s(capsys):
    with pytest.raises(SystemExit):
        cli.parse_arguments(["--version"])
    assert capsys.readouterr().err.startswith("paperterm ")


@pytest.mark.parametrize(
    "argv",
    [
        ["list"],
        ["--data-dir", "/tmp/d", "search", "graph", "--limit", "3"],
        ["bookmarks", "list"],
    ],
)
def test_a_command_is_read_by_the_full_parser(argv):
    assert cli.parse_arguments(argv) == full(argv)
    assert cli.parse_arguments(argv).command is not None


@pytest.mark.parametrize(
    "argv",
    [
        ["frobnicate"],
        ["--engine", "nope"],
        ["--data-dir"],
        ["--colour"],
        ["--engine=nope"],
        ["--source"],
        ["--"],
        ["--", "list"],
    ],
)
def test_mistakes_get_the_full_parser_s_error(argv):
    with pytest.raises(UsageError) as expected:
        full(argv)
    with pytest.raises(UsageError) as got:
        cli.parse_arguments(argv)
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("flag", ["--help", "-h", "--he"])
def test_help_is_the_full_parser_s(flag, capsys):
    with pytest.raises(SystemExit):
        full([flag])
    expected = capsys.readouterr().out
    with pytest.raises(SystemExit):
        cli.parse_arguments([flag])
    got = capsys.readouterr().out
    assert "COMMAND" in got and got == expected
