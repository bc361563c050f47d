"""An exclusive lock on a plan file while it is read, changed and written back (two signers at once)."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path

LOCK_WAIT_S = 120.0
"""How long `sign` waits for another `sign` of the same plan to finish before giving up."""


@contextlib.contextmanager
def plan_lock(path: Path, wait_s: float = LOCK_WAIT_S) -> Iterator[bool]:
    """Hold an exclusive lock on the plan file while it is read, signed and written, so that two signers at
    once never lose one (the second reads what the first wrote). The lock is on the file itself (no stray
    lock file); the safe writer replaces the file by a new one, so a waiter that got the lock on the replaced
    one tries again on the new. Yields False when it could not be had in ``wait_s`` seconds, True otherwise
    (also where the platform has no flock: the save's changed-since check still refuses a lost update)."""
    try:
        import fcntl
    except ImportError:  # Windows: no flock; save_plan(expect=…) still catches a concurrent write
        yield True
        return
    deadline = time.monotonic() + wait_s
    while True:
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except OSError:
            yield True  # no readable file: load_plan says why
            return
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        yield False
                        return
                    time.sleep(0.02)  # another sign holds it for the few milliseconds of a write
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(path))
            except OSError:
                same = False
            if same:
                yield True
                return
        finally:
            os.close(fd)  # closing releases the lock
