"""A large BibTeX file read a chunk of entries at a time gives what the whole-text parse
gives: the same papers, the same problems at the same lines."""

from __future__ import annotations

import weakref
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from locations import CORPORA, FIXTURES

from paperterm.index.papers import Paper, paper_tuple
from paperterm.index.problems import Problem
from paperterm.index.search.records import no_collection
from paperterm.index.sources import bibtex as bibtex_source
from paperterm.index.sources import bibtex_chunks

PATH = Path("x.bib")


def whole(text: str, path: Path = PATH) -> tuple[list[tuple], list[str]]:
    papers, problems = bibtex_source.parse(path, text, None)
    return [paper_tuple(paper) for paper in papers], [str(problem) for problem in problems]


def streamed(
    text: str, entries: int, piece: int = 7, path: Path = PATH
) -> tuple[list[tuple], list[str]]:
    """The chunked parse of `text`, given in pieces of `piece` characters."""

    def read(final: bool):
        for start in range(0, len(text), piece):
            yield text[start : start + piece]

    papers: list[tuple] = []
    problems: list[str] = []
    for found in bibtex_source.stream(path, read, None, entries=entries):
        if isinstance(found, Problem):
            problems.append(str(found))
        else:
            assert isinstance(found, Paper)
            papers.append(paper_tuple(found))
    return papers, problems


# Pieces of BibTeX, well and badly formed: what the splitter must cut the same either way.
_WORD = st.sampled_from(["graph", "Kernel", "{B}ayes", "a \\& b", "x@y", "50\\%", "é", "(p)"])
_KEY = st.sampled_from(
    ["k1", "k2", "K1", "vol", "Vol", "a:b/c", "", "k 3", "f(1)", "a\\,b", "v\\ol"]
)
_VALUE = st.one_of(
    _WORD.map(lambda w: "{" + w + "}"),
    _WORD.map(lambda w: '"' + w + '"'),
    _WORD.map(lambda w: "{" + w + " {" + w + "}}"),
    st.sampled_from(["jan", "mac1", "Mac2", "2024", 'mac1 # " and " # {b}', "{unclosed", '"open']),
)
_FIELD = st.tuples(
    st.sampled_from(["title", "abstract", "author", "year", "crossref", "volume", "title"]),
    _VALUE,
).map(lambda pair: f"{pair[0]} = {pair[1]}")
_ENTRY = st.tuples(
    st.sampled_from(["InProceedings", "misc", "Proceedings", "article", "", "mvproceedings"]),
    st.sampled_from(["{", "("]),
    _KEY,
    st.lists(_FIELD, max_size=4),
    st.sampled_from([",\n  ", ", ", ",", "\n"]),
    st.sampled_from(["}", ")", "", "}}", ",}"]),
).map(lambda e: f"@{e[0]}{e[1]}{e[2]}, " + e[4].join(e[3]) + e[5])
_OTHER = st.one_of(
    st.tuples(st.sampled_from(["mac1", "Mac2", "mac1"]), _VALUE).map(
        lambda s: "@string{" + s[0] + " = " + s[1] + "}"
    ),
    st.sampled_from(
        [
            "@comment{ a } b { @misc{in, title={comment}} }",
            '@preamble{ "\\newcommand{\\x}{y}" }',
            "% a comment line with @misc{no, title={x}}",
            "@Comment this is not a block",
            'stray text } { "',
            "@STRING(mac1 = {paren})",
            "@misc{same, title = {T}} @misc{line, title = {U}}",
            "@Proceedings{vol, shortname = {VOL}, year = {2023}, volume = {12}, "
            "publisher = {PMLR}}",
            "@Proceedings{k1, shortname = {K}, year = {2022}}",
            "@mvproceedings(f(1), shortname = {F})",
            "@proceedings{a\\,b, title = {Escaped}}",
        ]
    ),
)
_SEPARATOR = st.sampled_from(["\n", "\n\n", " ", "\\\n", "\n  ", "\r\n", "\n\t"])
_TEXT = st.lists(st.tuples(st.one_of(_ENTRY, _OTHER), _SEPARATOR), max_size=14).map(
    lambda items: "".join(block + separator for block, separator in items)
)


@settings(max_examples=500)
@given(text=_TEXT, entries=st.integers(1, 4), piece=st.integers(1, 40))
@example(  # a block given up holds the next block's text, on a line the splitter counts twice
    text="@string{m = {g}}\n@misc{k, title = {g}) @string{m = {K}}\\\n@string{m = {K}}\n",
    entries=1,
    piece=1,
)
def test_a_chunked_parse_is_the_whole_parse(text, entries, piece):
    assert streamed(text, entries, piece) == whole(text)


def test_a_block_after_a_given_up_block_holding_its_text_has_its_own_line():
    text = "@string{m = {g}}\n@misc{k, title = {g}) @string{m = {K}}\\\n@string{m = {K}}\n"
    assert "x.bib:3: duplicate key 'm' (first at line 1); entry skipped" in whole(text)[1]


def test_strings_and_volumes_defined_after_their_use_still_count():
    text = (
        "@misc{early, title = mac # { one}, crossref = {v2}}\n"
        + "@misc{other, title = {x}}\n" * 3
        + "@Proceedings{v1, shortname = {ONE}, year = {2020}}\n"
        + "@string{mac = {Macro}}\n"
        + "@Proceedings{v2, shortname = {TWO}, year = {2021}}\n"
        + "@misc{late, title = {y}}\n"
    )
    papers, _ = bibtex_source.parse(PATH, text, None)
    assert papers[0].title == "Macro one"  # the macro defined after it
    assert papers[0].collection == "TWO 2021"  # its crossref, defined after it
    assert papers[1].collection == "ONE 2020"  # the file's first volume, after it
    assert streamed(text, entries=1) == whole(text)


def test_a_volume_repeating_an_earlier_key_is_skipped_as_the_whole_parse_does():
    text = (
        "@misc{v, title = {first}}\n"
        "@misc{a, title = {x}}\n"
        "@Proceedings{v, shortname = {LATE}, year = {2020}}\n"
        "@misc{b, title = {y}}\n"
    )
    assert streamed(text, entries=1) == whole(text)
    assert any("duplicate key 'v'" in problem for problem in whole(text)[1])


@pytest.mark.parametrize("name", ["MIDL2024.bib", "enlsp24.bib"])
def test_real_pmlr_files_stream_as_they_parse(name):
    path = CORPORA / name
    if not path.exists():
        pytest.skip(f"{path} is not available")
    text = path.read_text(encoding="utf-8")
    expected = whole(text, path)
    assert expected[0]
    assert streamed(text, entries=7, piece=4096, path=path) == expected


def test_the_fixture_streams_as_it_parses():
    path = FIXTURES / "pmlr_sample.bib"
    text = path.read_text(encoding="utf-8")
    for entries in (1, 2, 3, 100):
        assert streamed(text, entries, piece=50, path=path) == whole(text, path)


def test_entries_held_are_bounded_by_the_chunk_not_the_file(monkeypatch):
    """The splitter's libraries alive at once hold at most about two chunks' entries,
    whatever the file's size, with the garbage collector paused as a build has it (a
    failed block's traceback once made each library a cycle)."""
    alive = {"entries": 0, "most": 0}
    real = bibtex_source.Splitter

    class Counting(real):  # type: ignore[misc, valid-type]
        def split(self):
            library = super().split()
            count = len(library.entries)
            alive["entries"] += count
            alive["most"] = max(alive["most"], alive["entries"])
            weakref.finalize(
                library, lambda: alive.__setitem__("entries", alive["entries"] - count)
            )
            return library

    monkeypatch.setattr(bibtex_source, "Splitter", Counting)
    entry = "@InProceedings{{p{0}, title = {{Paper {0}}}, abstract = {{About {0}.}}}}\n"
    mosts = []
    for size in (200, 4000):
        text = "@Proceedings{v, shortname = {V}}\n" + "".join(entry.format(n) for n in range(size))
        alive["most"] = 0
        with no_collection():
            papers, problems = streamed(text, entries=50, piece=1 << 16)
        assert len(papers) == size and problems == []
        mosts.append(alive["most"])
    assert mosts[0] == mosts[1] <= 2 * 50


def test_chunks_cut_only_at_line_start_block_starts():
    text = "% head\n@a{x, t={1}}  @b{y}\n  @c(z)\n@d{w,\n @e{v}\n"
    cut = list(bibtex_chunks.chunks([text], entries=1))
    bodies = [chunk.text for chunk in cut]
    assert bodies[0] == "% head\n@a{"
    assert bodies[1].startswith("@a{x, t={1}}  @b{y}\n") and bodies[1].endswith("  @c(")
    bodies = [chunk.text[: chunk.text.rfind("\n") + 1] for chunk in cut[:-1]]
    assert "".join(bodies) + cut[-1].text == text
    assert [chunk.line for chunk in cut] == [0, 1, 2, 3, 4]
    assert [chunk.lookahead for chunk in cut] == [True, True, True, True, False]


def test_lines_after_a_backslash_newline_are_the_files_in_every_chunking():
    from test_bibtex_source import BACKSLASHED

    expected = whole(BACKSLASHED)
    assert "x.bib:7: malformed entry 'broken'" in expected[1][0]
    for entries in (1, 2, 3, 100):
        assert streamed(BACKSLASHED, entries, piece=5) == expected


def test_a_splitter_failure_in_the_first_pass_is_a_problem_not_a_crash(monkeypatch):
    """The splitter raises what it takes for its own bugs: the pass that finds the @strings
    and volumes guards it as the papers' pass does (one line with file and line; the other
    chunks' papers are read)."""
    real = bibtex_source.Splitter

    class Failing(real):  # type: ignore[misc, valid-type]
        def split(self, *args, **kwargs):
            if "BOOM" in self.bibstr:
                raise ValueError("splitter bug")
            return super().split(*args, **kwargs)

    monkeypatch.setattr(bibtex_source, "Splitter", Failing)
    text = (
        "@misc{a, title = {First}, abstract = {One.}}\n"
        "@string{s = {BOOM}}\n"
        "@misc{b, title = {Second}, abstract = {Two.}}\n"
    )
    papers, problems = streamed(text, entries=1)
    assert len(papers) == 2  # a and b, each in its own chunk
    assert problems == [f"{PATH}:2: cannot read as BibTeX: splitter bug"]
