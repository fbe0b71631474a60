"""The rows file of a large build written by a process of its own, while the build's process
writes the papers file.

Both files are written from the same records, after the build's worker processes have ended
(the merge decides what they list), by the build's process alone: one core sat idle. The
rows file (reading each source's records again, a row of each paper, marshalled) was a large
part of that; this process does it on the other core. It is started (`RowsProcess`) before
the merge, so that its start (its imports) is done by the time it is given its task: the build's
`Listing`, which pickles small, and where to write.

It writes the same bytes as `records.write_papers` would (the same `write_rows` over the same
records: a test compares them). When it fails, the build writes the rows file itself.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import traceback
from pathlib import Path

from paperterm.index.search.build_runs import usable_cores
from paperterm.index.search.merged import Listing
from paperterm.index.search.records import ROWS, RecordFile, write_rows

#: Papers to list from which a build writes its rows file in a process of its own (below it,
#: starting the process costs more than it takes off the build's process).
ROWS_PROCESS_PAPERS = 200_000


def rows_apart(papers: int) -> bool:
    """Whether a build listing this many papers writes its rows file in another process."""
    return usable_cores() > 1 and papers >= ROWS_PROCESS_PAPERS


class RowsProcess:
    """The process writing one build's rows file: `start` it, give it its task (`write`),
    then its `result`; `stop` it in any case."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "paperterm.index.search.rows_process"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )

    def write(self, listing: Listing, first: int, path: Path, kept: Path | None) -> None:
        """Write the rows file `path` of `listing`'s papers (of source `first` on), after the
        rows of the rows file `kept`."""
        assert self.process.stdin is not None
        task = pickle.dumps((listing, first, str(path), kept and str(kept), os.getpid()))
        try:
            self.process.stdin.write(task)
            self.process.stdin.close()
        except OSError:  # it died: its missing result says so
            pass

    def result(self) -> tuple[int, list[str]] | None:
        """(rows, collections) once it is done, or None when it failed (then the file it
        was writing may be there, incomplete)."""
        assert self.process.stdout is not None
        try:
            answer = pickle.loads(self.process.stdout.read())
        except (OSError, EOFError, pickle.UnpicklingError):
            return None
        if self.process.wait() != 0 or answer[0] != "done":
            return None
        count, collections = answer[1]
        return int(count), [str(name) for name in collections]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()


def main() -> None:
    """The process: its task from stdin, its answer to stdout ("done", (rows, collections))
    or ("failed", traceback)."""
    out = sys.stdout.buffer
    try:
        listing, first, path, kept, parent = pickle.load(sys.stdin.buffer)
        if os.getppid() != parent:
            return  # the build was killed: nobody will read what we write
        rows = None if kept is None else RecordFile(Path(kept), ROWS)
        try:
            done = write_rows(Path(path), listing.paper_tuples(first), rows)
        finally:
            if rows is not None:
                rows.close()
        answer: tuple[str, object] = ("done", done)
    except BaseException:
        answer = ("failed", traceback.format_exc(limit=3))
    out.write(pickle.dumps(answer))
    out.flush()


if __name__ == "__main__":
    main()
