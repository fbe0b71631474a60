"""Topics kept with the index: `topics.json` in the live generation's folder.

A corpus whose papers carry no topic of their own (fewer than `OWN_TOPICS_SHARE` of them
have one) is grouped into topics (topics.py) once per generation, and the result is kept:

    {"version": 1, "corpus": KEY, "own_topics": false,
     "topics": [{"label", "words", "count", "ids"}, ...]}

`corpus` is `corpus_key(meta)`, a digest of what the generation holds (its parts' digests),
so a file of another corpus is never taken for this one's; a corpus carrying its own topics
is recorded as such (`"own_topics": true`, `"topics": null` until the `topics` command
asks for them), so that the next start need not count them again. The file is written
atomically; a damaged one is computed again, with a one-line warning.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from paperterm.index.atomic import write_json
from paperterm.index.planning import topics as grouping
from paperterm.index.planning.topics import Topic
from paperterm.index.search.store import META_FILE

if TYPE_CHECKING:
    from paperterm.index.papers import Paper
    from paperterm.index.search.generation_meta import Meta
    from paperterm.index.search.open_index import OpenIndex
    from paperterm.index.session import Session

TOPICS_FILE = "topics.json"
#: Bump when what the file holds or how topics are computed changes.
FORMAT_VERSION = 1
#: A corpus carries its own topics when at least this share of its papers has one: the
#: facet then shows those, and nothing is computed for the reader.
OWN_TOPICS_SHARE = 0.5


class KeptTopics(NamedTuple):
    """A generation's topics: `topics` None when the corpus carries its own and none were
    asked for; `warning`: a one-line note (a damaged file computed again)."""

    topics: list[Topic] | None
    own_topics: bool
    warning: str | None = None


def carries_topics(papers: Sequence[Paper]) -> bool:
    """Whether at least `OWN_TOPICS_SHARE` of `papers` have a topic of their own."""
    have = sum(1 for paper in papers if paper.topic)
    return bool(papers) and have >= OWN_TOPICS_SHARE * len(papers)


def corpus_key(meta: Meta) -> str | None:
    """What identifies a generation's papers (None for an index kept in no generation)."""
    if not meta.parts:
        return None
    from paperterm.index.search.generation_meta import content_digest

    parts = [part.digest for part in meta.parts]
    described = [FORMAT_VERSION, meta.schema, meta.parser, meta.papers, parts]
    return content_digest(json.dumps(described).encode("ascii"))


def generation_folder(session: Session, opened: OpenIndex) -> Path | None:
    """The live generation's folder when it holds `opened`'s papers (a reader may list a
    build's own folder, which the generation was linked from), else None."""
    key = corpus_key(opened.meta)
    if key is None or opened.partial or opened.location == ":memory:":
        return None
    found = session.store.read_meta()
    if found is None or corpus_key(found[1]) != key:
        return None
    return found[0]


def read_kept(folder: Path, key: str) -> tuple[KeptTopics | None, str | None]:
    """The topics kept in `folder` when they are of the corpus `key`; else None, with a
    warning when the file is there but damaged."""
    path = folder / TOPICS_FILE
    try:
        data = json.loads(path.read_bytes())
    except FileNotFoundError:
        return None, None
    except OSError as error:
        return None, f"{path}: unreadable ({error.strerror}); topics computed again"
    except ValueError as error:
        return None, f"{path}: damaged ({_first_line(error)}); topics computed again"
    try:
        if data["version"] != FORMAT_VERSION or data["corpus"] != key:
            return None, None
        found = None if data["topics"] is None else [_topic(item) for item in data["topics"]]
        own = data["own_topics"]
        if not isinstance(own, bool) or (found is None and not own):
            raise ValueError("no topics")
    except (KeyError, TypeError, ValueError) as error:
        why = f"no {error}" if isinstance(error, KeyError) else _first_line(error)
        return None, f"{path}: damaged ({why}); topics computed again"
    return KeptTopics(found, own), None


def _topic(item: Any) -> Topic:
    words = item["words"]
    ids = item["ids"]
    label = item["label"]
    if not isinstance(label, str) or item["count"] != len(ids):
        raise ValueError("a topic's label or count is wrong")
    if not all(isinstance(value, str) for value in [*words, *ids]):
        raise ValueError("a topic's words or ids are not text")
    return Topic(label, tuple(words), tuple(ids))


def _first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def keep(folder: Path, key: str, kept: KeptTopics) -> None:
    """Write `kept` to `folder`'s topics.json, atomically (a folder that cannot be written
    keeps nothing: the next start computes them again; a generation removed meanwhile by
    another process's build is not made again)."""
    if not (folder / META_FILE).is_file():
        return
    found = None if kept.topics is None else grouping.topics_json(kept.topics)
    value = {"version": FORMAT_VERSION, "corpus": key, "own_topics": kept.own_topics}
    with contextlib.suppress(OSError):
        write_json(folder / TOPICS_FILE, {**value, "topics": found})


def kept_topics(
    papers: Sequence[Paper],
    meta: Meta,
    folder: Path | None,
    *,
    wanted: bool = False,
    cancelled: Callable[[], bool] | None = None,
) -> KeptTopics:
    """`folder`'s kept topics of these papers, or computed (and kept, when `folder` is
    given). A corpus carrying its own topics gets none computed unless `wanted` (the
    `topics` command)."""
    key = corpus_key(meta)
    warning = None
    if folder is not None and key is not None:
        found, warning = read_kept(folder, key)
        if found is not None and (found.topics is not None or not wanted):
            return found
    listed = papers if isinstance(papers, list) else list(papers)  # each paper read once
    own = carries_topics(listed)
    computed = grouping.topics(listed) if wanted or not own else None
    kept = KeptTopics(computed, own, warning)
    if folder is not None and key is not None and not (cancelled and cancelled()):
        keep(folder, key, kept)
    return kept


def topic_labels(found: Sequence[Topic]) -> dict[str, str]:
    """Each paper's topic's label, by id (a label two topics share is told apart by a
    number: the facet names each topic once)."""
    labels: dict[str, str] = {}
    seen: dict[str, int] = {}
    for topic in found:
        seen[topic.label] = seen.get(topic.label, 0) + 1
        label = topic.label if seen[topic.label] == 1 else f"{topic.label} ({seen[topic.label]})"
        for paper_id in topic.ids:
            labels[paper_id] = label
    return labels
