"""Handing the end of a busy build worker's run to one that finished its own: the main
process's side (`build_runs.Runs`), the worker's (`build_workers.Orders`), the two together
in every order their messages may cross, and a build whose runs are handed over."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from generated import write_generated_corpus
from test_build import QUERIES, _words, answers, built, from_nothing

from paperterm.index.config import Config
from paperterm.index.search import build as build_module
from paperterm.index.search import build_runs, build_workers
from paperterm.index.search.build_runs import Runs, kept, split_runs
from paperterm.index.search.build_workers import Orders, PartFeed
from paperterm.index.search.store import BuildCancelled
from paperterm.index.session import Session


def test_runs_are_split_by_size():
    assert split_runs([1, 1, 1, 1], 2) == [range(0, 2), range(2, 4)]
    assert split_runs([5, 1, 1, 1, 1, 1], 2) == [range(0, 1), range(1, 6)]
    assert split_runs([3], 2) == [range(0, 1)]


def test_the_split_kept_leaves_the_shortest_longer_side():
    assert kept([9], 4) == 0  # the idle worker takes the one unstarted file
    assert kept([4, 4, 4, 4], 4) == 2  # 8 and 8
    assert kept([1, 1, 1], 0) == 2  # 2 and 1
    assert kept([5], 20) == 0  # 20 and 5: better than 25 and 0
    assert kept([], 7) == 0
    assert kept([3], 0) == 1  # 0 and 3 is no better than 3 and 0


def _ran(runs: Runs, worker: int) -> list:
    for _ in runs.runs[worker].files[runs.runs[worker].prepared :]:
        runs.heard(worker, ("source", "key", 1))
    return runs.heard(worker, ("ran",))


def test_a_finished_worker_asks_the_busy_one_to_stop_and_gets_its_run_end():
    runs = Runs.split([10] * 8, 2)
    assert runs.start() == [(0, ("run", [0, 1, 2, 3])), (1, ("run", [4, 5, 6, 7]))]
    runs.heard(1, ("source", "key", 10))  # worker 1 is on its second file (5)
    runs.heard(1, ("read", "key", 6))
    assert _ran(runs, 0) == [(1, ("stop", 3))]  # 4 + 10 left to it, 10 to worker 0
    assert runs.heard(0, ("read", "key", 1)) == []  # one hand-over at a time
    assert runs.heard(1, ("stopped", 3)) == [(0, ("run", [7]))]
    assert runs.runs[1].files == [4, 5, 6] and not runs.over


def test_a_file_the_busy_worker_already_started_is_not_handed_over():
    runs = Runs.split([10] * 8, 2)
    runs.start()
    assert _ran(runs, 0) == [(1, ("stop", 2))]  # keep 4, 5; hand over 6, 7
    # ... but by the time the stop came, worker 1 had started 6: it stops after it
    assert runs.heard(1, ("stopped", 3)) == [(0, ("run", [7]))]
    assert runs.runs[1].files == [4, 5, 6]


def test_a_busy_worker_that_finished_meanwhile_hands_over_nothing():
    runs = Runs.split([10] * 8, 2)
    runs.start()
    assert _ran(runs, 0) == [(1, ("stop", 2))]
    for _ in range(4):
        runs.heard(1, ("source", "key", 10))
    assert runs.heard(1, ("ran",)) == []  # the answer to the stop is still to come
    assert runs.heard(1, ("stopped", 4)) == [(0, ("end",)), (1, ("end",))]
    assert runs.over and runs.runs[1].files == [4, 5, 6, 7]


def test_nothing_is_asked_when_handing_over_would_not_help():
    runs = Runs.split([10] * 4, 2)
    runs.start()
    runs.heard(1, ("source", "key", 10))  # worker 1 is on its last file
    assert _ran(runs, 0) == []
    assert _ran(runs, 1) == [(0, ("end",)), (1, ("end",))]


class _Inbox:
    """What the main process told a worker and it has not read yet."""

    def __init__(self) -> None:
        self.queue: list[tuple] = []
        self.closed = False

    def read(self, *, wait: bool = False) -> list[tuple]:
        assert self.queue or not wait, "the worker would wait forever"
        messages, self.queue = self.queue, []
        return messages


def test_a_worker_answers_a_stop_at_once_and_never_before_a_started_file():
    inbox, said = _Inbox(), []
    orders = Orders(inbox, said.append, [])  # type: ignore[arg-type]
    inbox.queue.append(("run", ["a", "b", "c", "d"]))
    assert orders.next_run()
    assert [orders.next_file(), orders.next_file()] == ["a", "b"]
    inbox.queue.append(("stop", 1))  # asked to stop before b, which it started
    orders.heed()  # as it reads b
    assert said == [("stopped", 2)]
    assert orders.next_file() is None
    inbox.queue.append(("run", ["x", "y"]))
    inbox.queue.append(("stop", 1))  # arrives with the run: nothing of it started
    assert orders.next_run()
    assert said[-1] == ("stopped", 1)
    assert orders.next_file() == "x" and orders.next_file() is None
    inbox.queue.append(("stop", 0))  # asked after it finished the run
    inbox.queue.append(("end",))
    assert not orders.next_run()
    assert said[-1] == ("stopped", 1)


def test_a_worker_without_orders_prepares_its_one_run():
    orders = Orders(None, [].append, ["a", "b"])  # type: ignore[arg-type]
    assert orders.next_run()
    assert [orders.next_file(), orders.next_file(), orders.next_file()] == ["a", "b", None]
    assert not orders.next_run()


@pytest.mark.parametrize("seed", range(200))
def test_every_file_is_prepared_once_in_consecutive_runs_however_messages_cross(seed):
    """Workers and the main process take turns at random, each side's messages in order:
    every file is prepared by exactly one worker, each worker's files come as runs of
    consecutive files, and everyone is told to end once all is prepared."""
    rng = random.Random(seed)
    count = rng.randint(2, 4)
    sizes = [rng.randint(1, 20) for _ in range(rng.randint(1, 30))]
    runs = Runs.split(sizes, count)
    workers = len(runs.runs)
    inboxes = [_Inbox() for _ in range(workers)]
    outboxes: list[list[tuple]] = [[] for _ in range(workers)]
    orders = [Orders(inboxes[w], outboxes[w].append, []) for w in range(workers)]  # type: ignore[arg-type]
    prepared: list[list[list[int]]] = [[] for _ in range(workers)]  # each worker's runs
    current: list[int | None] = [None] * workers
    running = [False] * workers
    ended = [False] * workers

    def tell(told: list) -> None:
        for worker, order in told:
            inboxes[worker].queue.append(order)

    tell(runs.start())
    for _ in range(100_000):
        if all(ended) and not any(outboxes):
            break
        side = rng.randrange(workers + 1)
        if side == workers:  # the main process reads one worker's next message
            waiting = [w for w in range(workers) if outboxes[w]]
            if waiting:
                worker = rng.choice(waiting)
                tell(runs.heard(worker, outboxes[worker].pop(0)))
            continue
        worker = side
        if ended[worker]:
            continue
        if not running[worker]:  # waiting in `next_run` for a message
            orders[worker].heed()
            if orders[worker].new_run or orders[worker].ended:
                running[worker] = orders[worker].next_run()
                ended[worker] = not running[worker]
                prepared[worker].append([])
        elif current[worker] is not None:
            if rng.random() < 0.5:
                orders[worker].heed()  # reading the file
            else:
                prepared[worker][-1].append(current[worker])
                outboxes[worker].append(("source", current[worker], sizes[current[worker]]))
                current[worker] = None
        else:
            spot = orders[worker].next_file()
            if spot is None:
                outboxes[worker].append(("ran",))
                running[worker] = False
            else:
                current[worker] = spot
    assert all(ended) and runs.over
    done = sorted(spot for mine in prepared for run in mine for spot in run)
    assert done == list(range(len(sizes)))
    for run in (run for mine in prepared for run in mine if run):
        assert run == list(range(run[0], run[0] + len(run)))


def _hand_over_for_sure(monkeypatch: pytest.MonkeyPatch) -> tuple[list, list]:
    """Builds of 6 sources (PARALLEL_BYTES 0) in 2 workers, worker 0 given the first source
    and worker 1 the others only once worker 0 finished: worker 1 is asked to stop before
    it started any. What the main process heard ("source", "stopped": (worker, message)),
    and the stop it asked."""
    monkeypatch.setattr("paperterm.index.search.build_prepare.PARALLEL_BYTES", 0)
    monkeypatch.setattr(build_workers, "worker_count", lambda files: 2)
    monkeypatch.setattr(build_runs, "split_runs", lambda sizes, count: [range(1), range(1, 6)])
    real_start, real_heard = Runs.start, Runs.heard
    held: list = []
    heard: list[tuple[int, tuple]] = []
    asked: list[tuple[int, tuple]] = []

    def start(self: Runs) -> list:
        orders = real_start(self)
        held.extend(orders[1:])
        return orders[:1]

    def hearing(self: Runs, worker: int, message: tuple) -> list:
        if message[0] in ("source", "stopped"):
            heard.append((worker, message[:2]))
        orders = real_heard(self, worker, message)
        if message[0] == "ran" and held:
            asked.extend(orders)
            orders[:0] = held
            held.clear()
        return orders

    monkeypatch.setattr(Runs, "start", start)
    monkeypatch.setattr(Runs, "heard", hearing)
    return heard, asked


def test_a_build_whose_runs_are_handed_over_is_the_one_from_nothing(tmp_path, monkeypatch):
    """The end of worker 1's run is handed to worker 0; the index is the one a build from
    nothing makes, every source in one part, each part of consecutive sources of one
    worker."""
    corpus = tmp_path / "corpus"
    write_generated_corpus(corpus, 600, per_file=100)
    heard, asked = _hand_over_for_sure(monkeypatch)
    opened = built(tmp_path / "data", [corpus])
    keys = [entry.key for entry in opened.meta.sources]
    [(busy, (_, stop))] = asked  # worker 1 was asked to keep the first `stop` files...
    assert busy == 1 and 1 <= stop < 5
    assert (1, ("stopped", stop)) in heard  # ...and had started none of them
    by_worker = {key: worker for worker, (kind, key) in heard if kind == "source"}
    assert sorted(by_worker) == sorted(keys)
    assert [by_worker[key] for key in keys[: stop + 2]] == [0, *[1] * stop, 0]
    parts = [part.sources for part in opened.meta.parts]
    assert sorted(key for part in parts for key in part) == sorted(keys)
    for part in parts:
        spots = [keys.index(key) for key in part]
        assert spots == list(range(spots[0], spots[0] + len(spots)))
        assert len({by_worker[key] for key in part}) == 1
    fresh = from_nothing(tmp_path, [corpus])
    assert [p.id for p in opened.papers] == [p.id for p in fresh.papers]
    assert list(opened.papers) == list(fresh.papers)
    queries = QUERIES + _words(fresh)
    assert answers(opened, queries) == answers(fresh, queries)


def test_a_build_cancelled_during_a_hand_over_stops_its_workers(tmp_path, monkeypatch):
    corpus = tmp_path / "corpus"
    write_generated_corpus(corpus, 600, per_file=100)
    _, asked = _hand_over_for_sure(monkeypatch)
    processes = []
    real_init = build_workers._Worker.__init__

    def init(self, task):
        real_init(self, task)
        processes.append(self.process)

    monkeypatch.setattr(build_workers._Worker, "__init__", init)
    session = Session.create(tmp_path / "data", [corpus], Config())
    with pytest.raises(BuildCancelled):
        session.build(cancelled=lambda: bool(asked))
    assert len(processes) == 2 and all(p.poll() is not None for p in processes)
    assert not list((tmp_path / "data").rglob("tmp-*"))
    assert len(built(tmp_path / "data", [corpus]).papers) == 600


class _Writer:
    def __init__(self) -> None:
        self.papers: list = []
        self.postings = 0

    def __len__(self) -> int:
        return len(self.papers)

    def add(self, paper, words) -> None:
        self.papers.append(paper)

    def finish(self) -> list:
        return self.papers


class _Engine:
    def part_writer(self, folder):
        return _Writer()


def test_only_a_workers_first_part_closes_early():
    """A run handed over later is not a worker's first: its part closes at full size."""
    parts = PartFeed(_Engine(), Path("."), (2, 1000, 64))
    parts.add("a", [])
    assert parts.end_source("a", "a") is None
    parts.add("b", [])
    assert parts.end_source("b", "b")[1] == ["a", "b"]  # the first part: 2 papers
    parts = PartFeed(_Engine(), Path("."), (2, 1000, 64))
    parts.add("a", [])
    assert parts.end_source("a", "a") is None
    assert parts.end()[1] == ["a"]  # the run ended
    for key in "bcd":
        parts.add(key, [])
        assert parts.end_source(key, key) is None
    assert parts.end()[1] == ["b", "c", "d"]


def test_the_tail_runs_while_the_workers_write_their_last_parts(tmp_path, monkeypatch):
    """With workers, the merge and the papers, rows and vocabulary files are written once
    every source is read, before the workers' last parts come; the index is the one a build
    in one process makes."""
    corpus = tmp_path / "corpus"
    write_generated_corpus(corpus, 600, per_file=100)
    single = built(tmp_path / "single", [corpus])
    monkeypatch.setattr("paperterm.index.search.build_prepare.PARALLEL_BYTES", 0)
    events: list[str] = []
    real_list, real_check = build_module.Builder._list, build_module.Builder._check_part

    def listing(self, sources, fresh):
        events.append("list")
        assert all(source.count for source in sources)  # every source read
        return real_list(self, sources, fresh)

    def checking(self, part):
        events.append("part")
        return real_check(self, part)

    monkeypatch.setattr(build_module.Builder, "_list", listing)
    monkeypatch.setattr(build_module.Builder, "_check_part", checking)
    opened = built(tmp_path / "parallel", [corpus])
    assert events.count("list") == 1 and events[-1] == "part"  # the last part came after
    assert list(opened.papers) == list(single.papers)
    assert opened.vocabulary().counts == single.vocabulary().counts
    queries = QUERIES + _words(single)
    assert answers(opened, queries) == answers(single, queries)


def test_a_worker_that_said_it_is_done_is_done_before_it_exits():
    import os
    import subprocess

    read_end, write_end = os.pipe()
    worker = object.__new__(build_workers._Worker)
    worker.process = subprocess.Popen(["sleep", "60"])  # still running
    worker.stdout = os.fdopen(read_end, "rb")
    worker.buffer, worker.done, worker.said_done = bytearray(), False, False
    try:
        os.write(write_end, build_workers._frame(("ran",)) + build_workers._frame(("done",)))
        assert worker.read() == [("ran",)]
        assert worker.done and worker.said_done
    finally:
        worker.process.kill()
        worker.process.wait()
        worker.stdout.close()
        os.close(write_end)


def test_a_part_closes_at_its_most_sources():
    parts = PartFeed(_Engine(), Path("."), (0, 1000, 2))
    closed = []
    for key in "abcde":
        parts.add(key, [])
        written = parts.end_source(key, key)
        if written is not None:
            closed.append(written[1])
    assert closed == [["a", "b"], ["c", "d"]]
    assert parts.end()[1] == ["e"]
