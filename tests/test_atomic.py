"""The one inter-process lock (index builds and bookmark saves both take it) and JSON writes."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from paperterm.index.atomic import FileLock, LockTimeoutError, write_json


def test_a_held_lock_cannot_be_taken_until_it_is_released(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "x.lock"
    holder = FileLock(path)
    assert holder.try_acquire()
    other = FileLock(path)  # its own descriptor: to flock, another holder, as a process is
    assert not other.try_acquire()
    holder.release()
    assert other.try_acquire()
    other.release()


def test_waiting_for_a_lock_times_out_or_waits_as_long_as_it_takes(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    with FileLock(path):
        with pytest.raises(LockTimeoutError, match=r"0\.05 s"):
            FileLock(path, timeout=0.05).acquire()
        waiting = FileLock(path, timeout=None)
        taken = threading.Event()
        thread = threading.Thread(target=lambda: (waiting.acquire(), taken.set()))
        thread.start()
    thread.join(timeout=30)
    assert taken.is_set()
    assert not FileLock(path).try_acquire()  # the waiter has it now
    waiting.release()


def test_a_lock_file_left_by_a_dead_process_does_not_block(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    path.write_text("12345 from a process long gone\n")
    lock = FileLock(path, timeout=0)
    assert lock.try_acquire()
    lock.release()


def test_write_json_escapes_what_utf8_cannot_hold(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    write_json(path, {"name": "café"})
    assert "café" in path.read_text("utf-8")
    write_json(path, {"name": "café \ud800"})  # a lone surrogate has no UTF-8 form
    assert json.loads(path.read_text("utf-8")) == {"name": "café \ud800"}
