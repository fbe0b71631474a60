"""Derived names and headlines: the seeds, the PMLR corpora, and arbitrary text."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st
from locations import CORPORA
from seed_abstracts import seed_abstracts

from paperterm.index.text import naming
from paperterm.index.text.display import display_text
from paperterm.index.text.naming import TITLE_LIMIT, derive_name, derive_title

# A distinctive phrase of each seed abstract -> the name it coins.
COINED = {
    "We introduce *xT*, a simple framework": "xT",
    "We present Persona In-Context Learning (PICLe)": "PICLe",
    "a novel attack called Adversarial Unlearning Attack": "AdvUA",
    "our memory-consolidated vision transformer (MC-ViT)": "MC-ViT",
    "we propose SelfExtend to extend": "SelfExtend",
    "We use MambaDNA as the basis of Caduceus": "Caduceus",
    "Posterior Sampling Bayesian Lifelong In-Context": "PSBL",
    "we propose an In-context Decision Transformer (IDT)": "IDT",
    "we provide *PolySketchFormer*": "PolySketchFormer",
    "Continuous-Time Graph Anti-Symmetric Network (CTAN)": "CTAN",
    r"a new MoE strategy, $\mathsf{DirMixE}$": "DirMixE",
    "we propose DUPLEX, an inductive framework": "DUPLEX",
    "we propose the Stackelberg Decision Transformer (STEER)": "STEER",
    r"we propose $\texttt{MoE-RBench}$": "MoE-RBench",
    "We therefore propose CDTD": "CDTD",
    "this paper presents COPAL": "COPAL",
    "Definite Finite Automaton (DFA-RAG)": "DFA-RAG",
    "We propose Collage which utilizes": "Collage",
    "Our solution, Layerwise Proximal Replay (LPR)": "LPR",
}
# Abstracts that coin no name (they study, analyse or define; their acronyms are used).
UNNAMED = [
    "we examine the long-run distribution of stochastic gradient descent",
    "Estimating the ratio of two probability densities",
    "This paper studies why transformers can learn different types of function classes",
    "we define linguistic calibration for long-form generations",
    "on the Long Range Arena (LRA) benchmark",
    "we use an illustrative example to show that naively applying transformers",
    "We call the resulting procedure *in-context autoregressive learning*",
    "a simple modification to causal language modeling called conditional finetuning",
    "We introduce and study a family of online metric problems",
    "We contribute a definition of LLMs",
    "the first theoretical study towards the influence of guidance on diffusion models",
    "This work explores how to repurpose general LLMs",
    "we identify a fundamental yet unexplored feature learning proclivity",
    "we propose a novel unsupervised framework to pre-train generalist policies",
    "we present an arbitrary-scale super-resolution (SR) method",
    "We introduce a method to generate 3D scenes",
]
# Abstracts where more than one reading is fair: several things named, or a named phrase.
EITHER = {
    "We present Lightning Attention": {"Lightning Attention", "TransNormerLLM", "TNL", ""},
    "Machine Vision Therapy": {"DICL", "Machine Vision Therapy", ""},
    "We propose Stacked Deep Sets and Quantile Pooling": {
        "Quantile Pooling",
        "Stacked Deep Sets",
        "",
    },
}
# Acronyms the seeds use without coining them.
USED = {"LLM", "LLMs", "LM", "LMs", "RL", "SGD", "GPU", "GPUs", "ViT", "CLIP", "MAS", "SG"}
USED |= {"ML", "NLP", "DL", "MoE", "SR", "MARL", "OOD", "MLLMs", "RAG", "DFA", "ICL", "RC"}
USED |= {"PPD", "LRA", "C-TDGs", "SMoE", "DDPM", "DDIM", "TPUs", "GAT", "ReLU", "NeRFs"}


SEEDS = seed_abstracts()


def seed(phrase: str) -> str:
    matches = [abstract for abstract in SEEDS if phrase in abstract]
    assert len(matches) == 1, phrase
    return matches[0]


def test_every_seed_abstract_has_an_expectation():
    assert len(SEEDS) == 38
    phrases = [*COINED, *UNNAMED, *EITHER]
    assert sorted(map(SEEDS.index, map(seed, phrases))) == list(range(38))


@pytest.mark.parametrize(("phrase", "name"), COINED.items(), ids=list(COINED.values()))
def test_coined_names(phrase: str, name: str):
    assert derive_name(seed(phrase)) == name


@pytest.mark.parametrize("phrase", UNNAMED)
def test_no_name_when_none_is_coined(phrase: str):
    assert derive_name(seed(phrase)) == ""


@pytest.mark.parametrize(("phrase", "names"), EITHER.items())
def test_ambiguous_abstracts(phrase: str, names: set[str]):
    assert derive_name(seed(phrase)) in names


@pytest.mark.parametrize("abstract", SEEDS)
def test_used_acronyms_are_never_names(abstract: str):
    assert derive_name(abstract) not in USED


def test_coined_name_is_found_however_the_abstract_is_laid_out():
    text = "We propose FooNet, a novel network for segmentation. FooNet beats LLMs."
    assert derive_name(text) == "FooNet"
    assert derive_name(text.replace(". ", ".\n\n")) == "FooNet"
    assert derive_name("A new method (FooNet) is proposed for segmentation.") == "FooNet"
    assert derive_name("We study how LLMs and GPUs scale. We use SGD.") == ""


# --------------------------------------------------------------------------- titles


@pytest.mark.parametrize(
    ("phrase", "title"),
    [
        (
            "We present Persona In-Context Learning (PICLe)",
            "PICLe: a persona elicitation framework grounded in Bayesian inference",
        ),
        (
            "we propose DUPLEX, an inductive framework",
            "DUPLEX: an inductive framework for complex embeddings of directed graphs",
        ),
        (
            "we propose the Stackelberg Decision Transformer (STEER)",
            "STEER: Stackelberg Decision Transformer",
        ),
        (
            "we examine the long-run distribution of stochastic gradient descent",
            "The long-run distribution of SGD in general, non-convex problems",
        ),
        (
            "This paper studies why transformers can learn different types of function classes",
            "Why transformers can learn different types of function classes in-context",
        ),
        (
            "We introduce and study a family of online metric problems",
            "A family of online metric problems with long-term constraints",
        ),
    ],
)
def test_titles(phrase: str, title: str):
    abstract = seed(phrase)
    assert derive_title(abstract, derive_name(abstract)) == title


def assert_headline(title: str, abstract: str, name: str) -> None:
    """At most 100 characters on one line, capitalised, no lead-in, no markup, no debris,
    and made of the abstract's own whole words."""
    assert title, abstract
    assert len(title) <= TITLE_LIMIT
    assert title == " ".join(title.split())
    assert not re.search(r"[$*\\]", title), title
    assert not title.endswith(tuple(",;:.-–—(")), title
    assert not re.match(r"(?i)(in this (paper|work)|we |here,)", title), title
    body = title
    if name and title.startswith(f"{name}: "):
        body = title[len(name) + 2 :]
    else:
        assert title[0].isupper() or title.split(" ")[0] == name, title
    text = display_text(abstract).lower()
    words = set(re.findall(r"[\w’'-]+", text)) | {"a", "an"}
    for word in re.findall(r"[\w’'-]+", body.lower()):
        # Never a cut-off or invented word; "to extend" may become "extending" and
        # "Multilayer Perceptron (MLP)-based" "MLP-based".
        stem = word[:-3] if word.endswith("ing") else word
        assert (
            word in words
            or all(part in text for part in word.split("-"))
            or any(w.startswith(stem) for w in words)
        ), (word, title)


@pytest.mark.parametrize("abstract", SEEDS)
def test_seed_titles_are_headlines(abstract: str):
    name = derive_name(abstract)
    title = derive_title(abstract, name)
    assert_headline(title, abstract, name)
    if name:
        assert title.startswith(f"{name}: ")


def test_title_for_a_name_the_source_gave():
    abstract = seed("We present Persona In-Context Learning (PICLe)")
    title = derive_title(abstract, "Persona Elicitation")
    assert len(title) <= TITLE_LIMIT
    assert title.startswith("Persona Elicitation: ")


def pmlr_abstracts() -> list[str]:
    bibtexparser = pytest.importorskip("bibtexparser")
    abstracts = []
    for path in sorted(CORPORA.glob("*.bib")):
        library = bibtexparser.parse_string(path.read_text(encoding="utf-8"))
        abstracts += [
            e.fields_dict["abstract"].value for e in library.entries if "abstract" in e.fields_dict
        ]
    return abstracts


@pytest.mark.skipif(not CORPORA.is_dir(), reason="needs ../shared/corpora")
def test_pmlr_corpora():
    abstracts = pmlr_abstracts()
    assert len(abstracts) > 100
    named = 0
    for abstract in abstracts:
        name = derive_name(abstract)
        if name:
            named += 1
            assert name in display_text(abstract)
            assert name not in USED
        assert_headline(derive_title(abstract, name), abstract, name)
    # Roughly a third of these abstracts coin a name; far more would mean false positives.
    assert 0.2 * len(abstracts) < named < 0.5 * len(abstracts)


# --------------------------------------------------------------------------- robustness

_PROSE = st.sampled_from(
    [
        "We propose ", "we introduce ", "This paper presents ", "called ", "our ", ", a novel ",
        "framework", "(", ")", "X", "FooNet", "(FN)", "Foo Net", " is proposed", ". ", ", ",
        "In this paper, we examine ", "the ", "$", "*", "\\", "\n\n", " to ", " which ", "LLMs",
    ]
)  # fmt: skip


@given(st.lists(_PROSE | st.text(max_size=5), max_size=40).map("".join))
def test_never_raises_on_prose_soup(abstract: str):
    name = derive_name(abstract)
    assert isinstance(name, str)
    title = derive_title(abstract, name)
    assert len(title) <= TITLE_LIMIT
    assert "\n" not in title


@given(st.text(), st.text())
def test_never_raises_on_any_text(abstract: str, name: str):
    assert isinstance(derive_name(abstract), str)
    title = derive_title(abstract, name)
    assert len(title) <= TITLE_LIMIT
    assert not [ch for ch in title if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp")]


@given(st.lists(_PROSE | st.text(max_size=5), max_size=40).map("".join), st.text(max_size=12))
def test_the_heuristics_raise_nothing_even_without_the_safety_net(abstract: str, name: str):
    # derive_name and derive_title turn any exception into a fallback; a bug hidden that
    # way would only show as worse names, so the internals are exercised here directly.
    analysis = naming._analyse(abstract)
    assert isinstance(naming._title(analysis, name or analysis.name), str)
