"""Bounded reading of input files: at most the limit plus one byte, regular files only, never a hang on a FIFO.

The one reader behind every file the program reads (plans, catalog overlays, policies, reports, merge inputs,
recovery copies). It lives in the lowest layer so the catalog loader can use it; the core re-exports it from
``procurement.safe_io``. ``stat`` says 0 bytes for ``/dev/zero``, a FIFO or ``<(yes)``, so a size check before
``read()`` bounds nothing: reading stops at ``limit + 1`` bytes whatever the file claims, and anything that
is not a regular file is refused with a message saying what it is (a FIFO is opened non-blocking, so a FIFO
with no writer cannot hang the program).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

DEFAULT_LIMIT = 20 * 1024 * 1024
"""The size limit of a plan, catalog file, policy or report (20 MiB)."""

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class InputFileError(OSError):
    """A file that is not read: not a regular file, or larger than the limit. ``strerror`` is the reason in
    words a person can act on; ``filename`` the path as given."""


def kind_of(mode: int) -> str:
    """'a FIFO (named pipe)', 'a character device'… for a ``st_mode`` that is not a regular file."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def size_text(n: int) -> str:
    return f"{n // 1_000_000} MB" if n >= 1_000_000 else f"{n} bytes"


def read_bounded(path: str | Path, limit: int = DEFAULT_LIMIT) -> bytes:
    """The bytes of the regular file ``path``, or InputFileError when it is not a regular file or holds more
    than ``limit`` bytes (at most ``limit + 1`` bytes are ever read). Other OSErrors (missing, no permission,
    a symlink loop) pass through with their own errno."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise InputFileError(errno.EINVAL, f"{kind_of(st.st_mode)}, not a regular file: only files are read",
                                 str(path))
        if st.st_size > limit:
            raise InputFileError(errno.EFBIG, f"file is too large ({size_text(st.st_size)}; at most "
                                              f"{size_text(limit)})", str(path))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1024 * 1024))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        if len(data) > limit:  # the file grew while it was read
            raise InputFileError(errno.EFBIG, f"file is too large (more than {size_text(limit)})", str(path))
        return data
    finally:
        os.close(fd)


def read_bounded_text(path: str | Path, limit: int = DEFAULT_LIMIT) -> str:
    """:func:`read_bounded` decoded as UTF-8 (UnicodeDecodeError passes through for the caller to locate)."""
    return read_bounded(path, limit).decode("utf-8")
