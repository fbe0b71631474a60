"""Which papers a view may show, before any query words: the view (all papers, a collection,
a bookmark tag, a saved search), the reader's filters (bookmarks only, unread only) and the
query's `tag:` filters. The reader and the CLI (`paperterm list --view NAME --unread`) call
the same functions, so a view means the same in either.
"""

from __future__ import annotations

from collections.abc import Collection, Container, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Literal, NamedTuple

from paperterm.index.library.bookmarks import Bookmark
from paperterm.index.library.searches import SavedSearch
from paperterm.index.papers import Paper

if TYPE_CHECKING:
    from paperterm.index.search.searcher import Searcher

ViewKind = Literal["all", "collection", "tag", "search", "author", "watched"]
#: The views a name can be given for (an author's is the reader's, for a while).
VIEW_KINDS: tuple[ViewKind, ...] = ("collection", "tag", "search")


class ViewKey(NamedTuple):
    """A view of the papers, written `all`, `collection:NAME`, `tag:NAME`, `search:NAME` or
    `watched` (in `place.toml`; `--view` takes all but `watched`). A named tuple, not a
    frozen dataclass, like `Filters`: cheaper to define as the reader starts."""

    kind: ViewKind = "all"
    name: str = ""

    def __str__(self) -> str:
        return self.kind if self.kind in ("all", "watched") else f"{self.kind}:{self.name}"

    @property
    def label(self) -> str:
        """How the status line and the sidebar name it."""
        if self.kind == "author":
            return f"other papers by {self.name}"
        if self.kind in ("all", "watched"):
            return f"{self.kind} papers"
        return f"{self.kind}: {self.name}"

    @classmethod
    def parse(cls, text: str) -> ViewKey | None:
        """`str(view)` read back; None when `text` is not one."""
        if text == "all":
            return ALL
        if text == "watched":
            return WATCHED
        kind, sep, name = text.partition(":")
        if sep and kind in VIEW_KINDS and name.strip():
            return cls(kind, name)
        return None


ALL = ViewKey()
#: The papers with a watched author or word (index/planning/watch.py).
WATCHED = ViewKey("watched", "Watched")


def list_title(view: ViewKey, *, query: str = "", unread: bool = False, read: bool = False) -> str:
    """What a reading list holds, in words (an export's heading): `ICML 2024 · unread`,
    `All papers · search: graph neural`."""
    parts = ["All papers" if view.kind == "all" else view.name]
    if query.strip():
        parts.append(f"search: {' '.join(query.split())}")
    parts += ["unread"] * unread + ["read"] * read
    return " · ".join(parts)


class Filters(NamedTuple):
    """Restrictions that apply on top of the query: the view, two toggles (change one with
    `_replace`), and facet values chosen, as (facet, value) pairs a paper must each have
    (`facets.facet_ids`)."""

    bookmarks_only: bool = False
    unread_only: bool = False
    view: ViewKey = ALL
    facets: tuple[tuple[str, str], ...] = ()

    @property
    def active(self) -> bool:
        return self.bookmarks_only or self.unread_only or self.view != ALL or bool(self.facets)


def allowed_ids(
    papers: Iterable[Paper],
    marks: Mapping[str, Bookmark],
    filters: Filters,
    tags: Iterable[str] = (),
    excluded_tags: Iterable[str] = (),
    tag_prefixes: Iterable[str] = (),
    *,
    read: Container[str] = (),
    search_ids: Collection[str] | None = None,
    decisions: Mapping[str, str] | None = None,
    topics: Mapping[str, str] | None = None,
) -> set[str] | None:
    """The ids the view may show, or None when nothing restricts it.

    `tags` (from `tag:NAME` in the query) keep bookmarks carrying every one of them;
    `tag_prefixes` (a last `tag:NA` still being typed) keep bookmarks with a tag that starts
    so; `excluded_tags` (`-tag:NAME`) drop papers whose bookmark carries any of them. Tags
    compare case-insensitively. `read` holds the read ids (for `unread_only`);
    `search_ids` the ids a saved-search view matches (`query_ids`; empty when not given),
    an author's view or the watched view holds;
    `decisions` the triage decisions (for a `decision` facet); `topics` the topics computed
    for a corpus that has none (id -> label, for a `topic` facet).
    """
    papers = papers if isinstance(papers, Sequence) else list(papers)
    view = filters.view
    tags = [tag.lower() for tag in tags]
    if view.kind == "tag":
        tags.append(view.name.lower())
    prefixes = tuple(prefix.lower() for prefix in tag_prefixes)
    excluded = [tag.lower() for tag in excluded_tags]
    allowed: set[str] | None = None
    if filters.bookmarks_only or tags or prefixes:
        allowed = set()
        for mark_id, mark in marks.items():
            held = _lower_tags(mark)
            if all(tag in held for tag in tags) and all(
                any(tag.startswith(prefix) for tag in held) for prefix in prefixes
            ):
                allowed.add(mark_id)
    if view.kind == "collection":
        in_collection = {i for i, names in paper_collections(papers) if view.name in names}
        allowed = in_collection if allowed is None else allowed & in_collection
    elif view.kind in ("search", "author", "watched"):
        found = set(search_ids or ())
        allowed = found if allowed is None else allowed & found
    if excluded:
        tagged = {i for i, mark in marks.items() if any(t in _lower_tags(mark) for t in excluded)}
        allowed = (set(paper_ids(papers)) if allowed is None else allowed) - tagged
    if filters.unread_only:
        if allowed is None:
            allowed = {i for i in paper_ids(papers) if i not in read}
        else:
            allowed = {i for i in allowed if i not in read}
    if filters.facets:
        from paperterm.index.library.facets import facet_ids  # only once a facet is chosen

        chosen = facet_ids(papers, filters.facets, marks, decisions or {}, read, topics=topics)
        allowed = chosen if allowed is None else allowed & chosen
    return allowed


def paper_ids(papers: Iterable[Paper]) -> Sequence[str]:
    """The papers' ids (of a `PaperList`, read from its rows, not its papers: 50,000 papers
    are not unmarshalled to filter them)."""
    ids = getattr(papers, "ids", None)
    return ids if ids is not None else [paper.id for paper in papers]


def paper_collections(papers: Iterable[Paper]) -> Iterator[tuple[str, Sequence[str]]]:
    """(id, collections) of each paper; a `PaperList`'s from its rows."""
    row = getattr(papers, "row", None)
    if row is None:
        return ((paper.id, paper.collections) for paper in papers)
    count = len(papers)  # type: ignore[arg-type]
    return ((found[0], found[3]) for found in map(row, range(count)))


def _lower_tags(mark: Bookmark) -> set[str]:
    return {tag.lower() for tag in mark.tags}


def all_tags(marks: Mapping[str, Bookmark]) -> list[str]:
    """Every tag in use, once (the first spelling seen), sorted case-insensitively."""
    seen: dict[str, str] = {}
    for mark in marks.values():
        for tag in mark.tags:
            seen.setdefault(tag.lower(), tag)
    return sorted(seen.values(), key=str.lower)


def query_matches(
    searcher: Searcher,
    text: str,
    papers: Sequence[Paper],
    marks: Mapping[str, Bookmark],
    topics: Mapping[str, str] | None = None,
) -> list[str]:
    """Every paper a query finds (no limit), best first: what a saved search's view holds
    (`topics`: those computed for a corpus that has none, for its `topic:` clauses)."""
    from paperterm.index.search.query import parse_query  # a search's: after the first frame

    parsed = parse_query(text)
    tags = (parsed.tags, parsed.excluded_tags, parsed.tag_prefixes)
    allowed = allowed_ids(papers, marks, Filters(), *tags)
    if not parsed.clauses:
        return [i for i in paper_ids(papers) if allowed is None or i in allowed]
    results = searcher.search(text, limit=None, snippets=False, allowed=allowed, topics=topics)
    return [hit.paper.id for hit in results.hits]


def like_seeds(marks: Mapping[str, Bookmark], view: ViewKey) -> list[str]:
    """The papers "like my bookmarks" compares with: the bookmarks, or in a tag's view the
    bookmarks with that tag."""
    if view.kind == "tag":
        tag = view.name.lower()
        return [i for i, mark in marks.items() if tag in _lower_tags(mark)]
    return list(marks)


class UnknownView(ValueError):
    """`--view NAME` names no view; the message lists what would."""


def resolve_view(
    name: str, collections: Sequence[str], tags: Sequence[str], searches: Sequence[SavedSearch]
) -> ViewKey:
    """The view `--view NAME` means: `collection:X`, `tag:X`, `search:X`, `all` or
    `watched` as written; a bare name is a saved search, else a collection, else a tag
    (exactly, then ignoring case)."""
    named = ViewKey.parse(name)
    choices: dict[ViewKind, Sequence[str]] = {
        "search": [s.name for s in searches],
        "collection": collections,
        "tag": tags,
    }
    kinds: list[ViewKind] = list(choices)
    if named is not None:
        if named.kind in ("all", "watched") or named.name in choices[named.kind]:
            return named
        name, kinds = named.name, [named.kind]
    for fold in (False, True):  # exactly, then ignoring case
        for kind in kinds:
            for option in choices[kind]:
                if option == name or (fold and option.casefold() == name.casefold()):
                    return ViewKey(kind, option)
    options = [str(ViewKey(kind, option)) for kind in kinds for option in choices[kind]]
    import difflib  # only for a mistake: scripted commands start without it

    close = difflib.get_close_matches(name, [o.partition(":")[2] for o in options], n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    listed = ", ".join(options[:12]) + (", ..." if len(options) > 12 else "")
    raise UnknownView(f"no view named {name!r}{hint}; views: all, {listed}".rstrip(", "))
