"""Whoosh segments written in bulk: the files Whoosh's own writer makes, for far less work.

Whoosh's `SegmentWriter` spends most of an index build on per-posting Python work: every
(term, document) pair becomes a tuple in an external sort pool, is sorted, read back and
handed one at a time to the postings writer, which looks up the document's field length for
each (92 of the 121 s a 50,000-abstract build took). `SegmentBuilder` keeps each term's
postings in compact arrays as documents come in (they arrive in document order, so nothing
needs sorting), cuts text with one regex pass per value (a text two fields hold is cut once),
and writes whole blocks through Whoosh's own codec classes. The segment is the one Whoosh
would write: the same terms, postings, block statistics, field lengths and stored fields
(tests/search/test_whoosh_segments.py compares them with what Whoosh's writer makes).

Only fields analyzed by our `WordTokenizer` (with positions) and untokenized `ID` fields take
the fast path; any other field is indexed the way Whoosh indexes it (`Field.index`).

With Whoosh's files, the segment gets a postings file of ours (`whoosh_postings.py`), written
from the same postings: the plan scorer reads a term's documents, weights and positions
there (positions are kept for the fields of the fast path).

`finish()` writes the segment and returns Whoosh's segment object; putting it into an index
(its table of contents) is the caller's step, so several processes can write segments of one
index at the same time.
"""

from __future__ import annotations

import struct
import sys
import zlib
from array import array
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from itertools import accumulate, compress
from operator import not_, sub
from pickle import dumps
from typing import Any

from whoosh.analysis import STOP_WORDS
from whoosh.analysis.tokenizers import IDTokenizer
from whoosh.codec.base import Segment
from whoosh.codec.whoosh3 import WHOOSH3_HEADER_MAGIC, W3Codec
from whoosh.fields import FieldType, Schema
from whoosh.filedb.filestore import Storage
from whoosh.formats import Existence, Positions
from whoosh.system import pack_int, pack_ushort
from whoosh.util.numeric import byte_to_length, length_to_byte

from paperterm.index.search import whoosh_private  # noqa: F401  (checks the private names)
from paperterm.index.search.analysis import WordTokenizer
from paperterm.index.search.whoosh_postings import EXTENSION, PostingsWriter
from paperterm.index.search.whoosh_terms_file import TermsFile, growable_type
from paperterm.index.text.words import (
    HAS_CJK,
    STEM_CACHE,
    WORD,
    ascii_words,
    cjk_pieces,
    fold_scripts,
    stem,
)

#: A field's value: a text, or the parts of one as Whoosh would see them joined by newlines
#: (each part is cut on its own, so a part several fields share is cut once per document).
Value = str | Sequence[str]

#: How posting blocks are pickled and compressed (see `_FieldWriter`).
PROTOCOL = 5
COMPRESSION = 3
_COMPRESS_FROM = 64
#: Terms whose postings are written to the file together.
_WRITE_EVERY = 2048
_UINT = struct.Struct("!I").pack
#: `Positions.encode` of a term found once, at position p (most postings are these).
_ONCE = [_UINT(1) + dumps([p], 2) for p in range(1024)]
#: The positions of a term found once, at p < 1024: one tuple each, shared by its postings.
_ONE = [(p,) for p in range(len(_ONCE))]
#: Positions -> `Positions.encode` of them, for those of `_ONE`.
_ENCODED = dict(zip(_ONE, _ONCE, strict=True))


def cut(text: str) -> list[str]:
    """The pieces of `text` in lower case as `WordTokenizer` sees them, stop words kept:
    words, and CJK runs as overlapping bigrams."""
    if text.isascii():
        return ascii_words(text.lower())
    words = [fold_scripts(word.lower()) for word in WORD.findall(text)]
    if not HAS_CJK.search(text):
        return words
    pieces: list[str] = []
    for word in words:
        if HAS_CJK.search(word):
            pieces.extend(piece for piece, _, _ in cjk_pieces(word))
        else:
            pieces.append(word)
    return pieces


def _encode(positions: Sequence[int]) -> bytes:
    """`whoosh.formats.Positions.encode`: the count, then the gaps, pickled (`_ENCODED`
    holds those of a term found once early on)."""
    gaps = [positions[0], *map(sub, positions[1:], positions)]
    return _UINT(len(gaps)) + dumps(gaps, 2)


class _TermMap(dict[str, str]):
    """Piece -> the term `WordTokenizer` indexes it as, "" for one it drops (a stop word,
    too short); filled as pieces are first seen, so a corpus stems each word once."""

    def __init__(self, stem_words: bool, minsize: int) -> None:
        super().__init__()
        self.stem_words = stem_words
        self.minsize = minsize

    def __missing__(self, piece: str) -> str:
        if len(piece) < self.minsize or piece in STOP_WORDS:
            term = ""
        else:
            term = (STEM_CACHE.get(piece) or stem(piece)) if self.stem_words else piece
        self[piece] = term
        return term


_TERM_MAPS: dict[tuple[bool, int], _TermMap] = {}


def _term_map(analyzer: WordTokenizer) -> Callable[[str], str]:
    key = (analyzer.stem, analyzer.minsize)
    found = _TERM_MAPS.get(key)
    if found is None:
        found = _TERM_MAPS[key] = _TermMap(*key)
    return found.__getitem__


#: W3TermInfo's fields (flags, total weight, documents, shortest and longest length as
#: bytes, top weight, first and last document), then its postings' offset and length.
_TERM_INFO = struct.Struct("!BfIBBfIIqi")
#: `length_to_byte` of each length seen (it bisects a table for each).
_LENGTH_BYTE: dict[int | None, int] = {}


def _length_byte(length: int | None) -> int:
    found = _LENGTH_BYTE.get(length)
    if found is None:
        found = _LENGTH_BYTE[length] = length_to_byte(length)
    return found


#: A length's one-byte form -> the length Whoosh reads back (0: none).
_ROUNDED = [0, *map(byte_to_length, range(1, 256))]
#: How Whoosh's stored column (`PickleColumn(CompressedBytesColumn())`) compresses a
#: document's stored fields; with more documents than this, it also writes their offsets.
_STORED_LEVEL = 3
_STORED_OFFSETS_FROM = 2**15


def _stored_column(values: list[bytes], count: int) -> bytes:
    """What Whoosh's stored column writes of `count` documents' stored fields (pickled and
    compressed, b"" for none): the values, their lengths, and with many documents their
    offsets (`VarBytesColumn.Writer`), big-endian, then the type code of each array."""
    lengths = list(map(len, values))
    parts = [b"".join(values)]
    arrays = [array(growable_type(max(lengths, default=0), "B"), lengths)]
    if count > _STORED_OFFSETS_FROM:
        offsets = [0, *accumulate(lengths[:-1])]
        arrays.append(array(growable_type(offsets[-1], "B"), offsets))
    for found in arrays:
        if sys.byteorder == "little":
            found.byteswap()
        parts.append(found.tobytes())
    parts += [found.typecode.encode("ascii") for found in arrays]
    if count > _STORED_OFFSETS_FROM:
        parts.append(b"X")
    return b"".join(parts)


class _TermsWriter:
    """A segment's terms: Whoosh's term index (`.trm`) and postings (`.pst`), and the
    postings file of ours (`whoosh_postings.py`), written a field at a time from each
    term's postings.

    Blocks are cut and described as `W3PostingsWriter` does (128 postings, each block with
    its count, last document, top weight and length range; the term's statistics over all
    of them), and pickled with `protocol`: Whoosh pickles with protocol 2, in which the
    `bytes` of each posting's positions pickle as calls to `_codecs.encode`, twice the size
    and far slower to read; its reader takes any protocol (`pickle.loads`). Blocks shorter
    than `_COMPRESS_FROM` bytes are not compressed (compressing makes them longer). A
    field's postings are written in one piece, its terms' index entries in one call.
    """

    def __init__(self, codec: W3Codec, storage: Storage, segment: Segment, protocol: int):
        self._storage, self._segment = storage, segment
        self._protocol = protocol
        self._size = codec._blocklimit
        self._compression = codec._compression
        self._terms = TermsFile(segment.create_file(storage, W3Codec.TERMS_EXT))
        self._postfile = segment.create_file(storage, W3Codec.POSTS_EXT)
        self._offset = self._postfile.tell()
        self._table = PostingsWriter()

    def write_field(
        self,
        fieldname: str,
        field: FieldType,
        terms: list[tuple[bytes, list[Any]]],
        lengths: array[int] | None,
        positions: bool,
    ) -> None:
        """A field's terms, in increasing order, each with all its postings: document,
        weight, value, ... in one flat list. With `positions`, each value is the term's
        positions in the document (a tuple), which are encoded here as Whoosh keeps them
        (`Positions.encode`); otherwise it is the value as Whoosh keeps it."""
        fieldmap = self._terms.fieldmap
        prefix = pack_ushort(fieldmap.setdefault(fieldname, len(fieldmap)))
        fixed = field.format.fixed_value_size()
        kind = "none" if fixed == 0 else "tuple" if fixed is None or fixed < 0 else "join"
        protocol, size, compression = self._protocol, self._size, self._compression
        length_of = lengths.__getitem__ if lengths is not None else None
        table_add, table_one = self._table.add, self._table.add_one
        chunks: list[bytes] = []
        infos: list[bytes] = []
        offset = self._offset
        for btext, postings in terms:
            if len(chunks) == _WRITE_EVERY:  # a field's postings are not held all at once
                self._postfile.write(b"".join(chunks))
                chunks.clear()
            if len(postings) == 3:  # one posting (most terms): one block, said directly
                doc, boost, raw = postings
                floats = array("f", (boost,))
                table_one(fieldname, btext, doc, floats[0], raw if positions else None)
                value = (_ENCODED.get(raw) or _encode(raw)) if positions else raw
                length = length_of(doc) if length_of else 0
                low = length or None
                held: object = value  # the block's values: Whoosh's of a "join" field
                if kind == "tuple":
                    held = (value,) if value else ()
                elif kind == "none":
                    held = None
                one = None if floats[0] == 1.0 else floats[0]
                data = dumps(((doc,), one, held), protocol)
                level = compression if len(data) >= _COMPRESS_FROM else 0
                if level:
                    data = zlib.compress(data, level)
                byte = _length_byte(low)
                head = dumps((1, doc, boost, level, byte, byte), protocol)
                written = WHOOSH3_HEADER_MAGIC + pack_int(-len(head) - len(data)) + head + data
                chunks.append(written)
                info = (
                    0,
                    sum(floats),
                    1,
                    byte,
                    byte,
                    max(0, boost),
                    doc,
                    doc,
                    offset,
                    len(written),
                )
                infos.append(_TERM_INFO.pack(*info))
                offset += len(written)
                continue
            docs = postings[0::3]
            weights = postings[1::3]
            values = postings[2::3]
            floats = array("f", weights)
            table_add(fieldname, btext, docs, floats, values if positions else None)
            if positions:
                raw = values
                values = list(map(_ENCODED.get, raw))  # a term found once: nearly all
                for index in compress(range(len(values)), map(not_, values)):
                    values[index] = _encode(raw[index])
            count = len(docs)
            weight = 0.0
            shortest: int | None = None
            longest = 0
            top: float = 0
            term = [WHOOSH3_HEADER_MAGIC]
            for start in range(0, count, size):
                stop = min(start + size, count)
                if count > size:
                    ids = docs[start:stop]
                    block = floats[start:stop]
                    top_here = max(weights[start:stop])
                else:
                    ids, block, top_here = docs, floats, max(weights)
                known = list(filter(None, map(length_of, ids))) if length_of else ()
                low = min(known) if known else None
                high = max(known) if known else 0
                weight += sum(block)
                if shortest is None:
                    shortest = low
                elif low is not None:
                    shortest = min(shortest, low)
                longest = max(longest, high)
                top = max(top, top_here)
                n = stop - start
                if block.count(1.0) == n:
                    mini_weights: object = None
                elif block.count(block[0]) == n:
                    mini_weights = block[0]
                else:
                    mini_weights = tuple(block)
                if kind == "tuple":
                    mini_values: object = tuple(filter(None, values[start:stop]))
                elif kind == "none":
                    mini_values = None
                else:
                    mini_values = b"".join(values[start:stop])
                deltas = (ids[0], *map(sub, ids[1:], ids))
                data = dumps((deltas, mini_weights, mini_values), protocol)
                level = compression if len(data) >= _COMPRESS_FROM else 0
                if level:
                    data = zlib.compress(data, level)
                head = dumps(
                    (n, ids[-1], top_here, level, _length_byte(low), _length_byte(high)),
                    protocol,
                )
                length = len(head) + len(data)
                term += (pack_int(-length if stop == count else length), head, data)
            written = b"".join(term)
            chunks.append(written)
            infos.append(
                _TERM_INFO.pack(
                    0,
                    weight,
                    count,
                    0 if shortest is None else _length_byte(shortest),
                    _length_byte(longest),
                    top,
                    docs[0],
                    docs[-1],
                    offset,
                    len(written),
                )
            )
            offset += len(written)
        self._postfile.write(b"".join(chunks))
        self._offset = offset
        self._terms.add_all([prefix + btext for btext, _ in terms], infos)

    def close(self) -> None:
        """Close Whoosh's files; write the postings file the plan scorer reads."""
        self._terms.close()
        self._postfile.close()
        self._table.write(self._segment.create_file(self._storage, EXTENSION))


def _fast_kind(field: FieldType) -> str:
    """ "words" for a field our tokenizer cuts, with positions; "id" for an untokenized ID
    field; "" for any other (indexed by Whoosh's own code). A field of the fast path keeps
    its terms as UTF-8 (`FieldType.to_bytes`)."""
    if type(field).to_bytes is not FieldType.to_bytes:
        return ""
    analyzer = getattr(field, "analyzer", None)
    if type(field.format) is Positions and isinstance(analyzer, WordTokenizer):
        return "words"
    if type(field.format) is Existence and isinstance(analyzer, IDTokenizer):
        return "id"
    return ""


#: What `SegmentBuilder.add` needs of a field: `_plan`.
_Plan = tuple[FieldType, str | None, bool, bool, float, Callable[[str], str] | None]


def _plan(field: FieldType, fast: str) -> _Plan:
    """A field, how it is indexed (`_fast_kind`, None when it is not), whether it is scored
    and stored, its boost, and its piece -> term map when our tokenizer cuts it."""
    kind = fast if field.indexed else None
    to_term = _term_map(field.analyzer) if kind == "words" else None
    scored = bool(field.indexed and field.scorable)
    boost = field.format.field_boost if kind is not None else 1.0
    return field, kind, scored, bool(field.stored), boost, to_term


class SegmentBuilder:
    """Documents in, one Whoosh segment out (into `storage`, the index's folder). Not
    thread-safe: one per thread or process.

    A document's stored fields and field lengths are kept as it is added and written at
    `finish` as the files Whoosh's `W3PerDocWriter` makes of them (`_write_columns`): its
    column writers, called for each field of each document, took a tenth of `add`. Fields
    with a column of their own (sortable) are not supported."""

    def __init__(
        self,
        storage: Storage,
        schema: Schema,
        indexname: str = "MAIN",
        *,
        protocol: int = PROTOCOL,
        compression: int = COMPRESSION,
    ) -> None:
        self.storage = storage
        self.schema = schema
        self.codec = W3Codec(compression=compression)
        self._protocol = protocol
        self.segment: Segment = self.codec.new_segment(storage, indexname)
        names = schema.names()
        if any(schema[name].column_type is not None or schema[name].vector for name in names):
            raise ValueError("SegmentBuilder writes no columns of fields nor vectors")
        #: field -> term -> its postings so far: document, frequency, value, ... (the
        #: value: the term's positions in the document in a field of our tokenizer's,
        #: else as Whoosh encodes it)
        self._postings: dict[str, defaultdict[str | bytes, list[Any]]] = {
            name: defaultdict(list) for name in names
        }
        #: Each scored field's length in each document (0 when the document has none).
        self._lengths = {name: array("I") for name in names if schema[name].scorable}
        #: Each document's stored fields as Whoosh's stored column keeps them (b"": none).
        self._stored: list[bytes] = []
        self._docs = 0
        #: Postings added so far: what the segment's size (and memory) follows.
        self.postings = 0
        self._fast = {name: _fast_kind(schema[name]) for name in names}
        #: What `add` needs of each field, looked up once: (field, kind of indexing (None:
        #: not indexed), scored, stored, boost, piece -> term (our tokenizer's fields)).
        self._plan = {name: _plan(schema[name], self._fast[name]) for name in names}

    def __len__(self) -> int:
        return self._docs

    def add(
        self, fields: Mapping[str, Value], pieces: Mapping[str, list[str]] | None = None
    ) -> int:
        """Index one document (field name -> value); its number in the segment. A stored
        field stores its value as given (give those as text). `pieces`: what `cut` makes
        of some texts of its values, known already."""
        docnum = self._docs
        memo = dict(pieces or ())
        stored: dict[str, Value] = {}
        lengths: dict[str, int] = {}
        plan = self._plan
        for fieldname in sorted(fields):
            value = fields[fieldname]
            field, kind, scored, keep, boost, to_term = plan[fieldname]
            if kind is not None:
                terms = self._postings[fieldname]
                if to_term is not None:
                    length = self._index_words(to_term, value, docnum, terms, boost, memo)
                else:
                    length = self._index(field, kind, value, docnum, terms, boost)
                if scored:
                    lengths[fieldname] = length
            if keep and value is not None:
                stored[fieldname] = value
        for fieldname, column in self._lengths.items():
            column.append(lengths.get(fieldname, 0))
        self._stored.append(zlib.compress(dumps(stored, 2), _STORED_LEVEL) if stored else b"")
        self._docs += 1
        return docnum

    def _index(
        self,
        field: FieldType,
        kind: str,
        value: Value,
        docnum: int,
        terms: defaultdict[str | bytes, list[Any]],
        boost: float,
    ) -> int:
        """Add the value's postings (a field not of our tokenizer's); how many terms it has
        (its length, if scored)."""
        text = value if isinstance(value, str) else "\n".join(value)
        found = [(text, 1, boost, b"")] if kind == "id" else list(field.index(text))
        for term, _, weight, encoded in found:
            terms[term] += (docnum, weight, encoded)
        self.postings += len(found)
        return sum(freq for _, freq, _, _ in found)

    def _index_words(
        self,
        to_term: Callable[[str], str],
        value: Value,
        docnum: int,
        terms: defaultdict[str | bytes, list[Any]],
        boost: float,
        memo: dict[str, list[str]],
    ) -> int:
        """Add the postings of a value our tokenizer cuts (`to_term`: its term of a piece);
        how many terms it has."""
        mapped: list[str] = []
        for part in (value,) if isinstance(value, str) else value:
            pieces = memo.get(part)
            if pieces is None:
                pieces = memo[part] = cut(part)
            mapped += map(to_term, pieces)
        kept = list(filter(None, mapped))
        if not kept:
            return 0
        first = 0 if mapped[0] else next(i for i, term in enumerate(mapped) if term)
        positions: dict[str, list[int]] = {}
        for position, term in enumerate(kept, first):
            found_at = positions.get(term)
            if found_at is None:
                positions[term] = [position]
            else:
                found_at.append(position)
        self.postings += len(positions)
        once, once_limit = _ONE, len(_ONE)
        for term, where in positions.items():
            if len(where) == 1 and where[0] < once_limit:
                terms[term] += (docnum, boost, once[where[0]])
            else:
                terms[term] += (docnum, len(where) * boost, tuple(where))
        return len(kept)

    def finish(self) -> Segment:
        """Write the segment's files; the segment, for the index's table of contents."""
        rounded = self._write_columns()
        writer = _TermsWriter(self.codec, self.storage, self.segment, self._protocol)
        for fieldname in sorted(self._postings):
            terms = self._postings[fieldname]
            if not terms:
                continue
            kind = self._fast[fieldname]
            ordered: list[Any] = sorted(terms)  # text in code point order: UTF-8 in byte order
            keys: list[bytes] = [term.encode() for term in ordered] if kind else ordered
            encoded = list(zip(keys, map(terms.__getitem__, ordered), strict=True))
            lengths = rounded.get(fieldname)
            writer.write_field(fieldname, self.schema[fieldname], encoded, lengths, kind == "words")
        writer.close()
        self._postings.clear()
        self.segment.set_doc_count(self._docs)
        return self.segment

    def _write_columns(self) -> dict[str, array[int]]:
        """The files `W3PerDocWriter` writes of the documents' stored fields and lengths
        (its `_stored` column, a `_<field>_len` column of each field with a length), and
        the segment's total length of each field; each scored field's lengths as Whoosh
        reads them back (rounded to their one-byte form), for the postings' statistics."""
        totals: defaultdict[str, int] = defaultdict(int)
        firsts: list[tuple[int, str]] = []  # where a field's first length is: totals' order
        rounded: dict[str, array[int]] = {}
        columns = {"_stored": _stored_column(self._stored, self._docs)}
        for fieldname, lengths in self._lengths.items():
            codes = bytes(map(_length_byte, lengths))
            rounded[fieldname] = array("I", map(_ROUNDED.__getitem__, codes))
            last = len(codes.rstrip(b"\0"))
            if last:
                firsts.append((len(codes) - len(codes.lstrip(b"\0")), fieldname))
                columns[f"_{fieldname}_len"] = codes[:last]
        for _, fieldname in sorted(firsts):
            totals[fieldname] = sum(self._lengths[fieldname])
        self.segment._fieldlengths = totals
        for name, data in columns.items():
            column = self.storage.create_file(W3Codec.column_filename(self.segment, name))
            column.write(data)
            column.close()
        self._stored.clear()
        return rounded
