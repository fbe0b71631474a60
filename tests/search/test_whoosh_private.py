"""The private names of Whoosh the fast paths use are all there, and one that goes missing
stops the import with its name."""

from __future__ import annotations

import pytest
from whoosh.codec.whoosh3 import W3Codec
from whoosh.index import FileIndex
from whoosh.scoring import BM25F

from paperterm.index.search.whoosh import private as whoosh_private


def test_the_pinned_whoosh_has_every_name():
    whoosh_private.check()
    assert len(whoosh_private.required()) >= 9


def test_a_missing_method_is_named(monkeypatch):
    monkeypatch.delattr(FileIndex, "_segments")
    with pytest.raises(whoosh_private.WhooshInternalsChanged, match=r"FileIndex\._segments"):
        whoosh_private.check()


@pytest.mark.parametrize(
    ("owner", "needle"),
    [(W3Codec, r"W3Codec\._blocklimit"), (BM25F, r"BM25F\._field_B")],
)
def test_an_attribute_no_longer_set_is_named(monkeypatch, owner, needle):
    def init(self, *args, **kwargs):
        self.other = 1

    monkeypatch.setattr(owner, "__init__", init)
    with pytest.raises(whoosh_private.WhooshInternalsChanged, match=needle):
        whoosh_private.check()
