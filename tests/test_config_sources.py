"""`[[sources]]` reading options: format, columns, separator, [sources.fields]; mistakes as
`file:line: key: why`."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperterm.index.config import ConfigError, parse_config
from paperterm.index.sources.files import ReadAs


def test_every_reading_option_is_read(tmp_path: Path) -> None:
    config = parse_config(
        '[[sources]]\npath = "corl.tsv"\nformat = "tsv"\n'
        'columns = ["openreview", "title", "", "abstract"]\nseparator = ";"\n'
        '[sources.fields]\ntitle = "name"\nauthors = "people.names"\n',
        tmp_path / "c.toml",
    )
    (spec,) = config.sources
    assert spec.path == tmp_path / "corl.tsv"
    assert spec.read_as == ReadAs(
        "tsv",
        ("openreview", "title", "", "abstract"),
        ";",
        (("title", "name"), ("authors", "people.names")),
    )


def test_a_source_without_options_reads_as_before(tmp_path: Path) -> None:
    (spec,) = parse_config('[[sources]]\npath = "a.bib"\n', tmp_path / "c.toml").sources
    assert spec.read_as == ReadAs() and spec.read_as.key() == ""


@pytest.mark.parametrize(
    ("body", "where", "why"),
    [
        ('format = "xml"', "c.toml:3: sources.format", "must be one of auto, text"),
        ('columns = "title"', "c.toml:3: sources.columns", "must be an array of strings"),
        ('columns = ["titel"]', "c.toml:3: sources.columns", "column 1: 'titel' is not one"),
        ('format = "bibtex"\ncolumns = ["title"]', "c.toml:4: sources.columns", "does not apply"),
        ('[sources.fields]\ntitel = "name"', "c.toml:4: sources.fields.titel", "did you mean"),
        ("[sources.fields]\ntitle = 3", "c.toml:4: sources.fields.title", "must be their key"),
        ("formt = 'tsv'", "c.toml:3: sources.formt", "unknown key (did you mean 'format'?)"),
    ],
)
def test_mistakes_name_file_line_and_key(tmp_path: Path, body: str, where: str, why: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(f'[[sources]]\npath = "a.tsv"\n{body}\n', tmp_path / "c.toml")
    message = str(caught.value)
    assert message.startswith(str(tmp_path / where)), message
    assert why in message
