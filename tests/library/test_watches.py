"""The watch store (watch.toml): file shape, merging two writers, damaged files."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperterm.index.library.bookmarks import utc_now
from paperterm.index.library.op_store import LibraryFileError, LibraryReadOnlyError
from paperterm.index.library.watches import WATCH_FILENAME, AddWatch, WatchStore, watch_key
from paperterm.index.planning.watch import WatchList

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib


def open_store(data_dir: Path) -> WatchStore:
    store = WatchStore.in_dir(data_dir)
    store.load()
    return store


def test_watches_are_saved_and_read_back(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    store.watch("author", "Yann LeCun")
    store.watch("author_id", "~Yann_LeCun1")
    store.watch("word", "Diffusion  model")
    raw = tomllib.loads((tmp_path / WATCH_FILENAME).read_text("utf-8"))
    assert raw["version"] == 1
    assert [(t["kind"], t["value"]) for t in raw["watch"]] == [
        ("author", "Yann LeCun"),
        ("author_id", "~Yann_LeCun1"),
        ("word", "Diffusion model"),
    ]
    assert all(t["added"].tzinfo is not None for t in raw["watch"])
    again = open_store(tmp_path)
    assert again.watch_list() == WatchList(
        authors=("Yann LeCun",), words=("Diffusion model",), author_ids=("~Yann_LeCun1",)
    )


def test_one_entry_per_name_however_spelled(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    store.watch("author", "Yann LeCun")
    store.watch("author", "yann le cun")
    store.watch("word", "GAN")
    store.watch("word", "gan")
    assert store.watch_list().authors == ("Yann LeCun",)
    assert store.watch_list().words == ("GAN",)
    assert watch_key("author", "Jürgen Schmidhuber") == watch_key("author", "jurgen schmidhuber")
    store.unwatch("author", "YANN LECUN")
    assert store.watch_list().authors == ()


def test_two_writers_lose_nothing(tmp_path: Path) -> None:
    first, second = open_store(tmp_path), open_store(tmp_path)
    first.watch("author", "Ada Lovelace")
    second.watch("word", "transformer")  # second never reloaded: merged under the lock
    first.unwatch("word", "nothing watched")
    final = open_store(tmp_path).watch_list()
    assert final.authors == ("Ada Lovelace",)
    assert final.words == ("transformer",)
    assert first.watch_list() == final  # its last save read the other's change
    assert second.watch_list() == final


def test_staged_watches_are_written_by_save(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    store.stage(AddWatch("word", "bandit", utc_now()))
    assert not (tmp_path / WATCH_FILENAME).exists()
    assert store.watch_list().words == ("bandit",)
    store.save()
    assert open_store(tmp_path).watch_list().words == ("bandit",)


def test_config_lists_come_first(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    store.watch("author", "B Person")
    store.watch("word", "alpha")
    configured = WatchList(authors=("A Person", "B Person"), words=("beta",))
    assert store.watch_list(configured) == WatchList(
        authors=("A Person", "B Person"), words=("beta", "alpha")
    )


@pytest.mark.parametrize(
    ("text", "why", "line"),
    [
        ("version = 1\n[[watch]]\nkind = 'person'\nvalue = 'x'\n", "'kind' must be one of", 2),
        ("version = 1\n\n[[watch]]\nkind = 'word'\nvalue = 3\n", "'value' must be text", 3),
        (
            "version = 1\n[[watch]]\nkind = 'word'\nvalue = 'A'\n[[watch]]\nkind = 'word'\n"
            "value = 'a'\n",
            "watched twice",
            5,
        ),
        ("version = 1\nwatch = 'x'\n", "array of tables", None),
        (
            "version = 1\n[[watch]]\nkind = 'word'\nvalue = 'x'\n"
            "added = 9999-12-31T23:59:59-23:59\n",
            "watch 1: 'added' 9999-12-31T23:59:59-23:59 is out of range",
            2,
        ),
        ("version = 9\n", "version 9 is not supported", 1),
        ("version = 1\n[[watch]\n", "", 2),
    ],
)
def test_a_damaged_file_names_its_line_and_is_never_overwritten(
    tmp_path: Path, text: str, why: str, line: int | None
) -> None:
    path = tmp_path / WATCH_FILENAME
    path.write_text(text, "utf-8")
    store = WatchStore.in_dir(tmp_path)
    with pytest.raises(LibraryFileError) as caught:
        store.load()
    assert why in caught.value.why
    assert caught.value.line == line
    with pytest.raises(LibraryReadOnlyError):
        store.watch("word", "anything")
    assert path.read_text("utf-8") == text


def test_unknown_kind_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="person"):
        open_store(tmp_path).watch("person", "x")


def test_unknown_top_level_keys_are_kept(tmp_path: Path) -> None:
    path = tmp_path / WATCH_FILENAME
    path.write_text("version = 1\nfuture = 'kept'\n", "utf-8")
    store = open_store(tmp_path)
    store.watch("word", "x")
    assert tomllib.loads(path.read_text("utf-8"))["future"] == "kept"


@pytest.mark.parametrize(("kind", "value"), [("author", " -- "), ("word", "  "), ("author_id", "")])
def test_nothing_to_watch_is_refused_and_nothing_is_written(
    tmp_path: Path, kind: str, value: str
) -> None:
    store = open_store(tmp_path)
    with pytest.raises(ValueError, match="nothing to watch"):
        store.watch(kind, value)
    assert not (tmp_path / WATCH_FILENAME).exists()
    store.watch("word", "C++")
    assert open_store(tmp_path).watch_list().words == ("C++",)
