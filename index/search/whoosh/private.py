"""The private names of Whoosh that the bulk segment writer and the term-at-a-time scorer
rely on, checked once when either is imported.

`check()` raises `WhooshInternalsChanged` naming the first name that is gone, so that a
Whoosh other than the pinned one fails loudly instead of giving other scores. Instance
attributes are checked through the names their class's `__init__` assigns (its code's
`co_names`), which costs no object and no file.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class WhooshInternalsChanged(ImportError):
    """An installed Whoosh lacks a private name paperterm's fast paths use."""


def _assigned(function: Callable[..., Any]) -> frozenset[str]:
    """The attribute names a function's code mentions."""
    return frozenset(function.__code__.co_names)


def required() -> list[tuple[str, Callable[[], bool]]]:
    """Each private name as `module.Class.name`, with a test that it is there."""
    from whoosh.codec.whoosh3 import W3Codec, W3PerDocReader, W3PerDocWriter
    from whoosh.columns import FixedBytesColumn
    from whoosh.index import FileIndex
    from whoosh.reading import SegmentReader
    from whoosh.scoring import BM25F

    codec_init = _assigned(W3Codec.__init__)
    column_init = _assigned(FixedBytesColumn.Reader.__init__)
    return [
        ("whoosh.codec.whoosh3.W3Codec._blocklimit", lambda: "_blocklimit" in codec_init),
        ("whoosh.codec.whoosh3.W3Codec._compression", lambda: "_compression" in codec_init),
        (
            "whoosh.codec.whoosh3.W3PerDocWriter._fieldlengths (a segment's totals)",
            lambda: "_fieldlengths" in _assigned(W3PerDocWriter.close),
        ),
        (
            "whoosh.codec.whoosh3.W3PerDocReader._cached_reader",
            lambda: callable(getattr(W3PerDocReader, "_cached_reader", None)),
        ),
        (
            "whoosh.codec.whoosh3.W3PerDocReader.field_length reads _fieldlengths",
            lambda: "_fieldlengths" in _assigned(W3PerDocReader.field_length),
        ),
        (
            "whoosh.columns.FixedBytesColumn.Reader._dbfile/_basepos/_count",
            lambda: {"_dbfile", "_basepos", "_count"} <= column_init,
        ),
        ("whoosh.index.FileIndex._segments", lambda: callable(getattr(FileIndex, "_segments", 0))),
        (
            "whoosh.reading.SegmentReader._perdoc/_storage",
            lambda: {"_perdoc", "_storage"} <= _assigned(SegmentReader.__init__),
        ),
        ("whoosh.scoring.BM25F._field_B", lambda: "_field_B" in _assigned(BM25F.__init__)),
    ]


def check() -> None:
    """Raise `WhooshInternalsChanged` for the first private name that is missing."""
    for name, present in required():
        if not present():
            raise WhooshInternalsChanged(
                f"the installed Whoosh has no {name}; paperterm needs whoosh-reloaded==2.7.5"
            )


check()
