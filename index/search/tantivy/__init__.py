"""The optional tantivy engine (`pip install 'paperterm[tantivy]'`): its index (`index`) and
plan runner (`engine`). This module says whether tantivy is there without importing it:
its native module loads with the engine's index, after the reader's first frame."""

from __future__ import annotations

from typing import Any

INSTALL_HINT = "pip install 'paperterm[tantivy]'"


class TantivyMissing(Exception):
    """The tantivy engine was asked for and `tantivy` is not installed."""


def tantivy_installed() -> bool:
    """Whether the tantivy package is installed (found, not imported)."""
    from importlib.util import find_spec

    return find_spec("tantivy") is not None


def load_tantivy() -> Any:
    """The `tantivy` module, or `TantivyMissing` with the one line that says how to get it."""
    try:
        import tantivy
    except ImportError as error:
        if not tantivy_installed():
            why = f'engine = "tantivy" needs the tantivy package: {INSTALL_HINT}'
        else:  # installed, but its native module does not load here
            why = f'engine = "tantivy": the tantivy package is installed but fails to load: {error}'
        raise TantivyMissing(why) from None
    return tantivy
