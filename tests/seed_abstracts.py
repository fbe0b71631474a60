"""The bundled seed abstracts, split simply (independently of the parser under test)."""

from __future__ import annotations

from importlib.resources import files


def seed_abstracts() -> list[str]:
    abstracts = []
    for resource in sorted(files("paperterm.seeds").iterdir(), key=lambda r: r.name):
        if resource.name.endswith(".txt"):
            paragraphs = resource.read_text(encoding="utf-8").split("\n\n")
            abstracts += [p.strip() for p in paragraphs[1:] if p.strip()]
    return abstracts


def seed_with(phrase: str) -> str:
    """The one seed abstract that contains `phrase`."""
    matches = [abstract for abstract in seed_abstracts() if phrase in abstract]
    assert len(matches) == 1, phrase
    return matches[0]
