"""An editing dialog's result saved as changes, merged with what others saved meanwhile.

A dialog shows a bookmark's tags or note as they were when it opened; the CLI or another
reader may change or remove the bookmark before it is saved. Saving the whole value the
dialog holds would wipe their work, so a result is turned into changes relative to what the
dialog showed (tags added and removed; the note replaced only if nobody changed it) and
applied to the file as it is then. The message says what really happened.
"""

from __future__ import annotations

from collections.abc import Sequence

from paperterm.index.library.bookmarks import (
    Add,
    Bookmark,
    BookmarkStore,
    ChangeTags,
    EditNote,
    Operation,
    clean_note,
    normalize_tags,
    utc_now,
)


def save_tags(
    store: BookmarkStore,
    paper_id: str,
    title: str,
    shown: Sequence[str] | None,
    tags: Sequence[str],
) -> str:
    """Save the tags dialog's result; `shown` is what it opened with (None: the paper was
    not bookmarked, and saving bookmarks it). Returns the message for the user; raises
    `BookmarksError` when nothing could be saved."""
    title = " ".join(title.split())
    before = normalize_tags(shown or ())
    after = normalize_tags(tags)
    added = tuple(tag for tag in after if tag not in before)
    removed = tuple(tag for tag in before if tag not in after)
    ops: list[Operation] = []
    if shown is None or added:
        # Also brings back a bookmark removed meanwhile: the user is adding to it.
        ops.append(Add(paper_id, title, utc_now()))
    ops.append(ChangeTags(paper_id, added, removed))
    seen, saved = store.edit(paper_id, *ops)
    if saved is None:
        return "Not saved: the bookmark was removed elsewhere (its tags went with it)"
    if shown is not None and seen is None:
        return "The bookmark had been removed elsewhere: added it back with these tags"
    if seen is not None and normalize_tags(shown or ()) != seen.tags:
        return f"Tags saved, merged with changes made elsewhere: {_tag_list(saved)}"
    return "Tags saved"


def save_note(store: BookmarkStore, paper_id: str, title: str, shown: str | None, note: str) -> str:
    """Save the note dialog's result; `shown` as for `save_tags`. Returns the message."""
    note = clean_note(note)
    title = " ".join(title.split())
    ops: list[Operation] = []
    if shown is None:
        ops.append(Add(paper_id, title, utc_now()))
    ops.append(EditNote(paper_id, shown or "", note, title, utc_now()))
    seen, saved = store.edit(paper_id, *ops)
    if saved is None:
        return "Not saved: the bookmark was removed elsewhere, and the note was empty"
    if shown is not None and seen is None:
        return "The bookmark had been removed elsewhere: added it back with this note"
    if seen is not None and seen.note != (shown or "") and seen.note != note:
        if not note:
            return "Note kept: it was changed elsewhere after you opened it"
        return "The note was changed elsewhere meanwhile: kept both, theirs first"
    if note:
        return "Note saved"
    return "Bookmarked" if shown is None else "Note cleared"


def _tag_list(mark: Bookmark) -> str:
    return ", ".join(mark.tags) if mark.tags else "(none)"
