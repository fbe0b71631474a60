"""Where the reader was: view, query, sort, filters, paper and row density, kept in
`place.toml` in the data dir so that the next start over the same sources returns there.

It is the reader's own file, written whole when the reader ends and when the row density
is switched (last one to write wins; it holds nothing the user made). Reading it never
fails: a missing file is the start of the list, and a damaged one (not TOML, a value of the
wrong type, an unknown sort or density) is ignored, in part or whole, with a warning the
reader shows.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from paperterm.index.library.filters import ViewKey
from paperterm.index.library.sorting import DEFAULT_SORT, SORTS
from paperterm.index.private_files import write_target_inside
from paperterm.index.toml_text import TomlSyntaxError, parse_toml
from paperterm.index.user_files import read_regular_file, write_user_file

PLACE_FILENAME = "place.toml"
#: The list's row densities (`Place.density`), the default first.
DENSITIES = ("comfortable", "compact")
_MAX_BYTES = 64 << 10  # a query is at most 4,000 characters: this is far more than a place
_HEADER = "# Where the paperterm reader was when it last ended (it rewrites this file).\n"


class Place(NamedTuple):
    """A position in the reader: what the list shows, and the paper under the cursor. A named
    tuple, not a frozen dataclass: cheaper to define as the reader starts."""

    view: str = "all"
    query: str = ""
    sort: str = DEFAULT_SORT
    unread_only: bool = False
    bookmarks_only: bool = False
    paper: str = ""
    #: The set of sources it is a place in (`store.set_key`); "" of any.
    sources: str = ""
    #: The list's rows: "comfortable" (whole titles and a dim line) or "compact".
    density: str = DENSITIES[0]


def load_place(data_dir: Path, sources: str = "") -> tuple[Place, list[str]]:
    """The place saved in the data dir, and warnings about what of it was ignored. A place
    in another set of sources than `sources` keeps only its sort and filters: its view,
    query and paper are of the other corpus."""
    path = Path(data_dir) / PLACE_FILENAME
    try:
        data, _ = read_regular_file(path, _MAX_BYTES, "place file")
    except FileNotFoundError:
        return Place(), []
    except OSError as error:
        return Place(), [f"{path}: ignored ({error.strerror or error})"]
    try:
        raw = parse_toml(data.decode("utf-8"))
    except UnicodeDecodeError:
        return Place(), [f"{path}: ignored (not UTF-8 text)"]
    except TomlSyntaxError as error:
        return Place(), [f"{error.at(str(path))} (ignored)"]
    if raw.get("version") != 1:
        return Place(), [f"{path}: ignored (not version 1)"]
    values: dict[str, object] = {}
    warnings: list[str] = []
    for name, default in Place._field_defaults.items():
        value = raw.get(name, default)
        if not isinstance(value, type(default)):
            warnings.append(f"{path}: {name} ignored (not a {type(default).__name__})")
            continue
        values[name] = value
    place = Place(**values)  # type: ignore[arg-type]
    if place.sort not in SORTS:
        warnings.append(f"{path}: sort {place.sort!r} ignored (sorts: {', '.join(SORTS)})")
        place = Place(**{**values, "sort": DEFAULT_SORT})  # type: ignore[arg-type]
    if place.density not in DENSITIES:
        warnings.append(
            f"{path}: density {place.density!r} ignored (densities: {', '.join(DENSITIES)})"
        )
        place = place._replace(density=DENSITIES[0])
    if ViewKey.parse(place.view) is None:
        warnings.append(f"{path}: view {place.view!r} ignored")
        place = place._replace(view="all")
    if place.sources and sources and place.sources != sources:
        place = Place(
            sort=place.sort,
            unread_only=place.unread_only,
            bookmarks_only=place.bookmarks_only,
            density=place.density,
        )
    return place, warnings


def save_place(data_dir: Path, place: Place) -> None:
    """Write the place (atomically); OSError when it cannot be."""
    import tomli_w  # written on a save only: the reader's start writes nothing

    body = {"version": 1, **place._asdict()}
    text = _HEADER + tomli_w.dumps(body)
    path = Path(data_dir) / PLACE_FILENAME
    write_target_inside(path, Path(data_dir))
    write_user_file(path, text.encode("utf-8"), make_parents=True)
