"""The one LaTeX decoder: text mode, the same display from every source, real corpora."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from locations import CORPORA, ROOT

from paperterm.index.sources.files import SourceSpec
from paperterm.index.sources.loader import load_sources
from paperterm.index.text.display import display_text
from paperterm.index.text.latex import Held, decode

_COMMAND = re.compile(r"\\[A-Za-z]+")


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        # accents and special letters
        (
            r"Herv\'e M\"uller G{\"o}del {\'E}cole \c{c}a \v{s} Stra\ss{}e",
            "Hervé Müller Gödel École ça š Straße",
        ),
        (
            r"R\'{e}sum\'e na\"{\i}ve M{\'\i}nguez \v{S}koda Akko\c{c}",
            "Résumé naïve Mínguez Škoda Akkoç",
        ),
        (r"Gei{\ss}ler, Gau\ss{} and \O{}ster, Gei\ss ler", "Geißler, Gauß and Øster, Geißler"),
        (r"Gu{\dh}mundsd{\'o}ttir, \TH{}orsson and {\DH}", "Guðmundsdóttir, Þorsson and Ð"),
        (r"Johan \"Ofverstedt and \c c", "Johan Öfverstedt and ç"),
        # escaped apostrophes and quotes are punctuation, not accents
        (r"individual\'s risk; models\' weights", "individual's risk; models' weights"),
        (
            r"O\'Brien and D\'Angelo, Bogunovi\'c, Wo\'zniak",
            "O'Brien and D'Angelo, Bogunović, Woźniak",
        ),
        (r"the model\'s \"Train Once\" approach", 'the model\'s "Train Once" approach'),
        (
            r"The \"pre-training then fine-tuning\" paradigm",
            'The "pre-training then fine-tuning" paradigm',
        ),
        (r"highlighting (VTT)\'s limits", "highlighting (VTT)'s limits"),
        # fonts, old font switches, colour, boxes: their text
        (
            r"we introduce \textbf{EchoAtt}, {\tt UNCURL} and \emph{routing}",
            "we introduce EchoAtt, UNCURL and routing",
        ),
        (r"\textit{i.e.,} \emph{routing} \textbf{salient}", "i.e., routing salient"),
        (r"{\it m\'ethode}, {\bf bold} and {\up upright}", "méthode, bold and upright"),
        (r"\emph{nested \textbf{fonts}} and \smash{boxes}", "nested fonts and boxes"),
        (r"\textcolor{blue}{Self-pretraining} helps", "Self-pretraining helps"),
        (r"{B}ayesian \& {GPU}s", "Bayesian & GPUs"),
        ("costs $5 and $10 {B}", "costs $5 and $10 B"),
        # symbols, escapes, ties, TeX's quotes and dashes
        (r"\ddag{} and \dag, \S 3, \ldots{} and \textemdash", "‡ and †, § 3, … and —"),
        (
            r"up 12\% (50% of runs) on R&D, $54 \%$ of $x_t$",
            "up 12% (50% of runs) on R&D, 54 % of xₜ",
        ),
        (
            r"the ``dying ReLU'' problem and a `draft model'",
            "the “dying ReLU” problem and a ‘draft model’",
        ),
        ("``experts'' and `draft' -- 1--2 --- end", "“experts” and ‘draft’ – 1–2 — end"),
        ("approx ~5 GPUs (~5%) and Fig.~3", "approx ~5 GPUs (~5%) and Fig. 3"),
        # citations become their keys; cross-references and labels go
        (
            r"by Lu et al.~\citep{lu2018collapse}. Traditional",
            "by Lu et al. [lu2018collapse]. Traditional",
        ),
        (r"\citet{smith20, doe21} show that", "[smith20, doe21] show that"),
        (r"see \citep[p.~3]{lu2018} and Fig.~\ref{fig:a}.", "see [lu2018] and Fig."),
        # links: kept whole, their escapes undone
        (r"at \url{https://github.com/x/dr\_3slice\_ct}.", "at https://github.com/x/dr_3slice_ct."),
        (r"code: https://github.com/a/b\_c.", "code: https://github.com/a/b_c."),
        (r"our \href{https://x.org/a\_b}{code}", "our code (https://x.org/a_b)"),
        (r"code\footnote{At \url{https://z.org/~me}.} here", "code (At https://z.org/~me.) here"),
        # lists, layout and unknown commands
        (
            r"\begin{itemize}\item first; \item[(b)] second\end{itemize}",
            "• first; (b) second",
        ),
        (r"\noindent We \vspace{2mm}propose \ours{} and \foo{bar}.", "We propose and bar."),
        (r"$\alpha$ or \alpha outside math, \times 3", "α or α outside math, × 3"),
        # broken input degrades to text
        (r"\emph{unclosed and } stray }", "unclosed and stray"),
        ("8.6% on ImageNet", "8.6% on ImageNet"),
    ],
)
def test_text_mode(raw: str, shown: str):
    assert display_text(raw) == shown


# --------------------------------------------------------------------------- every source

#: Abstracts heavy with LaTeX, each written below as a .txt list, a .bib file and JSON.
ABSTRACTS = {
    r"Gu{\dh}mundsson and \TH{}orsson study {\up Caf\'e} models\ddag{} with M\"uller's "
    r"\emph{routing} and \smash{fast} kernels \citep{lu2018}: 8.6\% on $\mathbb{R}^n$, "
    r"$36\times$ faster. Code: \url{https://github.com/x/dr\_3slice}.": (
        "Guðmundsson and Þorsson study Café models‡ with Müller's routing and fast kernels "
        "[lu2018]: 8.6% on ℝⁿ, 36× faster. Code: https://github.com/x/dr_3slice."
    ),
    r"We list: \begin{itemize}\item speed; \item memory\end{itemize} at $5 and $10 per "
    r"GPU, see https://a.org/x\_y and \textbf{Table}~\ref{t:1}.": (
        "We list: • speed; • memory at $5 and $10 per GPU, see https://a.org/x_y and Table."
    ),
    r"\textit{Herv\'e} and O\'Brien's \textsc{Sys}tem---fast, ``robust'' and "
    r"$\sum_t c(\mathbf{x}_t) \geq 1$; \noindent see Lu et al.~\citet{lu}.": (
        "Hervé and O'Brien's System—fast, “robust” and ∑ₜ c(𝐱ₜ) ≥ 1; see Lu et al. [lu]."
    ),
}


def _write_all(folder: Path) -> dict[str, Path]:
    abstracts = list(ABSTRACTS)
    text = folder / "list.txt"
    text.write_text("A list\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    bib = folder / "list.bib"
    bib.write_text(
        "".join(
            f"@InProceedings{{k{n},\n  title = {{T{n}}},\n  abstract = {{{abstract}}}\n}}\n\n"
            for n, abstract in enumerate(abstracts)
        ),
        encoding="utf-8",
    )
    records = folder / "list.json"
    records.write_text(
        json.dumps([{"id": f"j{n}", "abstract": a} for n, a in enumerate(abstracts)]),
        encoding="utf-8",
    )
    return {"txt": text, "bib": bib, "json": records}


def test_the_same_abstract_reads_the_same_from_every_source(tmp_path: Path):
    for kind, path in _write_all(tmp_path).items():
        corpus = load_sources([SourceSpec(path)])
        assert corpus.problems == [], kind
        assert [paper.text for paper in corpus.papers] == list(ABSTRACTS.values()), kind
        links = [paper.links for paper in corpus.papers]
        assert "https://github.com/x/dr_3slice" in links[0], kind
        assert "https://a.org/x_y" in links[1], kind


# --------------------------------------------------------------------------- robustness

_LATEX_PIECES = st.sampled_from(
    [
        *"\\{}$~'\"`^_ ",
        r"\'", r"\"", r"\c", r"\v", r"\ss", r"\i", r"\emph{", r"\textbf", r"\citep{",
        r"\citep[", r"\item", r"\item[", r"\begin{", r"\end{", r"\footnote{", r"\href{",
        r"\url{", r"\textcolor{", r"{\it ", r"\ref{", r"\\", r"\%", r"\$", r"\{", r"\}",
        "https://x.org/a", r"\_", "e", "E", "s", "--", "``", "''", "*",
    ]
)  # fmt: skip


@given(st.lists(_LATEX_PIECES | st.characters(), max_size=80).map("".join))
def test_decoding_never_raises_or_grows(raw: str):
    held = Held()
    decoded = held.restore(decode(raw, held))
    assert len(decoded) <= 2 * len(raw) + 2
    shown = display_text(raw)
    assert len(shown) <= 2 * len(raw)


def test_deep_nesting_is_read_without_recursion():
    raw = r"\emph{" * 20_000 + "x" + "}" * 20_000 + "{" * 20_000
    assert display_text(raw) == "x"


# --------------------------------------------------------------------------- real corpora


def _benchmark_corpus():
    """benchmarks/corpus.py, which builds synthetic abstracts from the seeds' and the PMLR
    corpora's sentences."""
    spec = importlib.util.spec_from_file_location("corpus", ROOT / "benchmarks" / "corpus.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["corpus"] = module
    spec.loader.exec_module(module)
    return module


def _leftovers(text: str) -> list[str]:
    """LaTeX a reader should never see: a command word, or a brace without its partner."""
    found = _COMMAND.findall(text)
    depth = 0
    for char in text:
        depth += (char == "{") - (char == "}")
        if depth < 0:
            break
    return found + (["unbalanced brace"] if depth else [])


@pytest.mark.skipif(not CORPORA.is_dir(), reason="needs ../shared/corpora")
def test_abstracts_from_midl_and_enlsp_sentences_display_cleanly(tmp_path: Path):
    corpus = _benchmark_corpus()
    pool = corpus.sentence_pool()
    assert len(pool) > 1000
    for sentence in pool:
        assert not _leftovers(display_text(sentence)), sentence
    abstracts = corpus.make_abstracts(300, pool=pool, per_file=100)
    shown = {}
    for kind, write in (("txt", corpus.write_text), ("bib", corpus.write_bibtex)):
        write(tmp_path / kind, abstracts, per_file=100)
        papers = load_sources([SourceSpec(tmp_path / kind)]).papers
        assert len(papers) == len(abstracts)
        for paper in papers:
            assert not _leftovers(paper.text), paper.text
            assert not _leftovers(paper.title), paper.title
        shown[kind] = [paper.text for paper in papers]
    assert shown["txt"] == shown["bib"]
