"""The papers of an author: by OpenReview id when the paper has one, else by folded name,
initials standing for the corpus's one full name that fits."""

from __future__ import annotations

from paperterm.index.papers import Paper
from paperterm.index.planning.authors import Author, AuthorIndex, paper_authors


def paper(pid: str, authors: list[str], ids: list[str] | None = None) -> Paper:
    return Paper(
        id=pid,
        collection="c",
        abstract="",
        title=f"Title {pid}",
        authors=authors,
        author_ids=ids or [],
    )


CORPUS = [
    paper("1", ["Léa Müller", "Kenji Sato"], ["~Lea_Muller1", ""]),
    paper("2", ["Lea Muller", "Grace Hopper"], ["~Lea_Muller1", ""]),
    paper("3", ["Léa Müller"], ["~Lea_Muller2"]),
    paper("4", ["K. Sato"]),
    paper("5", ["Kenji Sato", "Ada Lovelace"]),
    paper("6", ["ada lovelace"]),
    paper("7", ["Lovelace, Ada"]),
]


def test_an_author_with_an_id_is_found_by_the_id_not_homonyms() -> None:
    index = AuthorIndex(CORPUS)
    assert index.papers_of(Author("Léa Müller", "~Lea_Muller1")) == ["1", "2"]
    assert index.papers_of(Author("Léa Müller", "~Lea_Muller2")) == ["3"]


def test_a_name_matches_folded_and_turned_round() -> None:
    index = AuthorIndex(CORPUS)
    assert index.papers_of(Author("Ada Lovelace")) == ["5", "6", "7"]
    assert index.papers_of(Author("Lea Muller")) == ["1", "2", "3"]  # by name: all spellings


def test_initials_stand_for_the_one_full_name_that_fits() -> None:
    index = AuthorIndex(CORPUS)
    assert index.papers_of(Author("K. Sato")) == ["1", "4", "5"]
    assert index.papers_of(Author("Kenji Sato")) == ["1", "4", "5"]


def test_initials_that_fit_two_full_names_match_only_themselves() -> None:
    corpus = [paper("a", ["Kenji Sato"]), paper("b", ["Koji Sato"]), paper("c", ["K. Sato"])]
    index = AuthorIndex(corpus)
    assert index.papers_of(Author("K. Sato")) == ["c"]
    assert index.papers_of(Author("Kenji Sato")) == ["a"]


def test_a_paper_s_authors_carry_their_ids() -> None:
    assert paper_authors(CORPUS[0]) == [Author("Léa Müller", "~Lea_Muller1"), Author("Kenji Sato")]
    assert Author("Léa Müller", "~Lea_Muller1").label == "Léa Müller (~Lea_Muller1)"
    assert paper_authors(paper("x", ["", "Ada"], ["", ""])) == [Author("Ada")]
