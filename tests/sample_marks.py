"""Three papers and three bookmarks (one whose paper left the corpus), for the tests of
what a view shows (imported by name: tests/ is on sys.path)."""

from __future__ import annotations

from datetime import datetime, timezone

from paperterm.index.library.bookmarks import Bookmark
from paperterm.index.papers import Paper

WHEN = datetime(2024, 5, 1, tzinfo=timezone.utc)
PAPERS = [
    Paper("a1", "Alpha", "x", title="First"),
    Paper("b2", "Beta", "y", title="Second", collections=["Beta", "Alpha"]),
    Paper("c3", "Beta", "z", title="Third"),
]
MARKS = {
    "a1": Bookmark("a1", WHEN, "First", ("Read", "ssl")),
    "c3": Bookmark("c3", WHEN, "Third", ("ssl",)),
    "gone": Bookmark("gone", WHEN, "Left the corpus", ("read",)),
}
