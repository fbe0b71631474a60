"""BibTeX and JSON field cleaning: HTML to markdown and hard wrapping, LaTeX left alone."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from paperterm.index.text.display import display_text, one_line
from paperterm.index.text.field_text import clean, plain


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("<em>a</em> <i>b</i> <b>c</b> <strong>d</strong> <sup>2</sup>", "*a* *b* **c** **d** 2"),
        ('<a href="https://x.org">link</a> <span class="q">text</span>', "link text"),
        ("one<br/>two<p>three</p> R&amp;D &lt;5", "one\n\ntwo\n\nthree\n\nR&D <5"),
        # "<" in math is not a tag, nor is a word in angle brackets
        ("$x<b$ and $c>0$; <not a tag>", "$x<b$ and $c>0$; <not a tag>"),
        # LaTeX is the decoder's (display_text), whatever source it came from
        (r"R\'{e}sum\'e \emph{x} {B}ayesian 12\%", r"R\'{e}sum\'e \emph{x} {B}ayesian 12\%"),
    ],
)
def test_clean_undoes_html_and_keeps_latex(raw: str, expected: str):
    assert clean(raw) == expected


def test_clean_keeps_paragraphs_only_when_asked():
    raw = "Calculation of prompt diphoton\n  production\n\n   second part"
    assert clean(raw) == "Calculation of prompt diphoton production\n\nsecond part"
    assert clean(raw, paragraphs=False) == "Calculation of prompt diphoton production second part"


def test_plain_is_one_line_of_display_text():
    assert plain("Gau\\ss,\n  Carl <i>Friedrich</i>") == "Gauß, Carl Friedrich"
    assert plain(r"Proceedings of {ICML} 2024") == "Proceedings of ICML 2024"
    assert plain("") == ""


@given(
    st.lists(
        st.sampled_from(["Ada", "Gödel", " ", "  ", "\n", "\t", "\u00a0", ",", ".", "-", "'"]),
        max_size=12,
    ).map("".join)
    | st.text(max_size=20)
)
@example("  Ada  Lovelace ")
def test_plain_short_cut_is_one_line_of_display_text(value):
    """A value with nothing to decode is only re-spaced: as the full path would give it."""
    assert plain(value) == one_line(display_text(clean(value, paragraphs=False)))
