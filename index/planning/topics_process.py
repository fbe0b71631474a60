"""The reader's topics, computed after its index is ready and never on its UI thread.

`background_topics` reads the topics kept with the live generation (kept_topics.py); when
there are none (or they are of another corpus, or damaged), a corpus of fewer than
`PROCESS_PAPERS` papers is grouped in the calling thread (the reader's index worker), a
larger one in a process of its own, at a lower priority: grouping is pure Python, and a
thread would take the interpreter's lock from the reader's UI thread for as long as it
runs. The process (`python -m paperterm.index.planning.topics_process`, its task pickled
on stdin) opens the generation's papers, groups them and keeps the result, which the caller
then reads.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from paperterm.index.planning.kept_topics import (
    KeptTopics,
    corpus_key,
    generation_folder,
    kept_topics,
    read_kept,
)

if TYPE_CHECKING:
    from paperterm.index.search.open_index import OpenIndex
    from paperterm.index.session import Session

#: Papers from which topics are grouped in a process of their own (below it, starting the
#: process costs more than grouping them takes).
PROCESS_PAPERS = 1000
#: The process's lower priority: on a busy machine the reader's keys come first.
NICENESS = 10
#: How often (seconds) a wait for the process looks whether the caller is ending.
_POLL = 0.2


def background_topics(
    session: Session, opened: OpenIndex, cancelled: Callable[[], bool]
) -> KeptTopics | None:
    """The topics of `opened`'s papers, kept or computed (see the module docstring); None
    for a partial index, or when the process failed or `cancelled()` came true."""
    if opened.partial:
        return None
    folder = generation_folder(session, opened)
    key = corpus_key(opened.meta)
    if folder is None or key is None or len(opened.papers) < PROCESS_PAPERS:
        return kept_topics(opened.papers, opened.meta, folder, cancelled=cancelled)
    found, warning = read_kept(folder, key)
    if found is not None:
        return found
    if not _run_apart(session, folder, cancelled):
        return None
    found, again = read_kept(folder, key)
    return None if found is None else found._replace(warning=warning or again)


def _run_apart(session: Session, folder: Path, cancelled: Callable[[], bool]) -> bool:
    """Group the live generation's papers in a process; whether it ended well."""
    task = (session.data_dir, session.specs, session.engine, str(folder), os.getpid())
    process = subprocess.Popen(
        [sys.executable, "-m", "paperterm.index.planning.topics_process"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert process.stdin is not None
        try:
            process.stdin.write(pickle.dumps(task))
            process.stdin.close()
        except OSError:  # it died: its exit status says so
            pass
        while True:
            try:
                return process.wait(_POLL) == 0
            except subprocess.TimeoutExpired:
                if cancelled():
                    return False
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def main() -> int:
    """The process: group the papers of the generation named in the task and keep them
    (nothing when that generation is no longer the live one)."""
    from paperterm.index.search.store import Store

    data_dir, specs, engine, folder, parent = pickle.load(sys.stdin.buffer)
    with contextlib.suppress(OSError, AttributeError):  # AttributeError: no nice on Windows
        os.nice(NICENESS)
    threading.Thread(target=_end_with, args=(parent,), daemon=True).start()
    store = Store(Path(data_dir), specs, engine)
    found = store.read_meta()
    if found is None or str(found[0]) != folder or os.getppid() != parent:
        return 1
    papers = store.open_rows(*found)
    if papers is None:
        return 1
    try:
        kept_topics(papers, found[1], found[0])
    finally:
        papers.close()
    return 0


def _end_with(parent: int) -> None:
    """End this process once the reader that started it is gone (killed, it could not
    stop it): nobody would use what it groups before the next start."""
    while os.getppid() == parent:
        time.sleep(_POLL)
    os._exit(1)


if __name__ == "__main__":
    sys.exit(main())
