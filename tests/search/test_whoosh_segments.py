"""The bulk segment writer makes the segment Whoosh's own writer makes: every term, its
statistics, its postings block by block (ids, weights, positions, block statistics), every
document's field lengths and stored fields."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile.corpus import write_hostile_corpus
from hypothesis import given
from hypothesis import strategies as st
from locations import FIXTURES
from whoosh import index as whoosh_index
from whoosh.filedb.filestore import RamStorage
from whoosh.index import TOC
from whoosh.reading import IndexReader

from paperterm.index.papers import Paper
from paperterm.index.search.whoosh.index import INDEX_NAME, make_schema, paper_document
from paperterm.index.search.whoosh.segments import SegmentBuilder, cut
from paperterm.index.sources.files import SourceSpec, bundled_seeds
from paperterm.index.sources.loader import load_sources


def _whoosh_document(paper: Paper) -> dict[str, str]:
    """The document as Whoosh's writer takes it: `all` as one text."""
    document = paper_document(paper)
    return {**document, "all": "\n".join(document["all"])}


def _written_by_whoosh(papers: list[Paper], folder: Path) -> IndexReader:
    """Whoosh's own writer, in `folder`: its scratch files go in there too (in memory
    storage they would go to the system's temporary folder, always as `MAIN.tmp`, which
    another test process writing at the same time removes under it)."""
    folder.mkdir()
    ix = whoosh_index.create_in(str(folder), make_schema(), indexname=INDEX_NAME)
    writer = ix.writer()
    for paper in papers:
        writer.add_document(**_whoosh_document(paper))
    writer.commit(merge=False)
    return ix.reader()


def _written_by_builder(papers: list[Paper], folder: Path) -> IndexReader:
    ix = whoosh_index.create_in(str(folder), make_schema(), indexname=INDEX_NAME)
    builder = SegmentBuilder(ix.storage, ix.schema, INDEX_NAME)
    for paper in papers:
        builder.add(paper_document(paper))
    TOC(ix.schema, [builder.finish()], 1).write(ix.storage, INDEX_NAME)
    return whoosh_index.open_dir(str(folder), indexname=INDEX_NAME).reader()


def _contents(reader: IndexReader) -> tuple[dict, list, dict]:
    terms = {}
    for fieldname, btext in reader.all_terms():
        info = reader.term_info(fieldname, btext)
        stats = (
            info.weight(),
            info.doc_frequency(),
            info.min_length(),
            info.max_length(),
            info.max_weight(),
            info.min_id(),
            info.max_id(),
        )
        matcher = reader.postings(fieldname, btext)
        blocks = []
        while matcher.is_active():
            about = (
                matcher.block_max_id(),
                matcher.block_max_weight(),
                matcher.block_min_length(),
                matcher.block_max_length(),
            )
            postings = []
            while matcher.is_active():
                postings.append((matcher.id(), matcher.weight(), matcher.value()))
                if matcher.next():  # moved to the next block
                    break
            blocks.append((about, postings))
        terms[(fieldname, btext)] = (stats, blocks)
    names = reader.schema.names()
    documents = [
        (reader.stored_fields(docnum), [reader.doc_field_length(docnum, f) for f in names])
        for docnum in range(reader.doc_count_all())
    ]
    totals = {name: reader.field_length(name) for name in names}
    return terms, documents, totals


def _long_papers() -> list[Paper]:
    """Enough papers for terms with several blocks (over 128 postings), and texts with
    positions past 1,024 (the writer encodes short position lists from a table)."""
    papers = []
    for number in range(300):
        words = " ".join(f"word{(number * 7 + i) % 50} common" for i in range(400))
        text = f"Paper {number} about transformers. {words}" if number % 3 else f"Short {number}."
        papers.append(
            Paper(
                id=f"p{number}",
                collection=f"C{number % 4}",
                abstract=text,
                text=text,
                title=f"Title {number} of the Common Study" if number % 5 else "",
                name=f"N{number}" if number % 2 else "",
                authors=[f"Ada Lovelace{number % 9}", "Grace Hopper"] if number % 7 else [],
            )
        )
    return papers


CORPORA = {
    "seeds (CJK)": lambda tmp: load_sources(bundled_seeds()).papers,
    "fixtures": lambda tmp: load_sources([SourceSpec(FIXTURES)]).papers,
    "hostile": lambda tmp: (
        write_hostile_corpus(tmp / "hostile"),
        load_sources([SourceSpec(tmp / "hostile")]).papers,
    )[1],
    "long texts, many blocks": lambda tmp: _long_papers(),
}


@pytest.mark.parametrize("corpus", CORPORA)
def test_segment_reads_as_whoosh_writes_it(tmp_path, corpus):
    papers = CORPORA[corpus](tmp_path)
    assert papers
    expected = _contents(_written_by_whoosh(papers, tmp_path / "by-whoosh"))
    (tmp_path / "index").mkdir()
    found = _contents(_written_by_builder(papers, tmp_path / "index"))
    assert found[1] == expected[1]
    assert found[2] == expected[2]
    assert found[0].keys() == expected[0].keys()
    for term, contents in expected[0].items():
        assert found[0][term] == contents, term


def test_cut_is_the_tokenizer_before_stop_words_and_stems():
    from paperterm.index.search.analysis import WordTokenizer

    tokenizer = WordTokenizer(stem=False, minsize=1)
    for text in [
        "The Model's İstanbul x.y 论文列表 ABC-def",
        "plain ascii, words",
        "ünïcode Ωmega",
    ]:
        tokens = [t.text for t in tokenizer(text, removestops=False)]
        assert cut(text) == tokens


_VALUE = st.text(alphabet=st.sampled_from(["a", "\0", "\1", "\2", "é", "\ud800", "𝐱", " "]))


@given(
    st.tuples(_VALUE, _VALUE, _VALUE, _VALUE),
    st.lists(_VALUE, max_size=3),
    st.lists(_VALUE, max_size=3),
)
def test_a_documents_digest_is_each_value_then_its_separator(fields, authors, collections):
    """`add_document` digests a paper as one string: the bytes of each value and its
    separator, as updating the digest value by value gives them."""
    import hashlib

    from paperterm.index.search.whoosh.index import add_document

    paper_id, name, title, text = fields
    paper = Paper(paper_id, "c", "", text=text, title=title, name=name, authors=authors)
    paper.collections = collections
    expected = hashlib.blake2b(digest_size=16)
    for value in (paper_id, name, title, text, *authors, "\0"):
        expected.update(value.encode("utf-8", "surrogatepass") + b"\0")
    for value in collections:
        expected.update(value.encode("utf-8", "surrogatepass") + b"\1")
    expected.update(b"\2")
    digest = hashlib.blake2b(digest_size=16)
    add_document(digest, paper)
    assert digest.hexdigest() == expected.hexdigest()


def _segment_files(papers: list[Paper], words: list[list[str] | None]) -> dict[str, bytes]:
    """Each file of the segment of `papers` (by extension), built by the part writer with
    the given vocabulary words of each."""
    from paperterm.index.search.whoosh.index import PartWriter

    storage = RamStorage()
    writer = PartWriter.__new__(PartWriter)
    writer._builder = SegmentBuilder(storage, make_schema(), INDEX_NAME)
    for paper, said in zip(papers, words, strict=True):
        writer.add(paper, said)
    segment = writer.finish()
    prefix = segment.segment_id()
    return {name.removeprefix(prefix): bytes(data) for name, data in storage.files.items()}


#: "İ" lowers to two characters, the Kelvin sign to "k", "ǅ" (title case) to "ǆ"; "²" and
#: "Ⅷ" are word characters that are not letters.
_PROSE = st.lists(
    st.sampled_from(
        ["a", "B", "the", ".", " ", "x1", "é", "论文", "\n", "İ", "\u212a", "ǅ", "Σ", "²", "Ⅷ", "ß"]
    )
).map("".join)


@given(st.lists(st.tuples(_PROSE, _PROSE, _PROSE), min_size=1, max_size=4))
def test_the_vocabulary_words_give_the_segment_its_cut_text_gives(texts):
    """A paper's vocabulary words (`paper_words`) stand for its text's cut pieces when its
    name, title and text are ASCII or lower alike: the segment's files are the same bytes
    either way."""
    from paperterm.index.text.words import paper_words

    papers = [
        Paper(f"p{number}", "c", text, text=text, title=title, name=name, authors=["A B"])
        for number, (name, title, text) in enumerate(texts)
    ]
    without = _segment_files(papers, [None] * len(papers))
    assert _segment_files(papers, [paper_words(paper) for paper in papers]) == without


@pytest.mark.parametrize("count", [0, 3, 2**15 + 2])
def test_the_stored_column_is_the_one_whoosh_writes(count):
    """Whoosh's stored column of the same documents, byte for byte: past 2**15 documents it
    also writes their offsets (wider than a byte, then than two), and a document without
    stored fields has none."""
    from io import BytesIO
    from pickle import dumps
    from zlib import compress

    from whoosh.codec.whoosh3 import STORED_COLUMN
    from whoosh.filedb.structfile import StructFile

    from paperterm.index.search.whoosh.segments import _stored_column

    documents = [
        {"id": f"paper-{number}" * (1 + number % 3)} if number % 5 else {}
        for number in range(count)
    ]
    out = BytesIO()
    writer = STORED_COLUMN.writer(StructFile(out))
    for number, stored in enumerate(documents):
        if stored:
            writer.add(number, stored)
    writer.finish(count)
    values = [compress(dumps(stored, 2), 3) if stored else b"" for stored in documents]
    assert _stored_column(values, count) == out.getvalue()


def test_a_field_with_a_column_is_refused():
    from whoosh.fields import NUMERIC, Schema

    with pytest.raises(ValueError):
        SegmentBuilder(RamStorage(), Schema(year=NUMERIC(sortable=True)))
