"""The one safe writer for plans, PDFs and reports, and the one bounded reader (re-exported from catalog.files).

Writing (:func:`write_file`, :func:`write_files`):

- atomic: a temporary file beside the target, flushed and fsync'd, then renamed over it; the target is always
  the old or the new content, and the rename is fsync'd too;
- through symlinks: a symlinked plan stays a symlink and its real file gets the new content;
- a file with several hard links is rewritten in place (every name sees the new content), with the old
  content put back if the write fails;
- mode and owner kept (root saving a user's file leaves it the user's); a new file follows the umask;
- refused: device files, FIFOs, sockets and directories (``-`` writes to standard output where the caller
  allows a stream), the input file of the same command, and a read-only file (no write bit: even root is
  asked to change the mode first);
- ``backup=True`` keeps one ``NAME.bak`` of the previous content (plans; :func:`backup_path`: a 252-255-byte
  name is shortened to take the suffix);
- ``expect`` (a :class:`FileStamp` taken when the file was opened) raises :class:`FileChangedError` when the
  file changed on disk since, so the GUI can ask before overwriting another window's or program's edits;
- temporary files are removed on every path; those a killed process left behind (named with its pid) are
  removed by the next write to the same file;
- :func:`write_files` is all-or-nothing: every temporary file is written before the first rename, and a
  failed rename puts back what was renamed before it; :func:`write_tree` adds the folders, and removes the
  ones it made when the write fails;
- every error is a :class:`WriteError` (an OSError) that names the target, never the temporary file.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import logging
import os
import re
import secrets
import stat
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from catalog.files import DEFAULT_LIMIT, InputFileError, kind_of, read_bounded, read_bounded_text

__all__ = [
    "DEFAULT_LIMIT",
    "STDOUT",
    "FileChangedError",
    "FileStamp",
    "InputFileError",
    "WriteError",
    "read_bounded",
    "read_bounded_text",
    "stamp_of",
    "write_file",
    "write_files",
]

STDOUT = "-"
"""The target name that means standard output (where the caller passes ``allow_stdout=True``)."""


class WriteError(OSError):
    """A file that could not be (or may not be) written; ``filename`` is the target the person named."""


class FileChangedError(WriteError):
    """The file changed on disk since it was opened (another window or program saved it)."""


@dataclass(frozen=True)
class FileStamp:
    """What a file was when it was read: enough to tell whether someone else has written it since."""

    size: int
    mtime_ns: int
    sha256: str


def _digest(path: str | Path, size: int) -> str:
    """SHA-256 of the regular file ``path`` of ``size`` bytes; '' for one larger than any file the app reads
    (DEFAULT_LIMIT), which is not read: a stamp of a 10 GB file read all of it into memory first."""
    if size > DEFAULT_LIMIT:
        return ""
    return hashlib.sha256(read_bounded(path, DEFAULT_LIMIT)).hexdigest()


def stamp_of(path: str | Path, data: bytes | None = None) -> FileStamp | None:
    """The stamp of ``path`` now (``data``: its content, when the caller has just read it); None if absent.
    InputFileError (an OSError) for a FIFO, device or directory, which is never read."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    digest = _digest(path, st.st_size) if data is None else hashlib.sha256(data).hexdigest()
    return FileStamp(st.st_size, st.st_mtime_ns, digest)


def _changed_since(real: str, expect: FileStamp) -> bool:
    try:
        st = os.stat(real)
    except FileNotFoundError:
        return True  # deleted or renamed away since it was opened
    if st.st_size == expect.size and st.st_mtime_ns == expect.mtime_ns:
        return False
    if st.st_size != expect.size:
        return True
    # same size, other time (touched, or rewritten with the same length): the content decides
    try:
        digest = _digest(real, st.st_size)
    except InputFileError:
        return True  # replaced by a FIFO or device, or grew past the limit as it was read
    return not digest or digest != expect.sha256  # too large to read: changed, to be safe


_UMASK_LOCK = threading.Lock()


def _umask() -> int:
    """The process umask without changing it where /proc says it (Linux ≥ 4.7), else set and restore."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    with _UMASK_LOCK:
        old = os.umask(0o022)
        os.umask(old)
        return old


def _fail(target: str | Path, reason: str, code: int = errno.EINVAL, cls: type[WriteError] = WriteError) -> WriteError:
    return cls(code, reason, str(target))


def _from_oserror(target: str | Path, exc: OSError) -> WriteError:
    if isinstance(exc, WriteError):
        return exc
    return WriteError(exc.errno or errno.EIO, exc.strerror or str(exc), str(target))


def _same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


_TMP_NAME = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.[0-9a-f]{8}\.tmp$")


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


_NAME_MAX = 255
"""Bytes of one file name on every file system the program writes to (ext4, XFS, btrfs, APFS, NTFS: 255)."""
_TMP_EXTRA = len(".") + len(f".{2**22}.") + 8 + len(".tmp")  # the pid is at most 7 digits on Linux


def _head(raw: bytes, size: int) -> bytes:
    """The first ``size`` bytes of a name, never half a UTF-8 character."""
    head = raw[:size]
    if len(head) == len(raw):
        return head
    while head and head[-1] & 0x80:  # back off to the last ASCII byte or a character's first byte, and drop that
        lead = head[-1] & 0xC0 == 0xC0  # one too
        head = head[:-1]
        if lead:
            break
    return head


def _temp_stem(name: str) -> str:
    """``name`` as it appears in its temporary files' names: itself where the whole temporary name fits in
    255 bytes, else its first bytes and a hash of all of it (a 241-255-byte plan name could not be written)."""
    raw = os.fsencode(name)
    if len(raw) + _TMP_EXTRA <= _NAME_MAX:
        return name
    digest = hashlib.sha256(raw).hexdigest()[:12]
    return os.fsdecode(_head(raw, _NAME_MAX - _TMP_EXTRA - len(digest) - 1)) + "~" + digest


def backup_path(path: str | Path) -> str:
    """Where ``backup=True`` keeps the previous content of ``path``: NAME.bak, or for a name too long to take
    four more bytes (252-255 bytes), the name shortened at a character boundary so that its ``.bak`` fits."""
    head, name = os.path.split(os.fspath(path))
    raw = os.fsencode(name)
    if len(raw) + len(".bak") <= _NAME_MAX:
        return os.fspath(path) + ".bak"
    return os.path.join(head, os.fsdecode(_head(raw, _NAME_MAX - len(".bak"))) + ".bak")


def remove_stale_temps(directory: str | Path, name: str) -> int:
    """Remove the temporary files of writes to ``name`` in ``directory`` whose process is gone (killed during
    a write); returns how many. Files of live processes are left alone."""
    name = _temp_stem(name)
    removed = 0
    try:
        entries = os.listdir(directory)
    except OSError:
        return 0
    for entry in entries:
        m = _TMP_NAME.match(entry)
        if m and m.group("name") == name and not _pid_alive(int(m.group("pid"))):
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(directory, entry))
                removed += 1
    return removed


def _temp_path(real: str) -> str:
    directory, name = os.path.split(real)
    return os.path.join(directory, f".{_temp_stem(name)}.{os.getpid()}.{secrets.token_hex(4)}.tmp")


@dataclass
class _Plan:
    """One target resolved and checked, ready to be written."""

    target: str
    real: str
    data: bytes | bytearray
    old: os.stat_result | None
    backup: bool
    tmp: str | None = None
    saved_old: str | None = None  # a hard link (or copy) of the old content, for undo and in-place writes
    done: bool = False


def _resolve(target: str | Path, data: bytes | bytearray, inputs: Sequence[str | Path], backup: bool,
             expect: FileStamp | None) -> _Plan:
    target = str(target)
    if not target:
        raise _fail(target, "no file name")
    try:
        real = os.path.realpath(target)
        try:
            st: os.stat_result | None = os.stat(target)  # follows symlinks; ELOOP for a looping one
        except FileNotFoundError:
            st = None  # a new file (or a dangling symlink: its target is created)
    except OSError as exc:
        raise _from_oserror(target, exc) from None
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise _fail(target, "is a directory", errno.EISDIR)
        if not stat.S_ISREG(st.st_mode):
            raise _fail(target, f"is {kind_of(st.st_mode)}, not a file: refusing to replace it (use '-' for "
                                "standard output where a command offers it)")
        if not st.st_mode & 0o222:
            raise _fail(target, "is read-only (no write permission bit): change its mode to overwrite it",
                        errno.EACCES)
        for source in inputs:
            try:
                if _same_file(st, os.stat(source)):
                    raise _fail(target, f"is the input file {source}: refusing to overwrite it")
            except FileNotFoundError:
                continue
            except WriteError:
                raise
            except OSError:
                continue
    folder = os.path.dirname(real) or "."
    if not os.path.isdir(folder):
        raise _fail(target, f"the folder {folder} does not exist", errno.ENOENT)
    if expect is not None and _changed_since(real, expect):
        raise _fail(target, "changed on disk since it was opened", errno.EEXIST, FileChangedError)
    return _Plan(target, real, data, st, backup)


def _write_fd(fd: int, data: bytes | bytearray) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]
    os.fsync(fd)


def _new_mode() -> int:
    return 0o666 & ~_umask()


def _prepare(p: _Plan) -> None:
    """Write the temporary file (mode and owner as the target's, or the umask's for a new file)."""
    remove_stale_temps(os.path.dirname(p.real) or ".", os.path.basename(p.real))
    p.tmp = _temp_path(p.real)
    fd = os.open(p.tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        _write_fd(fd, p.data)
        if p.old is not None:
            os.fchmod(fd, stat.S_IMODE(p.old.st_mode))
            if hasattr(os, "fchown") and (p.old.st_uid, p.old.st_gid) != (os.geteuid(), os.getegid()):
                with contextlib.suppress(PermissionError):  # only root may give a file away
                    os.fchown(fd, p.old.st_uid, p.old.st_gid)
        elif hasattr(os, "fchmod"):
            os.fchmod(fd, _new_mode())
    finally:
        os.close(fd)


def _fsync_dir(path: str) -> None:
    with contextlib.suppress(OSError):
        dfd = os.open(os.path.dirname(path) or ".", os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


def _keep_old(p: _Plan) -> None:
    """Keep the old content under a temporary name (a hard link where possible), to undo or back up."""
    if p.old is None:
        return
    p.saved_old = _temp_path(p.real)
    try:
        if p.old.st_nlink > 1:
            raise OSError(errno.EMLINK, "hard-linked: copy")
        os.link(p.real, p.saved_old)
    except OSError:
        data = read_bounded(p.real, max(DEFAULT_LIMIT, p.old.st_size))
        fd = os.open(p.saved_old, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            _write_fd(fd, data)
            os.fchmod(fd, stat.S_IMODE(p.old.st_mode))
        finally:
            os.close(fd)


def _commit(p: _Plan) -> None:
    assert p.tmp is not None
    if p.old is not None and p.old.st_nlink > 1:
        # every name of a hard-linked file must see the new content: rewrite it in place (the old content is
        # in saved_old, put back by _undo if this fails half-way)
        fd = os.open(p.real, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0))
        try:
            os.ftruncate(fd, 0)
            _write_fd(fd, p.data)
        finally:
            os.close(fd)
        os.unlink(p.tmp)
    else:
        os.replace(p.tmp, p.real)
    p.tmp = None
    p.done = True
    _fsync_dir(p.real)


def _undo(p: _Plan) -> None:
    """Put the old content back after a later file of the same set failed."""
    with contextlib.suppress(OSError):
        if p.old is None:
            os.unlink(p.real)
        elif p.saved_old is not None:
            if p.old.st_nlink > 1:
                data = read_bounded(p.saved_old, max(DEFAULT_LIMIT, p.old.st_size))
                fd = os.open(p.real, os.O_WRONLY)
                try:
                    os.ftruncate(fd, 0)
                    _write_fd(fd, data)
                finally:
                    os.close(fd)
            else:
                os.replace(p.saved_old, p.real)
                p.saved_old = None


def _finish(p: _Plan) -> None:
    """After every file of the set is written: the old content becomes NAME.bak, or goes."""
    if p.saved_old is None:
        return
    if p.backup:
        try:
            os.replace(p.saved_old, backup_path(p.real))
            p.saved_old = None
        except OSError as exc:  # the new content is in place; say that the previous one could not be kept
            logging.getLogger(__name__).warning("%s: the previous content was not kept as %s: %s", p.real,
                                                backup_path(p.real), exc.strerror or exc)
    with contextlib.suppress(OSError):
        if p.saved_old is not None:
            os.unlink(p.saved_old)
    p.saved_old = None


def _cleanup(p: _Plan) -> None:
    for name in (p.tmp, p.saved_old):
        if name is not None:
            with contextlib.suppress(OSError):
                os.unlink(name)
    p.tmp = p.saved_old = None


def write_tree(directory: str | Path, files: Sequence[tuple[str, bytes | bytearray]], *,
               inputs: Sequence[str | Path] = ()) -> None:
    """Write ``files`` (paths relative to ``directory``) all or none, with the folders they need: folders made
    here are removed again when the write fails (a full disk left a handover's empty folders behind, and the
    next run, with the space freed, was refused as 'not empty')."""
    root = Path(directory)
    made: list[Path] = []
    try:
        for rel, _ in files:
            missing = []
            parent = (root / rel).parent
            while not parent.exists():
                missing.append(parent)
                parent = parent.parent
            for folder in reversed(missing):
                folder.mkdir()
                made.append(folder)
        write_files([(root / rel, data) for rel, data in files], inputs=inputs)
    except BaseException:
        for folder in reversed(made):  # innermost first; one that holds something else stays
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise


def write_files(items: Sequence[tuple[str | Path, bytes | bytearray]], *, inputs: Sequence[str | Path] = (),
                backup: bool = False, expect: FileStamp | None = None, allow_stdout: bool = False,
                stdout: BinaryIO | None = None) -> None:
    """Write every ``(target, data)`` or none of them (see the module docstring). ``inputs``: files the
    command read, never overwritten. ``expect`` applies to a single target."""
    plans: list[_Plan] = []
    streams: list[bytes | bytearray] = []
    for target, data in items:
        if str(target) == STDOUT:
            if not allow_stdout:
                raise _fail(target, "standard output ('-') is not offered for this file")
            streams.append(data)
            continue
        plans.append(_resolve(target, data, inputs, backup, expect if len(items) == 1 else None))
    reals = [os.path.normcase(p.real) for p in plans]
    if len(set(reals)) != len(reals):
        raise _fail(plans[0].target, "the same file is named twice in one export")
    if len(streams) > 1:
        raise _fail(STDOUT, "only one file can go to standard output")
    current: _Plan | None = None
    try:
        for p in plans:
            current = p
            _prepare(p)
        for p in plans:
            current = p
            _keep_old(p)
        for p in plans:
            current = p
            _commit(p)
    except BaseException as exc:
        for p in plans:
            if p.done:
                _undo(p)
            _cleanup(p)
        if isinstance(exc, OSError) and current is not None:
            raise _from_oserror(current.target, exc) from None
        raise
    for p in plans:
        _finish(p)
    for data in streams:
        out = stdout or sys.stdout.buffer
        out.write(data)
        out.flush()


def write_file(target: str | Path, data: bytes | bytearray, *, inputs: Sequence[str | Path] = (), backup: bool = False,
               expect: FileStamp | None = None, allow_stdout: bool = False, stdout: BinaryIO | None = None) -> None:
    """Write one file safely (see the module docstring)."""
    write_files([(target, data)], inputs=inputs, backup=backup, expect=expect, allow_stdout=allow_stdout,
                stdout=stdout)
