"""Derived names: the seeds they were tuned on, a held-out sample, the PMLR corpora."""

from __future__ import annotations

import dataclasses
import re
import sys

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from locations import CORPORA, FIXTURES
from name_tokens import token_cues
from pmlr_abstracts import pmlr_abstracts, pmlr_fields
from seed_abstracts import seed_abstracts, seed_with

from paperterm.index.text import names
from paperterm.index.text.display import display_text
from paperterm.index.text.names import WEIGHTS, derive_name, token_kind

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

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


def test_every_seed_abstract_has_an_expectation():
    assert len(SEEDS) == 38
    phrases = [*COINED, *UNNAMED, *EITHER]
    assert sorted(map(SEEDS.index, map(seed_with, phrases))) == list(range(38))


@pytest.mark.parametrize(("phrase", "name"), COINED.items(), ids=list(COINED.values()))
def test_coined_names(phrase: str, name: str):
    assert derive_name(seed_with(phrase)) == name


@pytest.mark.parametrize("phrase", UNNAMED)
def test_no_name_when_none_is_coined(phrase: str):
    assert derive_name(seed_with(phrase)) == ""


@pytest.mark.parametrize(("phrase", "names"), EITHER.items())
def test_ambiguous_abstracts(phrase: str, names: set[str]):
    assert derive_name(seed_with(phrase)) in names


@pytest.mark.parametrize("abstract", SEEDS)
def test_used_acronyms_are_never_names(abstract: str):
    assert derive_name(abstract) not in USED


def test_coined_name_is_found_however_the_abstract_is_laid_out():
    text = "We propose FooNet, a novel network for segmentation. FooNet beats LLMs."
    assert derive_name(text) == "FooNet"
    assert derive_name(text.replace(". ", ".\n\n")) == "FooNet"
    assert derive_name("A new method (FooNet) is proposed for segmentation.") == "FooNet"
    assert derive_name("We study how LLMs and GPUs scale. We use SGD.") == ""


def test_the_weights_table_is_what_the_detector_reads(monkeypatch: pytest.MonkeyPatch):
    text = "Our models, called FooNet, are small."
    assert WEIGHTS.called >= WEIGHTS.name  # "called X" alone makes a name
    assert derive_name(text) == "FooNet"
    monkeypatch.setattr(names, "WEIGHTS", dataclasses.replace(WEIGHTS, called=WEIGHTS.name - 1))
    names.analyse.cache_clear()
    try:
        assert derive_name(text) == ""
    finally:
        names.analyse.cache_clear()


# --------------------------------------------------------------------------- held out

HELD_OUT = tomllib.loads((FIXTURES / "held_out_names.toml").read_text(encoding="utf-8"))["abstract"]
#: Measured before anything was tuned on this sample (which nothing was): 28 of 29 right;
#: the one miss is "We release M3-Bench, the first benchmark ...": a capital followed by a
#: digit is not name-shaped.
HELD_OUT_RIGHT = 28


def test_held_out_sample_is_varied():
    named = [item for item in HELD_OUT if item["name"]]
    assert len(HELD_OUT) >= 25
    assert 8 <= len(HELD_OUT) - len(named) <= len(named)


def test_held_out_accuracy():
    wrong = []
    for item in HELD_OUT:
        found = derive_name(item["text"])
        if found != item["name"] and found not in item.get("also", []):
            wrong.append((item["name"], found))
    assert len(HELD_OUT) - len(wrong) >= HELD_OUT_RIGHT, wrong
    # A name where the abstract coins none is the worse error: the list would show it.
    assert not [(expected, found) for expected, found in wrong if not expected], wrong


# --------------------------------------------------------------------------- real corpora


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
    # Roughly a third of these abstracts coin a name; far more would mean false positives.
    assert 0.2 * len(abstracts) < named < 0.5 * len(abstracts)


@pytest.mark.skipif(not CORPORA.is_dir(), reason="needs ../shared/corpora")
def test_pmlr_titles_that_start_with_a_name_agree():
    """A real title "X: ..." with a name-shaped X that the abstract also uses labels that
    abstract with X: a labelled sample nobody tuned on. Measured: 36 of 42 agree (86%)."""
    labelled = []
    for row in pmlr_fields("title", "abstract"):
        head = display_text(row["title"]).split(": ", 1)[0]
        text = display_text(row["abstract"])
        if head != display_text(row["title"]) and token_kind(head) and head in text:
            labelled.append((head, row["abstract"]))
    assert len(labelled) >= 30
    agree = sum(derive_name(abstract) == head for head, abstract in labelled)
    assert agree >= 0.85 * len(labelled), (agree, len(labelled))


@example("***ab*** and x**cd** or *ef*")
@given(st.lists(st.sampled_from(["*", "**", "***", "ab", "é", " ", "_", "x*y"])).map("".join))
def test_markdown_emphasis_is_found_as_by_the_pattern_that_starts_with_its_lookbehind(text):
    """`_MARKDOWN_EMPHASIS` starts with a star, so that it skips to the next one; it finds
    what the same pattern written lookbehind first finds (which tries every position)."""
    plain = re.compile(r"(?<![\w*])\*{1,3}([^*\s]{2,40})\*{1,3}(?![\w*])")
    assert names._MARKDOWN_EMPHASIS.findall(text) == plain.findall(text)


@example(["a Masked ", "x " * 10, "autoEncoder"], "MAE")
@given(
    st.lists(st.sampled_from(["Masked", "auto", "Encoder", "of", "x-y", " ", "  ", "(", "m"])),
    st.sampled_from(["MAE", "mAE", "XY", "M", "OME"]),
)
def test_an_expansion_is_found_among_the_last_twelve_words(pieces, acronym):
    """`expansion_before` reads only the last 12 words before "(X)": it splits off no more."""
    left = "".join(pieces)
    letters = [ch.lower() for ch in acronym if ch.isalpha()]
    words = left.rstrip().split(" ")
    expected = ""
    for k in range(1, min(len(words), 12) + 1) if len(letters) >= 2 else ():
        phrase = words[-k:]
        if (k == 1 and "-" not in phrase[0]) or phrase[0][:1].lower() != letters[0]:
            continue
        if names._is_subsequence(letters, "".join(phrase).lower()):
            expected = " ".join(phrase)
            break
    assert names.expansion_before(left, acronym) == expected


def _name_tokens_word_by_word(text: str) -> list[tuple[str, int, str]]:
    """`_name_tokens` as it was: every word not in lower case tried, found by `str.find`."""
    found = []
    position = 0
    for word in [word for word in text.split(" ") if not word.islower()]:
        position = text.find(word, position)
        candidate = names._word_candidate(word)
        if candidate:
            core, offset, kind = candidate
            found.append((core, position + offset, kind))
        position += len(word)
    return found


@example("We propose MC-ViT (Memory ViT), a model. É ÉTAT-X 12 (1) ViT's CNN/DM x\nYz.")
@given(
    st.lists(
        st.sampled_from(
            [
                "MC-ViT",
                "PICLe",
                "Caduceus",
                "ab",
                "É",
                "ÉTAT",
                "-X",
                "12",
                "(",
                ")",
                "'s",
                "/",
                ",",
                ".",
                " ",
                "  ",
                "\n",
                "x",
                "Yz",
                "İ",
                "ǅ",
                "*",
            ]
        )
    ).map("".join)
)
def test_name_tokens_are_found_from_the_capitals_as_word_by_word(text):
    """Only a word with an ASCII capital can be a name: finding those from the capitals
    gives the tokens that trying every word not in lower case gave."""
    assert names._name_tokens(text) == _name_tokens_word_by_word(text)


@given(st.lists(st.sampled_from(["call", "na", "m", "dub", "ter", "coin", "built", "pro", "posed",
                                 "devised", "x", " ", "É"])).map("".join))  # fmt: skip
def test_cue_words_are_found_by_one_search_as_one_by_one(text):
    """The cheap cue tests search for all their words at once: the same answers as testing
    each word in turn."""
    assert names._has_called_hint(text) == any(c in text for c in names._CALLED_HINTS)
    assert bool(names._has_passive_verb(text)) == any(v in text for v in names._PASSIVE_VERBS)
    assert bool(names._has_passive_verb(text[:9])) == any(
        v in text[:9] for v in names._PASSIVE_VERBS
    )


def _sentences_one_pattern(text: str) -> list[tuple[int, int]]:
    """`_sentences` as it was: one pattern for the three marks."""
    starts = [0]
    for match in re.finditer(r"[.!?](?: +|(?=[A-Z][a-z]))", text):
        end = match.end()
        if end >= len(text):
            break
        if end == match.start() + 1:
            before = text[max(0, end - 3) : end - 1]
            if not (len(before) == 2 and before.isalpha() and before.islower()):
                continue
        elif not (text[end].isupper() or text[end].isdigit() or text[end] in '"“(['):
            continue
        starts.append(end)
    return list(zip(starts, [*starts[1:], len(text)], strict=True))


@example("It works! Does it? Yes. It does!Next. e.g. Ok?No")
@example('It is. "Quoted. “Curly. [1] ok. Éa. ßa. ab.Cd ok.')
@given(st.lists(st.sampled_from(["ab", "Cd", "É", "1", ".", "!", "?", " ", "  ", "(", "x",
                                 '"', "“", "[", "ß", "²", "Ⅻ"]))
       .map("".join))  # fmt: skip
def test_sentences_found_mark_by_mark_are_those_of_one_pattern(text):
    """Each sentence mark has its own pattern (searched fast for its first character): the
    sentences are those one pattern for all three found."""
    assert names._sentences(text) == _sentences_one_pattern(text)


@example("MC-ViT): a ")
@given(st.lists(st.sampled_from([
    "We propose ", "we introduce a ", "called ", "our ", "Our method, ", "MC-ViT", "PICLe",
    "Caduceus", "Memory ViT ", "(", ")", ", a novel model", ", a model", ", or Xy", ": a ",
    " is proposed", " is a simple ", " was built", "of ", "the ", ". ", "x ", "É", "İs a ",
]), max_size=30).map("".join))  # fmt: skip
def test_a_token_scored_is_one_that_may_be(text):
    """`_may_score` is a cheap test that `_score` may give a score: it must hold of every
    token that `_score` scores, or skipping the others would change names."""
    text = text.replace("\n\n", " ")
    for token, lowered, sentence, coinings, start, end, _ in token_cues(text):
        if names._score(text, lowered, sentence, coinings, start, end) is not None:
            assert names._may_score(text, lowered, sentence, coinings, start, end), token
