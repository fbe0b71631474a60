from hypothesis import given, settings
from hypothesis import strategies as st
from whoosh.analysis import LowercaseFilter, RegexTokenizer, StemFilter, StopFilter

from paperterm.index.search.analysis import (
    WORD_PATTERN,
    FieldAnalysis,
    plain_analyzer,
    stemming_analyzer,
)
from paperterm.index.text.words import fold_scripts


def _reference(stem: bool, minsize: int):
    """Whoosh's own chain, which WordTokenizer folds into one pass (for text without CJK)."""
    chain = RegexTokenizer(WORD_PATTERN) | LowercaseFilter() | StopFilter(minsize=minsize)
    return chain | StemFilter() if stem else chain


def _tokens(analyzer, text):
    return [
        (t.text, t.pos, t.startchar, t.endchar) for t in analyzer(text, positions=True, chars=True)
    ]


SAMPLE = (
    "The state of the art in Long-Context LLMs: we study i.i.d. data, 2.5x speed-ups, "
    "and X-ray images; contexts, contextual, a b c."
)


def test_same_tokens_as_whoosh_chain():
    assert _tokens(stemming_analyzer(), SAMPLE) == _tokens(_reference(True, 2), SAMPLE)
    assert _tokens(plain_analyzer(), SAMPLE) == _tokens(_reference(False, 1), SAMPLE)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="latin-1"), max_size=200))
def test_same_tokens_as_whoosh_chain_for_any_latin_text(text):
    """Whoosh's chain over the text with its super- and subscripts written plain (`²`)."""
    assert _tokens(stemming_analyzer(), text) == _tokens(_reference(True, 2), fold_scripts(text))


def test_cjk_runs_become_bigrams_with_positions_and_offsets():
    tokens = _tokens(plain_analyzer(), "ICML 2024 论文列表 x")
    assert tokens == [
        ("icml", 0, 0, 4),
        ("2024", 1, 5, 9),
        ("论文", 2, 10, 12),
        ("文列", 3, 11, 13),
        ("列表", 4, 12, 14),
        ("x", 5, 15, 16),
    ]
    assert [t.text for t in stemming_analyzer()("深度学习 models")] == [
        "深度",
        "度学",
        "学习",
        "model",
    ]
    assert [t.text for t in plain_analyzer()("abc论文")] == ["abc", "论文"]


@given(st.text())
def test_never_raises_and_offsets_point_into_the_text(text):
    for token in plain_analyzer()(text, chars=True):
        assert 0 <= token.startchar < token.endchar <= len(text)
        assert token.text


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*"aBz.É1_ İ-\n论文列表", "the ", "of ", "Runs"])))
def test_joined_terms_are_the_analyzers_terms_for_any_text(pieces):
    """`joined` cuts word by word through its tables (new words on a path of their own):
    the same terms as the analyzer's token stream, in either kind of field, whether the
    words are new to the tables or seen before."""
    text = "".join(pieces)
    analysis = FieldAnalysis()
    for field in ("all", "name"):
        expected = " ".join(analysis.terms(field, text))
        assert analysis.joined(field, text) == expected
        assert analysis.joined(field, text) == expected  # from the tables


@given(st.text(alphabet=st.characters(max_codepoint=127)) | st.text())
def test_a_papers_words_are_its_lowered_texts_words(text):
    """`paper_words` cuts ASCII text with an ASCII-only pattern: the same words."""
    from paperterm.index.papers import Paper
    from paperterm.index.text.words import WORD, paper_words

    paper = Paper(id="p", collection="C", abstract=text, title=text[::-1], text=text)
    paper.name = text[:3]
    lowered = fold_scripts(f"{text[:3]} {text[::-1]} {text}".lower())
    assert paper_words(paper) == WORD.findall(lowered)


@given(st.text(alphabet=st.characters(max_codepoint=127)) | st.text())
def test_words_of_lowered_text_and_its_pieces_are_the_word_patterns(text):
    """`words_of`, which the vocabulary's texts and "like my bookmarks" (its terms of each
    white-space piece, its words as spelled) cut lowered text with, finds the words `WORD`
    finds, in ASCII text and not (lowering can make text ASCII: "K", the Kelvin sign)."""
    from paperterm.index.text.words import WORD, words_of

    lowered = text.lower()
    assert words_of(lowered) == WORD.findall(lowered)
    for piece in lowered.split():
        assert words_of(piece) == WORD.findall(piece)


@given(st.text(alphabet="aZ9_. .,-\n\t\x0b\x1c\x7f"))
def test_ascii_words_are_the_word_patterns(text):
    """`ascii_words` cuts at spaces what is not a word character or a dot joining two: the
    words `WORD` finds (text of dots, word characters and separators)."""
    from paperterm.index.text.words import WORD, ascii_words

    assert ascii_words(text) == WORD.findall(text)


@settings(max_examples=300)
@given(
    st.text(
        alphabet=st.characters(min_codepoint=0x20, max_codepoint=0xFFFF)
        | st.sampled_from(["a", "é", "\u303f", "\u3040", "\u30ff", "论", "\ud7af", "\ud7b0"]),
        max_size=20,
    )
)
def test_has_cjk_is_the_cjk_patterns_answer(text):
    """Answered without compiling the pattern (a first query's ~3 ms), the same."""
    from paperterm.index.text.words import HAS_CJK, has_cjk

    assert has_cjk(text) == (HAS_CJK.search(text) is not None)


#: Characters `utf8_words` treats apart: word characters past ASCII (letters, digits, marks
#: that are not `\w`), white space, punctuation, surrogates, CJK, and ASCII's separators.
_UTF8_WORDS_ALPHABET = st.sampled_from(list("aZ9_. .,-\n\t\x1c")) | st.characters(
    exclude_categories=()
)


@settings(max_examples=500)
@given(st.lists(_UTF8_WORDS_ALPHABET).map("".join))
def test_utf8_words_are_the_word_patterns(text):
    """`utf8_words` (a long text that is not ASCII) finds the words `WORD` finds."""
    from paperterm.index.text.words import WORD, utf8_words, words_of

    assert utf8_words(text) == WORD.findall(text)
    assert words_of(text * 8) == WORD.findall(text * 8)


def test_a_word_character_is_alphanumeric_or_an_underscore():
    """What `utf8_words` rests on: `\\w` is `str.isalnum` or "_", and no word character is
    white space (the words are what `str.split` leaves)."""
    import re
    import sys

    for code in range(sys.maxunicode + 1):
        char = chr(code)
        word = re.match(r"\w", char) is not None
        assert word == (char.isalnum() or char == "_"), hex(code)
        assert not (word and char.isspace()), hex(code)


@settings(max_examples=500)
@given(
    st.lists(st.sampled_from(["ΑΣ", "'", "İ", "Élan", "ǅ", "x", " ", "."]) | st.characters()).map(
        "".join
    )
)
def test_text_that_lowers_alike_has_its_words_lowered(text):
    """`lowers_alike`: the words of the text lowered are its words lowered, each of them
    the same terms (one, not CJK's several) from the cut table."""
    from paperterm.index.search.analysis import FieldAnalysis
    from paperterm.index.text.words import lowers_alike, words_of

    if not lowers_alike(text):
        return
    words = words_of(text)
    assert words_of(text.lower()) == [word.lower() for word in words]
    analysis = FieldAnalysis()
    terms = analysis.word_terms("all", words)
    assert analysis.word_terms("all", [word.lower() for word in words]) == terms
    assert all(" " not in term for term in terms)
