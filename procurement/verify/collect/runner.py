"""Runs an external program without a shell, with a timeout that kills its whole process group."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Protocol

from procurement.verify.collect.raw import stop_readers


class CancelFlag(Protocol):
    """Anything with is_set() (threading.Event, a GUI's cancel flag)."""

    def is_set(self) -> bool: ...


@dataclass(frozen=True)
class CommandResult:
    argv: tuple[str, ...]
    returncode: int | None = None
    stdout: str = ""
    stderr: str = ""
    missing: bool = False
    """The program was not found (or is not executable)."""
    timed_out: bool = False
    cancelled: bool = False
    error: str | None = None
    """Why it could not be started, when not simply missing."""
    dropped_bytes: int = 0
    """Of a log read from its end (raw.TAIL_PROGRAMS): how much of its start was left out."""
    left_running: bool = False
    """The program ended, but a process it left behind (a wrapper's background child) kept its output open
    past PIPE_GRACE_S: that process's group was killed and what had been written until then is kept, whole
    or not."""

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not (self.missing or self.timed_out or self.cancelled or self.error)


Runner = Callable[[Sequence[str], float], CommandResult]
"""(argv, timeout_s) -> CommandResult; replaced by a fake in tests."""

_POLL_S = 0.05
MAX_OUTPUT_BYTES = 16 * 1024 * 1024
"""At most this much of a program's standard output (and as much of its error output) is kept: an
nvidia-smi that wrote endlessly took 2.0 GB in 5 s. The capture of an 8-GPU H100 node is ~0.1 MB."""
PIPE_GRACE_S = 1.0
"""How long a program's output may stay open after it ended (or was killed) before a process it left behind
is taken to hold it (a wrapper script's `sleep 1000 &`); that process's group is then killed, and as long
again is waited for the output's end. A process that left the group is left running, and its pipes with it."""


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    killpg = getattr(os, "killpg", None)  # POSIX only: on Windows the child alone is ended
    try:
        if killpg is None:
            raise OSError("no process groups on this platform")
        killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, OSError):
        try:
            proc.kill()
        except OSError:
            pass


def run_command(
    argv: Sequence[str],
    timeout: float,
    cancel: CancelFlag | None = None,
    env: Mapping[str, str] | None = None,
) -> CommandResult:
    """Run ``argv`` (argv[0] looked up on PATH unless it has a slash); never raises for a failed program.

    The child gets its own session so that on timeout or cancel the whole group (a wrapper script and what
    it started) is killed, not only the first process.
    """
    args = tuple(str(a) for a in argv)
    found = _executable(args)
    if isinstance(found, CommandResult):
        return found
    exe = found
    try:
        proc = subprocess.Popen(  # fixed argv, no shell
            (exe, *args[1:]),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            env=dict(env) if env is not None else None,
        )
    except OSError as exc:
        return CommandResult(args, error=f"{exe}: {exc.strerror or exc}")
    deadline = time.monotonic() + max(0.0, timeout)
    over = threading.Event()
    tail = os.path.basename(args[0]) in TAIL_PROGRAMS
    buffers = (bytearray(), bytearray())
    dropped = [0, 0]
    ended = threading.Event()
    readers = _start_readers(proc, buffers, dropped, tail, over, ended)
    timed_out, cancelled = _wait(proc, deadline, cancel, over)
    left_running = stop_readers(proc, readers, ended, PIPE_GRACE_S)
    if tail:
        _keep_tails(buffers, dropped)
    return CommandResult(
        args,
        returncode=proc.returncode,
        stdout=bytes(buffers[0]).decode("utf-8", errors="replace"),
        stderr=bytes(buffers[1]).decode("utf-8", errors="replace"),
        timed_out=timed_out,
        cancelled=cancelled,
        error=(f"{exe}: output larger than {MAX_OUTPUT_BYTES // (1024 * 1024)} MiB; stopped"
               if over.is_set() else None),
        dropped_bytes=sum(dropped),
        left_running=left_running,
    )


def _executable(args: tuple[str, ...]) -> str | CommandResult:
    """The program to start: argv[0] as given when it has a slash, else looked up on PATH; or the result
    of a program that is missing or not executable."""
    if not args:
        return CommandResult(args, missing=True)
    exe = args[0] if os.sep in args[0] else shutil.which(args[0])
    if exe is None or not os.path.isfile(exe):
        return CommandResult(args, missing=True)
    if not os.access(exe, os.X_OK):
        return CommandResult(args, missing=True, error=f"{exe} is not executable")
    return exe


def _start_readers(
    proc: subprocess.Popen[bytes],
    buffers: tuple[bytearray, bytearray],
    dropped: list[int],
    tail: bool,
    over: threading.Event,
    ended: threading.Event,
) -> list[threading.Thread]:
    """One thread per output stream, reading it as it comes: its head up to MAX_OUTPUT_BYTES (then ``over``
    is set), or of a log its tail; once ``ended`` is set the run has returned and a reader keeps nothing more."""
    readers = [threading.Thread(target=_drain_tail if tail else _drain,
                                args=((stream, buf, MAX_OUTPUT_BYTES, over, ended) if not tail
                                      else (stream, buf, i, dropped, ended)),
                                daemon=True)
               for i, (stream, buf) in enumerate(((proc.stdout, buffers[0]), (proc.stderr, buffers[1])))]
    for reader in readers:
        reader.start()
    return readers


def _wait(
    proc: subprocess.Popen[bytes], deadline: float, cancel: CancelFlag | None, over: threading.Event
) -> tuple[bool, bool]:
    """Wait for the program to end; kill its group when its output is over the cap, on cancel or at the
    deadline. Returns (timed_out, cancelled)."""
    while True:
        try:
            proc.wait(timeout=max(0.0, min(_POLL_S, deadline - time.monotonic())))
            return False, False
        except subprocess.TimeoutExpired:
            timed_out = cancelled = False
            if over.is_set():
                pass
            elif cancel is not None and cancel.is_set():
                cancelled = True
            elif time.monotonic() >= deadline:
                timed_out = True
            else:
                continue
            _kill_group(proc)
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            return timed_out, cancelled


def _closing(stream: IO[bytes]) -> None:
    with contextlib.suppress(OSError):
        stream.close()


def _keep_tails(buffers: tuple[bytearray, bytearray], dropped: list[int]) -> None:
    """Of a log, the last MAX_OUTPUT_BYTES of each stream (_drain_tail trims only in large steps)."""
    for i, buf in enumerate(buffers):
        if len(buf) > MAX_OUTPUT_BYTES:
            dropped[i] += len(buf) - MAX_OUTPUT_BYTES
            del buf[: len(buf) - MAX_OUTPUT_BYTES]


def _drain(stream: IO[bytes] | None, into: bytearray, limit: int, over: threading.Event,
           ended: threading.Event) -> None:
    """Read ``stream`` into ``into`` until it ends, holds ``limit`` bytes (then set ``over``) or the run has
    returned (``ended``); the stream is closed here, by the one thread that reads it."""
    if stream is None:
        return
    read = getattr(stream, "read1", stream.read)
    try:
        _drain_head(read, into, limit, over, ended)
    finally:
        _closing(stream)


def _drain_head(read: Callable[[int], bytes], into: bytearray, limit: int, over: threading.Event,
                ended: threading.Event) -> None:
    while True:
        try:
            chunk = read(64 * 1024)
        except (OSError, ValueError):
            return
        if not chunk or ended.is_set():
            return
        room = limit - len(into)
        into += chunk[:room]
        if len(chunk) > room:
            over.set()
            return


TAIL_PROGRAMS = ("dmesg", "journalctl")
"""Logs, read from their newest end (the same list as procurement.verify.collect.raw.TAIL_PROGRAMS): of these the
last MAX_OUTPUT_BYTES are kept and the program runs to its end or its timeout."""


def _drain_tail(stream: IO[bytes] | None, into: bytearray, which: int, dropped: list[int],
                ended: threading.Event) -> None:
    """Read ``stream`` to its end keeping its last MAX_OUTPUT_BYTES in ``into`` (memory stays bounded), until
    the run has returned (``ended``); the stream is closed here."""
    if stream is None:
        return
    read = getattr(stream, "read1", stream.read)
    try:
        _drain_log(read, into, which, dropped, ended)
    finally:
        _closing(stream)


def _drain_log(read: Callable[[int], bytes], into: bytearray, which: int, dropped: list[int],
               ended: threading.Event) -> None:
    limit = MAX_OUTPUT_BYTES
    while True:
        try:
            chunk = read(64 * 1024)
        except (OSError, ValueError):
            return
        if not chunk or ended.is_set():
            return
        into += chunk
        if len(into) > 2 * limit:  # trimmed in large steps: one copy per `limit` bytes read, not per chunk
            dropped[which] += len(into) - limit
            del into[: len(into) - limit]


def make_runner(cancel: CancelFlag | None = None) -> Runner:
    """A runner bound to a cancel flag (the GUI's cancel button stops a hanging nvidia-smi at once)."""

    def run(argv: Sequence[str], timeout: float) -> CommandResult:
        return run_command(argv, timeout, cancel)

    return run
