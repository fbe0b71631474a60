"""Family names: the last name in Latin script (with its particles and suffix), the first
in CJK script."""

from __future__ import annotations

import pytest

from paperterm.index.text.person_names import family_name, split_name


@pytest.mark.parametrize(
    ("name", "given", "family"),
    [
        ("Ada Lovelace", "Ada", "Lovelace"),
        ("Jan-Willem van de Meent", "Jan-Willem", "van de Meent"),
        ("Martin Luther King Jr.", "Martin Luther", "King Jr."),
        ("Plato", "", "Plato"),
        ("王 小明", "小明", "王"),
        ("山田 太郎", "太郎", "山田"),
        ("김 민준", "민준", "김"),
        ("王小明", "", "王小明"),
    ],
)
def test_given_and_family_names(name: str, given: str, family: str) -> None:
    assert split_name(name) == (given, family)
    assert family_name(name) == family
