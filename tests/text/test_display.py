"""Display text: the whole pipeline (markdown, paragraphs, the seeds), terminal safety,
one-line rows. LaTeX and math have their own tests (test_latex.py, test_math.py)."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from locations import CORPORA
from pmlr_abstracts import pmlr_abstracts
from seed_abstracts import seed_abstracts

from paperterm.index.text.display import display_text, one_line, safe_text
from paperterm.index.text.spaces import single_spaced

_BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def unsafe_characters(text: str, *, newlines: bool = True) -> list[str]:
    """Characters that must never reach the terminal."""
    allowed = {"\u200c", "\u200d"} | ({"\n"} if newlines else set())
    return [
        ch
        for ch in text
        if ch not in allowed
        and (unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp") or ch in _BIDI)
    ]


# --------------------------------------------------------------------------- display_text


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        (r"$36\times$", "36×"),
        (r"$\ell_1$", "ℓ₁"),
        (r"$\mathsf{DirMixE}$", "DirMixE"),
        (r"$\sum_t c(\mathbf{x}_t) \geq 1$", "∑ₜ c(𝐱ₜ) ≥ 1"),
        ("*xT*", "xT"),
        ("**CO**ntinual", "COntinual"),
        ("(*a*)", "(a)"),
    ],
)
def test_required_examples(raw: str, shown: str):
    assert display_text(raw) == shown


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        (r"sequences $s_{t+1} = W s_t$.", "sequences sₜ₊₁ = W sₜ."),
        (
            r"a metric space $(X,d)$ and cost $f_t(\mathbf{x}_t)$",
            "a metric space (X,d) and cost fₜ(𝐱ₜ)",
        ),
        (r"is 36$\times$ times faster", "is 36× times faster"),
        (
            r"up to $3.7\times$ speedup and $\sim 15\%$ to $23\%$ less",
            "up to 3.7× speedup and ~15% to 23% less",
        ),
        (
            r"half-precision ($16$-bit floating points) and $(16, 32)$-bit",
            "half-precision (16-bit floating points) and (16, 32)-bit",
        ),
        (r"$\textit{(i)}$ safety and $\texttt{MoE-RBench}$", "(i) safety and MoE-RBench"),
        (
            "COPAL (**CO**ntinual **P**runing in **A**daptive **L**anguage settings)",
            "COPAL (COntinual Pruning in Adaptive Language settings)",
        ),
        ("along with a *set of layouts* that", "along with a set of layouts that"),
        (
            "in the long run, (*a*) the problem's; (*b*) the iterates",
            "in the long run, (a) the problem's; (b) the iterates",
        ),
        (
            "NeRFs---each representing its own object---along",
            "NeRFs—each representing its own object—along",
        ),
        ("and potential -- yet not only", "and potential – yet not only"),
    ],
)
def test_seed_style_markup(raw: str, shown: str):
    assert display_text(raw) == shown


def test_every_seed_abstract_renders_without_markup():
    abstracts = seed_abstracts()
    assert len(abstracts) == 38
    for abstract in abstracts:
        shown = display_text(abstract)
        assert not re.search(r"[$*\\]", shown), shown
        assert shown.split() == " ".join(shown.split()).split()
        assert "\n" not in shown  # a seed abstract is one paragraph


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("costs $5 and $10 today", "costs $5 and $10 today"),
        ("between $5-$10 each", "between $5-$10 each"),
        ("an unbalanced $x stays", "an unbalanced $x stays"),
        ("a*b and 2*3*4, foo* bar", "a*b and 2*3*4, foo* bar"),
        ("**foo* stays", "**foo* stays"),
        ("* a bullet", "* a bullet"),
        (r"10\% of \$3 \& \_x and \*y\*", "10% of $3 & _x and *y*"),
    ],
)
def test_literal_dollars_and_stars_are_kept(raw: str, shown: str):
    assert display_text(raw) == shown


def test_white_space_and_paragraphs():
    raw = "one  line\n  continues\t here\n\n\n  second   paragraph \r\n\r\nthird"
    assert display_text(raw) == "one line continues here\n\nsecond paragraph\n\nthird"


def test_display_text_strips_controls():
    raw = "a\x1b[31mred\x1b[0m \u202eevil\u202c and\x00 more\x07"
    assert display_text(raw) == "ared evil and more"


@pytest.mark.skipif(not CORPORA.is_dir(), reason="needs ../shared/corpora")
def test_pmlr_corpora_render_cleanly():
    abstracts = pmlr_abstracts()
    assert len(abstracts) > 100
    for abstract in abstracts:
        shown = display_text(abstract)
        assert not re.search(r"\$|\\[A-Za-z]|\\['\"%&_]|[{}]", shown), shown
        assert not unsafe_characters(shown)


# --------------------------------------------------------------------------- safe_text


@pytest.mark.parametrize(
    ("raw", "safe"),
    [
        ("\x1b[31mred\x1b[0m", "red"),
        ("\x1b[38;5;196mX\x1b[?25l", "X"),
        ("\x1b]0;owned\x07title", "title"),
        ("\x1b]8;;https://evil\x1b\\link\x1b]8;;\x1b\\", "link"),
        ("\x1bP1$qm\x1b\\after", "after"),
        ("\x9b2Jcleared \x9d0;t\x07x", "cleared x"),
        ("\x1b(Bplain \x1b7saved\x1b8", "plain saved"),
        ("a\x00b\x08c\x7fd\x85e", "abcd\ne"),
        ("tab\there", "tab here"),
        ("one\r\ntwo\rthree\x0cfour", "one\ntwo\nthree\nfour"),
        ("\u202eevil\u202c \u2066iso\u2069 \u200eltr\u200f \u061cx", "evil iso ltr x"),
        ("zero\u200bwidth\ufeff soft\u00adhyphen \U000e0041tag", "zerowidth softhyphen tag"),
        ("family 👨\u200d👩\u200d👧 keeps ZWJ", "family 👨\u200d👩\u200d👧 keeps ZWJ"),
        ("non\u00a0breaking", "non breaking"),
    ],
)
def test_safe_text(raw: str, safe: str):
    assert safe_text(raw) == safe


def test_safe_text_without_newlines():
    assert safe_text("a\nb\r\nc\u2029d", keep_newlines=False) == "a b c  d"


@given(st.text())
def test_safe_text_output_is_safe_and_stable(raw: str):
    safe = safe_text(raw)
    assert "\x1b" not in safe
    assert not unsafe_characters(safe)
    assert safe_text(safe) == safe
    flat = safe_text(raw, keep_newlines=False)
    assert not unsafe_characters(flat, newlines=False)


_ESCAPE_PIECES = st.sampled_from(
    ["\x1b", "[", "]", "0;", "31m", "\x07", "\\", "P", "\x9b", "\x9d", "\x9c", "\u202e", "a", " "]
)


@given(st.lists(_ESCAPE_PIECES | st.characters(), max_size=40).map("".join))
def test_safe_text_on_escape_soup(raw: str):
    safe = safe_text(raw)
    assert "\x1b" not in safe
    assert not unsafe_characters(safe)


# --------------------------------------------------------------------------- one_line


def test_one_line():
    assert one_line("  a\n b\t\tc  ") == "a b c"
    assert one_line("the quick brown fox jumps", 15) == "the quick…"
    assert one_line("short", 10) == "short"
    assert one_line("abcdefghij", 5) == "abcd…"
    assert one_line("anything", 1) == "…"
    assert one_line("anything", 0) == ""
    assert one_line("\x1b[2Jcleared\u202e", None) == "cleared"


@given(st.text(), st.integers(min_value=0, max_value=120) | st.none())
def test_one_line_is_one_safe_line(raw: str, limit: int | None):
    line = one_line(raw, limit)
    assert "\n" not in line
    assert not unsafe_characters(line, newlines=False)
    assert line == line.strip()
    if limit is not None:
        assert len(line) <= limit


@given(st.text(st.sampled_from(" \n\t\x1b\u00a0\u2028ab")) | st.text())
def test_one_line_of_a_printable_text_is_as_the_passes_make_it(raw: str):
    # `one_line` skips `safe_text` for a printable text: the passes give the same line.
    assert one_line(raw) == single_spaced(safe_text(raw))


# --------------------------------------------------------------------------- robustness

_LATEX_SOUP = st.sampled_from(
    [
        *"$*\\{}^_~`'\"-()[] \n",
        r"\frac",
        r"\sqrt",
        r"\mathbf",
        r"\textbf{",
        r"\'",
        r"\(",
        r"\)",
        "$$",
        "**",
        r"\left",
        "\x1b[",
    ]
)


@given(st.lists(_LATEX_SOUP | st.characters(), max_size=60).map("".join))
def test_display_text_never_raises_on_markup_soup(raw: str):
    shown = display_text(raw)
    assert not unsafe_characters(shown)
    assert "\n\n\n" not in shown
    assert shown == shown.strip()


@given(st.text())
def test_display_text_never_raises(raw: str):
    assert not unsafe_characters(display_text(raw))


def test_display_text_survives_deep_nesting():
    raw = "$" + "{" * 5000 + "x" + "}" * 5000 + "$ and " + "*" * 3000
    assert "x" in display_text(raw)


_STARRY = st.lists(st.sampled_from(["*", "**", "a", "é", " ", "\\", "_", "\n", "x y"])).map("".join)


@example("***ab*** and x**cd** or *e f* \\*g*")
@given(_STARRY)
def test_emphasis_is_found_as_by_the_pattern_that_starts_with_its_lookbehind(text):
    """The emphasis pattern starts with a star, so that it skips to the next one; it finds
    what the same pattern written lookbehind first finds (which tries every position)."""
    from paperterm.index.text import display

    plain = re.compile(r"(?<![\w*\\])(\*{1,3})(?=[^\s*])(.{1,300}?)(?<=[^\s*])\1(?!\*)", re.S)
    assert display._EMPHASIS.sub(r"\3", text) == plain.sub(r"\2", text)
