"""Watch lists: author names (accents, case, spaces, initials), author ids and words."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from paperterm.index.papers import Paper
from paperterm.index.planning.watch import (
    WatchList,
    WatchMatcher,
    corpus_author_names,
    fold,
    folded_name,
    name_key,
)


def paper(
    authors: list[str] | None = None, ids: list[str] | None = None, text: str = "", **fields: str
) -> Paper:
    return Paper(
        id="p",
        collection="c",
        abstract=text,
        text=text,
        authors=authors or [],
        author_ids=ids or [],
        **fields,  # type: ignore[arg-type]
    )


def watched(watch: WatchList, item: Paper, corpus: list[str] | None = None) -> list[str]:
    return WatchMatcher(watch, corpus or []).watched(item)


def test_names_fold_accents_case_order_and_spaces() -> None:
    assert fold("Ångström Øre Łódź") == "angstrom ore lodz"
    assert folded_name("LeCun, Yann") == "yann lecun"
    assert folded_name("  Jean-Pierre   Sérré ") == "jean pierre serre"
    same = {"Yann LeCun", "yann lecun", "Yann Le Cun", "YANN LE-CUN", "LeCun, Yann"}
    assert {name_key(name) for name in same} == {"yannlecun"}


def test_accented_and_plain_spellings_match_both_ways() -> None:
    watch = WatchList(authors=("Jürgen Schmidhuber", "Zoe Kravitz"))
    assert watched(watch, paper(["Jurgen Schmidhuber"])) == ["author:Jürgen Schmidhuber"]
    assert watched(watch, paper(["ZOË KRAVITZ"])) == ["author:Zoe Kravitz"]
    assert watched(watch, paper(["Jürgen Schmidt"])) == []


def test_le_cun_with_and_without_space_is_one_name() -> None:
    watch = WatchList(authors=("Yann Le Cun",))
    assert watched(watch, paper(["Yann LeCun"])) == ["author:Yann Le Cun"]
    assert watched(watch, paper(["yann lecun"])) == ["author:Yann Le Cun"]
    assert watched(watch, paper(["Yann Lecunn"])) == []


def test_initials_match_only_when_unambiguous_in_the_corpus() -> None:
    corpus = ["Yann LeCun", "Yi Wang", "Yu Wang", "Xiao Wang"]
    unique = WatchMatcher(WatchList(authors=("Y. LeCun",)), corpus)
    assert unique.watched(paper(["Yann LeCun"])) == ["author:Y. LeCun"]
    assert unique.ambiguous == []
    several = WatchMatcher(WatchList(authors=("Y. Wang",)), corpus)
    assert several.watched(paper(["Yi Wang"])) == []
    assert several.watched(paper(["Yu Wang"])) == []
    assert several.ambiguous == ["Y. Wang"]
    assert several.watched(paper(["Y. Wang"])) == ["author:Y. Wang"]  # spelled the same
    assert several.watched(paper(["X. Wang"])) == []


def test_an_author_written_with_initials_matches_a_watched_full_name_when_unambiguous() -> None:
    watch = WatchList(authors=("Yann LeCun", "Yi Wang"))
    corpus = ["Yann LeCun", "Y. LeCun", "Yi Wang", "Yu Wang", "Y. Wang"]
    matcher = WatchMatcher(watch, corpus)
    assert matcher.watched(paper(["Y. LeCun"])) == ["author:Yann LeCun"]
    assert matcher.watched(paper(["Y LeCun"])) == ["author:Yann LeCun"]
    assert matcher.watched(paper(["Y. Wang"])) == []  # Yi or Yu


def test_several_initials_narrow_the_match() -> None:
    corpus = ["Jean-Pierre Serre", "Jacques Serre"]
    matcher = WatchMatcher(WatchList(authors=("J.-P. Serre",)), corpus)
    assert matcher.watched(paper(["Jean-Pierre Serre"])) == ["author:J.-P. Serre"]
    assert matcher.watched(paper(["Jacques Serre"])) == []
    broad = WatchMatcher(WatchList(authors=("J. Serre",)), corpus)
    assert broad.ambiguous == ["J. Serre"]


def test_author_ids_match_by_position_not_by_name() -> None:
    watch = WatchList(author_ids=("~Yann_LeCun1",))
    hit = paper(["Ada Lovelace", "Yann LeCun"], ids=["~Ada_Lovelace1", "~Yann_LeCun1"])
    assert watched(watch, hit) == ["author:~Yann_LeCun1"]
    assert WatchMatcher(watch).author_positions(hit) == {1: "author:~Yann_LeCun1"}
    homonym = paper(["Yann LeCun"], ids=["~Yann_LeCun2"])
    assert watched(watch, homonym) == []
    assert watched(watch, paper(["Yann LeCun"])) == []  # no ids in the data


def test_words_match_whole_words_case_insensitively() -> None:
    watch = WatchList(words=("GAN", "diffusion model", "Schrödinger"))
    assert watched(watch, paper(text="We train a gan.")) == ["word:GAN"]
    assert watched(watch, paper(text="Organic GANs and organs")) == []
    assert watched(watch, paper(text="A Diffusion\n  Model for x")) == ["word:diffusion model"]
    assert watched(watch, paper(text="diffusion models")) == []
    assert watched(watch, paper(title="The schrodinger bridge")) == ["word:Schrödinger"]
    assert watched(watch, paper(keywords=["GAN"])) == ["word:GAN"]  # type: ignore[arg-type]


def test_labels_come_authors_first_in_watch_order() -> None:
    watch = WatchList(authors=("B Person", "A Person"), words=("zeta", "alpha"))
    item = paper(["A Person", "B Person"], text="alpha and zeta")
    assert watched(watch, item) == ["author:B Person", "author:A Person", "word:zeta", "word:alpha"]


def test_corpus_names_are_every_author_once() -> None:
    names = corpus_author_names([paper(["A", "B"]), paper(["B", "C"])])
    assert names == {"A", "B", "C"}


NAMES = st.text(st.characters(categories=("L", "Zs", "Pd", "Po")), max_size=30)


@given(NAMES, NAMES)
def test_matching_never_fails_and_a_name_matches_itself(watched_name: str, other: str) -> None:
    matcher = WatchMatcher(WatchList(authors=(watched_name,)), [watched_name, other])
    result = matcher.watched(paper([other, watched_name]))
    if name_key(watched_name):
        assert result == [f"author:{watched_name}"]
    else:
        assert result == []


@given(st.text(max_size=20), st.text(max_size=200))
def test_words_never_fail(word: str, text: str) -> None:
    result = watched(WatchList(words=(word,)), paper(text=text))
    assert result in ([], [f"word:{word}"])


@given(
    st.lists(st.sampled_from(["a", "b", "ab", "é"]), min_size=1, max_size=2).map(" ".join),
    st.lists(
        st.sampled_from(["a", "b", "ab", "aab", "é", "É", " ", "  ", "_", "-", "\n"]), max_size=12
    ).map("".join),
)
def test_words_match_as_a_look_behind_pattern_would(word: str, text: str) -> None:
    import re

    parts = fold(word).split()
    reference = r"(?<!\w)" + r"\s+".join(map(re.escape, parts)) + r"(?!\w)"
    expected = [f"word:{word}"] if re.search(reference, fold(text)) else []
    assert watched(WatchList(words=(word,)), paper(text=text)) == expected
